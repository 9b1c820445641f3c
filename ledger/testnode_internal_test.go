package ledger

import (
	"context"
	"log/slog"
	"testing"
)

// openTestNode opens an in-memory node with opts (its logs discarded),
// closed at the test's cleanup.
func openTestNode(t testing.TB, opts Options) *Node {
	t.Helper()
	opts.InMemory, opts.Logger = true, slog.New(slog.DiscardHandler)
	n, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	return n
}

// allocateParties allocates a party for each hint on n and returns their
// ids, in the hints' order.
func allocateParties(t testing.TB, n *Node, hints ...string) []string {
	t.Helper()
	parties := make([]string, 0, len(hints))
	for _, h := range hints {
		d, err := n.AllocateParty(context.Background(), AllocatePartyRequest{PartyIDHint: h})
		if err != nil {
			t.Fatal(err)
		}
		parties = append(parties, d.Party)
	}
	return parties
}
