package ledger_test

import (
	"errors"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
)

func TestCompletions(t *testing.T) {
	t.Parallel()
	f := newFixture(t, ledger.Options{})
	start, _ := f.n.LedgerEnd(f.ctx)
	ev := f.create(t, "c1", f.alice)
	if _, err := f.exercise("x1", f.alice, ev.ContractID, "Archive", `{}`); err != nil {
		t.Fatal(err)
	}
	f.create(t, "c2", f.bob)
	idle := 20 * time.Millisecond
	got, err := f.n.CompletionsList(f.ctx, ledger.CompletionStreamRequest{UserID: "u1", Parties: []string{f.alice}, BeginExclusive: start.Offset},
		ledger.ListOptions{IdleTimeout: &idle})
	if err != nil {
		t.Fatal(err)
	}
	// Two completions for alice's commands, then a checkpoint past bob's.
	if len(got) != 3 || got[0].CompletionResponse.Completion.Value.CommandID != "c1" ||
		got[1].CompletionResponse.Completion.Value.CommandID != "x1" || got[2].CompletionResponse.OffsetCheckpoint == nil {
		t.Fatalf("completions: %+v", got)
	}
	c := got[0].CompletionResponse.Completion.Value
	if c.Status.Code != 0 || c.UserID != "u1" || c.UpdateID == "" || c.Offset != start.Offset+1 {
		t.Errorf("completion %+v", c)
	}
	other := ledger.WithPrincipal(f.ctx, identity.Principal{UserID: "u2", Rights: []identity.Right{{Kind: identity.RightCanReadAs, Party: f.alice}}})
	if _, err := f.n.CompletionsList(other, ledger.CompletionStreamRequest{UserID: "u1", Parties: []string{f.alice}}, ledger.ListOptions{IdleTimeout: &idle}); !errors.Is(err, apierr.PermissionDenied) {
		t.Errorf("another user's completions: %v", err)
	}
	own, err := f.n.CompletionsList(other, ledger.CompletionStreamRequest{Parties: []string{f.alice}}, ledger.ListOptions{IdleTimeout: &idle})
	if err != nil || len(own) != 1 || own[0].CompletionResponse.OffsetCheckpoint == nil {
		t.Errorf("own (no) completions: %+v, %v", own, err)
	}
}
