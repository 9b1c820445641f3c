package ledger_test

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	badger "github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// benchFixture is a node with the iou package and two parties.
func benchFixture(b *testing.B, opts ledger.Options) *fixture {
	b.Helper()
	n := ledgertest.Open(b, opts)
	d, ids := lftest.DAR(lftest.IouPackage("1.0.0"))
	ledgertest.MustUploadDAR(b, n, d)
	return &fixture{n: n, ctx: context.Background(), alice: ledgertest.MustAllocate(b, n, "alice"), bob: ledgertest.MustAllocate(b, n, "bob"), pkg: ids[0]}
}

func (f *fixture) createCmd(id, party string, i int) jsonapi.JsCommands {
	return jsonapi.JsCommands{CommandID: id, ActAs: []string{party}, UserID: "bench",
		Commands: []jsonapi.JsCommand{{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: f.pkg + ":Main:Iou", CreateArguments: f.iouArgs(party, i)}}}}
}

// BenchmarkCommit submits creates from 64 goroutines (submit-and-wait),
// in memory and on disk, beside raw Badger transactions writing the same
// keys and bytes a create commit writes, from as many goroutines.
func BenchmarkCommit(b *testing.B) {
	for _, mode := range []string{"mem", "disk"} {
		opts := func(b *testing.B) ledger.Options {
			if mode == "mem" {
				return ledger.Options{InMemory: true}
			}
			return ledger.Options{Dir: b.TempDir()}
		}
		b.Run(mode+"/node", func(b *testing.B) {
			f := benchFixture(b, opts(b))
			var seq atomic.Int64
			b.SetParallelism(32) // 64 goroutines on 2 cores
			b.ReportAllocs()
			b.ResetTimer()
			start := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					i := seq.Add(1)
					if _, err := jsonapi.New(f.n).SubmitAndWait(f.ctx, f.createCmd(fmt.Sprint("c", i), f.alice, int(i))); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "commits/s")
		})
		b.Run(mode+"/raw-badger", func(b *testing.B) {
			dir := ""
			if mode == "disk" {
				dir = b.TempDir()
			}
			db, err := badger.Open(ledger.BadgerOptionsForBench(mode == "mem", dir))
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			entry := make([]byte, 900)    // a create's log entry
			contract := make([]byte, 600) // its contract record
			var seq atomic.Int64
			b.SetParallelism(32)
			b.ReportAllocs()
			b.ResetTimer()
			start := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					i := seq.Add(1)
					err := db.Update(func(txn *badger.Txn) error {
						for _, kv := range [][2][]byte{
							{fmt.Appendf(nil, "u/%08d", i), entry},
							{fmt.Appendf(nil, "i/1220%064d", i), []byte("12345678")},
							{fmt.Appendf(nil, "x/alice::1220aaaa/%08d", i), nil},
							{fmt.Appendf(nil, "c/00%064dca12%064d", i, i), contract},
							{fmt.Appendf(nil, "q/%064d", i), []byte(`{"o":1,"u":"1220…","at":"2026-11-22T00:00:00Z"}`)},
							{[]byte("m/ledger-end"), []byte("12345678")},
						} {
							if err := txn.Set(kv[0], kv[1]); err != nil {
								return err
							}
						}
						return nil
					})
					if err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "commits/s")
		})
	}
}

// fill commits n creates of party (and every k-th of other) concurrently.
func fill(b *testing.B, f *fixture, n int, party string) {
	b.Helper()
	sem := make(chan struct{}, 64)
	var failed atomic.Bool
	for i := range n {
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			if _, err := jsonapi.New(f.n).SubmitAndWait(f.ctx, f.createCmd(fmt.Sprint("f", party[:3], i), party, i)); err != nil {
				failed.Store(true)
			}
		}()
	}
	for range cap(sem) {
		sem <- struct{}{}
	}
	if failed.Load() {
		b.Fatal("filling the ledger failed")
	}
}

// txRead is the typed format of transactions in the ACS-delta shape.
func txRead(f ledger.ReadFormat) ledger.UpdateReadFormat {
	return ledger.UpdateReadFormat{Transactions: &f}
}

// BenchmarkUpdatesPage reads a page of 1000 transactions (ACS delta,
// any party) with typed values (UpdatesPage), beside a raw Badger
// iteration over the same 1000 stored values.
func BenchmarkUpdatesPage(b *testing.B) {
	f := benchFixture(b, ledger.Options{InMemory: true})
	fill(b, f, 3000, f.alice)
	format := txRead(ledger.ReadFormat{AnyParty: []ledger.Filter{}})
	b.Run("node", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			page, err := f.n.UpdatesPage(f.ctx, format, ledger.OffsetRange{After: 1000, Tail: true}, i32(1000), nil)
			if err != nil || len(page.Updates) != 1000 {
				b.Fatalf("%d updates, %v", len(page.Updates), err)
			}
		}
		b.ReportMetric(1000*float64(b.N)/b.Elapsed().Seconds(), "updates/s")
	})
	b.Run("raw-badger", func(b *testing.B) {
		db := ledger.DBForBench(f.n)
		b.ReportAllocs()
		for b.Loop() {
			count := 0
			db.View(func(txn *badger.Txn) error {
				it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte("u/")})
				defer it.Close()
				for it.Seek(ledger.UpdateKeyForBench(1001)); it.ValidForPrefix([]byte("u/")) && count < 1000; it.Next() {
					v, _ := it.Item().ValueCopy(nil)
					if err := ledger.DecodeLogEntryForBench(v); err != nil { // decode, as any reader must
						return err
					}
					count++
				}
				return nil
			})
			if count != 1000 {
				b.Fatalf("iterated %d", count)
			}
		}
		b.ReportMetric(1000*float64(b.N)/b.Elapsed().Seconds(), "updates/s")
	})
}

// BenchmarkPartyFilteredPage reads the typed page (UpdatesPage)
// of a party with 100 updates on ledgers of 10 000 and 100 000 updates: the
// per-party index makes the cost the party's updates, not the ledger's.
func BenchmarkPartyFilteredPage(b *testing.B) {
	for _, size := range []int{10_000, 100_000} {
		b.Run(fmt.Sprint(size), func(b *testing.B) {
			f := benchFixture(b, ledger.Options{InMemory: true})
			fill(b, f, size-100, f.alice)
			fill(b, f, 100, f.bob)
			format := txRead(ledger.ReadAs(f.bob))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				page, err := f.n.UpdatesPage(f.ctx, format, ledger.OffsetRange{Tail: true}, i32(1000), nil)
				if err != nil || len(page.Updates) != 100 {
					b.Fatalf("%d updates, %v", len(page.Updates), err)
				}
			}
		})
	}
}

// BenchmarkTailWakeup measures how long after a commit is
// acknowledged a tailing reader (the typed Go iterator Updates, woken
// by the committer) holds it.
func BenchmarkTailWakeup(b *testing.B) {
	f := benchFixture(b, ledger.Options{InMemory: true})
	ctx, cancel := context.WithCancel(f.ctx)
	defer cancel()
	end, _ := f.n.LedgerEnd(ctx)
	format := txRead(ledger.ReadAs(f.alice))
	got := make(chan time.Time, 1)
	go func() {
		for _, err := range f.n.Updates(ctx, format, ledger.OffsetRange{After: end, Tail: true}) {
			if err != nil {
				return
			}
			got <- time.Now()
		}
	}()
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		if _, err := jsonapi.New(f.n).SubmitAndWait(f.ctx, f.createCmd(fmt.Sprint("w", i), f.alice, i)); err != nil {
			b.Fatal(err)
		}
		acked := time.Now()
		lat = append(lat, (<-got).Sub(acked))
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

// BenchmarkIterateMillion walks 1 000 000 updates with the typed Go
// iterator (Updates, pages of 500) and reports the peak growth of the live heap (measured
// after a collection every 50 000 updates) during the walk; the
// ledger is filled once, outside the timer. It runs on disk: an in-memory
// Badger keeps every table on the Go heap, so its compactions after the
// fill would be measured instead of the iterator.
func BenchmarkIterateMillion(b *testing.B) {
	const total = 1_000_000
	// Badger's block and index caches fill up during a cold walk (bounded
	// by their configured sizes); they are off here so that what is
	// measured is the walk itself.
	f := benchFixture(b, ledger.Options{Dir: b.TempDir(), Badger: func(o badger.Options) badger.Options {
		return o.WithCompression(options.None).WithBlockCacheSize(0).WithIndexCacheSize(0)
	}})
	fill(b, f, total, f.alice)
	end, _ := f.n.LedgerEnd(f.ctx)
	format := txRead(ledger.ReadAs(f.alice))
	b.ResetTimer()
	for b.Loop() {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		base, peak := ms.HeapAlloc, ms.HeapAlloc
		count := 0
		for _, err := range f.n.Updates(f.ctx, format, ledger.OffsetRange{Through: &end}) {
			if err != nil {
				b.Fatal(err)
			}
			if count++; count%50_000 == 0 {
				// The live heap: what the walk retains, not the garbage a
				// collection has not reclaimed yet.
				runtime.GC()
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapAlloc)
			}
		}
		if count != total {
			b.Fatalf("iterated %d updates, want %d", count, total)
		}
		b.ReportMetric(float64(peak-base)/(1<<20), "peak-heap-growth-MB")
		b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "updates/s")
	}
}
