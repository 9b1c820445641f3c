package ledger_test

import (
	"context"
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
	"github.com/ledgernode/ledgernode/ledger/update"
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
	fmt.Println("ledger end", end)
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

// Page through a party's updates with typed values: alice creates two
// Pings for bob, bob responds to the first; alice's transactions (ACS
// delta) come two per page, the next page asked for with the token of the
// previous one.
func ExampleNode_UpdatesPage() {
	ctx := context.Background()
	node, alice, bob := examplePings(ctx, "ping-1", "ping-2")
	defer node.Close()
	respondTo(ctx, node, bob, "ping-1")

	format := ledger.ReadAs(alice)
	var token []byte
	for {
		page, err := node.UpdatesPage(ctx, ledger.UpdateReadFormat{Transactions: &format}, ledger.OffsetRange{}, new(int32(2)), token)
		if err != nil {
			panic(err)
		}
		fmt.Println("page of", len(page.Updates))
		for _, u := range page.Updates {
			for _, e := range u.(*update.Transaction).Events {
				switch e := e.(type) {
				case *update.CreatedEvent:
					fmt.Println(u.UpdateOffset(), "created", e.TemplateID.Name, field(e.Argument, "id"))
				case *update.ArchivedEvent:
					fmt.Println(u.UpdateOffset(), "archived", e.TemplateID.Name)
				}
			}
		}
		if token = page.NextToken; token == nil {
			break
		}
	}
	// Output:
	// page of 2
	// 3 created Ping ping-1
	// 4 created Ping ping-2
	// page of 1
	// 5 archived Ping
}

// Read the active contracts as bob: the Ping he has not responded to.
func ExampleNode_ActiveContractEvents() {
	ctx := context.Background()
	node, alice, bob := examplePings(ctx, "ping-1", "ping-2")
	defer node.Close()
	respondTo(ctx, node, bob, "ping-1")

	for c, err := range node.ActiveContractEvents(ctx, ledger.ReadAs(bob), 0) {
		if err != nil {
			panic(err)
		}
		fmt.Println(c.TemplateID.Name, field(c.Argument, "id"), "signed by alice:", c.Signatories[0] == alice, "seen by bob:", c.WitnessParties[0] == bob)
	}
	// Output:
	// Ping ping-2 signed by alice: true seen by bob: true
}

// examplePings opens an in-memory node with the Ping package, alice and
// bob, and alice's Pings for bob with these ids.
func examplePings(ctx context.Context, ids ...string) (node *ledger.Node, alice, bob string) {
	node, err := ledger.Open(ledger.Options{InMemory: true})
	if err != nil {
		panic(err)
	}
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
	alice, bob = party("alice"), party("bob")
	for _, id := range ids {
		if _, err := node.Submit(ctx, ledger.Commands{ActAs: []string{alice}, CommandID: id,
			Commands: []ledger.Command{ledger.CreateCommand{Template: examplePing, Arguments: value.Record{Fields: []value.RecordField{
				{Label: "id", Value: value.Text(id)},
				{Label: "initiator", Value: value.Party(alice)},
				{Label: "responder", Value: value.Party(bob)},
			}}}}}); err != nil {
			panic(err)
		}
	}
	return node, alice, bob
}

// examplePing is the Ping template by package name.
var examplePing = ledger.MustParseTemplateRef("#ping:Ping:Ping")

// respondTo has bob respond to the Ping with that id, found among his
// active contracts.
func respondTo(ctx context.Context, node *ledger.Node, bob, id string) {
	for c, err := range node.ActiveContractEvents(ctx, ledger.ReadAs(bob), 0) {
		if err != nil {
			panic(err)
		}
		if field(c.Argument, "id") == value.Text(id) {
			if _, err := node.Submit(ctx, ledger.Commands{ActAs: []string{bob}, CommandID: "respond-" + id,
				Commands: []ledger.Command{ledger.ExerciseCommand{Template: examplePing, ContractID: c.ContractID, Choice: "Respond"}}}); err != nil {
				panic(err)
			}
			return
		}
	}
	panic("no Ping " + id)
}

// field is the field of a record value with that label.
func field(v value.Value, label string) value.Value {
	r, _ := v.(value.Record)
	for _, f := range r.Fields {
		if f.Label == label {
			return f.Value
		}
	}
	return nil
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
