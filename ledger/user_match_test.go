package ledger_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/interactive"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// TestSubmissionUserIDMustBeTheCallers: an authenticated user submits,
// prepares, executes and reassigns under its own user id only (Canton's
// MatchUserId claim: Claims.validForUser), a participant admin included;
// the refusal is PERMISSION_DENIED and writes nothing, and the same call
// under the caller's own id goes through.
func TestSubmissionUserIDMustBeTheCallers(t *testing.T) {
	t.Parallel()
	f := newFixture(t, ledger.Options{Synchronizers: reassignSyncs})
	ev := f.create(t, "c1", f.alice)
	x := newExternalFixture(t, ed25519Key)
	rights := []identity.Right{{Kind: identity.RightParticipantAdmin}, {Kind: identity.RightCanActAs, Party: f.alice},
		{Kind: identity.RightCanExecuteAs, Party: x.ext}}
	u1 := ledger.WithPrincipal(f.ctx, identity.Principal{UserID: "u1", Rights: rights})
	iou := func(owner string) ledger.Command {
		return ledger.CreateCommand{Template: ledger.TemplateByID(lf.TypeConID{PackageID: f.pkg, Module: "Main", Name: "Iou"}),
			Arguments: ledgertest.Record(map[string]value.Value{"owner": value.Party(owner), "amount": value.Int64(1)})}
	}
	p := x.typedPrepare(t, "p1", interactive.HashingSchemeVersionUnspecified, x.iouCreate(x.ext, 1))
	for _, tc := range []struct {
		name string
		n    *ledger.Node
		call func(user string) error
	}{
		{"submit", f.n, func(user string) error {
			_, err := f.n.Submit(u1, ledger.Commands{UserID: user, CommandID: "s-" + user, ActAs: []string{f.alice}, Commands: []ledger.Command{iou(f.alice)}})
			return err
		}},
		{"reassign", f.n, func(user string) error {
			_, err := f.n.Reassign(u1, ledger.ReassignCommands{UserID: user, Submitter: f.alice, CommandID: "r-" + user,
				Commands: []ledger.ReassignCommand{ledger.UnassignContract{ContractID: value.ContractID(ev.ContractID), Source: reassignSyncs[0], Target: reassignSyncs[1]}}})
			return err
		}},
		{"prepare", x.n, func(user string) error {
			_, err := x.n.Prepare(u1, ledger.PrepareRequest{Commands: ledger.Commands{UserID: user, CommandID: "p-" + user, ActAs: []string{x.ext},
				Commands: []ledger.Command{x.iouCreate(x.ext, 2)}}})
			return err
		}},
		{"execute", x.n, func(user string) error {
			r := x.typedExec(t, p)
			r.UserID = user
			_, err := x.n.Execute(u1, r)
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := ledger.StoreDumpForTest(t, tc.n)
			if err := tc.call("u2"); !errors.Is(err, apierr.PermissionDenied) {
				t.Fatalf("under another user's id: %v, want PERMISSION_DENIED", err)
			}
			if d := cmp.Diff(before, ledger.StoreDumpForTest(t, tc.n)); d != "" {
				t.Fatalf("state changed:\n%s", d)
			}
			if err := tc.call("u1"); err != nil {
				t.Fatalf("under the caller's own id: %v", err)
			}
		})
	}
	// A node without auth acts as a wildcard participant_admin, which
	// names any user.
	none := ledger.WithPrincipal(f.ctx, identity.Principal{UserID: identity.DefaultParticipantAdmin, Wildcard: true})
	if _, err := f.n.Submit(none, ledger.Commands{UserID: "u3", CommandID: "w", ActAs: []string{f.alice}, Commands: []ledger.Command{iou(f.alice)}}); err != nil {
		t.Fatalf("a wildcard caller under another id: %v", err)
	}
}
