package jsonapi_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/internal/rawjson"
	"github.com/ledgernode/ledgernode/ledger/internal/wirepage"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// TestWirePageSameAsTyped checks that the updates the node writes from
// their stored entries into a JSON page (ledger/internal/wirepage) are the
// bytes the emitters write for the typed updates of the same read, for
// every format and shape of the fixture, ascending and descending, in
// pages of every update and of three, on a node in memory and on disk.
// The fixture has, besides its own transactions, creates at times of
// every fraction precision (the stored wire form copied as it is). The
// reference page is the typed read's, each update written with
// jsonapi.AppendUpdateResponse; the test fails if the node wrote no update
// itself, or all of them (the typed updates — pages with blobs or
// interface filters, reassignments — must still be visited).
func TestWirePageSameAsTyped(t *testing.T) {
	t.Parallel()
	inMemoryAndOnDisk(t, func(t *testing.T, opts ledger.Options) {
		l := newEmitLedgerWith(t, emitNotes, opts)
		for i, d := range []time.Duration{500 * time.Millisecond, 123 * time.Microsecond, 7, time.Second} {
			if err := l.n.AdvanceTime(l.ctx, d); err != nil {
				t.Fatal(err)
			}
			l.submit(t, fmt.Sprintf("timed-%d", i), "wf-timed", []string{l.alice}, l.create("T", l.tArg(l.alice, l.bob, emitNotes[i%len(emitNotes)], 40+i)))
		}
		checkWirePage(t, l)
	})
}

func checkWirePage(t *testing.T, l *emitLedger) {
	ctx := rawjson.WithStoredValues(l.ctx)
	direct, typed := 0, 0
	l.eachPage(t, func(what string, uf ledger.UpdateReadFormat, r ledger.OffsetRange, size int32, token []byte) []byte {
		var want []byte
		n := 0
		wantPage, werr := l.n.VisitUpdatesPage(ctx, uf, r, &size, token, func(u update.Update) error {
			if n++; n > 1 {
				want = append(want, ',')
			}
			want = jsonapi.AppendUpdateResponse(want, u)
			return nil
		})
		wp := &wirepage.Page{}
		gotPage, gerr := l.n.VisitUpdatesPage(wirepage.With(ctx, wp), uf, r, &size, token, func(u update.Update) error {
			wp.Sep()
			wp.Out = jsonapi.AppendUpdateResponse(wp.Out, u)
			typed++
			return nil
		})
		if werr != nil || gerr != nil {
			t.Fatalf("%s: typed read: %v, wire read: %v", what, werr, gerr)
		}
		direct += wp.Direct
		if !sameWire(t, what, want, wp.Out) || wp.N != n {
			t.Fatalf("%s: %d updates written, the typed read has %d", what, wp.N, n)
		}
		samePage(t, what, gotPage, wantPage)
		return wantPage.NextToken
	})
	if direct < 200 || typed < 200 {
		t.Errorf("the node wrote %d updates itself and visited %d: want both written", direct, typed)
	}
	// Without stored values (a typed read of a Go caller) the node
	// writes nothing itself.
	end, err := l.n.LedgerEnd(l.ctx)
	if err != nil {
		t.Fatal(err)
	}
	wp := &wirepage.Page{}
	tf := l.typed(emitFormats[0], ledger.ACSDelta)
	if _, err := l.n.VisitUpdatesPage(wirepage.With(l.ctx, wp), ledger.UpdateReadFormat{Transactions: &tf}, ledger.OffsetRange{Through: &end}, nil, nil,
		func(update.Update) error { return nil }); err != nil || wp.Direct != 0 || len(wp.Out) != 0 {
		t.Errorf("a read of decoded values: %v, %d written by the node", err, wp.Direct)
	}
}
