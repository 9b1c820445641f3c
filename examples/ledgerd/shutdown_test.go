package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
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
