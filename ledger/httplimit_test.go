package ledger_test

import (
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/internal/httplimit"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// TestHTTPLimitHasTheNodeStoreOptions: the limit server of the benchmarks
// opens its store as an in-memory node does, and its on-disk store as an
// on-disk node does.
func TestHTTPLimitHasTheNodeStoreOptions(t *testing.T) {
	t.Parallel()
	if got, want := httplimit.BadgerOptions(), ledger.InMemoryBadgerOptionsForTest(); !reflect.DeepEqual(got, want) {
		t.Errorf("httplimit.BadgerOptions() = %+v, an in-memory node's = %+v", got, want)
	}
	if got, want := httplimit.Spill, ledger.InMemorySpillForTest(); got != want {
		t.Errorf("httplimit.Spill = %+v, an in-memory node's = %+v", got, want)
	}
	const dir = "/some/dir"
	if got, want := httplimit.DiskBadgerOptions(dir), ledger.DiskBadgerOptionsForTest(dir); !reflect.DeepEqual(got, want) {
		t.Errorf("httplimit.DiskBadgerOptions() = %+v, an on-disk node's = %+v", got, want)
	}
	if got, want := httplimit.DiskSpill, ledger.DiskSpillForTest(dir); got != want {
		t.Errorf("httplimit.DiskSpill = %+v, an on-disk node's = %+v", got, want)
	}
}

// TestHTTPLimitWritesWhatAPingCreateStores: httplimit.PingCreate has the
// keys a Ping create adds to an in-memory node's store, and
// httplimit.SelfPingCreateOnDisk those a Ping to oneself adds to an
// on-disk node's (the ledger end aside, which it overwrites), each key and value of the same size, and the
// shape's ordered keys are those whose keys end with the create's offset.
func TestHTTPLimitWritesWhatAPingCreateStores(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		opts  func(t *testing.T) ledger.Options
		shape httplimit.Shape
		self  bool // a Ping of alice to alice, not to bob
	}{
		{"in memory", func(*testing.T) ledger.Options { return ledger.Options{} }, httplimit.PingCreate, false},
		{"on disk, to oneself", func(t *testing.T) ledger.Options { return ledger.Options{Dir: t.TempDir()} }, httplimit.SelfPingCreateOnDisk, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			checkLimitShape(t, tc.opts(t), tc.shape, tc.self)
		})
	}
}

// checkLimitShape checks shape against the writes of a Ping create (of
// alice to herself when self, else to bob) on a node opened with opts.
func checkLimitShape(t *testing.T, opts ledger.Options, shape httplimit.Shape, self bool) {
	// Times print their fraction in groups of three digits, dropping zero
	// groups (as Java's Instant.toString): with the wall clock, one time in
	// a thousand has zero microseconds, prints three digits shorter, and
	// the sizes differ by three bytes. This clock's times always have six
	// digits after the second, as 999 wall-clock times in 1000 do.
	var mu sync.Mutex
	now := time.Date(2026, 11, 27, 12, 0, 0, 123457000, time.UTC)
	opts.Clock = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(time.Millisecond)
		return now
	}
	p := newPingBenchWith(t, opts)
	if err := p.create(t); err != nil { // the first create also stores the package view
		t.Fatal(err)
	}
	before := ledger.StoredSizesForTest(t, p.n)
	responder := p.bob
	if self {
		responder = p.alice
	}
	if err := p.createTo(t, responder); err != nil {
		t.Fatal(err)
	}
	off, err := p.n.LedgerEnd(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	end := store.OffsetBytes(off)
	var got []httplimit.Write
	for k, v := range ledger.StoredSizesForTest(t, p.n) {
		if _, ok := before[k]; !ok {
			got = append(got, httplimit.Write{Key: len(k), Value: v, Ordered: strings.HasSuffix(k, string(end))})
		}
	}
	want := slices.Clone(shape.Writes)
	order := func(a, b httplimit.Write) int {
		if a.Key != b.Key {
			return a.Key - b.Key
		}
		return a.Value - b.Value
	}
	slices.SortFunc(got, order)
	slices.SortFunc(want, order)
	if !slices.Equal(got, want) {
		t.Errorf("a Ping create stores %v (key, value sizes, ordered), the limit's shape has %v", got, want)
	}
}
