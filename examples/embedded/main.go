// Command embedded shows in-process use of ledgernode: open a node in
// memory, allocate a party, upload a DAR, create a contract and page
// through the ledger — no HTTP involved.
//
//	go run ./examples/embedded
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/ledger"
)

func main() {
	if err := run(context.Background()); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context) error {
	node, err := ledger.Open(ledger.Options{InMemory: true})
	if err != nil {
		return err
	}
	defer node.Close()

	alice, err := node.AllocateParty(ctx, ledger.AllocatePartyRequest{PartyIDHint: "alice"})
	if err != nil {
		return err
	}
	party := alice.PartyDetails.Party

	// A real application uploads the DAR its Daml compiler built; this
	// example builds a one-template package in memory instead.
	dar, ids := lftest.DAR(lftest.Package{Name: "demo", Version: "1.0.0", Imports: []string{}, Modules: []lftest.Module{{Name: "Main",
		DataTypes: []lftest.DataType{{Name: "Note", Serializable: true, Fields: []lftest.Field{
			{Name: "owner", Type: lftest.B(lftest.Party)}, {Name: "text", Type: lftest.B(lftest.Text)}}}},
		Templates: []lftest.Template{{Name: "Note"}}}}})
	if _, err := node.UploadDAR(ctx, ledger.UploadDARRequest{DAR: dar}); err != nil {
		return err
	}

	for i := range 3 {
		args, _ := json.Marshal(map[string]string{"owner": party, "text": fmt.Sprintf("note %d", i)})
		resp, err := node.SubmitAndWait(ctx, ledger.JsCommands{CommandID: fmt.Sprintf("note-%d", i), ActAs: []string{party},
			Commands: []ledger.JsCommand{{CreateCommand: &ledger.JsCreateCommand{TemplateID: "#demo:Main:Note", CreateArguments: args}}}})
		if err != nil {
			return err
		}
		fmt.Printf("created at offset %d (package %s…)\n", resp.CompletionOffset, ids[0][:12])
	}

	end, _ := node.LedgerEnd(ctx)
	format := ledger.UpdateFormat{IncludeTransactions: &ledger.TransactionFormat{TransactionShape: ledger.ShapeACSDelta,
		EventFormat: ledger.EventFormat{FiltersByParty: map[string]ledger.Filters{party: {}}}}}
	for u, err := range node.Updates(ctx, ledger.GetUpdatesPageRequest{EndOffsetInclusive: &end.Offset, UpdateFormat: format}) {
		if err != nil {
			return err
		}
		ev := u.Transaction.Value.Events[0].CreatedEvent
		fmt.Printf("offset %d: %s %s\n", u.Offset(), ev.TemplateID[len(ev.TemplateID)-9:], ev.CreateArgument)
	}
	return nil
}
