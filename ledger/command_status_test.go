package ledger_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
)

// TestCommandStatuses: the node tracks its submissions as Canton's
// command progress tracker does, and CommandStatuses filters them by
// command id prefix, state and limit.
func TestCommandStatuses(t *testing.T) {
	t.Parallel()
	f := newFixture(t, ledger.Options{})
	iou := f.create(t, "ok-1", f.alice)
	if _, err := f.exercise("ok-2", f.alice, iou.ContractID, "Transfer", fmt.Sprintf(`{"newOwner": %q}`, f.bob)); err != nil {
		t.Fatal(err)
	}
	if _, err := f.exercise("bad-1", f.alice, iou.ContractID, "Transfer", fmt.Sprintf(`{"newOwner": %q}`, f.bob)); !errors.Is(err, apierr.ContractNotFound) {
		t.Fatalf("exercising an archived contract: %v", err)
	}
	end, _ := f.n.LedgerEnd(f.ctx)

	all, err := f.n.CommandStatuses(f.ctx, "", ledger.CommandStateUnspecified, 0)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range all {
		ids = append(ids, s.CommandID)
	}
	// Failed first, then pending (none), then succeeded, newest first.
	if fmt.Sprint(ids) != "[bad-1 ok-2 ok-1]" {
		t.Fatalf("commands %v, want [bad-1 ok-2 ok-1]", ids)
	}
	bad, ok2 := all[0], all[1]
	if bad.State != ledger.CommandStateFailed || bad.Error == nil || bad.Error.Code.Name != "CONTRACT_NOT_FOUND" || bad.Completed.IsZero() {
		t.Errorf("failed command %+v", bad)
	}
	if ok2.State != ledger.CommandStateSucceeded || ok2.Offset != end || ok2.UpdateID == "" || ok2.UserID != "u1" ||
		ok2.Started.IsZero() || ok2.Completed.Before(ok2.Started) || fmt.Sprint(ok2.ActAs) != fmt.Sprint([]string{f.alice}) || len(ok2.Commands) != 1 {
		t.Errorf("succeeded command %+v", ok2)
	}
	if u := ok2.Updates; u.Exercised != 1 || len(u.Archived) != 1 || u.Archived[0].ContractID != iou.ContractID || u.Archived[0].TemplateID.Name != "Iou" {
		t.Errorf("the transfer's updates %+v", u)
	}
	if u := all[2].Updates; u.Exercised != 0 || len(u.Archived) != 0 || len(u.Created) != 1 || u.Created[0].ContractID != iou.ContractID {
		t.Errorf("the create's updates %+v", u)
	}

	for _, tc := range []struct {
		name string
		req  statusQuery
		want string
	}{
		{"by prefix", statusQuery{prefix: "ok-"}, "[ok-2 ok-1]"},
		{"succeeded", statusQuery{state: ledger.CommandStateSucceeded}, "[ok-2 ok-1]"},
		{"failed", statusQuery{state: ledger.CommandStateFailed}, "[bad-1]"},
		{"pending", statusQuery{state: ledger.CommandStatePending}, "[]"},
		{"limit", statusQuery{limit: 2}, "[bad-1 ok-2]"},
		{"prefix and state", statusQuery{prefix: "bad", state: ledger.CommandStateSucceeded}, "[]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := f.n.CommandStatuses(f.ctx, tc.req.prefix, tc.req.state, tc.req.limit)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range res {
				got = append(got, s.CommandID)
			}
			if fmt.Sprint(got) != tc.want {
				t.Errorf("%v, want %s", got, tc.want)
			}
		})
	}

	plain := ledger.WithPrincipal(f.ctx, identity.Principal{UserID: "plain", Rights: []identity.Right{{Kind: identity.RightCanActAs, Party: f.alice}}})
	if _, err := f.n.CommandStatuses(plain, "", ledger.CommandStateUnspecified, 0); !errors.Is(err, apierr.PermissionDenied) {
		t.Errorf("a user without the admin right: %v", err)
	}
	if _, err := f.n.CommandStatuses(f.ctx, "bad prefix!", ledger.CommandStateUnspecified, 0); !errors.Is(err, apierr.InvalidField) {
		t.Errorf("an invalid prefix: %v", err)
	}
}

// statusQuery is the arguments of one CommandStatuses call.
type statusQuery struct {
	prefix string
	state  ledger.CommandState
	limit  int
}
