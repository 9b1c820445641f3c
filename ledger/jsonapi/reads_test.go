package jsonapi_test

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"testing"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// sameAnswer checks that the JSON layer's answer (body or refusal) is
// the Node's JSON read's: the same bytes, or the same code and message.
func sameAnswer(t *testing.T, what string, want any, wantErr error, got jsonapi.Body, gotErr error) {
	t.Helper()
	if wantErr != nil || gotErr != nil {
		if wantErr != nil {
			recordOracle(t, what, goldenAnswer(nil, wantErr))
		}
		var we, ge *apierr.Error
		sameCode := errors.As(wantErr, &we) == errors.As(gotErr, &ge) && (we == nil || we.Code == ge.Code)
		if wantErr == nil || gotErr == nil || !sameCode || wantErr.Error() != gotErr.Error() {
			t.Errorf("%s: Node refuses with %v, the JSON layer answers %s, %v", what, wantErr, got, gotErr)
		}
		return
	}
	sameWire(t, what, wire(t, want), got)
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
		for _, shape := range []string{ledger.ShapeACSDelta, ledger.ShapeLedgerEffects} {
			uf := l.wireUpdates(f, shape)
			for _, desc := range []bool{false, true} {
				for _, open := range []bool{false, true} {
					size := int32(3)
					req := ledger.GetUpdatesPageRequest{EndOffsetInclusive: &end.Offset, MaxPageSize: &size, UpdateFormat: uf, DescendingOrder: desc}
					if open {
						req.EndOffsetInclusive = nil
					}
					for page := 0; page < 50; page++ {
						what := fmt.Sprintf("%s %s page %d (descending %v, open %v)", f.name, shape, page, desc, open)
						want, werr := l.n.UpdatesPage(l.ctx, req)
						got, gerr := a.UpdatesPage(l.ctx, req)
						sameAnswer(t, what, want, werr, got, gerr)
						if werr != nil {
							break
						}
						updates += len(want.Updates)
						if want.NextPageToken == nil || len(want.Updates) == 0 {
							break
						}
						req.PageToken = *want.NextPageToken
					}
				}
			}
		}
		for _, at := range []*int64{nil, &end.Offset} {
			size := int32(2)
			req := ledger.GetActiveContractsPageRequest{ActiveAtOffset: at, EventFormat: l.wire(f), MaxPageSize: &size}
			for page := 0; page < 50; page++ {
				what := fmt.Sprintf("%s active contracts page %d", f.name, page)
				want, werr := l.n.ActiveContractsPage(l.ctx, req)
				got, gerr := a.ActiveContractsPage(l.ctx, req)
				sameAnswer(t, what, want, werr, got, gerr)
				if werr != nil {
					break
				}
				contracts += len(want.ActiveContracts)
				if want.NextPageToken == nil {
					break
				}
				req.PageToken = *want.NextPageToken
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
	after, negative, none := end.Offset+5, int64(-1), int64(0)
	alice := l.aliceFormat()
	tx := func(ef ledger.EventFormat, shape string) ledger.UpdateFormat {
		return ledger.UpdateFormat{IncludeTransactions: &ledger.TransactionFormat{EventFormat: ef, TransactionShape: shape}}
	}
	tmpl := l.templateFormat
	noVariant := l.noVariantFormat()
	two := l.twoVariantsFormat()
	first, err := l.n.UpdatesPage(l.ctx, ledger.GetUpdatesPageRequest{EndOffsetInclusive: &end.Offset, MaxPageSize: &size, UpdateFormat: tx(alice, ledger.ShapeACSDelta)})
	if err != nil || first.NextPageToken == nil {
		t.Fatalf("first page: %v, %v", first, err)
	}
	bob := l.bobCtx()
	cancelled := l.cancelledCtx()
	for _, tt := range []struct {
		name string
		ctx  context.Context
		req  ledger.GetUpdatesPageRequest
	}{
		{"selects nothing", l.ctx, ledger.GetUpdatesPageRequest{}},
		{"unknown shape", l.ctx, ledger.GetUpdatesPageRequest{UpdateFormat: tx(alice, "X")}},
		{"unspecified shape", l.ctx, ledger.GetUpdatesPageRequest{UpdateFormat: tx(alice, "TRANSACTION_SHAPE_UNSPECIFIED")}},
		{"no party", l.ctx, ledger.GetUpdatesPageRequest{UpdateFormat: tx(ledger.EventFormat{}, ledger.ShapeACSDelta)}},
		{"bad identifier", l.ctx, ledger.GetUpdatesPageRequest{UpdateFormat: tx(tmpl("M:E"), ledger.ShapeACSDelta)}},
		{"two variants", l.ctx, ledger.GetUpdatesPageRequest{UpdateFormat: tx(two, ledger.ShapeACSDelta)}},
		{"unknown template", l.ctx, ledger.GetUpdatesPageRequest{UpdateFormat: tx(tmpl(l.pkg+":Main:Nope"), ledger.ShapeACSDelta)}},
		{"unknown package name", l.ctx, ledger.GetUpdatesPageRequest{UpdateFormat: tx(tmpl("#nope:Main:T"), ledger.ShapeACSDelta)}},
		{"template by name", l.ctx, ledger.GetUpdatesPageRequest{UpdateFormat: tx(tmpl("#emit:Main:T"), ledger.ShapeLedgerEffects)}},
		{"trailing colon", l.ctx, ledger.GetUpdatesPageRequest{UpdateFormat: tx(tmpl(l.pkg+":Main:Nope:"), ledger.ShapeACSDelta)}},
		{"identifier filter without variant", l.ctx, ledger.GetUpdatesPageRequest{UpdateFormat: tx(noVariant, ledger.ShapeACSDelta)}},
		{"topology without authorizations", l.ctx, ledger.GetUpdatesPageRequest{UpdateFormat: ledger.UpdateFormat{IncludeTopologyEvents: &ledger.TopologyFormat{}}}},
		{"no right", bob, ledger.GetUpdatesPageRequest{UpdateFormat: tx(alice, ledger.ShapeACSDelta)}},
		{"cancelled", cancelled, ledger.GetUpdatesPageRequest{UpdateFormat: tx(alice, "X")}},
		{"size 0", l.ctx, ledger.GetUpdatesPageRequest{MaxPageSize: &zero, UpdateFormat: tx(alice, ledger.ShapeACSDelta)}},
		{"size too large", l.ctx, ledger.GetUpdatesPageRequest{MaxPageSize: &over, UpdateFormat: tx(alice, ledger.ShapeACSDelta)}},
		{"begin after the end", l.ctx, ledger.GetUpdatesPageRequest{BeginOffsetExclusive: after, UpdateFormat: tx(alice, ledger.ShapeACSDelta)}},
		{"negative end", l.ctx, ledger.GetUpdatesPageRequest{EndOffsetInclusive: &negative, UpdateFormat: tx(alice, ledger.ShapeACSDelta)}},
		{"end 0", l.ctx, ledger.GetUpdatesPageRequest{EndOffsetInclusive: &none, UpdateFormat: tx(alice, ledger.ShapeACSDelta)}},
		{"end 0 after a begin", l.ctx, ledger.GetUpdatesPageRequest{BeginOffsetExclusive: 1, EndOffsetInclusive: &none, UpdateFormat: tx(alice, ledger.ShapeACSDelta)}},
		{"not base64", l.ctx, ledger.GetUpdatesPageRequest{PageToken: "???", UpdateFormat: tx(alice, ledger.ShapeACSDelta)}},
		{"not a token", l.ctx, ledger.GetUpdatesPageRequest{PageToken: base64.StdEncoding.EncodeToString([]byte(`{"c":1,"r":"x"}`)), UpdateFormat: tx(alice, ledger.ShapeACSDelta)}},
		{"another request's token", l.ctx, ledger.GetUpdatesPageRequest{PageToken: *first.NextPageToken, UpdateFormat: tx(alice, ledger.ShapeLedgerEffects)}},
		{"the request's token", l.ctx, ledger.GetUpdatesPageRequest{EndOffsetInclusive: &end.Offset, MaxPageSize: &size, PageToken: *first.NextPageToken,
			UpdateFormat: tx(alice, ledger.ShapeACSDelta)}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			want, werr := l.n.UpdatesPage(tt.ctx, tt.req)
			got, gerr := a.UpdatesPage(tt.ctx, tt.req)
			sameAnswer(t, "updates page", want, werr, got, gerr)
		})
	}
	for _, tt := range []struct {
		name string
		ctx  context.Context
		req  ledger.GetActiveContractsPageRequest
	}{
		{"no party", l.ctx, ledger.GetActiveContractsPageRequest{}},
		{"bad identifier", l.ctx, ledger.GetActiveContractsPageRequest{EventFormat: tmpl("M:E")}},
		{"unknown template", l.ctx, ledger.GetActiveContractsPageRequest{EventFormat: tmpl(l.pkg + ":Main:Nope")}},
		{"identifier filter without variant", l.ctx, ledger.GetActiveContractsPageRequest{EventFormat: noVariant}},
		{"no right", bob, ledger.GetActiveContractsPageRequest{EventFormat: alice}},
		{"size 0", l.ctx, ledger.GetActiveContractsPageRequest{EventFormat: alice, MaxPageSize: &zero}},
		{"offset after the end", l.ctx, ledger.GetActiveContractsPageRequest{EventFormat: alice, ActiveAtOffset: &after}},
		{"negative offset", l.ctx, ledger.GetActiveContractsPageRequest{EventFormat: alice, ActiveAtOffset: &negative}},
		{"offset 0", l.ctx, ledger.GetActiveContractsPageRequest{EventFormat: alice, ActiveAtOffset: &none}},
		{"not a token", l.ctx, ledger.GetActiveContractsPageRequest{EventFormat: alice, PageToken: "???"}},
	} {
		t.Run("active contracts "+tt.name, func(t *testing.T) {
			want, werr := l.n.ActiveContractsPage(tt.ctx, tt.req)
			got, gerr := a.ActiveContractsPage(tt.ctx, tt.req)
			sameAnswer(t, "active contracts page", want, werr, got, gerr)
		})
	}
}
