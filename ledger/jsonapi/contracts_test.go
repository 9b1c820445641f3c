package jsonapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// TestStreamActiveContractsSameAsNode checks that the JSON layer's
// active-contracts stream yields, element by element, the bytes of the
// Node's stream for every format of the fixture at several offsets, and
// the same refusals.
func TestStreamActiveContractsSameAsNode(t *testing.T) {
	useGolden(t)
	deterministicRandom(t)
	l := newEmitLedger(t, emitNotes)
	a := jsonapi.New(l.n)
	end, err := l.n.LedgerEnd(l.ctx)
	if err != nil {
		t.Fatal(err)
	}
	compare := func(t *testing.T, what string, ctx context.Context, req jsonapi.GetActiveContractsRequest) int {
		t.Helper()
		i := 0
		for b, err := range a.StreamActiveContracts(ctx, req) {
			sameAnswer(t, fmt.Sprintf("%s element %d", what, i), b, err)
			i++
		}
		checkGolden(t, what+" count", []byte(fmt.Sprint(i)))
		return i
	}
	seen := 0
	for _, f := range emitFormats {
		ef := l.wire(f)
		for _, at := range []int64{end, end - 2, end / 2, 0} {
			seen += compare(t, fmt.Sprintf("%s at %d", f.name, at), l.ctx, jsonapi.GetActiveContractsRequest{ActiveAtOffset: at, EventFormat: &ef})
			seen += compare(t, fmt.Sprintf("%s at %d, legacy filter", f.name, at), l.ctx, jsonapi.GetActiveContractsRequest{ActiveAtOffset: at, Filter: &ef, Verbose: true})
		}
	}
	if seen < 100 {
		t.Errorf("compared %d elements only", seen)
	}
	alice := l.aliceFormat()
	bob := l.bobCtx()
	cancelled := l.cancelledCtx()
	for _, tt := range []struct {
		name string
		ctx  context.Context
		req  jsonapi.GetActiveContractsRequest
	}{
		{"no format", l.ctx, jsonapi.GetActiveContractsRequest{}},
		{"continuation token", l.ctx, jsonapi.GetActiveContractsRequest{EventFormat: &alice, StreamContinuationToken: "AA=="}},
		{"bad identifier", l.ctx, jsonapi.GetActiveContractsRequest{Filter: &jsonapi.EventFormat{FiltersByParty: map[string]jsonapi.Filters{
			l.alice: {Cumulative: []jsonapi.CumulativeFilter{{IdentifierFilter: jsonapi.IdentifierFilter{TemplateFilter: &jsonapi.Wrapped[jsonapi.TemplateFilterValue]{}}}}}}}}},
		{"no variant", l.ctx, jsonapi.GetActiveContractsRequest{EventFormat: &jsonapi.EventFormat{FiltersByParty: map[string]jsonapi.Filters{
			l.alice: {Cumulative: []jsonapi.CumulativeFilter{{}}}}}}},
		{"no right", bob, jsonapi.GetActiveContractsRequest{EventFormat: &alice}},
		{"after the end", l.ctx, jsonapi.GetActiveContractsRequest{EventFormat: &alice, ActiveAtOffset: end + 1}},
		{"negative", l.ctx, jsonapi.GetActiveContractsRequest{EventFormat: &alice, ActiveAtOffset: -1}},
		{"cancelled", cancelled, jsonapi.GetActiveContractsRequest{EventFormat: &alice}},
	} {
		t.Run(tt.name, func(t *testing.T) { compare(t, tt.name, tt.ctx, tt.req) })
	}
}

// TestActiveContractsListSameAsNode checks that the JSON layer's list of
// active contracts is the bytes of the Node's list for every format of
// the fixture, at several offsets and limits, with the same refusals
// (413 beyond the node's list limit included).
func TestActiveContractsListSameAsNode(t *testing.T) {
	useGolden(t)
	deterministicRandom(t)
	l := newEmitLedger(t, emitNotes)
	a := jsonapi.New(l.n)
	end, err := l.n.LedgerEnd(l.ctx)
	if err != nil {
		t.Fatal(err)
	}
	limits := []*int64{nil}
	for _, n := range []int64{-1, 0, 1, 3, 1000} {
		limits = append(limits, &n)
	}
	for _, f := range emitFormats {
		ef := l.wire(f)
		for _, at := range []int64{end, end / 2, 0} {
			for _, limit := range limits {
				for _, req := range []jsonapi.GetActiveContractsRequest{{ActiveAtOffset: at, EventFormat: &ef}, {ActiveAtOffset: at, Filter: &ef, Verbose: true}} {
					what := fmt.Sprintf("%s at %d, limit %s", f.name, at, limitName(limit))
					got, gerr := a.ActiveContracts(l.ctx, req, ledger.ListOptions{Limit: limit})
					sameAnswer(t, what, got, gerr)
				}
			}
		}
	}
	alice := l.aliceFormat()
	bob := l.bobCtx()
	zero := int64(0)
	for _, tt := range []struct {
		name  string
		ctx   context.Context
		req   jsonapi.GetActiveContractsRequest
		limit *int64
	}{
		{"neither", l.ctx, jsonapi.GetActiveContractsRequest{}, nil},
		{"both", l.ctx, jsonapi.GetActiveContractsRequest{EventFormat: &alice, Filter: &alice}, nil},
		{"continuation token", l.ctx, jsonapi.GetActiveContractsRequest{EventFormat: &alice, StreamContinuationToken: "AA=="}, nil},
		{"no party", l.ctx, jsonapi.GetActiveContractsRequest{EventFormat: &jsonapi.EventFormat{}}, nil},
		{"no variant", l.ctx, jsonapi.GetActiveContractsRequest{EventFormat: &jsonapi.EventFormat{FiltersByParty: map[string]jsonapi.Filters{
			l.alice: {Cumulative: []jsonapi.CumulativeFilter{{}}}}}}, nil},
		{"no right", bob, jsonapi.GetActiveContractsRequest{EventFormat: &alice}, nil},
		{"no right, limit 0", bob, jsonapi.GetActiveContractsRequest{EventFormat: &alice}, &zero},
		{"after the end, limit 0", l.ctx, jsonapi.GetActiveContractsRequest{EventFormat: &alice, ActiveAtOffset: end + 1}, &zero},
		{"negative", l.ctx, jsonapi.GetActiveContractsRequest{EventFormat: &alice, ActiveAtOffset: -1}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, gerr := a.ActiveContracts(tt.ctx, tt.req, ledger.ListOptions{Limit: tt.limit})
			sameAnswer(t, tt.name, got, gerr)
		})
	}

	// Beyond the list limit: 413, not a list.
	small, _ := ledgertest.OpenStatic(t, ledger.Options{InMemory: true, ListLimit: 2}, emitStart)
	owner := ledgertest.MustAllocate(t, small, "owner")
	d, _ := lftest.DAR(lftest.IouPackage("1.0.0"))
	ledgertest.MustUploadDAR(t, small, d)
	for i := range 3 {
		if _, err := jsonapi.New(small).SubmitAndWait(context.Background(), jsonapi.JsCommands{CommandID: fmt.Sprint("c", i), ActAs: []string{owner}, UserID: "u",
			Commands: []jsonapi.JsCommand{{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: "#iou:Main:Iou",
				CreateArguments: json.RawMessage(fmt.Sprintf(`{"owner": %q, "amount": "%d"}`, owner, i))}}}}); err != nil {
			t.Fatal(err)
		}
	}
	end, err = small.LedgerEnd(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	two := int64(2)
	for _, limit := range []*int64{nil, &two} {
		req := jsonapi.GetActiveContractsRequest{ActiveAtOffset: end, EventFormat: &jsonapi.EventFormat{FiltersByParty: map[string]jsonapi.Filters{owner: {}}}}
		got, gerr := jsonapi.New(small).ActiveContracts(context.Background(), req, ledger.ListOptions{Limit: limit})
		if limit == nil && gerr == nil {
			t.Errorf("the JSON layer lists contracts beyond the node's limit of 2: %s", got)
		}
		sameAnswer(t, "limit "+limitName(limit), got, gerr)
	}
}
