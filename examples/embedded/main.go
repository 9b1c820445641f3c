// Command embedded shows in-process use of ledgernode: open a node in
// memory, allocate parties, upload a DAR, submit commands with typed Daml
// values (alice pings bob, bob responds), walk the committed transaction
// trees and page through the ledger — no HTTP, no JSON involved.
//
//	go run ./examples/embedded
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/update"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, out io.Writer) error {
	node, err := ledger.Open(ledger.Options{InMemory: true})
	if err != nil {
		return err
	}
	defer node.Close()

	// A real application uploads the DAR its Daml compiler built; this
	// example builds Canton's Ping template in memory instead.
	dar, _ := lftest.DAR(pingPackage())
	if err := node.UploadDAR(ctx, ledger.UploadDARRequest{DAR: dar}); err != nil {
		return err
	}
	alice, err := allocate(ctx, node, "alice")
	if err != nil {
		return err
	}
	bob, err := allocate(ctx, node, "bob")
	if err != nil {
		return err
	}

	// Arguments are Daml values, records by field names; the template is
	// named by package name, resolved to the newest vetted version.
	ping := ledger.TemplateByName("ping", "Ping", "Ping")
	created, err := node.Submit(ctx, ledger.Commands{ActAs: []string{alice}, CommandID: "ping-1",
		Commands: []ledger.Command{ledger.CreateCommand{Template: ping, Arguments: value.Record{Fields: []value.RecordField{
			{Label: "id", Value: value.Text("ping-1")},
			{Label: "initiator", Value: value.Party(alice)},
			{Label: "responder", Value: value.Party(bob)},
		}}}}})
	if err != nil {
		return err
	}
	printTree(out, created)

	cid := created.Created()[0].ContractID
	responded, err := node.Submit(ctx, ledger.Commands{ActAs: []string{bob}, CommandID: "pong-1",
		Commands: []ledger.Command{ledger.ExerciseCommand{Template: ping, ContractID: cid, Choice: "Respond"}}})
	if err != nil {
		return err
	}
	printTree(out, responded)

	format := ledger.ReadAs(bob)
	format.Shape = ledger.LedgerEffects
	// Through nil: up to the ledger end at the time of the call.
	for u, err := range node.Updates(ctx, ledger.UpdateReadFormat{Transactions: &format}, ledger.OffsetRange{}) {
		if err != nil {
			return err
		}
		if t, ok := u.(*update.Transaction); ok {
			fmt.Fprintf(out, "bob's update at offset %d: %d event(s)\n", t.Offset, len(t.Events))
		}
	}
	return nil
}

// printTree prints a committed transaction's nodes with their values.
func printTree(out io.Writer, c *ledger.Committed) {
	fmt.Fprintf(out, "offset %d:\n", c.Offset)
	c.Transaction.Walk(func(_ tx.NodeID, n tx.Node, _ bool) bool {
		switch x := n.(type) {
		case *tx.Create:
			fmt.Fprintf(out, "  create %s:%s %s\n", x.TemplateID.Module, x.TemplateID.Name, show(x.Arg))
		case *tx.Exercise:
			fmt.Fprintf(out, "  exercise %s by %s, consuming %t\n", x.Choice, show(value.List{value.Party(x.ActingParties[0])}), x.Consuming)
		}
		return true
	})
}

// show prints a value with party ids cut to their hints.
func show(v value.Value) string {
	switch x := v.(type) {
	case value.Record:
		parts := make([]string, len(x.Fields))
		for i, f := range x.Fields {
			parts[i] = f.Label + ": " + show(f.Value)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case value.List:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = show(e)
		}
		return strings.Join(parts, ", ")
	case value.Party:
		hint, _, _ := strings.Cut(string(x), "::")
		return hint
	case value.Text:
		return fmt.Sprintf("%q", string(x))
	}
	return fmt.Sprint(v)
}

func allocate(ctx context.Context, node *ledger.Node, hint string) (string, error) {
	d, err := node.AllocateParty(ctx, ledger.AllocatePartyRequest{PartyIDHint: hint})
	if err != nil {
		return "", err
	}
	return d.Party, nil
}

// pingPackage is Canton's built-in Ping (Canton.Internal.Ping) as package
// "ping": Ping:Ping {id, initiator, responder}, signatory initiator,
// observer responder, and the consuming choice Respond : () of the
// responder.
func pingPackage() lftest.Package {
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
