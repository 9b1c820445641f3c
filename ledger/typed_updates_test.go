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
)

// kindOf names the kind of a JSON update and of a typed one.
func kindOf(u any) string {
	switch u := u.(type) {
	case ledger.Update:
		switch {
		case u.Transaction != nil:
			return "tx"
		case u.Reassignment != nil:
			return "ra"
		case u.TopologyTransaction != nil:
			return "tp"
		}
	case *ledger.Transaction:
		return "tx"
	case *ledger.Reassignment:
		return "ra"
	case *ledger.TopologyUpdate:
		return "tp"
	}
	return "?"
}

// TestTypedUpdatesAgreeWithJSON: the typed walk of every kind of update,
// ascending and descending, and the reads by offset give the updates of
// the JSON page (same kinds, offsets and ids), topology events included.
func TestTypedUpdatesAgreeWithJSON(t *testing.T) {
	t.Parallel()
	f := newTypedFixture(t)
	ctx := context.Background()
	tf := ledger.ReadAs(f.alice, f.bob)
	tf.Shape = ledger.LedgerEffects
	typed := ledger.UpdateReadFormat{Transactions: &tf, Reassignments: &tf, Topology: &ledger.TopologyReadFormat{ParticipantAuthorizations: []string{}}}
	wire := ledger.UpdateFormat{IncludeTransactions: wireFormat(ledger.ShapeLedgerEffects, f.alice, f.bob),
		IncludeReassignments:  &wireFormat(ledger.ShapeACSDelta, f.alice, f.bob).EventFormat,
		IncludeTopologyEvents: &ledger.TopologyFormat{IncludeParticipantAuthorizationEvents: &ledger.ParticipantAuthorizationTopologyFormat{}}}
	type sum struct {
		Kind, ID string
		Offset   int64
	}
	for _, desc := range []bool{false, true} {
		end, err := f.node.LedgerEnd(ctx)
		if err != nil {
			t.Fatal(err)
		}
		js, err := f.node.UpdatesPage(ctx, ledger.GetUpdatesPageRequest{EndOffsetInclusive: &end.Offset, UpdateFormat: wire, DescendingOrder: desc})
		if err != nil {
			t.Fatal(err)
		}
		var want, got []sum
		for _, u := range js.Updates {
			id := ""
			switch {
			case u.Update.Transaction != nil:
				id = u.Update.Transaction.Value.UpdateID
			case u.Update.TopologyTransaction != nil:
				id = u.Update.TopologyTransaction.Value.UpdateID
			}
			want = append(want, sum{kindOf(u.Update), id, u.Update.Offset()})
		}
		for u, err := range f.node.TypedUpdates(ctx, typed, ledger.OffsetRange{Descending: desc}) {
			if err != nil {
				t.Fatal(err)
			}
			id := ""
			switch u := u.(type) {
			case *ledger.Transaction:
				id = u.UpdateID
			case *ledger.TopologyUpdate:
				id = u.UpdateID
				if len(u.Events) != 1 || u.Events[0].Change != ledger.AuthorizationAdded || u.Events[0].Permission == "" {
					t.Errorf("topology update %d: %+v, want one party added with a permission", u.Offset, u.Events)
				}
			}
			got = append(got, sum{kindOf(u), id, u.UpdateOffset()})
		}
		if !slices.ContainsFunc(want, func(s sum) bool { return s.Kind == "tp" }) || !slices.ContainsFunc(want, func(s sum) bool { return s.Kind == "tx" }) {
			t.Fatalf("the JSON page holds %v; want transactions and topology transactions", want)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("descending=%v: typed walk differs from the JSON page (-json +typed):\n%s", desc, d)
		}
		if desc {
			continue
		}
		for _, w := range want {
			u, err := f.node.TypedUpdateByOffset(ctx, w.Offset, typed)
			if err != nil {
				t.Fatal(err)
			}
			if kindOf(u) != w.Kind || u.UpdateOffset() != w.Offset {
				t.Errorf("TypedUpdateByOffset(%d) = %s at %d, want %s", w.Offset, kindOf(u), u.UpdateOffset(), w.Kind)
			}
		}
	}
	// A descending walk needs an end, as the JSON stream.
	for _, err := range f.node.TypedUpdates(ctx, typed, ledger.OffsetRange{Tail: true, Descending: true}) {
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
	for _, tc := range []struct {
		name  string
		typed ledger.UpdateReadFormat
		wire  ledger.UpdateFormat
	}{
		{"topology only", ledger.UpdateReadFormat{Topology: &ledger.TopologyReadFormat{}},
			ledger.UpdateFormat{IncludeTopologyEvents: &ledger.TopologyFormat{}}},
		{"with transactions", ledger.UpdateReadFormat{Transactions: &tf, Topology: &ledger.TopologyReadFormat{}},
			ledger.UpdateFormat{IncludeTransactions: wireFormat(ledger.ShapeACSDelta, f.alice, f.bob), IncludeTopologyEvents: &ledger.TopologyFormat{}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			js, err := f.node.UpdatesPage(ctx, ledger.GetUpdatesPageRequest{UpdateFormat: tc.wire})
			if err != nil {
				t.Fatal(err)
			}
			p, err := f.node.TypedUpdatesPage(ctx, tc.typed, ledger.OffsetRange{}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			var want, got []int64
			for _, u := range js.Updates {
				want = append(want, u.Update.Offset())
			}
			for _, u := range p.Updates {
				got = append(got, u.UpdateOffset())
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("offsets (-JSON +typed):\n%s", diff)
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
	none := ledger.CumulativeFilter{}
	all := ledger.CumulativeFilter{IdentifierFilter: ledger.IdentifierFilter{WildcardFilter: &ledger.Wrapped[ledger.WildcardFilterValue]{}}}
	for _, tc := range []struct {
		name  string
		typed []ledger.Filter
		wire  []ledger.CumulativeFilter
		want  int
	}{
		{"none only", []ledger.Filter{ledger.NoneFilter()}, []ledger.CumulativeFilter{none}, 2},
		{"none twice", []ledger.Filter{ledger.NoneFilter(), ledger.NoneFilter()}, []ledger.CumulativeFilter{none, none}, 2},
		{"none and wildcard", []ledger.Filter{ledger.NoneFilter(), ledger.WildcardFilter(false)}, []ledger.CumulativeFilter{none, all}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rf := ledger.ReadFormat{Parties: map[string][]ledger.Filter{f.alice: tc.typed}}
			wf := &ledger.TransactionFormat{EventFormat: ledger.EventFormat{FiltersByParty: map[string]ledger.Filters{f.alice: {Cumulative: tc.wire}}},
				TransactionShape: ledger.ShapeACSDelta}
			js, err := f.node.UpdatesPage(ctx, ledger.GetUpdatesPageRequest{UpdateFormat: ledger.UpdateFormat{IncludeTransactions: wf}})
			if err != nil {
				t.Fatal(err)
			}
			p, err := f.node.TypedUpdatesPage(ctx, ledger.UpdateReadFormat{Transactions: &rf}, ledger.OffsetRange{}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(js.Updates) != tc.want || len(p.Updates) != tc.want {
				t.Errorf("JSON %d updates, typed %d, want %d", len(js.Updates), len(p.Updates), tc.want)
			}
		})
	}
}

// TestFilterText: a filter by an id's text as written is checked and
// quoted as written (trailing ':'s), with the JSON
// read's code and text.
func TestFilterText(t *testing.T) {
	t.Parallel()
	f := newTypedFixture(t)
	ctx := context.Background()
	for _, id := range []string{f.pkg.ID + ":Ping:Nope:", f.pkg.ID + ":Ping:Nope::"} {
		t.Run(id, func(t *testing.T) {
			rf := ledger.ReadFormat{Parties: map[string][]ledger.Filter{f.alice: {ledger.TemplateFilterText(id, false)}}}
			cf := ledger.CumulativeFilter{IdentifierFilter: ledger.IdentifierFilter{TemplateFilter: &ledger.Wrapped[ledger.TemplateFilterValue]{Value: ledger.TemplateFilterValue{TemplateID: id}}}}
			wf := &ledger.TransactionFormat{EventFormat: ledger.EventFormat{FiltersByParty: map[string]ledger.Filters{f.alice: {Cumulative: []ledger.CumulativeFilter{cf}}}},
				TransactionShape: ledger.ShapeACSDelta}
			_, jerr := f.node.UpdatesPage(ctx, ledger.GetUpdatesPageRequest{UpdateFormat: ledger.UpdateFormat{IncludeTransactions: wf}})
			_, err := f.node.TypedUpdatesPage(ctx, ledger.UpdateReadFormat{Transactions: &rf}, ledger.OffsetRange{}, nil, nil)
			if err == nil || jerr == nil || err.Error() != jerr.Error() || !strings.Contains(err.Error(), id) {
				t.Fatalf("typed %v, JSON %v", err, jerr)
			}
		})
	}
}
