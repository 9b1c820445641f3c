package grpcadapter_test

import (
	"bytes"
	"errors"
	"io"
	"log/slog"
	"net"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"

	"github.com/ledgernode/ledgernode/grpcadapter"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// pingDuringWatch opens a raw HTTP/2 connection to addr, starts a health
// Watch stream (which stays open), then sends n pings every interval,
// and reports whether the server answered with a GOAWAY.
func pingDuringWatch(t *testing.T, addr string, n int, interval time.Duration) (goaway bool) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, http2.ClientPreface); err != nil {
		t.Fatal(err)
	}
	fr := http2.NewFramer(conn, conn)
	if err := fr.WriteSettings(); err != nil {
		t.Fatal(err)
	}
	var hb bytes.Buffer
	enc := hpack.NewEncoder(&hb)
	for _, f := range [][2]string{{":method", "POST"}, {":scheme", "http"}, {":path", "/grpc.health.v1.Health/Watch"},
		{":authority", addr}, {"content-type", "application/grpc"}, {"te", "trailers"}} {
		if err := enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]}); err != nil {
			t.Fatal(err)
		}
	}
	if err := fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: hb.Bytes(), EndHeaders: true}); err != nil {
		t.Fatal(err)
	}
	if err := fr.WriteData(1, true, []byte{0, 0, 0, 0, 0}); err != nil { // an empty HealthCheckRequest
		t.Fatal(err)
	}
	got := make(chan bool, 1)
	var writing sync.Mutex // a Framer's writes are not safe for concurrent use
	go func() {
		for {
			f, err := fr.ReadFrame()
			if err != nil {
				got <- false
				return
			}
			switch f := f.(type) {
			case *http2.GoAwayFrame:
				got <- true
				return
			case *http2.SettingsFrame:
				if !f.IsAck() {
					writing.Lock()
					_ = fr.WriteSettingsAck()
					writing.Unlock()
				}
			}
		}
	}()
	for i := range n {
		time.Sleep(interval)
		writing.Lock()
		err := fr.WritePing(false, [8]byte{byte(i)})
		writing.Unlock()
		if err != nil && !errors.Is(err, net.ErrClosed) {
			break
		}
	}
	select {
	case g := <-got:
		return g
	case <-time.After(time.Second):
		return false
	}
}

// TestKeepAlivePolicy: clients may ping every PermitKeepAliveTime during
// a call (Canton allows every 10 s; grpc-go alone, every 5 minutes), and
// a client pinging faster gets a GOAWAY.
func TestKeepAlivePolicy(t *testing.T) {
	t.Parallel()
	node := ledgertest.Open(t, ledger.Options{})
	srv := grpcadapter.New(node, grpcadapter.Options{Logger: slog.New(slog.DiscardHandler), PermitKeepAliveTime: 200 * time.Millisecond}).NewServer()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	if pingDuringWatch(t, lis.Addr().String(), 5, 300*time.Millisecond) {
		t.Error("pings every 300 ms (allowed: 200 ms) got a GOAWAY")
	}
	if !pingDuringWatch(t, lis.Addr().String(), 5, 20*time.Millisecond) {
		t.Error("pings every 20 ms (allowed: 200 ms) got no GOAWAY")
	}
}
