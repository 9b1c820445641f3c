package ledger_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// keyPackage is an LF 2.3 package: template Main:K {owner: Party, n:
// Int64} keyed by its owner (maintainer), with a consuming choice Go.
func keyPackage() lftest.Package {
	party := &lf.TBuiltin{Builtin: lf.BuiltinParty}
	k := lf.TypeConApp{ID: lf.TypeConID{Module: "Main", Name: "K"}}
	return lftest.Package{Minor: "3", Name: "keys", Version: "1.0.0", Imports: []string{}, Modules: []lftest.Module{{Name: "Main",
		DataTypes: []lftest.DataType{{Name: "K", Serializable: true, Fields: []lftest.Field{{Name: "owner", Type: lftest.B(lftest.Party)}, {Name: "n", Type: lftest.B(lftest.Int64)}}}},
		Templates: []lftest.Template{{Name: "K", Key: lftest.B(lftest.Party),
			KeyBody:        &lf.ERecProj{Type: k, Field: "owner", Record: &lf.EVar{Name: "this"}},
			KeyMaintainers: &lf.EAbs{Params: []lf.VarWithType{{Name: "key", Type: party}}, Body: &lf.ECons{Type: party, Front: []lf.Expr{&lf.EVar{Name: "key"}}, Tail: &lf.ENil{Type: party}}},
			Choices:        []lftest.Choice{{Name: "Go", Consuming: true, Arg: lftest.B(lftest.Unit), Ret: lftest.B(lftest.Unit)}}}},
	}}}
}

// TestExerciseByKey runs ExerciseByKeyCommand on LF 2.3 keys: the key is
// shown on the created event, the newest contract with the key is
// exercised, and a key with no active contract is CONTRACT_KEY_NOT_FOUND.
func TestExerciseByKey(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := t.Context()
	d, ids := lftest.DAR(keyPackage())
	ledgertest.MustUploadDAR(t, n, d)
	alice := ledgertest.MustAllocate(t, n, "alice")
	tid := ids[0] + ":Main:K"
	submit := func(cmdID string, c jsonapi.JsCommand) (jsonapi.JsTransactionTree, error) {
		resp, err := jsonapi.DecodeAnswer[jsonapi.SubmitAndWaitForTransactionTreeResponse](jsonapi.New(n).SubmitAndWaitForTransactionTree(ctx, jsonapi.JsCommands{CommandID: cmdID, ActAs: []string{alice}, UserID: "u1", Commands: []jsonapi.JsCommand{c}}))
		return resp.TransactionTree, err
	}
	var cids []string
	for i, arg := range []string{`1`, `2`} {
		tree, err := submit("c"+arg, jsonapi.JsCommand{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: tid,
			CreateArguments: json.RawMessage(`{"owner": "` + alice + `", "n": "` + arg + `"}`)}})
		if err != nil {
			t.Fatalf("create %d: %v", i, err)
		}
		ev := tree.EventsByID["0"].CreatedTreeEvent.Value
		if string(ev.ContractKey) != `"`+alice+`"` {
			t.Errorf("contract key %s", ev.ContractKey)
		}
		cids = append(cids, ev.ContractID)
	}
	if got := keyIndexEntries(t, n); got != 2 {
		t.Errorf("%d key index entries after two creates, want 2", got)
	}
	byKey := jsonapi.JsCommand{ExerciseByKeyCommand: &jsonapi.JsExerciseByKeyCommand{TemplateID: tid, ContractKey: json.RawMessage(`"` + alice + `"`),
		Choice: "Go", ChoiceArgument: json.RawMessage(`{}`)}}
	// The newest contract first, then the other, then none.
	for i, want := range []string{cids[1], cids[0]} {
		tree, err := submit("x"+string(rune('0'+i)), byKey)
		if err != nil {
			t.Fatalf("exercise by key %d: %v", i, err)
		}
		var x *jsonapi.JsExercisedEvent
		for _, ev := range tree.EventsByID {
			if ev.ExercisedTreeEvent != nil {
				x = &ev.ExercisedTreeEvent.Value
			}
		}
		if x == nil || x.ContractID != want || !x.Consuming {
			t.Errorf("exercise by key %d: %+v, want %s", i, tree.EventsByID, want)
		}
	}
	// Archiving a contract removes its key index entry: the committer's
	// digest of the stored key is the one taken at the creation.
	if got := keyIndexEntries(t, n); got != 0 {
		t.Errorf("%d key index entries after both contracts were archived, want 0", got)
	}
	_, err := submit("x-none", byKey)
	var ae *apierr.Error
	if !errors.As(err, &ae) || ae.Code.Name != "CONTRACT_KEY_NOT_FOUND" {
		t.Errorf("no contract with the key: %v", err)
	}
}

// keyIndexEntries counts the entries of the contract key index
// (store.PrefixContractKey, "y/").
func keyIndexEntries(t *testing.T, n *ledger.Node) int {
	t.Helper()
	count := 0
	for k := range ledger.StoreDumpForTest(t, n) {
		if strings.HasPrefix(k, "y/") {
			count++
		}
	}
	return count
}
