package httpadapter

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// dialStream opens a stream with the token in Sec-WebSocket-Protocol, as
// Canton's clients do, and sends the request frame.
func dialStream(t *testing.T, url, token, request string) *websocket.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(url, "http"), &websocket.DialOptions{
		Subprotocols: []string{"jwt.token." + token, wsSubprotocol}})
	if err != nil {
		t.Fatalf("dial %s: %v", url, err)
	}
	if got := resp.Header.Get("Sec-WebSocket-Protocol"); got != wsSubprotocol {
		t.Errorf("subprotocol %q, want %q", got, wsSubprotocol)
	}
	if err := conn.Write(ctx, websocket.MessageText, []byte(request)); err != nil {
		t.Fatal(err)
	}
	return conn
}

// frames reads frames until the server closes the stream or n arrived.
func frames(t *testing.T, conn *websocket.Conn, n int) []map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var out []map[string]any
	for n < 0 || len(out) < n {
		_, data, err := conn.Read(ctx)
		if err != nil {
			if websocket.CloseStatus(err) == websocket.StatusNormalClosure {
				return out
			}
			t.Fatalf("read: %v", err)
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("frame %q: %v", data, err)
		}
		out = append(out, m)
	}
	return out
}

func TestWebSocketStreams(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Verifier: fakeVerifier{"admin": {UserID: identity.DefaultParticipantAdmin}}})
	srv := httptest.NewServer(h.h)
	defer srv.Close()
	ctx := context.Background()
	for _, hint := range []string{"a", "b", "c"} {
		if _, err := jsonapi.New(h.node).AllocateParty(ctx, jsonapi.AllocatePartyRequest{PartyIDHint: hint}); err != nil {
			t.Fatal(err)
		}
	}
	// participant_admin needs read rights for any party.
	if _, err := jsonapi.New(h.node).GrantUserRights(ctx, jsonapi.UserRightsRequest{UserID: identity.DefaultParticipantAdmin,
		Rights: []identity.Right{{Kind: identity.RightCanReadAsAnyParty}}}); err != nil {
		t.Fatal(err)
	}
	all := `"updateFormat": {"includeTopologyEvents": {"includeParticipantAuthorizationEvents": {}}}`

	// A bounded stream sends its elements and closes normally.
	conn := dialStream(t, srv.URL+"/v2/updates", "admin", `{"beginExclusive": 0, "endInclusive": 3, `+all+`}`)
	got := frames(t, conn, -1)
	if len(got) != 3 || got[0]["update"].(map[string]any)["TopologyTransaction"] == nil {
		t.Fatalf("bounded stream: %v", got)
	}

	// An open-ended stream follows new commits.
	conn = dialStream(t, srv.URL+"/v2/updates", "admin", `{"beginExclusive": 3, `+all+`}`)
	go func() {
		time.Sleep(30 * time.Millisecond)
		jsonapi.New(h.node).AllocateParty(context.Background(), jsonapi.AllocatePartyRequest{PartyIDHint: "late"})
	}()
	if got := frames(t, conn, 1); len(got) != 1 {
		t.Fatalf("open-ended stream: %v", got)
	}
	conn.Close(websocket.StatusNormalClosure, "")

	// Failures are one JsCantonError frame, then a normal close.
	for name, tc := range map[string]struct{ token, request, code string }{
		"bad token":   {"nope", `{"beginExclusive": 0, ` + all + `}`, "NA"},
		"bad request": {"admin", `{"beginExclusive": "x"}`, "INVALID_ARGUMENT"},
		"no format":   {"admin", `{"beginExclusive": 0}`, "INVALID_ARGUMENT"},
		"past end":    {"admin", `{"beginExclusive": 0, "endInclusive": 99, ` + all + `}`, "OFFSET_AFTER_LEDGER_END"},
	} {
		conn := dialStream(t, srv.URL+"/v2/updates/flats", tc.token, tc.request)
		got := frames(t, conn, -1)
		if len(got) != 1 || got[0]["code"] != tc.code {
			t.Errorf("%s: frames %v, want one %s error", name, got, tc.code)
		}
	}

	// The active contracts stream ends by itself.
	conn = dialStream(t, srv.URL+"/v2/state/active-contracts", "admin", `{"activeAtOffset": 0, "eventFormat": {"filtersForAnyParty": {}}}`)
	if got := frames(t, conn, -1); len(got) != 0 {
		t.Errorf("empty ACS stream: %v", got)
	}
}

// TestWebSocketGoingAwayOnShutdown: Shutdown ends an open stream with a
// close frame 1001, refuses a new one the same way, and returns once the
// streams have ended.
func TestWebSocketGoingAwayOnShutdown(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Verifier: fakeVerifier{"admin": {UserID: identity.DefaultParticipantAdmin}}})
	srv := httptest.NewServer(h.h)
	defer srv.Close()
	if _, err := jsonapi.New(h.node).GrantUserRights(context.Background(), jsonapi.UserRightsRequest{UserID: identity.DefaultParticipantAdmin,
		Rights: []identity.Right{{Kind: identity.RightCanReadAsAnyParty}}}); err != nil {
		t.Fatal(err)
	}
	all := `"updateFormat": {"includeTopologyEvents": {"includeParticipantAuthorizationEvents": {}}}`
	conn := dialStream(t, srv.URL+"/v2/updates", "admin", `{"beginExclusive": 0, `+all+`}`)
	read := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		for {
			if _, frame, err := conn.Read(ctx); err != nil {
				read <- err
				return
			} else if strings.Contains(string(frame), `"code"`) {
				t.Errorf("error frame %s", frame)
			}
		}
	}()
	time.Sleep(50 * time.Millisecond) // the stream is waiting for updates
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := Shutdown(ctx, h.h); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	if err := <-read; websocket.CloseStatus(err) != websocket.StatusGoingAway {
		t.Fatalf("open stream ended with %v, want close status 1001", err)
	}
	late := dialStream(t, srv.URL+"/v2/updates", "admin", `{"beginExclusive": 0, `+all+`}`)
	rctx, rcancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer rcancel()
	if _, _, err := late.Read(rctx); websocket.CloseStatus(err) != websocket.StatusGoingAway {
		t.Fatalf("stream opened after Shutdown ended with %v, want close status 1001", err)
	}
}

// TestShutdownEndsWaitingLists: Shutdown, run beside http.Server.Shutdown,
// ends a list request waiting for new updates (stream_idle_timeout_ms of
// 10 minutes, uncapped): it answers 200 with what it has, as at its idle
// timeout, and the server's Shutdown returns without waiting for the idle
// timeout; a list request after Shutdown answers at once.
func TestShutdownEndsWaitingLists(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Verifier: fakeVerifier{"admin": {UserID: identity.DefaultParticipantAdmin}},
		RequestTimeout: -1, MaxStreamIdleTimeout: -1})
	srv := httptest.NewServer(h.h)
	defer srv.Close()
	if _, err := jsonapi.New(h.node).GrantUserRights(context.Background(), jsonapi.UserRightsRequest{UserID: identity.DefaultParticipantAdmin,
		Rights: []identity.Right{{Kind: identity.RightCanReadAsAnyParty}}}); err != nil {
		t.Fatal(err)
	}
	const target = "/v2/updates?stream_idle_timeout_ms=600000"
	body := `{"beginExclusive": 0, "updateFormat": {"includeTopologyEvents": {"includeParticipantAuthorizationEvents": {}}}}`
	type answer struct {
		code int
		body string
		err  error
	}
	answered := make(chan answer, 1)
	// The client gives up after 8 s, so that a failing Shutdown fails the
	// test rather than hold it (and srv.Close) for the idle timeout.
	cctx, ccancel := context.WithTimeout(context.Background(), 8*time.Second)
	defer ccancel()
	go func() {
		req, _ := http.NewRequestWithContext(cctx, http.MethodPost, srv.URL+target, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer admin")
		req.Header.Set("Content-Type", "application/json")
		resp, err := srv.Client().Do(req)
		if err != nil {
			answered <- answer{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		answered <- answer{resp.StatusCode, string(b), err}
	}()
	time.Sleep(100 * time.Millisecond) // the list waits for updates
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	start := time.Now()
	down := make(chan error, 1)
	go func() { down <- Shutdown(ctx, h.h) }()
	if err := srv.Config.Shutdown(ctx); err != nil {
		t.Fatalf("http.Server.Shutdown: %v", err)
	}
	if err := <-down; err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("the shutdown took %v with a list waiting", d)
	}
	select {
	case a := <-answered:
		if a.err != nil || a.code != http.StatusOK || !strings.HasPrefix(a.body, "[") {
			t.Errorf("waiting list answered %d %q %v, want 200 and a list", a.code, a.body, a.err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the waiting list did not answer")
	}
	start = time.Now()
	rec := serve(t, h.h, httpCall{method: http.MethodPost, target: target, body: body,
		header: map[string]string{"Authorization": "Bearer admin", "Content-Type": "application/json"}})
	if d := time.Since(start); rec.Code != http.StatusOK || !strings.HasPrefix(rec.Body.String(), "[") || d > 3*time.Second {
		t.Errorf("list after Shutdown answered %d %q after %v, want 200 and a list at once", rec.Code, rec.Body, d)
	}
}

// TestWebSocketCheckpoints: an open-ended updates stream sends an
// OffsetCheckpoint at the ledger end once it has caught up and stayed
// idle for the node's CheckpointDelay, also when the updates that moved
// the end are not the reader's, and one per ledger end.
func TestWebSocketCheckpoints(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, ledger.Options{CheckpointDelay: 50 * time.Millisecond},
		Options{Verifier: fakeVerifier{"admin": {UserID: identity.DefaultParticipantAdmin}}})
	srv := httptest.NewServer(h.h)
	defer srv.Close()
	ctx := context.Background()
	api := jsonapi.New(h.node)
	alice, err := api.AllocateParty(ctx, jsonapi.AllocatePartyRequest{PartyIDHint: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := api.GrantUserRights(ctx, jsonapi.UserRightsRequest{UserID: identity.DefaultParticipantAdmin,
		Rights: []identity.Right{{Kind: identity.RightCanReadAs, Party: alice.PartyDetails.Party}}}); err != nil {
		t.Fatal(err)
	}
	end := func() float64 {
		t.Helper()
		e, err := h.node.LedgerEnd(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return float64(e)
	}
	// Alice's transactions only: the party allocations are not part of it.
	conn := dialStream(t, srv.URL+"/v2/updates", "admin", `{"beginExclusive": 0, "updateFormat": {"includeTransactions": {"eventFormat": {"filtersByParty": {`+
		`"`+alice.PartyDetails.Party+`": {}}}, "transactionShape": "TRANSACTION_SHAPE_ACS_DELTA"}}}`)
	defer conn.Close(websocket.StatusNormalClosure, "")
	checkpoint := func(want float64) {
		t.Helper()
		got := frames(t, conn, 1)
		u, _ := got[0]["update"].(map[string]any)
		cp, _ := u["OffsetCheckpoint"].(map[string]any)
		v, _ := cp["value"].(map[string]any)
		if v["offset"] != want {
			t.Fatalf("frame %v, want an offset checkpoint at %v", got[0], want)
		}
		if times, _ := v["synchronizerTimes"].([]any); len(times) != 1 {
			t.Fatalf("checkpoint %v: want one synchronizer time", v)
		}
	}
	checkpoint(end())
	if _, err := api.AllocateParty(ctx, jsonapi.AllocatePartyRequest{PartyIDHint: "bob"}); err != nil {
		t.Fatal(err)
	}
	checkpoint(end())
	// Nothing more until the ledger moves: the read times out.
	rctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	if _, data, err := conn.Read(rctx); err == nil {
		t.Fatalf("a second checkpoint at the same ledger end: %s", data)
	}
}
