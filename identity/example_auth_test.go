package identity_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
)

// A development server started with -auth hs256:SECRET mints a token for
// participant_admin and verifies the tokens clients send back.
func ExampleMintHS256() {
	secret := "change-me-in-production"
	clock := func() time.Time { return time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC) }

	token, err := identity.MintHS256([]byte(secret), "participant_admin", time.Hour, clock)
	if err != nil {
		panic(err)
	}

	verifier, err := identity.ParseAuthSpec("hs256:"+secret, identity.VerifyOptions{Clock: clock})
	if err != nil {
		panic(err)
	}
	claims, err := verifier.Verify(context.Background(), token)
	if err != nil {
		panic(err)
	}
	fmt.Println("user:", claims.UserID)
	fmt.Println("scopes:", claims.Scopes)
	fmt.Println("expires:", claims.ExpiresAt.UTC().Format(time.RFC3339))

	// A token signed with another secret is refused with UNAUTHENTICATED.
	forged, _ := identity.MintHS256([]byte("guess"), "participant_admin", time.Hour, clock)
	_, err = verifier.Verify(context.Background(), forged)
	fmt.Println("forged:", errors.Is(err, apierr.Unauthenticated), err)
	// Output:
	// user: participant_admin
	// scopes: [daml_ledger_api]
	// expires: 2025-01-02T04:04:05Z
	// forged: true UNAUTHENTICATED(6): signature invalid
}
