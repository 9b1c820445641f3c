package ledgertest_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// pingPackage is Canton's built-in Ping (Canton.Internal.Ping of the
// admin-workflow DAR) as package "ping": template Ping:Ping {id: Text,
// initiator: Party, responder: Party}, signatory initiator, observer
// responder, with a consuming choice Respond : () controlled by the
// responder.
func pingPackage() lftest.Package {
	ping := lf.TypeConApp{ID: lf.TypeConID{Module: "Ping", Name: "Ping"}}
	party := &lf.TBuiltin{Builtin: lf.BuiltinParty}
	one := func(field string) lf.Expr {
		return &lf.ECons{Type: party, Front: []lf.Expr{&lf.ERecProj{Type: ping, Field: field, Record: &lf.EVar{Name: "this"}}}, Tail: &lf.ENil{Type: party}}
	}
	return lftest.Package{Name: "ping", Version: "1.0.0", Imports: []string{}, Modules: []lftest.Module{{Name: "Ping",
		DataTypes: []lftest.DataType{{Name: "Ping", Serializable: true, Fields: []lftest.Field{
			{Name: "id", Type: lftest.B(lftest.Text)}, {Name: "initiator", Type: lftest.B(lftest.Party)}, {Name: "responder", Type: lftest.B(lftest.Party)}}}},
		Templates: []lftest.Template{{Name: "Ping", Signatories: one("initiator"), Observers: one("responder"),
			Choices: []lftest.Choice{{Name: "Respond", Consuming: true, Arg: lftest.B(lftest.Unit), Ret: lftest.B(lftest.Unit), Controllers: one("responder")}}}},
	}}}
}

// TestCreateAndExercise: Create returns the committed contract id of a
// record built by field names, Exercise runs a choice on it as another
// party, and the active contracts show both steps.
func TestCreateAndExercise(t *testing.T) {
	t.Parallel()
	node := ledgertest.Open(t, ledger.Options{})
	dar, _ := lftest.DAR(pingPackage())
	ledgertest.MustUploadDAR(t, node, dar)
	alice, bob := ledgertest.MustAllocate(t, node, "alice"), ledgertest.MustAllocate(t, node, "bob")
	ping := ledger.MustParseTemplateRef("#ping:Ping:Ping")

	cid := ledgertest.Create(t, node, alice, ping, ledgertest.Record(map[string]value.Value{
		"id": value.Text("1"), "initiator": value.Party(alice), "responder": value.Party(bob)}))
	if tx.IsLocalContractID(cid) {
		t.Fatalf("Create returned the local id %s", cid)
	}
	active := func() []string {
		cs, err := node.EngineContracts(context.Background(), []string{bob}, nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range cs {
			out = append(out, string(c.ID))
		}
		return out
	}
	if diff := cmp.Diff([]string{string(cid)}, active()); diff != "" {
		t.Errorf("bob's contracts after Create (-want +got):\n%s", diff)
	}
	res := ledgertest.Exercise(t, node, bob, ping, cid, "Respond", nil)
	x, ok := res.Transaction.Node(res.Transaction.Roots[0]).(*tx.Exercise)
	if !ok || x.TargetID != cid || !x.Consuming || !slices.Equal(x.ActingParties, []string{bob}) {
		t.Errorf("Respond: root %#v", res.Transaction.Node(res.Transaction.Roots[0]))
	}
	if got := active(); len(got) != 0 {
		t.Errorf("bob's contracts after Respond: %v, want none", got)
	}
}

// TestSubmitFailsTheTest: a refused command fails the test with the
// node's error.
func TestSubmitFailsTheTest(t *testing.T) {
	t.Parallel()
	node := ledgertest.Open(t, ledger.Options{})
	alice := ledgertest.MustAllocate(t, node, "alice")
	rec := &recordingT{TB: t}
	func() {
		defer func() {
			if p := recover(); p != nil && p != rec {
				panic(p)
			}
		}()
		ledgertest.Create(rec, node, alice, ledger.MustParseTemplateRef("#nope:Main:T"), ledgertest.Record(nil))
	}()
	if !strings.Contains(rec.failed, "PACKAGE_NAMES_NOT_FOUND") || !strings.Contains(rec.failed, "create #nope:Main:T") {
		t.Errorf("failure %q, want the create and PACKAGE_NAMES_NOT_FOUND", rec.failed)
	}
}

// recordingT records a Fatalf and stops the helper (by panicking).
type recordingT struct {
	testing.TB
	failed string
}

func (*recordingT) Helper() {}
func (r *recordingT) Fatalf(format string, a ...any) {
	r.failed = fmt.Sprintf(format, a...)
	panic(r)
}
