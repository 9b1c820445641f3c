package ledger_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// ifcPackage is package "ifc" 1.0.0: interface Main:I (view Main:IView
// {n: Int64}) with a non-consuming choice Poke controlled by the
// interface's signatories.
func ifcPackage() lftest.Package {
	return lftest.Package{Name: "ifc", Version: "1.0.0", Imports: []string{}, Modules: []lftest.Module{{Name: "Main",
		DataTypes: []lftest.DataType{
			{Name: "I", Kind: "interface"},
			{Name: "IView", Serializable: true, Fields: []lftest.Field{{Name: "n", Type: lftest.B(lftest.Int64)}}},
		},
		Interfaces: []lftest.Interface{{Name: "I", View: lftest.Con(lftest.Self(), "Main", "IView"),
			Choices: []lftest.Choice{{Name: "Poke", Arg: lftest.B(lftest.Unit), Ret: lftest.B(lftest.Unit)}}}},
	}}}
}

// tplPackage is package "tpl" at version: template Main:T {owner: Party}
// implementing ifc's Main:I.
func tplPackage(version, ifcID, upgrades string) lftest.Package {
	view := &lf.ERecCon{Type: lf.TypeConApp{ID: lf.TypeConID{PackageID: ifcID, Module: "Main", Name: "IView"}},
		Fields: []lf.FieldExpr{{Name: "n", Expr: &lf.EInt64{Value: 7}}}}
	return lftest.Package{Name: "tpl", Version: version, UpgradedID: upgrades, Imports: []string{ifcID}, Modules: []lftest.Module{{Name: "Main",
		DataTypes: []lftest.DataType{{Name: "T", Serializable: true, Fields: []lftest.Field{{Name: "owner", Type: lftest.B(lftest.Party)}}}},
		Templates: []lftest.Template{{Name: "T",
			Choices:    []lftest.Choice{{Name: "Go", Consuming: true, Arg: lftest.B(lftest.Unit), Ret: lftest.B(lftest.Unit)}},
			Implements: []lftest.TyCon{{Ref: lftest.Import(0), Module: "Main", Name: "I", View: view}}}},
	}}}
}

// TestExecuteInterfacePreference: a prepared exercise by interface
// whose contract resolved (through packageIdSelectionPreference) to v1 must
// execute: Canton's re-interpretation takes the package preference from
// the transaction's interface nodes (TransactionTreeFactory
// buildPackagePreference), not from the newest vetted version.
func TestExecuteInterfacePreference(t *testing.T) {
	t.Parallel()
	f := newExternalFixture(t, ed25519Key)
	ifcDAR, ifcIDs := lftest.DAR(ifcPackage())
	ledgertest.MustUploadDAR(t, f.n, ifcDAR)
	ifc := lftest.Package(ifcPackage())
	d1, ids1 := lftest.DAR(tplPackage("1.0.0", ifcIDs[0], ""), ifc)
	d2, ids2 := lftest.DAR(tplPackage("2.0.0", ifcIDs[0], ids1[0]), ifc)
	for _, d := range [][]byte{d1, d2} {
		ledgertest.MustUploadDAR(t, f.n, d)
	}
	prep := func(cmdID string, c jsonapi.JsCommand) jsonapi.JsPrepareSubmissionResponse {
		t.Helper()
		p, err := jsonapi.New(f.n).PrepareSubmission(f.ctx, jsonapi.JsPrepareSubmissionRequest{CommandID: cmdID, ActAs: []string{f.ext},
			Commands: []jsonapi.JsCommand{c}, PackageIDSelectionPreference: []string{ids1[0]}})
		if err != nil {
			t.Fatalf("prepare %s: %v", cmdID, err)
		}
		return p
	}
	p := prep("create", jsonapi.JsCommand{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: "#tpl:Main:T",
		CreateArguments: json.RawMessage(`{"owner": "` + f.ext + `"}`)}})
	resp, err := jsonapi.DecodeAnswer[jsonapi.ExecuteSubmissionAndWaitForTransactionResponse](jsonapi.New(f.n).ExecuteSubmissionAndWaitForTransaction(f.ctx, jsonapi.ExecuteSubmissionAndWaitForTransactionRequest{ExecuteSubmissionRequest: f.execReq(p)}))
	if err != nil {
		t.Fatalf("execute create: %v", err)
	}
	ev := resp.Transaction.Events[0].CreatedEvent
	if ev.TemplateID != ids1[0]+":Main:T" {
		t.Fatalf("created %s, want v1 (v2 is %s)", ev.TemplateID, ids2[0])
	}
	p = prep("poke", jsonapi.JsCommand{ExerciseCommand: &jsonapi.JsExerciseCommand{TemplateID: ifcIDs[0] + ":Main:I", ContractID: ev.ContractID,
		Choice: "Poke", ChoiceArgument: json.RawMessage(`{}`)}})
	req := f.execReq(p)
	req.SubmissionID = "s2"
	if _, err := jsonapi.New(f.n).ExecuteSubmissionAndWait(f.ctx, req); err != nil {
		t.Errorf("execute of a prepared interface exercise resolved to v1 (v2 vetted): %v", err)
	}
}

// TestUnvettedPreference: packageIdSelectionPreference naming a
// stored but unvetted package must not let the transaction use it (Canton:
// the preference restricts the vetted candidates; a restriction that
// cannot be honoured fails the submission). Here an exercise by interface
// on a v1 contract with the preference [v2], v2 not vetted.
func TestUnvettedPreference(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := t.Context()
	ifcDAR, ifcIDs := lftest.DAR(ifcPackage())
	ledgertest.MustUploadDAR(t, n, ifcDAR)
	d1, ids1 := lftest.DAR(tplPackage("1.0.0", ifcIDs[0], ""), ifcPackage())
	d2, ids2 := lftest.DAR(tplPackage("2.0.0", ifcIDs[0], ids1[0]), ifcPackage())
	ledgertest.MustUploadDAR(t, n, d1)
	if err := n.UploadDAR(ctx, ledger.UploadDARRequest{DAR: d2, DontVet: true}); err != nil {
		t.Fatal(err)
	}
	alice := ledgertest.MustAllocate(t, n, "alice")
	c, err := jsonapi.DecodeAnswer[jsonapi.SubmitAndWaitForTransactionResponse](jsonapi.New(n).SubmitAndWaitForTransaction(ctx, jsonapi.SubmitAndWaitForTransactionRequest{Commands: jsonapi.JsCommands{CommandID: "c1", ActAs: []string{alice}, UserID: "u1",
		Commands: []jsonapi.JsCommand{{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: "#tpl:Main:T", CreateArguments: json.RawMessage(`{"owner": "` + alice + `"}`)}}}}}))
	if err != nil {
		t.Fatal(err)
	}
	cid := c.Transaction.Events[0].CreatedEvent.ContractID
	before := ledger.StoreDumpForTest(t, n)
	resp, err := jsonapi.DecodeAnswer[jsonapi.SubmitAndWaitForTransactionResponse](jsonapi.New(n).SubmitAndWaitForTransaction(ctx, jsonapi.SubmitAndWaitForTransactionRequest{Commands: jsonapi.JsCommands{CommandID: "c2", ActAs: []string{alice}, UserID: "u1",
		PackageIDSelectionPreference: []string{ids2[0]},
		Commands: []jsonapi.JsCommand{{ExerciseCommand: &jsonapi.JsExerciseCommand{TemplateID: ifcIDs[0] + ":Main:I", ContractID: cid, Choice: "Poke",
			ChoiceArgument: json.RawMessage(`{}`)}}}}, TransactionFormat: ledgerEffects(alice)}))
	if err == nil {
		t.Fatalf("committed with the unvetted v2 (%s): exercised template %s", ids2[0], resp.Transaction.Events[0].ExercisedEvent.TemplateID)
	}
	var ae *apierr.Error
	if !errors.As(err, &ae) || ae.Code.Name != "PACKAGE_SELECTION_FAILED" {
		t.Errorf("preference for the unvetted v2: %v, want PACKAGE_SELECTION_FAILED", err)
	}
	// The refused submission leaves no trace (no deduplication entry, no
	// update, no contract change).
	if diff := cmp.Diff(before, ledger.StoreDumpForTest(t, n)); diff != "" {
		t.Errorf("store after the refused submission (-before +after):\n%s", diff)
	}
}
