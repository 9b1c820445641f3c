package httpadapter

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// observedDAR is package "observed": template Main:T {owner: Party,
// watcher: Party}, signatory the owner, observer the watcher (as Canton's
// Ping has its responder). It returns the DAR and the template id.
func observedDAR() ([]byte, string) {
	party := &lf.TBuiltin{Builtin: lf.BuiltinParty}
	tT := lf.TypeConApp{ID: lf.TypeConID{PackageID: lftest.SelfID, Module: "Main", Name: "T"}}
	field := func(name string) lf.Expr {
		return &lf.ECons{Type: party, Front: []lf.Expr{&lf.ERecProj{Type: tT, Field: name, Record: &lf.EVar{Name: "this"}}},
			Tail: &lf.ENil{Type: party}}
	}
	d, ids := lftest.DAR(lftest.Package{Name: "observed", Version: "1.0.0", Imports: []string{}, Modules: []lftest.Module{{Name: "Main",
		DataTypes: []lftest.DataType{{Name: "T", Serializable: true, Fields: []lftest.Field{
			{Name: "owner", Type: lftest.B(lftest.Party)}, {Name: "watcher", Type: lftest.B(lftest.Party)}}}},
		Templates: []lftest.Template{{Name: "T", Signatories: field("owner"), Observers: field("watcher")}},
	}}})
	return d, ids[0] + ":Main:T"
}

// TestUnknownPartiesOverHTTP: a submission naming a party the participant
// does not know is answered as Canton answers it: 404 (category 11,
// InvalidGivenCurrentSystemStateResourceMissing, gRPC NOT_FOUND) with
// UNKNOWN_SUBMITTERS for an actAs party, else UNKNOWN_INFORMEES for an
// observer, the parties in the context as Canton prints them,
// definite_answer false in the context (the body's definiteAnswer is null,
// as for every error from Canton's gRPC layer); nothing is committed.
func TestUnknownPartiesOverHTTP(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{})
	d, tid := observedDAR()
	wantEmptyObject(t, h.do(darCall("/v2/dars", d, nil)))
	alice := h.allocate("alice", nil).Party
	ghost := "ghost" + alice[len("alice"):]
	create := func(id, actAs, owner, watcher string) string {
		return fmt.Sprintf(`{"commands":[{"CreateCommand":{"templateId":%q,"createArguments":{"owner":%q,"watcher":%q}}}],"commandId":%q,"actAs":[%q]}`,
			tid, owner, watcher, id, actAs)
	}
	iptr := func(i int) *int { return &i }
	cases := []struct {
		name   string
		target string
		body   string
		want   jsCantonError
	}{
		{"unknown observer", "/v2/commands/submit-and-wait", create("c1", alice, alice, "bob"), jsCantonError{Code: "UNKNOWN_INFORMEES",
			Cause:   "The participant is not connected to any synchronizer where the given informees are known.",
			Context: map[string]string{"unknownInformees": "Set(bob)", "definite_answer": "false", "category": "11"}}},
		{"unknown actAs", "/v2/commands/submit-and-wait-for-transaction", `{"commands":` + create("c2", ghost, ghost, "bob") + `}`, jsCantonError{Code: "UNKNOWN_SUBMITTERS",
			Cause:   "The participant is not connected to any synchronizer where the given submitters are known.",
			Context: map[string]string{"unknownSubmitters": "Set(" + ghost + ")", "definite_answer": "false", "category": "11"}}},
		{"unknown actAs at prepare", "/v2/interactive-submission/prepare", create("c3", ghost, ghost, alice), jsCantonError{Code: "UNKNOWN_INFORMEES",
			Cause:   "The participant is not connected to any synchronizer where the given informees are known.",
			Context: map[string]string{"unknownInformees": "Set(" + ghost + ")", "definite_answer": "false", "category": "11"}}},
	}
	for _, c := range cases {
		before := h.state()
		rec := h.do(httpCall{method: "POST", target: c.target, body: c.body})
		if rec.Code != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404; body %s", c.name, rec.Code, rec.Body)
		}
		c.want.Resources, c.want.ErrorCategory, c.want.GRPCCodeValue = [][2]string{}, 11, iptr(5)
		if diff := cmp.Diff(c.want, decodeCantonError(t, rec)); diff != "" {
			t.Errorf("%s: error (-want +got):\n%s", c.name, diff)
		}
		if diff := cmp.Diff(before, h.state()); diff != "" {
			t.Errorf("%s: the refusal changed the state (-before +after):\n%s", c.name, diff)
		}
	}
	// The observer allocated, the first submission commits.
	bob := h.allocate("bob", nil).Party
	end := h.state().End
	got := decodeAs[jsonapi.SubmitAndWaitResponse](t, h.do(httpCall{method: "POST", target: "/v2/commands/submit-and-wait", body: create("c4", alice, alice, bob)}))
	if got.CompletionOffset != end+1 {
		t.Errorf("committed at %d, want %d", got.CompletionOffset, end+1)
	}
}
