package ledger_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
)

// Open an in-memory node, allocate a party, and handle a rejected request.
func Example() {
	ctx := context.Background()
	node, err := ledger.Open(ledger.Options{InMemory: true, ParticipantID: "example"})
	if err != nil {
		panic(err)
	}
	defer node.Close()

	resp, err := node.AllocateParty(ctx, ledger.AllocatePartyRequest{PartyIDHint: "alice"})
	if err != nil {
		panic(err)
	}
	fmt.Println(strings.HasPrefix(resp.PartyDetails.Party, "alice::1220"), resp.PartyDetails.IsLocal)

	_, err = node.AllocateParty(ctx, ledger.AllocatePartyRequest{PartyIDHint: "alice"})
	var apiErr *apierr.Error
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.Code.Name, apiErr.HTTPStatus())
	}

	end, _ := node.LedgerEnd(ctx)
	fmt.Println("ledger end", end.Offset)
	// Output:
	// true true
	// INVALID_ARGUMENT 400
	// ledger end 1
}

// Calls made with a Principal are authorized as that user; a context
// without one is a trusted in-process caller.
func ExampleWithPrincipal() {
	ctx := context.Background()
	node, err := ledger.Open(ledger.Options{InMemory: true})
	if err != nil {
		panic(err)
	}
	defer node.Close()

	reader := ledger.WithPrincipal(ctx, identity.Principal{UserID: "reader",
		Rights: []identity.Right{{Kind: identity.RightCanReadAsAnyParty}}})
	_, err = node.AllocateParty(reader, ledger.AllocatePartyRequest{PartyIDHint: "bob"})
	fmt.Println(errors.Is(err, apierr.PermissionDenied))
	// Output: true
}

// exampleNode opens an in-memory node with a party and a package of one
// template, Main:Note {owner: Party, text: Text}, uploaded.
func exampleNode() (node *ledger.Node, party, templateID string) {
	node, err := ledger.Open(ledger.Options{InMemory: true})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	alice, err := node.AllocateParty(ctx, ledger.AllocatePartyRequest{PartyIDHint: "alice"})
	if err != nil {
		panic(err)
	}
	dar, ids := lftest.DAR(lftest.TemplatePackage("notes", "1.0.0", nil,
		lftest.Field{Name: "owner", Type: lftest.B(lftest.Party)}, lftest.Field{Name: "text", Type: lftest.B(lftest.Text)}))
	if _, err := node.UploadDAR(ctx, ledger.UploadDARRequest{DAR: dar}); err != nil {
		panic(err)
	}
	return node, alice.PartyDetails.Party, ids[0] + ":Main:T"
}

// Submit a create command and wait for its completion; submitting the same
// command id again is deduplicated.
func ExampleNode_SubmitAndWait() {
	node, alice, template := exampleNode()
	defer node.Close()
	ctx := context.Background()

	args, _ := json.Marshal(map[string]string{"owner": alice, "text": "hello"})
	cmds := ledger.JsCommands{CommandID: "note-1", UserID: "app", ActAs: []string{alice},
		Commands: []ledger.JsCommand{{CreateCommand: &ledger.JsCreateCommand{TemplateID: template, CreateArguments: args}}}}
	resp, err := node.SubmitAndWait(ctx, cmds)
	if err != nil {
		panic(err)
	}
	fmt.Println("completed at offset", resp.CompletionOffset, len(resp.UpdateID) > 0)

	_, err = node.SubmitAndWait(ctx, cmds)
	var apiErr *apierr.Error
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.Code.Name, apiErr.HTTPStatus())
	}
	// Output:
	// completed at offset 2 true
	// DUPLICATE_COMMAND 409
}

// Page through a party's transactions up to the ledger end; Updates
// fetches the pages as the loop goes.
func ExampleNode_Updates() {
	node, alice, template := exampleNode()
	defer node.Close()
	ctx := context.Background()
	for i := range 3 {
		args, _ := json.Marshal(map[string]string{"owner": alice, "text": fmt.Sprint("note ", i)})
		if _, err := node.SubmitAndWait(ctx, ledger.JsCommands{CommandID: fmt.Sprint("note-", i), ActAs: []string{alice},
			Commands: []ledger.JsCommand{{CreateCommand: &ledger.JsCreateCommand{TemplateID: template, CreateArguments: args}}}}); err != nil {
			panic(err)
		}
	}

	end, _ := node.LedgerEnd(ctx)
	format := ledger.UpdateFormat{IncludeTransactions: &ledger.TransactionFormat{TransactionShape: ledger.ShapeACSDelta,
		EventFormat: ledger.EventFormat{FiltersByParty: map[string]ledger.Filters{alice: {}}}}}
	for u, err := range node.Updates(ctx, ledger.GetUpdatesPageRequest{EndOffsetInclusive: &end.Offset, UpdateFormat: format}) {
		if err != nil {
			panic(err)
		}
		var arg struct{ Text string }
		json.Unmarshal(u.Transaction.Value.Events[0].CreatedEvent.CreateArgument, &arg)
		fmt.Println(u.Offset(), arg.Text)
	}
	// Output:
	// 2 note 0
	// 3 note 1
	// 4 note 2
}
