package jsonapi_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/internal/rawjson"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// TestVisitUpdatesPageSameAsUpdatesPage checks that the updates a lent
// page read (Node.VisitUpdatesPage, which the JSON pages use) hands to
// its visit are those of the owned read (Node.UpdatesPage), with the
// same bounds and tokens, for every format and shape of the fixture,
// with typed and stored values, in pages of every update (lent memory
// reused from one update to the next) and of three, on a node in memory
// and on disk (whose entries are in Badger's value log). Each lent
// update is compared during its visit, while it is valid.
func TestVisitUpdatesPageSameAsUpdatesPage(t *testing.T) {
	t.Parallel()
	inMemoryAndOnDisk(t, func(t *testing.T, opts ledger.Options) {
		checkVisitUpdatesPage(t, newEmitLedgerWith(t, emitNotes, opts))
	})
}

// inMemoryAndOnDisk runs check in parallel subtests with the options of
// a node in memory and of one on disk (in a test directory).
func inMemoryAndOnDisk(t *testing.T, check func(t *testing.T, opts ledger.Options)) {
	for _, disk := range []bool{false, true} {
		t.Run(fmt.Sprintf("disk=%v", disk), func(t *testing.T) {
			t.Parallel()
			var opts ledger.Options
			if disk {
				opts.Dir = t.TempDir()
			}
			check(t, opts)
		})
	}
}

func checkVisitUpdatesPage(t *testing.T, l *emitLedger) {
	compared := 0
	for _, stored := range []bool{false, true} {
		ctx := l.ctx
		if stored {
			ctx = rawjson.WithStoredValues(ctx)
		}
		l.eachPage(t, func(what string, uf ledger.UpdateReadFormat, r ledger.OffsetRange, size int32, token []byte) []byte {
			what = fmt.Sprintf("stored %v, %s", stored, what)
			want, werr := l.n.UpdatesPage(ctx, uf, r, &size, token)
			i := 0
			got, gerr := l.n.VisitUpdatesPage(ctx, uf, r, &size, token, func(u update.Update) error {
				if i >= len(want.Updates) {
					return fmt.Errorf("update %d: more than the owned read's %d", i, len(want.Updates))
				}
				if d := cmp.Diff(want.Updates[i], u); d != "" {
					return fmt.Errorf("update %d (-owned +lent):\n%s", i, d)
				}
				i++
				compared++
				return nil
			})
			if werr != nil || gerr != nil {
				t.Fatalf("%s: owned read: %v, lent read: %v", what, werr, gerr)
			}
			if i != len(want.Updates) || got.Updates != nil {
				t.Fatalf("%s: lent read visited %d updates and returned %d, want %d and none", what, i, len(got.Updates), len(want.Updates))
			}
			samePage(t, what, got, want)
			return want.NextToken
		})
	}
	if compared < 1000 {
		t.Errorf("compared %d updates only", compared)
	}
}

// eachPage calls page with every format and shape of the fixture,
// ascending and descending, in pages of every update and of three, and
// the token of each page of the read in turn (the token page returns,
// nil after the last).
func (l *emitLedger) eachPage(t *testing.T, page func(what string, uf ledger.UpdateReadFormat, r ledger.OffsetRange, size int32, token []byte) []byte) {
	t.Helper()
	end, err := l.n.LedgerEnd(l.ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range emitFormats {
		for _, shape := range []ledger.Shape{ledger.ACSDelta, ledger.LedgerEffects} {
			tf, ef := l.typed(f, shape), l.typed(f, shape)
			uf := ledger.UpdateReadFormat{Transactions: &tf, Reassignments: &ef}
			for _, desc := range []bool{false, true} {
				for _, size := range []int32{ledger.MaxUpdatesPageSize, 3} {
					r := ledger.OffsetRange{After: 0, Through: &end, Descending: desc}
					var token []byte
					for n := 0; n == 0 || token != nil; n++ {
						token = page(fmt.Sprintf("%s %v, descending %v, size %d, page %d", f.name, shape, desc, size, n), uf, r, size, token)
					}
				}
			}
		}
	}
}

// samePage fails t when two pages of one read differ in their bounds or
// next token.
func samePage(t *testing.T, what string, got, want *ledger.UpdatePage) {
	t.Helper()
	if got.Lowest != want.Lowest || got.Highest != want.Highest || string(got.NextToken) != string(want.NextToken) {
		t.Fatalf("%s: page (%d, %d] token %q, want (%d, %d] token %q", what,
			got.Lowest, got.Highest, got.NextToken, want.Lowest, want.Highest, want.NextToken)
	}
}

// TestVisitUpdatesPageVisitError checks that an error of the visit ends
// the read and is returned as it is, and that refusals are the owned
// read's.
func TestVisitUpdatesPageVisitError(t *testing.T) {
	t.Parallel()
	l := newEmitLedger(t, emitNotes)
	end, err := l.n.LedgerEnd(l.ctx)
	if err != nil {
		t.Fatal(err)
	}
	tf := l.typed(emitFormats[0], ledger.LedgerEffects)
	uf := ledger.UpdateReadFormat{Transactions: &tf}
	stop := errors.New("stop")
	visits := 0
	_, err = l.n.VisitUpdatesPage(l.ctx, uf, ledger.OffsetRange{Through: &end}, nil, nil, func(update.Update) error {
		visits++
		return stop
	})
	if err != stop || visits != 1 {
		t.Errorf("a visit's error: got %v after %d visits, want %v after 1", err, visits, stop)
	}
	bad := []byte("not a token")
	_, werr := l.n.UpdatesPage(l.ctx, uf, ledger.OffsetRange{Through: &end}, nil, bad)
	_, gerr := l.n.VisitUpdatesPage(l.ctx, uf, ledger.OffsetRange{Through: &end}, nil, bad, func(update.Update) error {
		t.Error("a refused read visited an update")
		return nil
	})
	if werr == nil || gerr == nil || werr.Error() != gerr.Error() {
		t.Errorf("a foreign token: owned read %v, lent read %v", werr, gerr)
	}
}
