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

// listKinds are the JSON layer's lists of updates.
func listKinds(a *jsonapi.API) []struct {
	name string
	api  func(context.Context, jsonapi.GetUpdatesRequest, ledger.ListOptions) (jsonapi.Body, error)
} {
	return []struct {
		name string
		api  func(context.Context, jsonapi.GetUpdatesRequest, ledger.ListOptions) (jsonapi.Body, error)
	}{{"updates", a.UpdatesList}, {"flats", a.FlatsList}, {"trees", a.TreeList}}
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

// sameList checks that the JSON layer's list is the golden one named
// what (the Node's JSON list, recorded): the same elements (bytes;
// checkpoints by offset), or the same refusal. It returns the number of
// elements compared.
func sameList(t *testing.T, what string, got jsonapi.Body, gerr error) int {
	t.Helper()
	if gerr != nil {
		sameAnswer(t, what, got, gerr)
		return 0
	}
	gs := listElements(t, got)
	if !checkGolden(t, what, []byte(strings.Join(gs, "\n"))) {
		return 0
	}
	return len(gs)
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
	for _, k := range listKinds(a) {
		for _, f := range emitFormats {
			for i, req := range l.updatesRequests(f) {
				for _, begin := range []int64{0, end / 2, end} {
					for _, limit := range []*int64{nil, &three, &zero, &negative} {
						req.BeginExclusive = begin
						for _, c := range []struct {
							name string
							end  *int64
							desc bool
						}{{"ascending", &end, false}, {"descending", &end, true}, {"open", nil, false}} {
							req.EndInclusive, req.DescendingOrder = c.end, c.desc
							opts := ledger.ListOptions{Limit: limit, IdleTimeout: &idle}
							what := fmt.Sprintf("%s %s request %d %s from %d limit %s", k.name, f.name, i, c.name, begin, limitName(limit))
							got, gerr := k.api(l.ctx, req, opts)
							seen += sameList(t, what, got, gerr)
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
		for _, k := range listKinds(a) {
			t.Run(k.name+" "+tt.name, func(t *testing.T) {
				opts := ledger.ListOptions{IdleTimeout: &idle}
				got, gerr := k.api(tt.ctx, tt.req, opts)
				sameList(t, k.name, got, gerr)
			})
		}
	}
}

// TestListsWaitForCommits checks that an open-ended list of the JSON
// layer waits for an update committed after it started, returns once
// the idle timeout passed without another, and answers the elements the
// same list answers when read afterwards.
func TestListsWaitForCommits(t *testing.T) {
	t.Parallel()
	l := newEmitLedger(t, emitNotes)
	a := jsonapi.New(l.n)
	end, err := l.n.LedgerEnd(l.ctx)
	if err != nil {
		t.Fatal(err)
	}
	ef := l.wire(emitFormats[0])
	req := jsonapi.GetUpdatesRequest{BeginExclusive: end, Filter: &ef}
	idle := 400 * time.Millisecond
	opts := ledger.ListOptions{IdleTimeout: &idle}
	for i, k := range listKinds(a) {
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
		want, werr := k.api(l.ctx, req, ledger.ListOptions{IdleTimeout: &short})
		if werr != nil {
			t.Fatalf("%s afterwards: %v", k.name, werr)
		}
		if diff := cmp.Diff(listElements(t, want), listElements(t, got)); diff != "" {
			t.Errorf("%s: the list that waited differs from the list read afterwards (-afterwards +waited):\n%s", k.name, diff)
		}
		req.BeginExclusive++
	}
}

// TestListsStop checks that ListOptions.Stop ends only a list's wait:
// an open-ended list whose Stop has ended answers at once what there
// is, as at its idle timeout (the reads before the wait go on, on the
// request's live context), and a bounded list is unaffected.
func TestListsStop(t *testing.T) {
	t.Parallel()
	l := newEmitLedger(t, emitNotes)
	a := jsonapi.New(l.n)
	end, err := l.n.LedgerEnd(l.ctx)
	if err != nil {
		t.Fatal(err)
	}
	stopped, stop := context.WithCancel(context.Background())
	stop()
	ef := l.wire(emitFormats[0])
	long, short := time.Minute, time.Millisecond
	for _, k := range listKinds(a) {
		for _, req := range []jsonapi.GetUpdatesRequest{{Filter: &ef}, {EndInclusive: &end, Filter: &ef}} {
			want, werr := k.api(l.ctx, req, ledger.ListOptions{IdleTimeout: &short})
			start := time.Now()
			got, gerr := k.api(l.ctx, req, ledger.ListOptions{IdleTimeout: &long, Stop: stopped})
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("%s (end %v): a stopped list waited %v", k.name, req.EndInclusive != nil, d)
			}
			if gerr != nil || werr != nil {
				t.Fatalf("%s (end %v): %v (without Stop: %v)", k.name, req.EndInclusive != nil, gerr, werr)
			}
			if diff := cmp.Diff(listElements(t, want), listElements(t, got)); diff != "" || len(listElements(t, got)) == 0 {
				t.Errorf("%s (end %v): the stopped list differs from the list read without a wait (-without +stopped):\n%s", k.name, req.EndInclusive != nil, diff)
			}
		}
	}
}
