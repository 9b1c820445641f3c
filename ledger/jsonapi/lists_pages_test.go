package jsonapi_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/internal/rawjson"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// TestListsAndStreamsAcrossPages checks the lists and WebSocket streams
// of updates over ranges of more than one of their pages (they read 500
// updates a page, written by the node from the stored entries where it
// can): every element is the emitter's for the typed update of
// Node.Updates, and a list's limit cuts it at the update it takes last,
// within a page or at a page's end, ascending and descending.
func TestListsAndStreamsAcrossPages(t *testing.T) {
	t.Parallel()
	node, alice := openIouNode(t, ledger.Options{InMemory: true, ListLimit: 5000}, 1234)
	ctx := t.Context()
	end, err := node.LedgerEnd(ctx)
	if err != nil {
		t.Fatal(err)
	}
	a := jsonapi.New(node)
	ef := jsonapi.EventFormat{FiltersByParty: map[string]jsonapi.Filters{alice: {}}}
	for _, shape := range []string{jsonapi.ShapeACSDelta, jsonapi.ShapeLedgerEffects} {
		for _, desc := range []bool{false, true} {
			req := jsonapi.GetUpdatesRequest{EndInclusive: &end, DescendingOrder: desc,
				UpdateFormat: &jsonapi.UpdateFormat{IncludeTransactions: &jsonapi.TransactionFormat{TransactionShape: shape, EventFormat: ef}}}
			what := fmt.Sprintf("%s descending %t", shape, desc)
			f, r, err := jsonapi.TypedListForTest(req)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for u, err := range node.Updates(rawjson.WithStoredValues(ctx), f, r) {
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				want = append(want, string(jsonapi.AppendUpdateResponse(nil, u)))
			}
			if len(want) < 1234 {
				t.Fatalf("%s: %d updates, want at least 1234", what, len(want))
			}
			for _, limit := range []int64{1, 499, 500, 501, 1000, 1001, 1233, int64(len(want))} {
				got, err := a.UpdatesList(ctx, req, ledger.ListOptions{Limit: &limit})
				if err != nil {
					t.Fatalf("%s limit %d: %v", what, limit, err)
				}
				if diff := cmp.Diff(want[:limit], listElements(t, got)); diff != "" {
					t.Fatalf("%s limit %d: the list differs from the typed updates (-want +got):\n%s", what, limit, diff)
				}
			}
			var stream []string
			for m, err := range a.StreamUpdates(ctx, req) {
				if err != nil {
					t.Fatalf("%s stream: %v", what, err)
				}
				stream = append(stream, string(m))
			}
			if diff := cmp.Diff(want, stream); diff != "" {
				t.Fatalf("%s: the stream differs from the typed updates (-want +got):\n%s", what, diff)
			}
		}
	}
}
