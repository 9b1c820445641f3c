package ledger_test

import (
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/internal/httplimit"
)

// TestHTTPLimitHasTheNodeStoreOptions: the limit server of the benchmarks
// opens its store as an in-memory node does.
func TestHTTPLimitHasTheNodeStoreOptions(t *testing.T) {
	t.Parallel()
	if got, want := httplimit.BadgerOptions(), ledger.InMemoryBadgerOptionsForTest(); !reflect.DeepEqual(got, want) {
		t.Errorf("httplimit.BadgerOptions() = %+v, an in-memory node's = %+v", got, want)
	}
	if got, want := httplimit.Spill, ledger.InMemorySpillForTest(); got != want {
		t.Errorf("httplimit.Spill = %+v, an in-memory node's = %+v", got, want)
	}
}

// TestHTTPLimitWritesWhatAPingCreateStores: httplimit.PingCreate has the
// keys a Ping create adds to the store (the ledger end aside, which it
// overwrites), each key and value of the same size.
func TestHTTPLimitWritesWhatAPingCreateStores(t *testing.T) {
	t.Parallel()
	// Times print their fraction in groups of three digits, dropping zero
	// groups (as Java's Instant.toString): with the wall clock, one time in
	// a thousand has zero microseconds, prints three digits shorter, and
	// the sizes differ by three bytes. This clock's times always have six
	// digits after the second, as 999 wall-clock times in 1000 do.
	var mu sync.Mutex
	now := time.Date(2026, 11, 27, 12, 0, 0, 123457000, time.UTC)
	clock := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(time.Millisecond)
		return now
	}
	p := newPingBenchWith(t, ledger.Options{Clock: clock})
	if err := p.create(t); err != nil { // the first create also stores the package view
		t.Fatal(err)
	}
	before := ledger.StoredSizesForTest(t, p.n)
	if err := p.create(t); err != nil {
		t.Fatal(err)
	}
	var got []httplimit.Write
	for k, v := range ledger.StoredSizesForTest(t, p.n) {
		if _, ok := before[k]; !ok {
			got = append(got, httplimit.Write{Key: len(k), Value: v})
		}
	}
	want := slices.Clone(httplimit.PingCreate.Writes)
	order := func(a, b httplimit.Write) int {
		if a.Key != b.Key {
			return a.Key - b.Key
		}
		return a.Value - b.Value
	}
	slices.SortFunc(got, order)
	slices.SortFunc(want, order)
	if !slices.Equal(got, want) {
		t.Errorf("a Ping create stores %v (key, value sizes), httplimit.PingCreate has %v", got, want)
	}
}
