package jsonapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"

	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// encodeAnswer writes v as httpadapter's encoder does (no HTML escaping),
// without its newline.
func encodeAnswer(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// TestSubmitAnswersAreTheReadBack: the …ForTransaction and
// …ForTransactionTree answers, written from the typed transaction the
// submission returns, are byte for byte the JSON read of the same update
// in the same format (the answer before the emitters): default and
// explicit formats, verbose or not, ACS delta and ledger effects,
// interface views and blobs, filters for any party, a format that shows
// nothing, filters without a variant; values with HTML-sensitive text.
func TestSubmitAnswersAreTheReadBack(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	n := ledgertest.Open(t, ledger.Options{})
	dar, _ := lftest.DAR(emitPackage())
	ledgertest.MustUploadDAR(t, n, dar)
	api := jsonapi.New(n)
	l := &emitLedger{n: n, ctx: ctx}
	alice, bob, carol := ledgertest.MustAllocate(t, n, "alice"), ledgertest.MustAllocate(t, n, "bob"), ledgertest.MustAllocate(t, n, "carol")
	parties := map[string]string{"alice": alice, "bob": bob, "carol": carol}
	wire := func(fs []filt) jsonapi.Filters {
		var out jsonapi.Filters
		for _, f := range fs {
			out.Cumulative = append(out.Cumulative, f.wire())
		}
		return out
	}
	variantless := jsonapi.CumulativeFilter{}
	type tcase struct {
		name   string
		format func() *jsonapi.TransactionFormat
	}
	byParty := func(shape string, verbose bool, ps map[string][]filt) func() *jsonapi.TransactionFormat {
		return func() *jsonapi.TransactionFormat {
			f := &jsonapi.TransactionFormat{TransactionShape: shape, EventFormat: jsonapi.EventFormat{Verbose: verbose, FiltersByParty: map[string]jsonapi.Filters{}}}
			for p, fs := range ps {
				f.EventFormat.FiltersByParty[parties[p]] = wire(fs)
			}
			return f
		}
	}
	cases := []tcase{
		{"default", func() *jsonapi.TransactionFormat { return nil }},
		{"acs delta verbose", byParty(jsonapi.ShapeACSDelta, true, map[string][]filt{"alice": nil})},
		{"acs delta not verbose", byParty(jsonapi.ShapeACSDelta, false, map[string][]filt{"alice": nil, "carol": nil})},
		{"ledger effects verbose", byParty(jsonapi.ShapeLedgerEffects, true, map[string][]filt{"alice": nil, "carol": nil})},
		{"ledger effects not verbose, views and blobs", byParty(jsonapi.ShapeLedgerEffects, false, map[string][]filt{
			"alice": {{kind: "interface", ref: "#emit:Main:I", views: true, blobs: true}}, "bob": {{kind: "template", ref: "#emit:Main:T"}}})},
		{"acs delta blobs", byParty(jsonapi.ShapeACSDelta, true, map[string][]filt{"bob": {{kind: "wildcard", blobs: true}}})},
		{"any party", func() *jsonapi.TransactionFormat {
			return &jsonapi.TransactionFormat{TransactionShape: jsonapi.ShapeLedgerEffects, EventFormat: jsonapi.EventFormat{
				FiltersForAnyParty: &jsonapi.Filters{Cumulative: []jsonapi.CumulativeFilter{(filt{kind: "template", ref: "#emit:Main:T", blobs: true}).wire()}}}}
		}},
		{"a filter showing nothing", byParty(jsonapi.ShapeACSDelta, true, map[string][]filt{"carol": {{kind: "template", ref: "#emit:Main:U"}}})},
		{"a party seeing nothing", byParty(jsonapi.ShapeLedgerEffects, false, map[string][]filt{"carol": nil})},
		{"a filter without a variant next to one", func() *jsonapi.TransactionFormat {
			f := byParty(jsonapi.ShapeLedgerEffects, true, nil)()
			f.EventFormat.FiltersByParty[alice] = jsonapi.Filters{Cumulative: []jsonapi.CumulativeFilter{variantless, (filt{kind: "template", ref: "#emit:Main:T", blobs: true}).wire()}}
			return f
		}},
		{"filters without a variant only", func() *jsonapi.TransactionFormat {
			f := byParty(jsonapi.ShapeLedgerEffects, true, map[string][]filt{"bob": nil})()
			f.EventFormat.FiltersByParty[alice] = jsonapi.Filters{Cumulative: []jsonapi.CumulativeFilter{variantless}}
			return f
		}},
	}
	// note: a Daml text the JSON read serves HTML-escaped.
	note := `<a href="x">&amp;</a> ` + "\u2028"
	seq := 0
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// An alice create watched by bob, then a Spawn of it (archive,
			// child create, carol a choice observer).
			var created string
			for _, step := range []func(id string) jsonapi.JsCommand{
				func(string) jsonapi.JsCommand { return l.create("T", l.tArg(alice, bob, note, seq)) },
				func(string) jsonapi.JsCommand {
					return l.exercise("T", created, "Spawn", fmt.Sprintf(`{"viewer": %q}`, carol))
				},
			} {
				seq++
				id := fmt.Sprintf("c%d", seq)
				f := tc.format()
				got, err := api.SubmitAndWaitForTransaction(ctx, jsonapi.SubmitAndWaitForTransactionRequest{
					Commands: jsonapi.JsCommands{CommandID: id, ActAs: []string{alice}, UserID: "u1", Commands: []jsonapi.JsCommand{step(id)}}, TransactionFormat: f})
				if err != nil {
					t.Fatalf("%s: %v", id, err)
				}
				var head struct{ Transaction jsonapi.JsTransaction }
				if err := json.Unmarshal(got, &head); err != nil {
					t.Fatal(err)
				}
				if created == "" {
					// The contract, as alice reads it.
					all, err := api.TransactionByID(ctx, jsonapi.GetTransactionByIDRequest{UpdateID: head.Transaction.UpdateID, RequestingParties: []string{alice}})
					if err != nil {
						t.Fatal(err)
					}
					var read struct{ Transaction jsonapi.JsTransaction }
					if err := json.Unmarshal(all, &read); err != nil {
						t.Fatal(err)
					}
					created = read.Transaction.Events[0].CreatedEvent.ContractID
				}
				if f == nil {
					f = &jsonapi.TransactionFormat{TransactionShape: jsonapi.ShapeACSDelta, EventFormat: jsonapi.EventFormat{Verbose: true,
						FiltersByParty: map[string]jsonapi.Filters{alice: {}}}}
				}
				want := readBack(t, api, head.Transaction.UpdateID, alice, f)
				if !bytes.Equal(got, want) {
					t.Errorf("%s:\n got %s\nwant %s", id, got, want)
				}
			}
		})
	}
	t.Run("tree", func(t *testing.T) {
		var created string
		for i, step := range []func() jsonapi.JsCommand{
			func() jsonapi.JsCommand { return l.create("T", l.tArg(alice, bob, note, 99)) },
			func() jsonapi.JsCommand {
				return l.exercise("T", created, "Spawn", fmt.Sprintf(`{"viewer": %q}`, carol))
			},
		} {
			for _, readAs := range [][]string{nil, {carol}} {
				if i == 1 && readAs != nil {
					continue
				}
				seq++
				got, err := api.SubmitAndWaitForTransactionTree(ctx, jsonapi.JsCommands{CommandID: fmt.Sprintf("t%d", seq), ActAs: []string{alice}, ReadAs: readAs,
					UserID: "u1", Commands: []jsonapi.JsCommand{step()}})
				if err != nil {
					t.Fatal(err)
				}
				var head struct{ TransactionTree json.RawMessage }
				if err := json.Unmarshal(got, &head); err != nil {
					t.Fatal(err)
				}
				var tree jsonapi.JsTransactionTree
				if err := json.Unmarshal(head.TransactionTree, &tree); err != nil {
					t.Fatal(err)
				}
				body, err := api.TransactionTreeByID(ctx, tree.UpdateID, append([]string{alice}, readAs...))
				if err != nil {
					t.Fatal(err)
				}
				var read struct{ Transaction json.RawMessage }
				if err := json.Unmarshal(body, &read); err != nil {
					t.Fatal(err)
				}
				if want := encodeAnswer(t, jsonapi.SubmitAndWaitForTransactionTreeResponse{TransactionTree: tree}); !bytes.Equal(got, want) ||
					!bytes.Equal(head.TransactionTree, read.Transaction) {
					t.Errorf("tree:\n got %s\nread back %s", got, read.Transaction)
				}
				if created == "" {
					for _, e := range tree.EventsByID {
						created = e.CreatedTreeEvent.Value.ContractID
					}
				}
			}
		}
	})
}

// readBack is the answer the JSON read of an update in f makes: the
// transaction, or when f shows nothing of it its header (as alice reads
// it) without events.
func readBack(t *testing.T, api *jsonapi.API, updateID, alice string, f *jsonapi.TransactionFormat) []byte {
	t.Helper()
	var r struct {
		Transaction json.RawMessage `json:"transaction"`
	}
	body, err := api.TransactionByID(context.Background(), jsonapi.GetTransactionByIDRequest{UpdateID: updateID, TransactionFormat: f})
	if err == nil {
		if err := json.Unmarshal(body, &r); err != nil {
			t.Fatal(err)
		}
		return encodeAnswer(t, r)
	}
	all, err2 := api.TransactionByID(context.Background(), jsonapi.GetTransactionByIDRequest{UpdateID: updateID, RequestingParties: []string{alice}})
	if err2 != nil {
		t.Fatalf("%v; %v", err, err2)
	}
	var header struct{ Transaction jsonapi.JsTransaction }
	if err := json.Unmarshal(all, &header); err != nil {
		t.Fatal(err)
	}
	header.Transaction.Events = []jsonapi.JsEvent{}
	return encodeAnswer(t, jsonapi.SubmitAndWaitForTransactionResponse{Transaction: header.Transaction})
}

// TestSubmitTreeCheckOrder: a tree submission the format check of its
// parties would refuse is refused for what the submission checks first,
// as by Node.Submit, and nothing is written.
func TestSubmitTreeCheckOrder(t *testing.T) {
	t.Parallel()
	f := newIouNode(t)
	plain := ledger.WithPrincipal(t.Context(), identity.Principal{UserID: "plain", Rights: []identity.Right{{Kind: identity.RightCanActAs, Party: f.alice}}})
	for _, tc := range []struct {
		name  string
		plain bool
		edit  func(c *jsonapi.JsCommands)
		code  apierr.Code
		cause string
	}{
		{"no actAs: act_as, not an empty format", false, func(c *jsonapi.JsCommands) { c.ActAs = nil }, apierr.MissingField, "act_as"},
		{"no right to read as a readAs party", true, func(c *jsonapi.JsCommands) { c.ReadAs = []string{f.bob} }, apierr.PermissionDenied, "may not read as"},
		{"a bad party id as Submit reports it", false, func(c *jsonapi.JsCommands) { c.ReadAs = []string{"no!"} }, apierr.InvalidField, "act_as/read_as"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			if tc.plain {
				ctx = plain
			}
			c := f.create("tree", f.iouArgs(1))
			tc.edit(&c)
			before := f.end(t)
			_, err := f.api.SubmitAndWaitForTransactionTree(ctx, c)
			var ae *apierr.Error
			if !errors.As(err, &ae) || ae.Code.Name != tc.code.Name || !strings.Contains(ae.Cause, tc.cause) {
				t.Fatalf("%v, want %s with %q", err, tc.code.Name, tc.cause)
			}
			if after := f.end(t); after != before {
				t.Errorf("the ledger end moved from %d to %d", before, after)
			}
		})
	}
}
