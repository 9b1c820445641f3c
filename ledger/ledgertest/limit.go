package ledgertest

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/ledgernode/ledgernode/httpadapter"
	"github.com/ledgernode/ledgernode/ledger/internal/httplimit"
)

// ServeLimit serves, for benchmarks, the physical limit of HTTP + Badger
// for a Ping create, closed when tb ends: a minimal net/http server (with
// the node's server timeouts) that, for every request (any path), reads
// the body, commits in one operation of the group-committing store the
// keys and values an in-memory node stores for a Ping create (as many, of
// the same sizes, with the node's Badger options) and answers a
// submit-and-wait reply of the node's size. No JSON decoding, Daml,
// checks or deduplication. A node's rate over this server's, measured in
// the same run with the same clients, is how close it comes to the limit
// (examples/ledgerd's BenchmarkHTTPPingCreateVsLimit).
func ServeLimit(tb testing.TB) *httptest.Server {
	tb.Helper()
	s, err := httplimit.Open(httplimit.PingCreate, slog.New(slog.DiscardHandler))
	if err != nil {
		tb.Fatalf("ledgertest: opening the limit's store: %v", err)
	}
	return serveLimit(tb, s, s)
}

// OpenDiskLimit opens, for benchmarks that serve it in a process of their
// own (examples/ledgerd's BenchmarkScaleLimit), the physical limit of
// HTTP + Badger for a Ping create on a durable node: ServeLimit's handler
// over a store in dir with an on-disk node's options, committing per
// request the keys and values an on-disk node stores for a Ping create
// whose initiator is its responder (as BenchmarkScale's creates are).
// As the store grows, Badger's compactions cost it what they cost the
// node. closeStore closes the store, after the handler's last request.
func OpenDiskLimit(dir string, logger *slog.Logger) (h http.Handler, closeStore func() error, err error) {
	s, err := httplimit.OpenDir(httplimit.SelfPingCreateOnDisk, dir, logger)
	if err != nil {
		return nil, nil, err
	}
	return s, s.Close, nil
}

// ServePageLimit serves, for benchmarks, the physical limit of HTTP +
// Badger for an updates page, closed when tb ends: a store of the limit
// holding the writes of creates Ping creates (each commit made from
// body(i)), and a server (with the node's timeouts) that for every
// request reads the body, reads the size updates stored after offset from
// in one read of the store, and answers them as one reply, each update's
// stored bytes copied and repeated to updateBytes bytes (a node's reply
// is larger than its stored updates; 0: as stored). No JSON decoding, no
// filtering, no rendering. A
// node's pages per second over this server's, in the same run with the
// same clients, is how close it comes to the limit (examples/ledgerd's
// BenchmarkHTTPUpdatesPageVsLimit).
func ServePageLimit(tb testing.TB, creates int, body func(i int) []byte, from int64, size, updateBytes int) *httptest.Server {
	tb.Helper()
	s, err := httplimit.Open(httplimit.PingCreate, slog.New(slog.DiscardHandler))
	if err != nil {
		tb.Fatalf("ledgertest: opening the limit's store: %v", err)
	}
	for i := range creates {
		if _, err := s.Commit(body(i)); err != nil {
			s.Close()
			tb.Fatalf("ledgertest: filling the limit's store: %v", err)
		}
	}
	return serveLimit(tb, s, s.Page(from, size, updateBytes))
}

// serveLimit serves h with the node's server timeouts, closing the server
// and then the limit's store s when tb ends.
func serveLimit(tb testing.TB, s *httplimit.Server, h http.Handler) *httptest.Server {
	srv := httptest.NewUnstartedServer(h)
	httpadapter.ServerTimeouts(srv.Config)
	srv.Start()
	tb.Cleanup(func() {
		srv.Close()
		if err := s.Close(); err != nil {
			tb.Errorf("ledgertest: closing the limit's store: %v", err)
		}
	})
	return srv
}
