package ledger_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// pingNode is a node with Canton's Ping DAR and two parties.
type pingNode struct {
	*fixture
	pingID string
}

func newPingNode(t *testing.T) *pingNode {
	t.Helper()
	data := realDAR(t, "canton-builtin-admin-workflow-ping.dar")
	pkg := ledgertest.MainPackageID(t, data)
	f := &fixture{n: ledgertest.Open(t, ledger.Options{}), ctx: t.Context()}
	ledgertest.MustUploadDAR(t, f.n, data)
	f.alice, f.bob = ledgertest.MustAllocate(t, f.n, "alice"), ledgertest.MustAllocate(t, f.n, "bob")
	return &pingNode{fixture: f, pingID: pkg + ":Canton.Internal.Ping:Ping"}
}

func (f *pingNode) createPing(t *testing.T, id string) jsonapi.JsCreatedEvent {
	t.Helper()
	resp, err := jsonapi.DecodeAnswer[jsonapi.SubmitAndWaitForTransactionResponse](jsonapi.New(f.n).SubmitAndWaitForTransaction(f.ctx, jsonapi.SubmitAndWaitForTransactionRequest{Commands: jsonapi.JsCommands{
		CommandID: "create-" + id, ActAs: []string{f.alice}, UserID: "u1",
		Commands: []jsonapi.JsCommand{{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: f.pingID,
			CreateArguments: json.RawMessage(fmt.Sprintf(`{"id": %q, "initiator": %q, "responder": %q}`, id, f.alice, f.bob))}}},
	}}))
	if err != nil {
		t.Fatalf("create Ping: %v", err)
	}
	if len(resp.Transaction.Events) != 1 || resp.Transaction.Events[0].CreatedEvent == nil {
		t.Fatalf("events %+v", resp.Transaction.Events)
	}
	return *resp.Transaction.Events[0].CreatedEvent
}

// TestPingRuns runs Canton's Ping through the engine: alice's Ping has
// bob as observer; alice may not respond; bob's Respond archives it.
func TestPingRuns(t *testing.T) {
	t.Parallel()
	f := newPingNode(t)
	ev := f.createPing(t, "p1")
	if diff := cmp.Diff([]string{f.alice}, ev.Signatories); diff != "" {
		t.Errorf("signatories: %s", diff)
	}
	if diff := cmp.Diff([]string{f.bob}, ev.Observers); diff != "" {
		t.Errorf("observers: %s", diff)
	}
	respond := func(cmdID, actAs string) (jsonapi.SubmitAndWaitForTransactionTreeResponse, error) {
		return jsonapi.DecodeAnswer[jsonapi.SubmitAndWaitForTransactionTreeResponse](jsonapi.New(f.n).SubmitAndWaitForTransactionTree(f.ctx, jsonapi.JsCommands{CommandID: cmdID, ActAs: []string{actAs}, UserID: "u1",
			Commands: []jsonapi.JsCommand{{ExerciseCommand: &jsonapi.JsExerciseCommand{TemplateID: f.pingID, ContractID: ev.ContractID,
				Choice: "Respond", ChoiceArgument: json.RawMessage(`{}`)}}}}))
	}
	if _, err := respond("r-alice", f.alice); !errors.Is(err, apierr.DamlAuthorizationError) {
		t.Fatalf("alice's Respond: %v, want DAML_AUTHORIZATION_ERROR", err)
	}
	tree, err := respond("r-bob", f.bob)
	if err != nil {
		t.Fatalf("bob's Respond: %v", err)
	}
	x := tree.TransactionTree.EventsByID["0"].ExercisedTreeEvent
	if x == nil {
		t.Fatalf("tree %+v", tree.TransactionTree.EventsByID)
	}
	if !x.Value.Consuming || string(x.Value.ExerciseResult) != "{}" || !cmp.Equal(x.Value.ActingParties, []string{f.bob}) {
		t.Errorf("exercise %+v", x.Value)
	}
	if _, err := respond("r-bob-2", f.bob); !errors.Is(err, apierr.ContractNotFound) {
		t.Errorf("a second Respond: %v, want CONTRACT_NOT_FOUND (the Ping is archived)", err)
	}
}
