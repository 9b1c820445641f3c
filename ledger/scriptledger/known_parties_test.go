package scriptledger_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/script"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
	"github.com/ledgernode/ledgernode/ledger/scriptledger"
)

// TestScriptSubmitUnknownObserver: a script's submission whose contract
// has an observer the participant does not know is refused as on Canton,
// in process and over the JSON Ledger API alike: a *script.SubmitError
// with code UNKNOWN_INFORMEES (daml-script's UnknownError), nothing
// committed.
func TestScriptSubmitUnknownObserver(t *testing.T) {
	t.Parallel()
	node := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	party := &lf.TBuiltin{Builtin: lf.BuiltinParty}
	tT := lf.TypeConApp{ID: lf.TypeConID{PackageID: lftest.SelfID, Module: "Main", Name: "T"}}
	field := func(name string) lf.Expr {
		return &lf.ECons{Type: party, Front: []lf.Expr{&lf.ERecProj{Type: tT, Field: name, Record: &lf.EVar{Name: "this"}}},
			Tail: &lf.ENil{Type: party}}
	}
	dar, ids := lftest.DAR(lftest.Package{Name: "observed", Version: "1.0.0", Imports: []string{}, Modules: []lftest.Module{{Name: "Main",
		DataTypes: []lftest.DataType{{Name: "T", Serializable: true, Fields: []lftest.Field{
			{Name: "owner", Type: lftest.B(lftest.Party)}, {Name: "watcher", Type: lftest.B(lftest.Party)}}}},
		Templates: []lftest.Template{{Name: "T", Signatories: field("owner"), Observers: field("watcher")}},
	}}})
	ledgertest.MustUploadDAR(t, node, dar)
	alice := ledgertest.MustAllocate(t, node, "alice")
	pkgs, err := node.PackageSource(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Over HTTP the script's submissions are participant_admin's.
	srv, token := ledgertest.Serve(t, node)
	if _, err := node.GrantUserRights(ctx, identity.DefaultParticipantAdmin, "", []identity.Right{{Kind: identity.RightCanActAs, Party: alice}}); err != nil {
		t.Fatal(err)
	}
	tid := lf.TypeConID{PackageID: ids[0], Module: "Main", Name: "T"}
	create := func(watcher string) *script.Submission {
		return &script.Submission{ActAs: []string{alice}, Commands: []script.Command{{Kind: script.CreateCmd, TemplateID: tid, ExplicitPackageID: true,
			Arg: value.Record{RecordID: &tid, Fields: []value.RecordField{{Label: "owner", Value: value.Party(alice)}, {Label: "watcher", Value: value.Party(watcher)}}}}}}
	}
	for _, tc := range []struct {
		name string
		l    script.Ledger
	}{
		{"in process", scriptledger.New(node, scriptledger.Options{})},
		{"over the JSON Ledger API", scriptledger.NewRemote(srv.URL, token, pkgs)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			end, err := node.LedgerEnd(ctx)
			if err != nil {
				t.Fatal(err)
			}
			_, err = tc.l.Submit(ctx, create("bob"))
			var se *script.SubmitError
			if !errors.As(err, &se) {
				t.Fatalf("an unknown observer: %v, want a *script.SubmitError", err)
			}
			want := &script.SubmitError{Code: "UNKNOWN_INFORMEES", Message: "The participant is not connected to any synchronizer where the given informees are known."}
			if diff := cmp.Diff(want, se); diff != "" {
				t.Errorf("an unknown observer (-want +got):\n%s", diff)
			}
			if after, err := node.LedgerEnd(ctx); err != nil || after != end {
				t.Errorf("ledger end %v (%v) after the refusal, was %v", after, err, end)
			}
			if _, err := tc.l.Submit(ctx, create(alice)); err != nil {
				t.Errorf("a known observer: %v", err)
			}
		})
	}
}
