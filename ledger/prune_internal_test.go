package ledger

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// storeKeys returns every key of the node's store.
func storeKeys(t *testing.T, n *Node) []string {
	t.Helper()
	var keys []string
	err := n.st.View(func(r *store.Reader) error {
		return r.Scan(nil, nil, func(k, _ []byte) (bool, error) {
			keys = append(keys, string(k))
			return true, nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// TestPruneBatches: a prune larger than one committer operation's batch
// deletes every pruned update with its indexes, batch after batch.
func TestPruneBatches(t *testing.T) {
	t.Parallel()
	n, err := Open(Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	ctx := context.Background()
	for i := range 12 {
		if _, err := n.AllocateParty(ctx, AllocatePartyRequest{PartyIDHint: fmt.Sprint("p", i)}); err != nil {
			t.Fatal(err)
		}
	}
	upTo := n.st.LedgerEnd() - 2
	before := storeKeys(t, n)
	if err := n.prune(ctx, PruneRequest{PruneUpTo: upTo}, 3); err != nil {
		t.Fatal(err)
	}
	after := storeKeys(t, n)
	gone := map[string]bool{}
	for _, k := range before {
		gone[k] = !slices.Contains(after, k)
	}
	for _, k := range before {
		pruned := false
		switch {
		case strings.HasPrefix(k, store.PrefixUpdate), strings.HasPrefix(k, store.PrefixPartyUpdate):
			pruned = store.DecodeOffset([]byte(k[len(k)-8:])) <= upTo
		case strings.HasPrefix(k, store.PrefixUpdateID):
			continue // checked through the count below
		}
		if gone[k] != pruned {
			t.Errorf("key %q: deleted %v, want %v", k, gone[k], pruned)
		}
	}
	countIDs := func(keys []string) int {
		return len(slices.DeleteFunc(slices.Clone(keys), func(k string) bool { return !strings.HasPrefix(k, store.PrefixUpdateID) }))
	}
	if b, a := countIDs(before), countIDs(after); b-a != int(upTo) {
		t.Errorf("%d update ids before, %d after pruning %d updates", b, a, upTo)
	}
}

// TestPruneInProgress: a prune while another runs is refused with
// PARTICIPANT_PRUNING_IN_PROGRESS and changes nothing.
func TestPruneInProgress(t *testing.T) {
	t.Parallel()
	n, err := Open(Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	ctx := context.Background()
	for i := range 3 {
		if _, err := n.AllocateParty(ctx, AllocatePartyRequest{PartyIDHint: fmt.Sprint("p", i)}); err != nil {
			t.Fatal(err)
		}
	}
	before := storeKeys(t, n)
	n.pruning.running.Store(true)
	if err := n.Prune(ctx, PruneRequest{PruneUpTo: 1}); !errors.Is(err, apierr.ParticipantPruningInProgress) {
		t.Fatalf("a prune during a prune: %v", err)
	}
	if after := storeKeys(t, n); !slices.Equal(before, after) {
		t.Errorf("the store changed: %d keys before, %d after", len(before), len(after))
	}
	n.pruning.running.Store(false)
	if err := n.Prune(ctx, PruneRequest{PruneUpTo: 1}); err != nil {
		t.Fatalf("a prune after it: %v", err)
	}
}
