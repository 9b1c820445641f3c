package main

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
)

// TestWebSocketGoingAway: shutting ledgerd down ends an open WebSocket
// stream with a close frame 1001.
func TestWebSocketGoingAway(t *testing.T) {
	t.Parallel()
	s := startServer(t, discard(), "-in-memory", "-auth", "none")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.base, "http")+"/v2/updates", &websocket.DialOptions{Subprotocols: []string{"daml.ws.auth"}})
	if err != nil {
		t.Fatal(err)
	}
	req := `{"beginExclusive": 0, "updateFormat": {"includeTopologyEvents": {"includeParticipantAuthorizationEvents": {}}}}`
	if err := conn.Write(ctx, websocket.MessageText, []byte(req)); err != nil {
		t.Fatal(err)
	}
	read := make(chan error, 1)
	go func() {
		for {
			if _, frame, err := conn.Read(ctx); err != nil {
				read <- err
				return
			} else if strings.Contains(string(frame), `"code"`) {
				t.Errorf("error frame %s", frame)
			}
		}
	}()
	time.Sleep(50 * time.Millisecond)
	s.stop()
	if err := <-read; websocket.CloseStatus(err) != websocket.StatusGoingAway {
		t.Fatalf("stream ended with %v, want close status 1001", err)
	}
}

// TestGRPCStreamEndsAtShutdown: shutting ledgerd down ends an open gRPC
// stream that follows the ledger at once with SERVICE_NOT_RUNNING
// (UNAVAILABLE), as Canton's streams end when its index service stops,
// and ledgerd exits without waiting for the stream's client.
func TestGRPCStreamEndsAtShutdown(t *testing.T) {
	t.Parallel()
	var logs lockedBuffer
	s := startServer(t, slog.New(slog.NewTextHandler(&logs, nil)), "-in-memory", "-auth", "none", "-grpc-addr", "127.0.0.1:0")
	m := grpcLogAddr.FindStringSubmatch(logs.String())
	if m == nil {
		t.Fatalf("no gRPC address in the log:\n%s", logs.String())
	}
	conn, err := grpc.NewClient(m[1], grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st, err := ledgerv2.NewUpdateServiceClient(conn).GetUpdates(ctx, &ledgerv2.GetUpdatesRequest{UpdateFormat: &ledgerv2.UpdateFormat{
		IncludeTopologyEvents: &ledgerv2.TopologyFormat{IncludeParticipantAuthorizationEvents: &ledgerv2.ParticipantAuthorizationTopologyFormat{}}}})
	if err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	go func() {
		for {
			if _, err := st.Recv(); err != nil {
				ended <- err
				return
			}
		}
	}()
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	s.stop()
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("ledgerd took %v to stop with a stream open", d)
	}
	select {
	case err := <-ended:
		if st, _ := status.FromError(err); st.Code() != codes.Unavailable || !strings.Contains(st.Message(), "SERVICE_NOT_RUNNING") {
			t.Errorf("the stream ended with %v, want UNAVAILABLE SERVICE_NOT_RUNNING", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stream did not end")
	}
}
