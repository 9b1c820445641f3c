package jsonapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// streamKinds are the JSON layer's update streams, each element a
// body.
func streamKinds(a *jsonapi.API) []struct {
	name string
	api  func(context.Context, jsonapi.GetUpdatesRequest) iter.Seq2[jsonapi.Body, error]
} {
	return []struct {
		name string
		api  func(context.Context, jsonapi.GetUpdatesRequest) iter.Seq2[jsonapi.Body, error]
	}{{"updates", a.StreamUpdates}, {"flats", a.StreamFlats}, {"trees", a.StreamTrees}}
}

// sameStream checks that a bounded stream of the JSON layer yields the
// golden elements named what (the Node's JSON stream's, recorded, bytes)
// and ends with the same refusal, if any. It returns the number of
// elements compared.
func sameStream(t *testing.T, what string, got iter.Seq2[jsonapi.Body, error]) int {
	t.Helper()
	var gs []jsonapi.Body
	var gerr error
	for v, err := range got {
		if err != nil {
			gerr = err
			break
		}
		gs = append(gs, v)
	}
	if !checkGolden(t, what+" count", []byte(fmt.Sprint(len(gs)))) {
		return 0
	}
	for i := range gs {
		if !checkGolden(t, fmt.Sprintf("%s element %d", what, i), gs[i]) {
			return i
		}
	}
	if gerr != nil {
		sameAnswer(t, what+" refusal", nil, gerr)
	}
	return len(gs)
}

// TestStreamsSameAsNode checks that the JSON layer's update streams
// (updates, flats, trees), read through Updates and the emitters,
// yield the Node's JSON streams' elements byte for byte for every format
// of the fixture, by update format and by legacy filter, in both
// directions.
func TestStreamsSameAsNode(t *testing.T) {
	useGolden(t)
	deterministicRandom(t)
	l := newEmitLedger(t, emitNotes)
	a := jsonapi.New(l.n)
	end, err := l.n.LedgerEnd(l.ctx)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, k := range streamKinds(a) {
		for _, f := range emitFormats {
			for i, req := range l.updatesRequests(f) {
				for _, desc := range []bool{false, true} {
					req.EndInclusive, req.DescendingOrder = &end, desc
					req.BeginExclusive = 0
					what := fmt.Sprintf("%s %s request %d descending %v", k.name, f.name, i, desc)
					seen += sameStream(t, what, k.api(l.ctx, req))
					req.BeginExclusive = end / 2
					seen += sameStream(t, what+" from the middle", k.api(l.ctx, req))
				}
			}
		}
	}
	if seen < 1000 {
		t.Errorf("compared %d elements only", seen)
	}
}

// updatesRefusal is a request of a list or stream of updates.
type updatesRefusal struct {
	name string
	ctx  context.Context
	req  jsonapi.GetUpdatesRequest
}

// updatesRefusals are the refusals of the lists and streams of updates
// (and the requests the typed read does not express) on the fixture.
func updatesRefusals(t *testing.T, l *emitLedger) []updatesRefusal {
	end, err := l.n.LedgerEnd(l.ctx)
	if err != nil {
		t.Fatal(err)
	}
	after, negative, none, second := end+5, int64(-1), int64(0), int64(2)
	alice := l.aliceFormat()
	tx := func(ef jsonapi.EventFormat, shape string) *jsonapi.UpdateFormat {
		return &jsonapi.UpdateFormat{IncludeTransactions: &jsonapi.TransactionFormat{EventFormat: ef, TransactionShape: shape}}
	}
	tmpl := l.templateFormat
	noVariant := l.noVariantFormat()
	two := l.twoVariantsFormat()
	bob := l.bobCtx()
	cancelled := l.cancelledCtx()
	topoOnly := &jsonapi.UpdateFormat{IncludeTopologyEvents: &jsonapi.TopologyFormat{}}
	return []updatesRefusal{
		{"neither format nor filter", l.ctx, jsonapi.GetUpdatesRequest{EndInclusive: &end}},
		{"both format and filter", l.ctx, jsonapi.GetUpdatesRequest{EndInclusive: &end, Filter: &alice, UpdateFormat: tx(alice, jsonapi.ShapeACSDelta)}},
		{"bad filter shape", l.ctx, jsonapi.GetUpdatesRequest{EndInclusive: &end, Filter: &two, UpdateFormat: tx(two, "X")}},
		{"empty format: nothing", l.ctx, jsonapi.GetUpdatesRequest{EndInclusive: &end, UpdateFormat: &jsonapi.UpdateFormat{}}},
		{"topology only", l.ctx, jsonapi.GetUpdatesRequest{EndInclusive: &end, UpdateFormat: topoOnly}},
		{"unknown shape", l.ctx, jsonapi.GetUpdatesRequest{EndInclusive: &end, UpdateFormat: tx(alice, "X")}},
		{"no party", l.ctx, jsonapi.GetUpdatesRequest{EndInclusive: &end, UpdateFormat: tx(jsonapi.EventFormat{}, jsonapi.ShapeACSDelta)}},
		{"no party by filter", l.ctx, jsonapi.GetUpdatesRequest{EndInclusive: &end, Filter: &jsonapi.EventFormat{}}},
		{"bad identifier", l.ctx, jsonapi.GetUpdatesRequest{EndInclusive: &end, UpdateFormat: tx(tmpl("M:E"), jsonapi.ShapeACSDelta)}},
		{"unknown template", l.ctx, jsonapi.GetUpdatesRequest{EndInclusive: &end, UpdateFormat: tx(tmpl(l.pkg+":Main:Nope"), jsonapi.ShapeACSDelta)}},
		{"trailing colon", l.ctx, jsonapi.GetUpdatesRequest{EndInclusive: &end, UpdateFormat: tx(tmpl(l.pkg+":Main:Nope:"), jsonapi.ShapeACSDelta)}},
		{"identifier filter without variant", l.ctx, jsonapi.GetUpdatesRequest{EndInclusive: &end, UpdateFormat: tx(noVariant, jsonapi.ShapeACSDelta)}},
		{"no right", bob, jsonapi.GetUpdatesRequest{EndInclusive: &end, UpdateFormat: tx(alice, jsonapi.ShapeACSDelta)}},
		{"cancelled", cancelled, jsonapi.GetUpdatesRequest{EndInclusive: &end, UpdateFormat: tx(alice, "X")}},
		{"descending without end", l.ctx, jsonapi.GetUpdatesRequest{DescendingOrder: true, UpdateFormat: tx(alice, jsonapi.ShapeACSDelta)}},
		{"descending without end, unknown template", l.ctx, jsonapi.GetUpdatesRequest{DescendingOrder: true, UpdateFormat: tx(tmpl(l.pkg+":Main:Nope"), jsonapi.ShapeACSDelta)}},
		{"begin after the end", l.ctx, jsonapi.GetUpdatesRequest{BeginExclusive: after, UpdateFormat: tx(alice, jsonapi.ShapeACSDelta)}},
		{"negative begin", l.ctx, jsonapi.GetUpdatesRequest{BeginExclusive: negative, EndInclusive: &end, UpdateFormat: tx(alice, jsonapi.ShapeACSDelta)}},
		{"negative end", l.ctx, jsonapi.GetUpdatesRequest{EndInclusive: &negative, UpdateFormat: tx(alice, jsonapi.ShapeACSDelta)}},
		{"end after the ledger end", l.ctx, jsonapi.GetUpdatesRequest{EndInclusive: &after, UpdateFormat: tx(alice, jsonapi.ShapeACSDelta)}},
		{"end before begin", l.ctx, jsonapi.GetUpdatesRequest{BeginExclusive: 3, EndInclusive: &none, UpdateFormat: tx(alice, jsonapi.ShapeACSDelta)}},
		{"end 0", l.ctx, jsonapi.GetUpdatesRequest{EndInclusive: &none, UpdateFormat: tx(alice, jsonapi.ShapeACSDelta)}},
		{"end before begin, both positive", l.ctx, jsonapi.GetUpdatesRequest{BeginExclusive: 3, EndInclusive: &second, UpdateFormat: tx(alice, jsonapi.ShapeACSDelta)}},
	}
}

// TestStreamsRefusals checks the refusals of the JSON layer's update
// streams against the Node's JSON streams (code, text, order), and the
// requests the typed read does not express (streamed as the Node does).
func TestStreamsRefusals(t *testing.T) {
	useGolden(t)
	deterministicRandom(t)
	l := newEmitLedger(t, emitNotes)
	a := jsonapi.New(l.n)
	for _, tt := range updatesRefusals(t, l) {
		for _, k := range streamKinds(a) {
			t.Run(k.name+" "+tt.name, func(t *testing.T) {
				sameStream(t, k.name, k.api(tt.ctx, tt.req))
			})
		}
	}
}

// checkpointOf is the offset and synchronizers of an element that is an
// offset checkpoint (their record times are the node's clock at the
// time), ok false for another element.
func checkpointOf(t *testing.T, b []byte) (string, bool) {
	t.Helper()
	var e struct {
		Update struct {
			OffsetCheckpoint *struct {
				Value struct {
					Offset            int64 `json:"offset"`
					SynchronizerTimes []struct {
						SynchronizerID string `json:"synchronizerId"`
						RecordTime     string `json:"recordTime"`
					} `json:"synchronizerTimes"`
				} `json:"value"`
			} `json:"OffsetCheckpoint"`
		} `json:"update"`
	}
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	c := e.Update.OffsetCheckpoint
	if c == nil {
		return "", false
	}
	out := fmt.Sprint(c.Value.Offset)
	for _, s := range c.Value.SynchronizerTimes {
		if s.RecordTime == "" {
			t.Errorf("%s: a checkpoint without a record time", b)
		}
		out += " " + s.SynchronizerID
	}
	return out, true
}

// tail reads an open-ended stream up to its first offset checkpoint,
// then ends ctx and reads its last element: the elements' bytes (the
// checkpoint as its offset and synchronizers) and the final error.
func tail[T any](t *testing.T, ctx context.Context, s func(context.Context) iter.Seq2[T, error], bytesOf func(T) []byte) ([]string, error) {
	t.Helper()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var out []string
	for v, err := range s(ctx) {
		if err != nil {
			return out, err
		}
		b := bytesOf(v)
		if c, ok := checkpointOf(t, b); ok {
			out = append(out, "checkpoint "+c)
			cancel()
			continue
		}
		out = append(out, string(b))
	}
	return out, nil
}

// TestStreamsTailSameAsNode checks that the open-ended streams of the
// JSON layer yield the elements of the same stream bounded at the ledger
// end (whose bytes TestStreamsSameAsNode checks against the Node's),
// then, caught up at the ledger end, an offset checkpoint at the end for
// both synchronizers, and end with the context's error when the context
// ends.
func TestStreamsTailSameAsNode(t *testing.T) {
	t.Parallel()
	l := newEmitLedger(t, emitNotes)
	a := jsonapi.New(l.n)
	end, err := l.n.LedgerEnd(l.ctx)
	if err != nil {
		t.Fatal(err)
	}
	ef := l.wire(emitFormats[len(emitFormats)-2])
	req := jsonapi.GetUpdatesRequest{BeginExclusive: end / 2, Filter: &ef}
	for _, k := range streamKinds(a) {
		bounded := req
		bounded.EndInclusive = &end
		var want []string
		for b, err := range k.api(l.ctx, bounded) {
			if err != nil {
				t.Fatalf("%s bounded: %v", k.name, err)
			}
			want = append(want, string(b))
		}
		want = append(want, fmt.Sprintf("checkpoint %d %s", end, strings.Join(emitSyncs, " ")))
		got, gerr := tail(t, l.ctx, func(ctx context.Context) iter.Seq2[jsonapi.Body, error] { return k.api(ctx, req) },
			func(b jsonapi.Body) []byte { return b })
		if len(want) < 2 {
			t.Fatalf("%s: the bounded stream %q is empty", k.name, want)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: the open-ended stream differs from the bounded one and its checkpoint (-bounded +open-ended):\n%s", k.name, diff)
		}
		if !errors.Is(gerr, context.Canceled) {
			t.Errorf("%s: the stream ends with %v, want the context's error", k.name, gerr)
		}
	}
}
