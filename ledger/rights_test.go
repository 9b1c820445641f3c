package ledger_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
)

// TestCheckReadAs: the first party in the order given that the caller
// may not read as is the one refused, where the typed read of the same
// parties names the first in sorted order.
func TestCheckReadAs(t *testing.T) {
	t.Parallel()
	f := newTypedFixture(t)
	bob := ledger.WithPrincipal(context.Background(), identity.Principal{UserID: "bob",
		Rights: []identity.Right{{Kind: identity.RightCanReadAs, Party: f.bob}}})
	const carol = "carol::1220ab"
	for _, tc := range []struct {
		name    string
		ctx     context.Context
		parties []string
		refused string // "" for no refusal
	}{
		{"allowed", bob, []string{f.bob}, ""},
		{"repeated", bob, []string{f.bob, f.bob}, ""},
		{"first refused in order", bob, []string{carol, f.alice, f.bob}, carol},
		{"other order", bob, []string{f.alice, carol}, f.alice},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := ledger.CheckReadAs(tc.ctx, tc.parties...)
			if tc.refused == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.refused) {
				t.Fatalf("got %v, want a refusal naming %s", err, tc.refused)
			}
		})
	}
}
