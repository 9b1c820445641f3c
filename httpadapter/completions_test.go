package httpadapter

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

func TestCompletionsRoutes(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Verifier: fakeVerifier{"admin": {UserID: identity.DefaultParticipantAdmin}}})
	ctx := context.Background()
	p, err := jsonapi.New(h.node).AllocateParty(ctx, jsonapi.AllocatePartyRequest{PartyIDHint: "a", UserID: identity.DefaultParticipantAdmin})
	if err != nil {
		t.Fatal(err)
	}
	party := p.PartyDetails.Party
	for _, c := range []httpCall{
		{method: "POST", target: "/v2/commands/completions?stream_idle_timeout_ms=20",
			body: `{"userId": "participant_admin", "parties": ["` + party + `"], "beginExclusive": 0}`},
		{method: "POST", target: "/v2/commands/command-completions?stream_idle_timeout_ms=20",
			body: `{"parties": ["` + party + `"], "beginExclusive": 0}`},
	} {
		c.header = bearer("admin")
		rec := h.do(c)
		var got []jsonapi.CompletionStreamResponse
		if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &got) != nil {
			t.Fatalf("%s: %d %s", c.target, rec.Code, rec.Body)
		}
		// No commands yet; the allocation moved the ledger end: a checkpoint.
		if len(got) != 1 || got[0].CompletionResponse.OffsetCheckpoint == nil {
			t.Errorf("%s: %s", c.target, rec.Body)
		}
	}
	srv := httptest.NewServer(h.h)
	defer srv.Close()
	conn := dialStream(t, srv.URL+"/v2/commands/command-completions", "admin", `{"parties": [], "beginExclusive": 0}`)
	if got := frames(t, conn, -1); len(got) != 1 || got[0]["code"] != "MISSING_FIELD" {
		t.Errorf("completions stream without parties: %v", got)
	}
}
