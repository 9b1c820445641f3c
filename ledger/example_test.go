package ledger_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/apierr"
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
