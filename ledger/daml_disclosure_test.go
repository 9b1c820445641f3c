package ledger_test

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"testing"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// rulesPackage has a template Main:Rules {owner} with a non-consuming
// choice Look whose controller is its argument: anyone who can see the
// contract may exercise it (as Splice's AmuletRules).
func rulesPackage() lftest.Package {
	party := &lf.TBuiltin{Builtin: lf.BuiltinParty}
	return lftest.Package{Name: "rules", Version: "1.0.0", Imports: []string{}, Modules: []lftest.Module{{Name: "Main",
		DataTypes: []lftest.DataType{{Name: "Rules", Serializable: true, Fields: []lftest.Field{{Name: "owner", Type: lftest.B(lftest.Party)}}}},
		Templates: []lftest.Template{{Name: "Rules", Choices: []lftest.Choice{{Name: "Look", Arg: lftest.B(lftest.Party), Ret: lftest.B(lftest.Unit),
			Controllers: &lf.ECons{Type: party, Front: []lf.Expr{&lf.EVar{Name: "arg"}}, Tail: &lf.ENil{Type: party}}}}}},
	}}}
}

// TestDisclosedContracts: the owner reads her contract's createdEventBlob
// (Canton's encoding, which decodes to the contract); carol, no
// stakeholder, cannot use the contract until she discloses it, and a blob
// that does not match the ledger's contract is refused.
func TestDisclosedContracts(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := t.Context()
	d, ids := lftest.DAR(rulesPackage())
	ledgertest.MustUploadDAR(t, n, d)
	alice, carol := ledgertest.MustAllocate(t, n, "alice"), ledgertest.MustAllocate(t, n, "carol")
	tid := ids[0] + ":Main:Rules"
	resp, err := jsonapi.DecodeAnswer[jsonapi.SubmitAndWaitForTransactionResponse](jsonapi.New(n).SubmitAndWaitForTransaction(ctx, jsonapi.SubmitAndWaitForTransactionRequest{
		Commands: jsonapi.JsCommands{CommandID: "c1", ActAs: []string{alice}, UserID: "u1",
			Commands: []jsonapi.JsCommand{{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: tid, CreateArguments: json.RawMessage(`{"owner": "` + alice + `"}`)}}}},
		TransactionFormat: &jsonapi.TransactionFormat{TransactionShape: jsonapi.ShapeACSDelta, EventFormat: jsonapi.EventFormat{
			FiltersByParty: map[string]jsonapi.Filters{alice: {Cumulative: []jsonapi.CumulativeFilter{{IdentifierFilter: jsonapi.IdentifierFilter{
				WildcardFilter: &jsonapi.Wrapped[jsonapi.WildcardFilterValue]{Value: jsonapi.WildcardFilterValue{IncludeCreatedEventBlob: true}}}}}}}}},
	}))
	if err != nil {
		t.Fatal(err)
	}
	ev := resp.Transaction.Events[0].CreatedEvent
	raw, err := base64.StdEncoding.DecodeString(ev.CreatedEventBlob)
	if err != nil || len(raw) == 0 {
		t.Fatalf("createdEventBlob %q: %v", ev.CreatedEventBlob, err)
	}
	blob, err := tx.DecodeContractBlob(raw)
	if err != nil {
		t.Fatalf("the blob does not decode: %v", err)
	}
	if string(blob.Create.ContractID) != ev.ContractID || blob.Create.TemplateID.String() != tid || blob.Create.PackageName != "rules" {
		t.Errorf("blob %+v for event %+v", blob.Create, ev)
	}
	look := func(cmdID string, dcs []jsonapi.JsDisclosedContract) error {
		_, err := jsonapi.New(n).SubmitAndWait(ctx, jsonapi.JsCommands{CommandID: cmdID, ActAs: []string{carol}, UserID: "u1", DisclosedContracts: dcs,
			Commands: []jsonapi.JsCommand{{ExerciseCommand: &jsonapi.JsExerciseCommand{TemplateID: tid, ContractID: ev.ContractID,
				Choice: "Look", ChoiceArgument: json.RawMessage(`"` + carol + `"`)}}}})
		return err
	}
	if err := look("hidden", nil); !errors.Is(err, apierr.ContractNotFound) {
		t.Errorf("carol without disclosure: %v, want CONTRACT_NOT_FOUND", err)
	}
	if err := look("disclosed", []jsonapi.JsDisclosedContract{{TemplateID: tid, ContractID: ev.ContractID, CreatedEventBlob: ev.CreatedEventBlob}}); err != nil {
		t.Errorf("carol with the disclosed contract: %v", err)
	}
	// A forged blob: the same contract id with another owner.
	forged := blob.Create
	forged.Arg = rewriteOwner(t, forged.Arg, carol)
	forged.Signatories, forged.Stakeholders = []string{carol}, []string{carol}
	fb, err := tx.EncodeContractBlob(&forged, blob.CreatedAt, blob.AuthData)
	if err != nil {
		t.Fatal(err)
	}
	err = look("forged", []jsonapi.JsDisclosedContract{{CreatedEventBlob: base64.StdEncoding.EncodeToString(fb)}})
	var ae *apierr.Error
	if !errors.As(err, &ae) || ae.Code.Name != "INTERPRETATION_UPGRADE_ERROR_AUTHENTICATION_FAILED" {
		t.Errorf("a forged disclosed contract: %v", err)
	}
}

// rewriteOwner returns a one-field record {owner} with another party.
func rewriteOwner(t *testing.T, v value.Value, owner string) value.Value {
	t.Helper()
	r, ok := v.(value.Record)
	if !ok || len(r.Fields) != 1 {
		t.Fatalf("argument %#v", v)
	}
	return value.Record{RecordID: r.RecordID, Fields: []value.RecordField{{Label: r.Fields[0].Label, Value: value.Party(owner)}}}
}
