package ledger_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// TestEngineCommands submits commands with Daml-LF values (Submit) and
// reads the contracts back as values (EngineContracts,
// EngineContractByID): committed ids, visibility, archive, errors.
func TestEngineCommands(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	n := ledgertest.Open(t, ledger.Options{})
	p := lftest.IouPackage("1.0.0")
	dar, _ := lftest.DAR(p)
	ledgertest.MustUploadDAR(t, n, dar)
	pkgID, _ := lftest.Dalf(p)
	iou := lf.TypeConID{PackageID: pkgID, Module: "Main", Name: "Iou"}
	transfer := lf.TypeConID{PackageID: pkgID, Module: "Main", Name: "Transfer"}
	alice, bob := ledgertest.MustAllocate(t, n, "alice"), ledgertest.MustAllocate(t, n, "bob")
	iouArg := func(owner string) value.Value {
		return value.Record{RecordID: &iou, Fields: []value.RecordField{{Label: "owner", Value: value.Party(owner)}, {Label: "amount", Value: value.Int64(10)}}}
	}
	code := func(err error) string {
		var ae *apierr.Error
		if errors.As(err, &ae) {
			return ae.Code.Name
		}
		return ""
	}

	// Create by package name, as alice.
	cmdIDs := 0
	cmdID := func() string { cmdIDs++; return fmt.Sprint("cmd-", cmdIDs) }
	res, err := n.Submit(ctx, ledger.Commands{ActAs: []string{alice}, CommandID: cmdID(),
		Commands: []ledger.Command{ledger.CreateCommand{Template: ledger.TemplateRef{ID: iou, ByPackageName: true}, Arguments: iouArg(alice)}}})
	if err != nil {
		t.Fatal(err)
	}
	c, ok := res.Transaction.Nodes[res.Transaction.Roots[0]].(*tx.Create)
	if !ok {
		t.Fatalf("root %T, want a Create", res.Transaction.Nodes[0])
	}
	if tx.IsLocalContractID(c.ContractID) {
		t.Errorf("contract id %s is local, want the committed id", c.ContractID)
	}
	if res.UpdateID == "" || res.Offset <= 0 {
		t.Errorf("update %q at %d", res.UpdateID, res.Offset)
	}
	cid := string(c.ContractID)

	got, err := n.EngineContracts(ctx, []string{alice}, func(t lf.TypeConID) bool { return t == iou })
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || string(got[0].ID) != cid || got[0].CreatedOffset != res.Offset {
		t.Fatalf("alice's contracts %+v, want %s", got, cid)
	}
	if diff := cmp.Diff([]string{alice}, got[0].Signatories); diff != "" {
		t.Errorf("signatories (-want +got):\n%s", diff)
	}
	if r, ok := got[0].Arg.(value.Record); !ok || r.Fields[0].Value != value.Party(alice) {
		t.Errorf("argument %#v", got[0].Arg)
	}
	if bobs, err := n.EngineContracts(ctx, []string{bob}, nil); err != nil || len(bobs) != 0 {
		t.Errorf("bob sees %v (%v), want nothing", bobs, err)
	}
	if one, err := n.EngineContractByID(ctx, cid, []string{alice}); err != nil || one == nil {
		t.Errorf("by id for alice: %v, %v", one, err)
	}
	if one, err := n.EngineContractByID(ctx, cid, []string{bob}); err != nil || one != nil {
		t.Errorf("by id for bob: %v, %v, want nil", one, err)
	}

	// bob may not create alice's Iou; an empty actAs is refused.
	_, err = n.Submit(ctx, ledger.Commands{ActAs: []string{bob}, CommandID: cmdID(),
		Commands: []ledger.Command{ledger.CreateCommand{Template: ledger.TemplateByID(iou), Arguments: iouArg(alice)}}})
	if code(err) != "DAML_AUTHORIZATION_ERROR" {
		t.Errorf("bob creating alice's Iou: %v, want DAML_AUTHORIZATION_ERROR", err)
	}
	_, err = n.Submit(ctx, ledger.Commands{CommandID: cmdID(), Commands: []ledger.Command{ledger.CreateCommand{Template: ledger.TemplateByID(iou), Arguments: iouArg(alice)}}})
	if code(err) != apierr.MissingField.Name {
		t.Errorf("no actAs: %v, want MISSING_FIELD", err)
	}
	// An invalid user id is refused before anything is written.
	before, err := n.LedgerEnd(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, err = n.Submit(ctx, ledger.Commands{ActAs: []string{alice}, UserID: "not a user id", CommandID: cmdID(),
		Commands: []ledger.Command{ledger.CreateCommand{Template: ledger.TemplateByID(iou), Arguments: iouArg(alice)}}})
	if code(err) != apierr.InvalidField.Name {
		t.Errorf("an invalid user id: %v, want INVALID_FIELD", err)
	}
	if after, err := n.LedgerEnd(ctx); err != nil || after != before {
		t.Errorf("ledger end %v (%v) after the refused submission, want %v", after, err, before)
	}
	if _, err := n.EngineContracts(ctx, nil, nil); code(err) != apierr.MissingField.Name {
		t.Errorf("no parties: %v, want MISSING_FIELD", err)
	}

	// Transfer archives it and returns the new contract id.
	targ := value.Record{RecordID: &transfer, Fields: []value.RecordField{{Label: "newOwner", Value: value.Party(bob)}}}
	res, err = n.Submit(ctx, ledger.Commands{ActAs: []string{alice}, CommandID: cmdID(),
		Commands: []ledger.Command{ledger.ExerciseCommand{Template: ledger.TemplateByID(iou), ContractID: value.ContractID(cid), Choice: "Transfer", Argument: targ}}})
	if err != nil {
		t.Fatal(err)
	}
	if x, ok := res.Transaction.Nodes[res.Transaction.Roots[0]].(*tx.Exercise); !ok || !x.Consuming || string(x.TargetID) != cid {
		t.Errorf("root %#v, want the consuming exercise of %s", res.Transaction.Nodes[0], cid)
	}
	if got, err := n.EngineContracts(ctx, []string{alice}, nil); err != nil || len(got) != 0 {
		t.Errorf("after Transfer alice sees %v (%v), want nothing", got, err)
	}
	// The archived contract is gone for a second exercise.
	_, err = n.Submit(ctx, ledger.Commands{ActAs: []string{alice}, CommandID: cmdID(),
		Commands: []ledger.Command{ledger.ExerciseCommand{Template: ledger.TemplateByID(iou), ContractID: value.ContractID(cid), Choice: "Transfer", Argument: targ}}})
	if code(err) != "CONTRACT_NOT_FOUND" {
		t.Errorf("exercising an archived contract: %v, want CONTRACT_NOT_FOUND", err)
	}
	// PackageSource lists the uploaded package.
	src, err := n.PackageSource(ctx)
	if err != nil || src.Package(pkgID) == nil {
		t.Errorf("PackageSource: %v, %v: want %s", len(src), err, pkgID)
	}
}
