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

var (
	revParty = &lf.TBuiltin{Builtin: lf.BuiltinParty}
)

// watchPackage is package "watch": template Main:T {owner: Party} with a
// consuming choice Show {watcher: Party} whose choice observer is the
// watcher and whose body creates Main:T {owner} again.
func watchPackage() lftest.Package {
	tT := lf.TypeConApp{ID: lf.TypeConID{PackageID: lftest.SelfID, Module: "Main", Name: "T"}}
	tShow := lf.TypeConApp{ID: lf.TypeConID{PackageID: lftest.SelfID, Module: "Main", Name: "Show"}}
	watcher := &lf.ECons{Type: revParty, Front: []lf.Expr{&lf.ERecProj{Type: tShow, Field: "watcher", Record: &lf.EVar{Name: "arg"}}},
		Tail: &lf.ENil{Type: revParty}}
	body := &lf.EUpdate{Update: &lf.UCreate{Template: tT.ID, Expr: &lf.EVar{Name: "this"}}}
	return lftest.Package{Name: "watch", Version: "1.0.0", Imports: []string{}, Modules: []lftest.Module{{Name: "Main",
		DataTypes: []lftest.DataType{
			{Name: "T", Serializable: true, Fields: []lftest.Field{{Name: "owner", Type: lftest.B(lftest.Party)}}},
			{Name: "Show", Serializable: true, Fields: []lftest.Field{{Name: "watcher", Type: lftest.B(lftest.Party)}}},
		},
		Templates: []lftest.Template{{Name: "T", Choices: []lftest.Choice{{Name: "Show", Consuming: true,
			Arg: lftest.Con(lftest.Self(), "Main", "Show"), Ret: lftest.CID(lftest.Con(lftest.Self(), "Main", "T")), Observers: watcher, Update: body}}}},
	}}}
}

// TestAcsDeltaForWitness: bob, a choice observer but no stakeholder,
// sees alice's consuming exercise and the create under it in
// LEDGER_EFFECTS; Canton sets acsDelta only when a requesting witness is
// a stakeholder (acsDeltaForWitnesses, TransactionLogUpdatesConversions:
// requestingParties ∩ flatEventWitnesses ≠ ∅), so both are false for bob.
func TestAcsDeltaForWitness(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := t.Context()
	d, ids := lftest.DAR(watchPackage())
	ledgertest.MustUploadDAR(t, n, d)
	alice, bob := ledgertest.MustAllocate(t, n, "alice"), ledgertest.MustAllocate(t, n, "bob")
	tid := ids[0] + ":Main:T"
	c, err := jsonapi.DecodeAnswer[jsonapi.SubmitAndWaitForTransactionResponse](jsonapi.New(n).SubmitAndWaitForTransaction(ctx, jsonapi.SubmitAndWaitForTransactionRequest{Commands: jsonapi.JsCommands{CommandID: "c1", ActAs: []string{alice}, UserID: "u1",
		Commands: []jsonapi.JsCommand{{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: tid, CreateArguments: json.RawMessage(`{"owner": "` + alice + `"}`)}}}}}))
	if err != nil {
		t.Fatal(err)
	}
	cid := c.Transaction.Events[0].CreatedEvent.ContractID
	resp, err := jsonapi.DecodeAnswer[jsonapi.SubmitAndWaitForTransactionResponse](jsonapi.New(n).SubmitAndWaitForTransaction(ctx, jsonapi.SubmitAndWaitForTransactionRequest{Commands: jsonapi.JsCommands{CommandID: "c2", ActAs: []string{alice}, UserID: "u1",
		Commands: []jsonapi.JsCommand{{ExerciseCommand: &jsonapi.JsExerciseCommand{TemplateID: tid, ContractID: cid, Choice: "Show",
			ChoiceArgument: json.RawMessage(`{"watcher": "` + bob + `"}`)}}}},
		TransactionFormat: ledgerEffects(bob)}))
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Transaction.Events) != 2 {
		t.Fatalf("bob sees %d events, want the exercise and the create under it", len(resp.Transaction.Events))
	}
	if x := resp.Transaction.Events[0].ExercisedEvent; x == nil || x.ACSDelta {
		t.Errorf("exercised event for bob (not a stakeholder): acsDelta %v, want false", x != nil && x.ACSDelta)
	}
	if cr := resp.Transaction.Events[1].CreatedEvent; cr == nil || cr.ACSDelta {
		t.Errorf("created event for bob (not a stakeholder): acsDelta %v, want false", cr != nil && cr.ACSDelta)
	}
}
