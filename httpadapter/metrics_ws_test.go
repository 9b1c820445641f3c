package httpadapter

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/coder/websocket"
	dto "github.com/prometheus/client_model/go"

	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// TestMetricsCountStreams: an open WebSocket stream counts in
// ledgernode_http_open_streams until it closes, and is one request of its
// route with status 101 (the upgrade passes through Metrics.Wrap).
func TestMetricsCountStreams(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Verifier: fakeVerifier{"admin": {UserID: identity.DefaultParticipantAdmin}}})
	m := NewMetrics(h.node)
	srv := httptest.NewServer(m.Wrap(h.h))
	defer srv.Close()
	if _, err := jsonapi.New(h.node).GrantUserRights(context.Background(), jsonapi.UserRightsRequest{UserID: identity.DefaultParticipantAdmin,
		Rights: []identity.Right{{Kind: identity.RightCanReadAsAnyParty}}}); err != nil {
		t.Fatal(err)
	}
	gauge := func() float64 {
		var d dto.Metric
		if err := m.streams.Write(&d); err != nil {
			t.Fatal(err)
		}
		return d.GetGauge().GetValue()
	}
	all := `"updateFormat": {"includeTopologyEvents": {"includeParticipantAuthorizationEvents": {}}}`
	conn := dialStream(t, srv.URL+"/v2/updates", "admin", `{"beginExclusive": 0, `+all+`}`)
	if _, err := jsonapi.New(h.node).AllocateParty(context.Background(), jsonapi.AllocatePartyRequest{PartyIDHint: "a"}); err != nil {
		t.Fatal(err)
	}
	if got := frames(t, conn, 1); len(got) != 1 {
		t.Fatalf("stream: %v", got)
	}
	if g := gauge(); g != 1 {
		t.Errorf("open streams while one is open: %v, want 1", g)
	}
	conn.Close(websocket.StatusNormalClosure, "")
	deadline := time.Now().Add(5 * time.Second)
	for gauge() != 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if g := gauge(); g != 0 {
		t.Errorf("open streams after the close: %v, want 0", g)
	}
	var d dto.Metric
	if err := m.requests.WithLabelValues("GET", "/v2/updates", "101").Write(&d); err != nil || d.GetCounter().GetValue() != 1 {
		t.Errorf("GET /v2/updates 101 counted %v (%v), want 1", d.GetCounter().GetValue(), err)
	}
}
