package ledger_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// kindOf names the kind of a JSON update and of a typed one.
func kindOf(u any) string {
	switch u := u.(type) {
	case jsonapi.Update:
		switch {
		case u.Transaction != nil:
			return "tx"
		case u.Reassignment != nil:
			return "ra"
		case u.TopologyTransaction != nil:
			return "tp"
		}
	case *update.Transaction:
		return "tx"
	case *update.Reassignment:
		return "ra"
	case *update.TopologyTransaction:
		return "tp"
	}
	return "?"
}

// TestUpdates: the walk of every kind of update,
// ascending and descending, gives the updates the reads by offset give
// (same kinds, offsets and ids): the fixture's two parties' topology
// transactions and its two transactions.
func TestUpdates(t *testing.T) {
	t.Parallel()
	f := newTypedFixture(t)
	ctx := context.Background()
	tf := ledger.ReadAs(f.alice, f.bob)
	tf.Shape = ledger.LedgerEffects
	typed := ledger.UpdateReadFormat{Transactions: &tf, Reassignments: &tf, Topology: &ledger.TopologyReadFormat{ParticipantAuthorizations: []string{}}}
	type sum struct {
		Kind, ID string
		Offset   int64
	}
	for _, desc := range []bool{false, true} {
		end, err := f.node.LedgerEnd(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// The updates one by one (UpdateByOffset), every offset of
		// the ledger that has one the format shows.
		var want, got []sum
		kinds := map[string]int{}
		for off := int64(1); off <= end; off++ {
			u, err := f.node.UpdateByOffset(ctx, off, typed)
			if errors.Is(err, apierr.UpdateNotFound) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			id := ""
			switch u := u.(type) {
			case *update.Transaction:
				id = u.UpdateID
			case *update.TopologyTransaction:
				id = u.UpdateID
			}
			if u.UpdateOffset() != off {
				t.Errorf("UpdateByOffset(%d) is at %d", off, u.UpdateOffset())
			}
			kinds[kindOf(u)]++
			want = append(want, sum{kindOf(u), id, off})
		}
		var txs []string
		for _, w := range want {
			if w.Kind == "tx" {
				txs = append(txs, w.ID)
			}
		}
		// The fixture allocated alice and bob (one topology transaction
		// each), then committed the Ping's create and bob's Respond.
		if kinds["tp"] != 2 || kinds["tx"] != 2 || len(want) != 4 || !cmp.Equal([]string{f.created, f.responded}, txs) {
			t.Fatalf("updates by offset %v; want 2 topology transactions, then %s and %s", want, f.created, f.responded)
		}
		if desc {
			slices.Reverse(want)
		}
		for u, err := range f.node.Updates(ctx, typed, ledger.OffsetRange{Descending: desc}) {
			if err != nil {
				t.Fatal(err)
			}
			id := ""
			switch u := u.(type) {
			case *update.Transaction:
				id = u.UpdateID
			case *update.TopologyTransaction:
				id = u.UpdateID
				if len(u.Events) != 1 || u.Events[0].Change != update.AuthorizationAdded || u.Events[0].Permission == "" {
					t.Errorf("topology update %d: %+v, want one party added with a permission", u.Offset, u.Events)
				}
			}
			got = append(got, sum{kindOf(u), id, u.UpdateOffset()})
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("descending=%v: typed walk differs from the updates by offset (-by offset +walk):\n%s", desc, d)
		}
	}
	// A descending walk needs an end, as the JSON stream.
	for _, err := range f.node.Updates(ctx, typed, ledger.OffsetRange{Tail: true, Descending: true}) {
		if !errors.Is(err, apierr.DescendingOrderMissingEnd) {
			t.Errorf("a descending walk without an end: %v, want DESCENDING_ORDER_MISSING_END", err)
		}
		break
	}
}

// TestTopologyWithoutAuthorizations: a topology format without
// participant authorizations selects something (no refusal) and shows no
// update, as the JSON read of IncludeTopologyEvents without
// includeParticipantAuthorizationEvents; with transactions it shows
// just them.
func TestTopologyWithoutAuthorizations(t *testing.T) {
	t.Parallel()
	f := newTypedFixture(t)
	ctx := context.Background()
	tf := ledger.ReadAs(f.alice, f.bob)
	var txs []int64 // the offsets of the fixture's two transactions
	for _, id := range []string{f.created, f.responded} {
		tr, err := f.node.Transaction(ctx, id, tf)
		if err != nil {
			t.Fatal(err)
		}
		txs = append(txs, tr.Offset)
	}
	for _, tc := range []struct {
		name  string
		typed ledger.UpdateReadFormat
		want  []int64
	}{
		{"topology only", ledger.UpdateReadFormat{Topology: &ledger.TopologyReadFormat{}}, nil},
		{"with transactions", ledger.UpdateReadFormat{Transactions: &tf, Topology: &ledger.TopologyReadFormat{}}, txs},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := f.node.UpdatesPage(ctx, tc.typed, ledger.OffsetRange{}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := tc.want
			var got []int64
			for _, u := range p.Updates {
				got = append(got, u.UpdateOffset())
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("offsets (-want +typed):\n%s", diff)
			}
		})
	}
}

// TestNoneFilter: a party whose filters are all NoneFilter reads every
// template, as Canton's FormatValidator reads identifier filters with no
// variant (the JSON read of such filters alike); beside another filter it
// is dropped.
func TestNoneFilter(t *testing.T) {
	t.Parallel()
	f := newTypedFixture(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		typed []ledger.Filter
		want  int
	}{
		{"none only", []ledger.Filter{ledger.NoneFilter()}, 2},
		{"none twice", []ledger.Filter{ledger.NoneFilter(), ledger.NoneFilter()}, 2},
		{"none and wildcard", []ledger.Filter{ledger.NoneFilter(), ledger.WildcardFilter(false)}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rf := ledger.ReadFormat{Parties: map[string][]ledger.Filter{f.alice: tc.typed}}
			p, err := f.node.UpdatesPage(ctx, ledger.UpdateReadFormat{Transactions: &rf}, ledger.OffsetRange{}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, u := range p.Updates {
				if tr, ok := u.(*update.Transaction); ok {
					ids = append(ids, tr.UpdateID)
				}
			}
			if len(p.Updates) != tc.want || !cmp.Equal([]string{f.created, f.responded}, ids) {
				t.Errorf("typed %d updates %v, want %d: %s and %s", len(p.Updates), ids, tc.want, f.created, f.responded)
			}
		})
	}
}

// TestFilterText: a filter by an id's text as written is checked and
// quoted as written (trailing ':'s), with the JSON read's code
// (TEMPLATES_OR_INTERFACES_NOT_FOUND) and text.
func TestFilterText(t *testing.T) {
	t.Parallel()
	f := newTypedFixture(t)
	ctx := context.Background()
	for _, id := range []string{f.pkg.ID + ":Ping:Nope:", f.pkg.ID + ":Ping:Nope::"} {
		t.Run(id, func(t *testing.T) {
			rf := ledger.ReadFormat{Parties: map[string][]ledger.Filter{f.alice: {ledger.TemplateFilterText(id, false)}}}
			_, err := f.node.UpdatesPage(ctx, ledger.UpdateReadFormat{Transactions: &rf}, ledger.OffsetRange{}, nil, nil)
			if codeOf(err) != apierr.TemplatesOrInterfacesNotFound.Name || !strings.HasSuffix(err.Error(), "were not found: "+id) {
				t.Fatalf("typed %v; want TEMPLATES_OR_INTERFACES_NOT_FOUND ending with %s", err, id)
			}
		})
	}
}
