package jsonapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// listKinds are the lists of updates, the Node's JSON list and the JSON
// layer's.
func listKinds(n *ledger.Node, a *jsonapi.API) []struct {
	name string
	node func(context.Context, ledger.GetUpdatesRequest, ledger.ListOptions) (any, error)
	api  func(context.Context, ledger.GetUpdatesRequest, ledger.ListOptions) (jsonapi.Body, error)
} {
	return []struct {
		name string
		node func(context.Context, ledger.GetUpdatesRequest, ledger.ListOptions) (any, error)
		api  func(context.Context, ledger.GetUpdatesRequest, ledger.ListOptions) (jsonapi.Body, error)
	}{
		{"updates", func(ctx context.Context, r ledger.GetUpdatesRequest, o ledger.ListOptions) (any, error) {
			return n.UpdatesList(ctx, r, o)
		}, a.UpdatesList},
		{"flats", func(ctx context.Context, r ledger.GetUpdatesRequest, o ledger.ListOptions) (any, error) {
			return n.FlatsList(ctx, r, o)
		}, a.FlatsList},
		{"trees", func(ctx context.Context, r ledger.GetUpdatesRequest, o ledger.ListOptions) (any, error) {
			return n.TreeList(ctx, r, o)
		}, a.TreeList},
	}
}

// listElements splits a list's JSON into its elements, an offset
// checkpoint as its offset and synchronizers (its record time is the
// node's clock when it was written).
func listElements(t *testing.T, b []byte) []string {
	t.Helper()
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	out := make([]string, len(raw))
	for i, e := range raw {
		if c, ok := checkpointOf(t, e); ok {
			out[i] = "checkpoint " + c
		} else {
			out[i] = string(e)
		}
	}
	return out
}

// sameList checks that the JSON layer's list is the Node's: the same
// elements (bytes; checkpoints by offset), or the same refusal.
func sameList(t *testing.T, what string, want any, werr error, got jsonapi.Body, gerr error) int {
	t.Helper()
	if werr != nil || gerr != nil {
		sameAnswer(t, what, nil, werr, got, gerr)
		return 0
	}
	ws := listElements(t, wire(t, want))
	recordOracle(t, what, []byte(strings.Join(ws, "\n")))
	if diff := cmp.Diff(ws, listElements(t, got)); diff != "" {
		t.Errorf("%s: the JSON layer's list differs from the Node's (-Node +JSON layer):\n%s", what, diff)
	}
	return len(ws)
}

// TestListsSameAsNode checks that the JSON layer's lists of updates
// (updates, flats, trees) are the Node's JSON lists element by element
// for every format of the fixture (update format and legacy filter),
// bounded in both directions and open-ended (up to the idle timeout,
// closing with the same checkpoint), under limits.
func TestListsSameAsNode(t *testing.T) {
	useGolden(t)
	deterministicRandom(t)
	l := newEmitLedger(t, emitNotes)
	a := jsonapi.New(l.n)
	end, err := l.n.LedgerEnd(l.ctx)
	if err != nil {
		t.Fatal(err)
	}
	idle := 5 * time.Millisecond
	three, zero, negative := int64(3), int64(0), int64(-2)
	seen := 0
	for _, k := range listKinds(l.n, a) {
		for _, f := range emitFormats {
			for i, req := range l.updatesRequests(f) {
				for _, begin := range []int64{0, end.Offset / 2, end.Offset} {
					for _, limit := range []*int64{nil, &three, &zero, &negative} {
						req.BeginExclusive = begin
						for _, c := range []struct {
							name string
							end  *int64
							desc bool
						}{{"ascending", &end.Offset, false}, {"descending", &end.Offset, true}, {"open", nil, false}} {
							req.EndInclusive, req.DescendingOrder = c.end, c.desc
							opts := ledger.ListOptions{Limit: limit, IdleTimeout: &idle}
							what := fmt.Sprintf("%s %s request %d %s from %d limit %s", k.name, f.name, i, c.name, begin, limitName(limit))
							want, werr := k.node(l.ctx, req, opts)
							got, gerr := k.api(l.ctx, req, opts)
							seen += sameList(t, what, want, werr, got, gerr)
						}
					}
				}
			}
		}
	}
	if seen < 1000 {
		t.Errorf("compared %d elements only", seen)
	}
}

// TestListsRefusals checks the refusals of the JSON layer's lists of
// updates against the Node's JSON lists (code, text, order), and the
// requests the typed read does not express (answered as the Node does).
func TestListsRefusals(t *testing.T) {
	useGolden(t)
	deterministicRandom(t)
	l := newEmitLedger(t, emitNotes)
	a := jsonapi.New(l.n)
	idle := time.Millisecond
	for _, tt := range updatesRefusals(t, l) {
		for _, k := range listKinds(l.n, a) {
			t.Run(k.name+" "+tt.name, func(t *testing.T) {
				opts := ledger.ListOptions{IdleTimeout: &idle}
				want, werr := k.node(tt.ctx, tt.req, opts)
				got, gerr := k.api(tt.ctx, tt.req, opts)
				sameList(t, k.name, want, werr, got, gerr)
			})
		}
	}
}

// TestListsWaitForCommits checks that an open-ended list of the JSON
// layer waits for an update committed after it started, returns once
// the idle timeout passed without another, and answers the elements the
// Node's list answers for the same request afterwards.
func TestListsWaitForCommits(t *testing.T) {
	t.Parallel()
	l := newEmitLedger(t, emitNotes)
	a := jsonapi.New(l.n)
	end, err := l.n.LedgerEnd(l.ctx)
	if err != nil {
		t.Fatal(err)
	}
	ef := l.wire(emitFormats[0])
	req := ledger.GetUpdatesRequest{BeginExclusive: end.Offset, Filter: &ef}
	idle := 400 * time.Millisecond
	opts := ledger.ListOptions{IdleTimeout: &idle}
	for i, k := range listKinds(l.n, a) {
		committed := make(chan error, 1)
		go func() {
			time.Sleep(50 * time.Millisecond)
			_, err := a.SubmitAndWaitForTransaction(l.ctx, jsonapi.SubmitAndWaitForTransactionRequest{Commands: jsonapi.JsCommands{
				CommandID: fmt.Sprintf("wait-%d", i), ActAs: []string{l.alice}, UserID: "u1",
				Commands: []jsonapi.JsCommand{l.create("U", fmt.Sprintf(`{"owner": %q}`, l.alice))}}})
			committed <- err
		}()
		got, gerr := k.api(l.ctx, req, opts)
		if err := <-committed; err != nil {
			t.Fatal(err)
		}
		if gerr != nil {
			t.Fatalf("%s: %v", k.name, gerr)
		}
		if els := listElements(t, got); len(els) != 1 {
			t.Errorf("%s: the list waited for the commit and answers %q, want one transaction", k.name, els)
		}
		short := time.Millisecond
		want, werr := k.node(l.ctx, req, ledger.ListOptions{IdleTimeout: &short})
		sameList(t, k.name, want, werr, got, gerr)
		req.BeginExclusive++
	}
}
