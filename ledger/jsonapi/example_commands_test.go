package jsonapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// Submit a create command in the JSON API's shapes and wait for its
// completion; submitting the same command id again is deduplicated.
func ExampleAPI_SubmitAndWait() {
	node, err := ledger.Open(ledger.Options{InMemory: true})
	if err != nil {
		panic(err)
	}
	defer node.Close()
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
	api := jsonapi.New(node)

	args, _ := json.Marshal(map[string]string{"owner": alice.Party, "text": "hello"})
	cmds := jsonapi.JsCommands{CommandID: "note-1", UserID: "app", ActAs: []string{alice.Party},
		Commands: []jsonapi.JsCommand{{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: ids[0] + ":Main:T", CreateArguments: args}}}}
	resp, err := api.SubmitAndWait(ctx, cmds)
	if err != nil {
		panic(err)
	}
	fmt.Println("completed at offset", resp.CompletionOffset, len(resp.UpdateID) > 0)

	_, err = api.SubmitAndWait(ctx, cmds)
	var apiErr *apierr.Error
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.Code.Name, apiErr.HTTPStatus())
	}
	// Output:
	// completed at offset 2 true
	// DUPLICATE_COMMAND 409
}
