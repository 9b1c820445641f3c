package ledger_test

import (
	"context"
	"fmt"

	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// Read the active contracts and page through a party's transactions with
// typed values: arguments are records with their type id and field labels,
// decoded with the node's packages.
func ExampleNode_Transactions() {
	node, alice, template := exampleNode()
	defer node.Close()
	ctx := context.Background()
	note := ledger.MustParseTemplateRef(template)
	for i := range 3 {
		if _, err := node.Submit(ctx, ledger.Commands{ActAs: []string{alice}, CommandID: fmt.Sprint("note-", i),
			Commands: []ledger.Command{ledger.CreateCommand{Template: note, Arguments: value.Record{Fields: []value.RecordField{
				{Label: "owner", Value: value.Party(alice)}, {Label: "text", Value: value.Text(fmt.Sprint("note ", i))}}}}}}); err != nil {
			panic(err)
		}
	}
	text := func(arg value.Value) value.Value {
		for _, f := range arg.(value.Record).Fields {
			if f.Label == "text" {
				return f.Value
			}
		}
		return nil
	}

	format := ledger.ReadFormat{Parties: map[string][]ledger.Filter{alice: {ledger.TemplateFilter(note, false)}}}
	// Every transaction up to the ledger end; the pages are fetched as
	// the loop goes. (OffsetRange{Tail: true} would wait for new ones.)
	for tr, err := range node.Transactions(ctx, format, ledger.OffsetRange{}) {
		if err != nil {
			panic(err)
		}
		for _, ev := range tr.Events {
			if c, ok := ev.(*update.CreatedEvent); ok {
				fmt.Println("offset", tr.Offset, tr.CommandID, c.TemplateID.Name, text(c.Argument))
			}
		}
	}
	// The active contracts at the ledger end (0), in contract-id order.
	n := 0
	for c, err := range node.ActiveContractEvents(ctx, format, 0) {
		if err != nil {
			panic(err)
		}
		rec := c.Argument.(value.Record)
		n++
		fmt.Println(n, rec.RecordID.Name, rec.Fields[0].Label, rec.Fields[1].Label, c.CreatedAt.IsZero())
	}
	// Output:
	// offset 2 note-0 T note 0
	// offset 3 note-1 T note 1
	// offset 4 note-2 T note 2
	// 1 T owner text false
	// 2 T owner text false
	// 3 T owner text false
}
