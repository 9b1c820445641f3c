package ledger_test

import (
	"encoding/json"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// upgradedIou is iou 2.0.0: Iou gains an optional note, and a
// non-consuming choice GetNote that returns it (a choice named Note would collide with the field note: Canton compares names case-insensitively).
func upgradedIou(v1 string) lftest.Package {
	p := lftest.IouPackage("2.0.0")
	p.UpgradedID = v1
	m := &p.Modules[0]
	m.DataTypes[0].Fields = append(m.DataTypes[0].Fields, lftest.Field{Name: "note", Type: lftest.Opt(lftest.B(lftest.Text))})
	iou := lf.TypeConApp{ID: lf.TypeConID{Module: "Main", Name: "Iou"}}
	optText := &lf.TApp{Fun: &lf.TBuiltin{Builtin: lf.BuiltinOptional}, Arg: &lf.TBuiltin{Builtin: lf.BuiltinText}}
	m.Templates[0].Choices = append(m.Templates[0].Choices, lftest.Choice{Name: "GetNote", Arg: lftest.B(lftest.Unit), Ret: lftest.Opt(lftest.B(lftest.Text)),
		Update: &lf.EUpdate{Update: &lf.UPure{Type: optText, Expr: &lf.ERecProj{Type: iou, Field: "note", Record: &lf.EVar{Name: "this"}}}}})
	return p
}

// TestUpgrades runs contracts across two versions of a package, as
// Canton's smart-contract upgrading does (Speedy's SBuiltinFun upgrade
// checks, TopologyAwareCommandExecutor): #name resolves to the newest vetted version, a v1
// contract is exercised with v2's choice (its note upgraded to None), and
// packageIdSelectionPreference pins v1.
func TestUpgrades(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := t.Context()
	d1, ids1 := lftest.DAR(lftest.IouPackage("1.0.0"))
	d2, ids2 := lftest.DAR(upgradedIou(ids1[0]))
	for _, d := range [][]byte{d1, d2} {
		ledgertest.MustUploadDAR(t, n, d)
	}
	alice := ledgertest.MustAllocate(t, n, "alice")
	submit := func(cmdID string, pref []string, c jsonapi.JsCommand) jsonapi.JsTransactionTree {
		t.Helper()
		resp, err := jsonapi.DecodeAnswer[jsonapi.SubmitAndWaitForTransactionTreeResponse](jsonapi.New(n).SubmitAndWaitForTransactionTree(ctx, jsonapi.JsCommands{CommandID: cmdID, ActAs: []string{alice}, UserID: "u1",
			PackageIDSelectionPreference: pref, Commands: []jsonapi.JsCommand{c}}))
		if err != nil {
			t.Fatalf("%s: %v", cmdID, err)
		}
		return resp.TransactionTree
	}
	create := func(cmdID, tid string, pref []string) jsonapi.JsCreatedEvent {
		tree := submit(cmdID, pref, jsonapi.JsCommand{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: tid,
			CreateArguments: json.RawMessage(`{"owner": "` + alice + `", "amount": "1"}`)}})
		return tree.EventsByID["0"].CreatedTreeEvent.Value
	}
	// By name: the newest version.
	if ev := create("c-name", "#iou:Main:Iou", nil); ev.TemplateID != ids2[0]+":Main:Iou" {
		t.Errorf("#iou resolved to %s, want v2 %s", ev.TemplateID, ids2[0])
	}
	// Pinned to v1 by the preference.
	v1 := create("c-pref", "#iou:Main:Iou", []string{ids1[0]})
	if v1.TemplateID != ids1[0]+":Main:Iou" {
		t.Fatalf("with a v1 preference #iou resolved to %s", v1.TemplateID)
	}
	// v2's Note on the v1 contract: the note is None.
	tree := submit("note", nil, jsonapi.JsCommand{ExerciseCommand: &jsonapi.JsExerciseCommand{TemplateID: "#iou:Main:Iou", ContractID: v1.ContractID,
		Choice: "GetNote", ChoiceArgument: json.RawMessage(`{}`)}})
	x := tree.EventsByID["0"].ExercisedTreeEvent
	if x == nil || x.Value.TemplateID != ids2[0]+":Main:Iou" || string(x.Value.ExerciseResult) != "null" {
		t.Fatalf("v2 Note on a v1 contract: %+v", tree.EventsByID)
	}
}
