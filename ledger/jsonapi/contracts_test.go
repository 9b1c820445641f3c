package jsonapi_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// TestStreamActiveContractsSameAsNode checks that the JSON layer's
// active-contracts stream yields, element by element, the bytes of the
// Node's stream for every format of the fixture at several offsets, and
// the same refusals.
func TestStreamActiveContractsSameAsNode(t *testing.T) {
	t.Parallel()
	l := newEmitLedger(t, emitNotes)
	a := jsonapi.New(l.n)
	end, err := l.n.LedgerEnd(l.ctx)
	if err != nil {
		t.Fatal(err)
	}
	type elem struct {
		v   any
		err error
	}
	compare := func(t *testing.T, what string, ctx context.Context, req ledger.GetActiveContractsRequest) int {
		t.Helper()
		var want []elem
		for v, err := range l.n.StreamActiveContracts(ctx, req) {
			want = append(want, elem{v, err})
		}
		i := 0
		for b, err := range a.StreamActiveContracts(ctx, req) {
			if i >= len(want) {
				t.Fatalf("%s: the JSON layer yields more than the Node's %d elements: %s, %v", what, len(want), b, err)
			}
			sameAnswer(t, fmt.Sprintf("%s element %d", what, i), want[i].v, want[i].err, b, err)
			i++
		}
		if i != len(want) {
			t.Errorf("%s: the JSON layer yields %d elements, the Node %d", what, i, len(want))
		}
		return i
	}
	seen := 0
	for _, f := range emitFormats {
		ef := l.wire(f)
		for _, at := range []int64{end.Offset, end.Offset - 2, end.Offset / 2, 0} {
			seen += compare(t, fmt.Sprintf("%s at %d", f.name, at), l.ctx, ledger.GetActiveContractsRequest{ActiveAtOffset: at, EventFormat: &ef})
			seen += compare(t, fmt.Sprintf("%s at %d, legacy filter", f.name, at), l.ctx, ledger.GetActiveContractsRequest{ActiveAtOffset: at, Filter: &ef, Verbose: true})
		}
	}
	if seen < 100 {
		t.Errorf("compared %d elements only", seen)
	}
	alice := ledger.EventFormat{FiltersByParty: map[string]ledger.Filters{l.alice: {}}}
	bob := ledger.WithPrincipal(l.ctx, identity.Principal{UserID: "bob", Rights: []identity.Right{{Kind: identity.RightCanReadAs, Party: l.bob}}})
	cancelled, cancel := context.WithCancel(l.ctx)
	cancel()
	for _, tt := range []struct {
		name string
		ctx  context.Context
		req  ledger.GetActiveContractsRequest
	}{
		{"no format", l.ctx, ledger.GetActiveContractsRequest{}},
		{"continuation token", l.ctx, ledger.GetActiveContractsRequest{EventFormat: &alice, StreamContinuationToken: "AA=="}},
		{"bad identifier", l.ctx, ledger.GetActiveContractsRequest{Filter: &ledger.EventFormat{FiltersByParty: map[string]ledger.Filters{
			l.alice: {Cumulative: []ledger.CumulativeFilter{{IdentifierFilter: ledger.IdentifierFilter{TemplateFilter: &ledger.Wrapped[ledger.TemplateFilterValue]{}}}}}}}}},
		{"no variant", l.ctx, ledger.GetActiveContractsRequest{EventFormat: &ledger.EventFormat{FiltersByParty: map[string]ledger.Filters{
			l.alice: {Cumulative: []ledger.CumulativeFilter{{}}}}}}},
		{"no right", bob, ledger.GetActiveContractsRequest{EventFormat: &alice}},
		{"after the end", l.ctx, ledger.GetActiveContractsRequest{EventFormat: &alice, ActiveAtOffset: end.Offset + 1}},
		{"negative", l.ctx, ledger.GetActiveContractsRequest{EventFormat: &alice, ActiveAtOffset: -1}},
		{"cancelled", cancelled, ledger.GetActiveContractsRequest{EventFormat: &alice}},
	} {
		t.Run(tt.name, func(t *testing.T) { compare(t, tt.name, tt.ctx, tt.req) })
	}
}
