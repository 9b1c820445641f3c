package jsonapi_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// sameAnswer checks that the JSON layer's answer (body or refusal) is
// the golden one named what: the Node's JSON read's, recorded (the same
// bytes, or the same code and text).
func sameAnswer(t *testing.T, what string, got jsonapi.Body, gotErr error) bool {
	t.Helper()
	return checkGolden(t, what, goldenAnswer(got, gotErr))
}

// page is what the tests follow in a page of updates or contracts.
type page struct {
	NextPageToken   *string           `json:"nextPageToken"`
	Updates         []json.RawMessage `json:"updates"`
	ActiveContracts []json.RawMessage `json:"activeContracts"`
}

// pageOf reads a page's token and elements.
func pageOf(t *testing.T, b []byte) page {
	t.Helper()
	var p page
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return p
}

// TestReadsPagesSameAsNode checks that the JSON layer's pages of updates
// and of active contracts, read through the typed reads and the
// emitters, are the bytes of the Node's JSON reads for every format of
// the fixture, page by page (both directions, following the tokens, and
// open-ended), and that their refusals are the same.
func TestReadsPagesSameAsNode(t *testing.T) {
	useGolden(t)
	deterministicRandom(t)
	l := newEmitLedger(t, emitNotes)
	a := jsonapi.New(l.n)
	end, err := l.n.LedgerEnd(l.ctx)
	if err != nil {
		t.Fatal(err)
	}
	updates, contracts := 0, 0
	for _, f := range emitFormats {
		for _, shape := range []string{jsonapi.ShapeACSDelta, jsonapi.ShapeLedgerEffects} {
			uf := l.wireUpdates(f, shape)
			for _, desc := range []bool{false, true} {
				for _, open := range []bool{false, true} {
					size := int32(3)
					req := jsonapi.GetUpdatesPageRequest{EndOffsetInclusive: &end, MaxPageSize: &size, UpdateFormat: &uf, DescendingOrder: desc}
					if open {
						req.EndOffsetInclusive = nil
					}
					for page := 0; page < 50; page++ {
						what := fmt.Sprintf("%s %s page %d (descending %v, open %v)", f.name, shape, page, desc, open)
						got, gerr := a.UpdatesPage(l.ctx, req)
						if !sameAnswer(t, what, got, gerr) || gerr != nil {
							break
						}
						p := pageOf(t, got)
						updates += len(p.Updates)
						if p.NextPageToken == nil || len(p.Updates) == 0 {
							break
						}
						req.PageToken = *p.NextPageToken
					}
				}
			}
		}
		for _, at := range []*int64{nil, &end} {
			size := int32(2)
			req := jsonapi.GetActiveContractsPageRequest{ActiveAtOffset: at, EventFormat: l.wire(f), MaxPageSize: &size}
			for page := 0; page < 50; page++ {
				what := fmt.Sprintf("%s active contracts page %d", f.name, page)
				got, gerr := a.ActiveContractsPage(l.ctx, req)
				if !sameAnswer(t, what, got, gerr) || gerr != nil {
					break
				}
				p := pageOf(t, got)
				contracts += len(p.ActiveContracts)
				if p.NextPageToken == nil {
					break
				}
				req.PageToken = *p.NextPageToken
			}
		}
	}
	if updates < 500 || contracts < 100 {
		t.Errorf("compared %d updates and %d contracts only", updates, contracts)
	}
}

// TestReadsPagesRefusals checks the refusals of the JSON layer's pages
// against the Node's JSON reads: the wire's shape rules, the format's
// checks in the node's order, rights, sizes, offsets and tokens; and the
// requests the typed formats do not express (answered as the Node does).
func TestReadsPagesRefusals(t *testing.T) {
	useGolden(t)
	deterministicRandom(t)
	l := newEmitLedger(t, emitNotes)
	a := jsonapi.New(l.n)
	end, err := l.n.LedgerEnd(l.ctx)
	if err != nil {
		t.Fatal(err)
	}
	zero, over, size := int32(0), int32(5000), int32(1)
	after, negative, none := end+5, int64(-1), int64(0)
	alice := l.aliceFormat()
	tx := func(ef jsonapi.EventFormat, shape string) *jsonapi.UpdateFormat {
		return &jsonapi.UpdateFormat{IncludeTransactions: &jsonapi.TransactionFormat{EventFormat: ef, TransactionShape: shape}}
	}
	tmpl := l.templateFormat
	noVariant := l.noVariantFormat()
	two := l.twoVariantsFormat()
	firstBody, err := a.UpdatesPage(l.ctx, jsonapi.GetUpdatesPageRequest{EndOffsetInclusive: &end, MaxPageSize: &size, UpdateFormat: tx(alice, jsonapi.ShapeACSDelta)})
	if err != nil {
		t.Fatalf("first page: %v", err)
	}
	first := pageOf(t, firstBody)
	if first.NextPageToken == nil {
		t.Fatalf("first page without a token: %s", firstBody)
	}
	bob := l.bobCtx()
	cancelled := l.cancelledCtx()
	for _, tt := range []struct {
		name string
		ctx  context.Context
		req  jsonapi.GetUpdatesPageRequest
	}{
		{"no format", l.ctx, jsonapi.GetUpdatesPageRequest{}},
		{"empty format: an empty page", l.ctx, jsonapi.GetUpdatesPageRequest{UpdateFormat: &jsonapi.UpdateFormat{}}},
		{"unknown shape", l.ctx, jsonapi.GetUpdatesPageRequest{UpdateFormat: tx(alice, "X")}},
		{"unspecified shape", l.ctx, jsonapi.GetUpdatesPageRequest{UpdateFormat: tx(alice, "TRANSACTION_SHAPE_UNSPECIFIED")}},
		{"no party", l.ctx, jsonapi.GetUpdatesPageRequest{UpdateFormat: tx(jsonapi.EventFormat{}, jsonapi.ShapeACSDelta)}},
		{"bad identifier", l.ctx, jsonapi.GetUpdatesPageRequest{UpdateFormat: tx(tmpl("M:E"), jsonapi.ShapeACSDelta)}},
		{"two variants", l.ctx, jsonapi.GetUpdatesPageRequest{UpdateFormat: tx(two, jsonapi.ShapeACSDelta)}},
		{"unknown template", l.ctx, jsonapi.GetUpdatesPageRequest{UpdateFormat: tx(tmpl(l.pkg+":Main:Nope"), jsonapi.ShapeACSDelta)}},
		{"unknown package name", l.ctx, jsonapi.GetUpdatesPageRequest{UpdateFormat: tx(tmpl("#nope:Main:T"), jsonapi.ShapeACSDelta)}},
		{"template by name", l.ctx, jsonapi.GetUpdatesPageRequest{UpdateFormat: tx(tmpl("#emit:Main:T"), jsonapi.ShapeLedgerEffects)}},
		{"trailing colon", l.ctx, jsonapi.GetUpdatesPageRequest{UpdateFormat: tx(tmpl(l.pkg+":Main:Nope:"), jsonapi.ShapeACSDelta)}},
		{"identifier filter without variant", l.ctx, jsonapi.GetUpdatesPageRequest{UpdateFormat: tx(noVariant, jsonapi.ShapeACSDelta)}},
		{"topology without authorizations", l.ctx, jsonapi.GetUpdatesPageRequest{UpdateFormat: &jsonapi.UpdateFormat{IncludeTopologyEvents: &jsonapi.TopologyFormat{}}}},
		{"no right", bob, jsonapi.GetUpdatesPageRequest{UpdateFormat: tx(alice, jsonapi.ShapeACSDelta)}},
		{"cancelled", cancelled, jsonapi.GetUpdatesPageRequest{UpdateFormat: tx(alice, "X")}},
		{"size 0", l.ctx, jsonapi.GetUpdatesPageRequest{MaxPageSize: &zero, UpdateFormat: tx(alice, jsonapi.ShapeACSDelta)}},
		{"size too large", l.ctx, jsonapi.GetUpdatesPageRequest{MaxPageSize: &over, UpdateFormat: tx(alice, jsonapi.ShapeACSDelta)}},
		{"begin after the end", l.ctx, jsonapi.GetUpdatesPageRequest{BeginOffsetExclusive: after, UpdateFormat: tx(alice, jsonapi.ShapeACSDelta)}},
		{"negative end", l.ctx, jsonapi.GetUpdatesPageRequest{EndOffsetInclusive: &negative, UpdateFormat: tx(alice, jsonapi.ShapeACSDelta)}},
		{"end 0", l.ctx, jsonapi.GetUpdatesPageRequest{EndOffsetInclusive: &none, UpdateFormat: tx(alice, jsonapi.ShapeACSDelta)}},
		{"end 0 after a begin", l.ctx, jsonapi.GetUpdatesPageRequest{BeginOffsetExclusive: 1, EndOffsetInclusive: &none, UpdateFormat: tx(alice, jsonapi.ShapeACSDelta)}},
		{"not base64", l.ctx, jsonapi.GetUpdatesPageRequest{PageToken: "???", UpdateFormat: tx(alice, jsonapi.ShapeACSDelta)}},
		{"not a token", l.ctx, jsonapi.GetUpdatesPageRequest{PageToken: base64.StdEncoding.EncodeToString([]byte(`{"c":1,"r":"x"}`)), UpdateFormat: tx(alice, jsonapi.ShapeACSDelta)}},
		{"another request's token", l.ctx, jsonapi.GetUpdatesPageRequest{PageToken: *first.NextPageToken, UpdateFormat: tx(alice, jsonapi.ShapeLedgerEffects)}},
		{"the request's token", l.ctx, jsonapi.GetUpdatesPageRequest{EndOffsetInclusive: &end, MaxPageSize: &size, PageToken: *first.NextPageToken,
			UpdateFormat: tx(alice, jsonapi.ShapeACSDelta)}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, gerr := a.UpdatesPage(tt.ctx, tt.req)
			sameAnswer(t, "updates page", got, gerr)
		})
	}
	for _, tt := range []struct {
		name string
		ctx  context.Context
		req  jsonapi.GetActiveContractsPageRequest
	}{
		{"no party", l.ctx, jsonapi.GetActiveContractsPageRequest{}},
		{"bad identifier", l.ctx, jsonapi.GetActiveContractsPageRequest{EventFormat: tmpl("M:E")}},
		{"unknown template", l.ctx, jsonapi.GetActiveContractsPageRequest{EventFormat: tmpl(l.pkg + ":Main:Nope")}},
		{"identifier filter without variant", l.ctx, jsonapi.GetActiveContractsPageRequest{EventFormat: noVariant}},
		{"no right", bob, jsonapi.GetActiveContractsPageRequest{EventFormat: alice}},
		{"size 0", l.ctx, jsonapi.GetActiveContractsPageRequest{EventFormat: alice, MaxPageSize: &zero}},
		{"offset after the end", l.ctx, jsonapi.GetActiveContractsPageRequest{EventFormat: alice, ActiveAtOffset: &after}},
		{"negative offset", l.ctx, jsonapi.GetActiveContractsPageRequest{EventFormat: alice, ActiveAtOffset: &negative}},
		{"offset 0", l.ctx, jsonapi.GetActiveContractsPageRequest{EventFormat: alice, ActiveAtOffset: &none}},
		{"not a token", l.ctx, jsonapi.GetActiveContractsPageRequest{EventFormat: alice, PageToken: "???"}},
	} {
		t.Run("active contracts "+tt.name, func(t *testing.T) {
			got, gerr := a.ActiveContractsPage(tt.ctx, tt.req)
			sameAnswer(t, "active contracts page", got, gerr)
		})
	}
}
