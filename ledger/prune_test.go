package ledger_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// TestPrune: Node.Prune refuses what Canton's ParticipantPruningService
// refuses, with the store unchanged; a prune deletes the updates up to
// its offset and the contracts archived by then, keeps the active
// contracts at and after it, makes earlier reads fail with
// PARTICIPANT_PRUNED_DATA_ACCESSED, and is reported by
// LatestPrunedOffsets, also by a new node on the same directory.
func TestPrune(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	f := newFixture(t, ledger.Options{Dir: dir})
	keep := f.create(t, "c1", f.alice)  // active throughout
	gone := f.create(t, "c2", f.alice)  // archived before the pruned offset
	later := f.create(t, "c3", f.alice) // archived after it
	transfer := fmt.Sprintf(`{"newOwner": %q}`, f.bob)
	if _, err := f.exercise("x1", f.alice, gone.ContractID, "Transfer", transfer); err != nil {
		t.Fatal(err)
	}
	pruneAt, _ := f.n.LedgerEnd(f.ctx)
	p := pruneAt
	if _, err := f.exercise("x2", f.alice, later.ContractID, "Transfer", transfer); err != nil {
		t.Fatal(err)
	}
	f.create(t, "c4", f.bob)
	end, _ := f.n.LedgerEnd(f.ctx)

	both := ledger.ReadAs(f.alice, f.bob)
	acs := func(n *ledger.Node, at int64) ([]*update.CreatedEvent, error) {
		var out []*update.CreatedEvent
		for c, err := range n.ActiveContractEvents(f.ctx, both, at) {
			if err != nil {
				return nil, err
			}
			out = append(out, c)
		}
		return out, nil
	}
	acsAtEnd, err := acs(f.n, end)
	if err != nil {
		t.Fatal(err)
	}
	acsAtP, err := acs(f.n, p)
	if err != nil {
		t.Fatal(err)
	}
	// keep and later are active at p, keep alone of the three at the end.
	if ids := createdIDs(acsAtP); !ids[keep.ContractID] || !ids[later.ContractID] || ids[gone.ContractID] {
		t.Fatalf("the ACS at %d: %v", p, ids)
	}
	if ids := createdIDs(acsAtEnd); !ids[keep.ContractID] || ids[later.ContractID] || ids[gone.ContractID] {
		t.Fatalf("the ACS at the ledger end: %v", ids)
	}
	before := ledger.StoreDumpForTest(t, f.n)

	plain := ledger.WithPrincipal(f.ctx, identity.Principal{UserID: "plain", Rights: []identity.Right{{Kind: identity.RightCanActAs, Party: f.alice}}})
	for _, tc := range []struct {
		name string
		ctx  context.Context
		upTo int64
		code apierr.Code
	}{
		{"zero", f.ctx, 0, apierr.InvalidArgument},
		{"negative", f.ctx, -1, apierr.NonPositiveOffset},
		{"at the ledger end", f.ctx, end, apierr.OffsetOutOfRange},
		{"after the ledger end", f.ctx, end + 5, apierr.OffsetOutOfRange},
		{"not an admin", plain, p, apierr.PermissionDenied},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := f.n.Prune(tc.ctx, ledger.PruneRequest{PruneUpTo: tc.upTo}); !errors.Is(err, tc.code) {
				t.Fatalf("Prune(%d): %v, want %s", tc.upTo, err, tc.code.Name)
			}
			if diff := cmp.Diff(before, ledger.StoreDumpForTest(t, f.n)); diff != "" {
				t.Errorf("the store changed (-before +after):\n%s", diff)
			}
			if got, _, _ := f.n.LatestPrunedOffsets(f.ctx); got != 0 {
				t.Errorf("pruned offsets %+v after a refusal", got)
			}
		})
	}

	if err := f.n.Prune(f.ctx, ledger.PruneRequest{PruneUpTo: p}); err != nil {
		t.Fatal(err)
	}
	after := ledger.StoreDumpForTest(t, f.n)
	if len(after) >= len(before) {
		t.Errorf("%d keys after pruning, %d before", len(after), len(before))
	}
	for k := range maps.Keys(after) {
		for _, prefix := range []string{store.PrefixUpdate, store.PrefixPartyUpdate} {
			if strings.HasPrefix(k, prefix) && store.DecodeOffset([]byte(k[len(k)-8:])) <= p {
				t.Errorf("key %q of a pruned offset is still there", k)
			}
		}
		if strings.HasPrefix(k, store.PrefixArchivedByParty) && strings.HasSuffix(k, gone.ContractID) {
			t.Errorf("the archived-contract entry %q is still there", k)
		}
	}
	for cid, want := range map[string]bool{gone.ContractID: false, keep.ContractID: true, later.ContractID: true} {
		if _, ok := after["c/"+cid]; ok != want {
			t.Errorf("contract record of %s present: %v, want %v", cid, ok, want)
		}
	}
	if got, divulged, err := f.n.LatestPrunedOffsets(f.ctx); err != nil || got != p || divulged != p {
		t.Errorf("pruned offsets %d, %d, %v; want %d for both", got, divulged, err, p)
	}
	if got, err := acs(f.n, end); err != nil || !cmp.Equal(got, acsAtEnd) {
		t.Errorf("the ACS at the ledger end changed: %v\n%s", err, cmp.Diff(acsAtEnd, got))
	}
	if got, err := acs(f.n, p); err != nil || !cmp.Equal(got, acsAtP) {
		t.Errorf("the ACS at the pruned offset changed: %v\n%s", err, cmp.Diff(acsAtP, got))
	}
	checkPrunedReads(t, f, f.n, p, end)

	// Pruning at an offset already pruned succeeds and changes nothing.
	if err := f.n.Prune(f.ctx, ledger.PruneRequest{PruneUpTo: p - 1}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(after, ledger.StoreDumpForTest(t, f.n)); diff != "" {
		t.Errorf("a prune at an earlier offset changed the store (-before +after):\n%s", diff)
	}

	// A new node on the same directory keeps the pruned offset.
	if err := f.n.Close(); err != nil {
		t.Fatal(err)
	}
	reopened := ledgertest.Open(t, ledger.Options{Dir: dir})
	if got, divulged, err := reopened.LatestPrunedOffsets(f.ctx); err != nil || got != p || divulged != p {
		t.Errorf("after a restart: pruned offsets %d, %d, %v; want %d for both", got, divulged, err, p)
	}
	if got, err := acs(reopened, end); err != nil || !cmp.Equal(got, acsAtEnd) {
		t.Errorf("after a restart, the ACS at the ledger end changed: %v\n%s", err, cmp.Diff(acsAtEnd, got))
	}
	checkPrunedReads(t, f, reopened, p, end)
}

// checkPrunedReads: the reads that reach back before the pruned offset p
// fail with PARTICIPANT_PRUNED_DATA_ACCESSED (earliest_offset p), those
// from p on succeed, and a pruned update is not found.
func checkPrunedReads(t *testing.T, f *fixture, n *ledger.Node, p, end int64) {
	t.Helper()
	af := partyFormat(f.alice)
	aliceRead := ledger.ReadAs(f.alice)
	txs := ledger.UpdateReadFormat{Transactions: &aliceRead}
	updates := func(begin int64) error {
		_, err := jsonapi.New(n).UpdatesList(f.ctx, jsonapi.GetUpdatesRequest{BeginExclusive: begin, EndInclusive: &end, Filter: &af}, ledger.ListOptions{})
		return err
	}
	stream := func(begin int64) error {
		for _, err := range n.Updates(f.ctx, txs, ledger.OffsetRange{After: begin, Through: &end}) {
			if err != nil {
				return err
			}
		}
		return nil
	}
	page := func(begin int64) error {
		_, err := n.UpdatesPage(f.ctx, txs, ledger.OffsetRange{After: begin, Through: &end}, nil, nil)
		return err
	}
	completions := func(begin int64) error {
		idle := int64(0)
		_, err := n.CompletionsList(f.ctx, "u1", []string{f.alice}, begin, ledger.ListOptions{Limit: &idle})
		return err
	}
	acs := func(at int64) error {
		for _, err := range n.ActiveContractEvents(f.ctx, aliceRead, at) {
			if err != nil {
				return err
			}
		}
		return nil
	}
	for _, tc := range []struct {
		name   string
		read   func(int64) error
		before int64 // a start refused
		from   int64 // a start allowed
	}{
		{"UpdatesList", updates, p - 1, p},
		{"UpdatesList from the beginning", updates, 0, end},
		{"Updates", stream, p - 1, p},
		{"UpdatesPage", page, 0, p},
		{"CompletionsList", completions, p - 1, p},
		{"ActiveContractEvents", acs, p - 1, p},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.read(tc.before)
			var ae *apierr.Error
			if !errors.As(err, &ae) || !errors.Is(err, apierr.ParticipantPrunedDataAccessed) || ae.Context["earliest_offset"] != fmt.Sprint(p) {
				t.Errorf("from %d: %v, want PARTICIPANT_PRUNED_DATA_ACCESSED with earliest_offset %d", tc.before, err, p)
			}
			if err := tc.read(tc.from); err != nil {
				t.Errorf("from %d: %v", tc.from, err)
			}
		})
	}
	if _, err := n.UpdateByOffset(f.ctx, p, txs); !errors.Is(err, apierr.UpdateNotFound) {
		t.Errorf("the pruned update at %d: %v, want UPDATE_NOT_FOUND", p, err)
	}
}

// createdIDs is the set of the contract ids of created events.
func createdIDs(evs []*update.CreatedEvent) map[string]bool {
	ids := make(map[string]bool, len(evs))
	for _, e := range evs {
		ids[string(e.ContractID)] = true
	}
	return ids
}
