package ledger_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
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
	fmt.Println(strings.HasPrefix(resp.Party, "alice::1220"), resp.IsLocal)

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
	if err := node.UploadDAR(ctx, ledger.UploadDARRequest{DAR: dar}); err != nil {
		panic(err)
	}
	return node, alice.Party, ids[0] + ":Main:T"
}

// Page through a party's transactions up to the ledger end; Updates
// fetches the pages as the loop goes.
func ExampleNode_Updates() {
	node, alice, template := exampleNode()
	defer node.Close()
	ctx := context.Background()
	for i := range 3 {
		args, _ := json.Marshal(map[string]string{"owner": alice, "text": fmt.Sprint("note ", i)})
		if _, err := jsonapi.New(node).SubmitAndWait(ctx, jsonapi.JsCommands{CommandID: fmt.Sprint("note-", i), ActAs: []string{alice},
			Commands: []jsonapi.JsCommand{{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: template, CreateArguments: args}}}}); err != nil {
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

// Submit commands with typed values: alice creates a Ping (Canton's
// built-in Ping template, built here with lftest) for bob, and bob
// responds. Arguments are records by field names; the committed
// transaction comes back as the daml/tx tree.
func ExampleNode_Submit() {
	ctx := context.Background()
	node, err := ledger.Open(ledger.Options{InMemory: true})
	if err != nil {
		panic(err)
	}
	defer node.Close()
	dar, _ := lftest.DAR(examplePingPackage())
	if err := node.UploadDAR(ctx, ledger.UploadDARRequest{DAR: dar}); err != nil {
		panic(err)
	}
	party := func(hint string) string {
		resp, err := node.AllocateParty(ctx, ledger.AllocatePartyRequest{PartyIDHint: hint})
		if err != nil {
			panic(err)
		}
		return resp.Party
	}
	alice, bob := party("alice"), party("bob")
	ping := ledger.MustParseTemplateRef("#ping:Ping:Ping")

	created, err := node.Submit(ctx, ledger.Commands{ActAs: []string{alice}, CommandID: "ping-1",
		Commands: []ledger.Command{ledger.CreateCommand{Template: ping, Arguments: value.Record{Fields: []value.RecordField{
			{Label: "id", Value: value.Text("ping-1")},
			{Label: "initiator", Value: value.Party(alice)},
			{Label: "responder", Value: value.Party(bob)},
		}}}}})
	if err != nil {
		panic(err)
	}
	c := created.Created()[0]
	fmt.Println("created", c.TemplateID.Module+":"+c.TemplateID.Name, "at offset", created.Offset)

	responded, err := node.Submit(ctx, ledger.Commands{ActAs: []string{bob}, CommandID: "pong-1",
		Commands: []ledger.Command{ledger.ExerciseCommand{Template: ping, ContractID: c.ContractID, Choice: "Respond"}}})
	if err != nil {
		panic(err)
	}
	x := responded.Transaction.Node(responded.Transaction.Roots[0]).(*tx.Exercise)
	fmt.Println(x.Choice, "by bob:", x.ActingParties[0] == bob, "consuming:", x.Consuming)

	_, err = node.Submit(ctx, ledger.Commands{ActAs: []string{bob}, CommandID: "pong-2",
		Commands: []ledger.Command{ledger.ExerciseCommand{Template: ping, ContractID: c.ContractID, Choice: "Respond"}}})
	var apiErr *apierr.Error
	if errors.As(err, &apiErr) {
		fmt.Println("again:", apiErr.Code.Name)
	}
	// Output:
	// created Ping:Ping at offset 3
	// Respond by bob: true consuming: true
	// again: CONTRACT_NOT_FOUND
}

// examplePingPackage is Canton's built-in Ping (Canton.Internal.Ping) as
// package "ping": Ping:Ping {id, initiator, responder}, signatory
// initiator, observer responder, and the consuming choice Respond : ()
// of the responder.
func examplePingPackage() lftest.Package {
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
