package jsonapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/internal/cputime"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/internal/rawjson"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// openIouNode opens a node with opts, allocates alice, uploads the Iou
// package and commits n Iou creates of alice (fillPage).
func openIouNode(tb testing.TB, opts ledger.Options, n int) (node *ledger.Node, alice string) {
	tb.Helper()
	node = ledgertest.Open(tb, opts)
	alice = ledgertest.MustAllocate(tb, node, "alice")
	d, _ := lftest.DAR(lftest.IouPackage("1.0.0"))
	ledgertest.MustUploadDAR(tb, node, d)
	fillPage(tb, node, alice, "#iou:Main:Iou", n, func(i int) string { return fmt.Sprintf(`{"owner": %q, "amount": "%d"}`, alice, i) })
	return node, alice
}

// fillPage commits n creates by one party from 64 goroutines, each
// argument made by arg(i).
func fillPage(b testing.TB, node *ledger.Node, party, template string, n int, arg func(i int) string) {
	b.Helper()
	var wg sync.WaitGroup
	var failed atomic.Value
	sem := make(chan struct{}, 64)
	for i := range n {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			_, err := jsonapi.New(node).SubmitAndWait(context.Background(), jsonapi.JsCommands{CommandID: fmt.Sprint("f", i), ActAs: []string{party}, UserID: "bench",
				Commands: []jsonapi.JsCommand{{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: template, CreateArguments: json.RawMessage(arg(i))}}}})
			if err != nil {
				failed.Store(err)
			}
		})
	}
	wg.Wait()
	if err := failed.Load(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkEmitUpdatesPage reads a page of 1000 transactions (ACS delta,
// any party; offsets 1000 to 2000 of 3000 creates) and writes it as the
// body of POST /v2/updates/get-updates-page, two ways in the same run
// (the Node's JSON read encoded with encoding/json, the former baseline,
// went with that read; the goldens of TestReadsPagesSameAsNode hold its
// bytes):
//   - typed: the typed read (Node.UpdatesPage, every value decoded
//     with its package type, as a Go caller reads it) written by
//     AppendUpdatesPage;
//   - stored: the typed read with stored values (rawjson.WithStoredValues,
//     as the JSON layer reads: no value decoded) written by
//     AppendUpdatesPage;
//
// each end to end (read+write) and in its two halves (read, write of a
// page read ahead). Two ledgers: "iou", the small Iou of
// BenchmarkUpdatesPage (ledger/bench_updates_test.go: {owner, amount}),
// and "rich", emitPackage's T (eleven fields: text, numeric, list,
// optional, timestamp, date, text map, variant, enum).
func BenchmarkEmitUpdatesPage(b *testing.B) {
	for _, ledgerKind := range []string{"iou", "rich"} {
		node := ledgertest.Open(b, ledger.Options{InMemory: true})
		alice := ledgertest.MustAllocate(b, node, "alice")
		switch ledgerKind {
		case "iou":
			d, _ := lftest.DAR(lftest.IouPackage("1.0.0"))
			ledgertest.MustUploadDAR(b, node, d)
			fillPage(b, node, alice, "#iou:Main:Iou", 3000, func(i int) string { return fmt.Sprintf(`{"owner": %q, "amount": "%d"}`, alice, i) })
		case "rich":
			d, _ := lftest.DAR(emitPackage())
			ledgertest.MustUploadDAR(b, node, d)
			l := &emitLedger{}
			fillPage(b, node, alice, "#emit:Main:T", 3000, func(i int) string { return l.tArg(alice, alice, emitNotes[i%len(emitNotes)], i) })
		}
		ctx := context.Background()
		end, size := int64(2000), int32(1000)
		jreq := jsonapi.GetUpdatesPageRequest{BeginOffsetExclusive: 1000, EndOffsetInclusive: &end, MaxPageSize: &size,
			UpdateFormat: &jsonapi.UpdateFormat{IncludeTransactions: &jsonapi.TransactionFormat{TransactionShape: jsonapi.ShapeACSDelta,
				EventFormat: jsonapi.EventFormat{FiltersByParty: map[string]jsonapi.Filters{}, FiltersForAnyParty: &jsonapi.Filters{}}}}}
		tf := ledger.UpdateReadFormat{Transactions: &ledger.ReadFormat{AnyParty: []ledger.Filter{}}}
		r := ledger.OffsetRange{After: 1000, Through: new(end)}

		readIn := func(ctx context.Context) func(b *testing.B) *ledger.UpdatePage {
			return func(b *testing.B) *ledger.UpdatePage {
				p, err := node.UpdatesPage(ctx, tf, r, &size, nil)
				if err != nil || len(p.Updates) != 1000 {
					b.Fatalf("typed page: %v, %v", p, err)
				}
				return p
			}
		}
		typedRead, storedRead := readIn(ctx), readIn(rawjson.WithStoredValues(ctx))
		// The same bytes both ways, and the JSON layer's (whose bytes
		// the goldens check against the Node's JSON read's).
		jb, err := jsonapi.New(node).UpdatesPage(ctx, jreq)
		if err != nil {
			b.Fatal(err)
		}
		tp, sp := typedRead(b), storedRead(b)
		tb, sb := jsonapi.AppendUpdatesPage(nil, tp), jsonapi.AppendUpdatesPage(nil, sp)
		if !sameWire(b, ledgerKind+" typed", jb, tb) || !sameWire(b, ledgerKind+" stored", jb, sb) {
			b.FailNow()
		}
		b.Logf("%s: page body %d bytes", ledgerKind, len(tb))

		run := func(name string, body func(b *testing.B)) {
			b.Run(ledgerKind+"/"+name, func(b *testing.B) {
				b.ReportAllocs()
				cpu0 := cputime.Process()
				for b.Loop() {
					body(b)
				}
				b.ReportMetric(1000*float64(b.N)/b.Elapsed().Seconds(), "updates/s")
				// The process's CPU time per page (reads, writes, GC): the
				// cost, which a busy machine blurs less than the time.
				b.ReportMetric(float64((cputime.Process()-cpu0).Microseconds())/float64(b.N), "cpu-µs/page")
			})
		}
		run("stored/read+write", func(b *testing.B) { jsonapi.AppendUpdatesPage(nil, storedRead(b)) })
		run("typed/read+write", func(b *testing.B) { jsonapi.AppendUpdatesPage(nil, typedRead(b)) })
		run("stored/read", func(b *testing.B) { storedRead(b) })
		run("typed/read", func(b *testing.B) { typedRead(b) })
		run("stored/write", func(b *testing.B) { jsonapi.AppendUpdatesPage(nil, sp) })
		run("typed/write", func(b *testing.B) { jsonapi.AppendUpdatesPage(nil, tp) })
	}
}
