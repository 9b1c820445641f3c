package ledger_test

import (
	"errors"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/update"
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
	got, err := f.n.CompletionsList(f.ctx, "u1", []string{f.alice}, start,
		ledger.ListOptions{IdleTimeout: &idle})
	if err != nil {
		t.Fatal(err)
	}
	// Two completions for alice's commands, then a checkpoint past bob's.
	if len(got) != 3 {
		t.Fatalf("completions: %+v", got)
	}
	c, ok := got[0].(*update.Completion)
	x, ok1 := got[1].(*update.Completion)
	cp, ok2 := got[2].(*update.OffsetCheckpoint)
	if !ok || !ok1 || !ok2 || c.CommandID != "c1" || x.CommandID != "x1" {
		t.Fatalf("completions: %+v", got)
	}
	end, _ := f.n.LedgerEnd(f.ctx)
	if c.Status != nil || c.UserID != "u1" || c.UpdateID == "" || c.Offset != start+1 || c.RecordTime.IsZero() ||
		c.SynchronizerID != f.n.Synchronizers()[0] {
		t.Errorf("completion %+v", c)
	}
	if cp.Offset != end || len(cp.SynchronizerTimes) != 1 || cp.SynchronizerTimes[0].RecordTime.Before(c.RecordTime) {
		t.Errorf("checkpoint %+v at ledger end %d", cp, end)
	}
	other := ledger.WithPrincipal(f.ctx, identity.Principal{UserID: "u2", Rights: []identity.Right{{Kind: identity.RightCanReadAs, Party: f.alice}}})
	if _, err := f.n.CompletionsList(other, "u1", []string{f.alice}, 0, ledger.ListOptions{IdleTimeout: &idle}); !errors.Is(err, apierr.PermissionDenied) {
		t.Errorf("another user's completions: %v", err)
	}
	own, err := f.n.CompletionsList(other, "", []string{f.alice}, 0, ledger.ListOptions{IdleTimeout: &idle})
	if err != nil || len(own) != 1 {
		t.Fatalf("own (no) completions: %+v, %v", own, err)
	}
	if _, ok := own[0].(*update.OffsetCheckpoint); !ok {
		t.Errorf("own (no) completions: %+v, %v", own, err)
	}
}
