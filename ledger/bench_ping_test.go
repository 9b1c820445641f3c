package ledger_test

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// pingBench is an in-memory node with Canton's Ping DAR and two parties.
type pingBench struct {
	n            *ledger.Node
	pingID       string
	alice, bob   string
	commandCount atomic.Int64
}

func newPingBench(b testing.TB) *pingBench {
	return newPingBenchWith(b, ledger.Options{})
}

// newPingBenchWith is newPingBench on a node of opts (its logger discards).
func newPingBenchWith(b testing.TB, opts ledger.Options) *pingBench {
	b.Helper()
	data := realDAR(b, "canton-builtin-admin-workflow-ping.dar")
	pkg := ledgertest.MainPackageID(b, data)
	opts.Logger = slog.New(slog.DiscardHandler)
	n := ledgertest.Open(b, opts)
	ledgertest.MustUploadDAR(b, n, data)
	return &pingBench{n: n, pingID: pkg + ":Canton.Internal.Ping:Ping",
		alice: ledgertest.MustAllocate(b, n, "alice"), bob: ledgertest.MustAllocate(b, n, "bob")}
}

// create submits and waits for one Ping create of alice to bob.
func (p *pingBench) create(b testing.TB) error { return p.createTo(b, p.bob) }

// createTo submits and waits for one Ping create of alice to responder.
func (p *pingBench) createTo(b testing.TB, responder string) error {
	id := strconv.FormatInt(p.commandCount.Add(1), 10)
	_, err := jsonapi.New(p.n).SubmitAndWait(b.Context(), jsonapi.JsCommands{
		CommandID: "ping-" + id, ActAs: []string{p.alice}, UserID: "u1",
		Commands: []jsonapi.JsCommand{{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: p.pingID,
			CreateArguments: json.RawMessage(fmt.Sprintf(`{"id": %q, "initiator": %q, "responder": %q}`, id, p.alice, responder))}}},
	})
	return err
}

// BenchmarkPingCreate measures submit-and-wait Ping creates through the
// engine path (interpretation, committable entry, commit) of an in-memory
// node, from 1 and 16 parallel submitters.
func BenchmarkPingCreate(b *testing.B) {
	for _, par := range []int{1, 16} {
		b.Run("par="+strconv.Itoa(par), func(b *testing.B) {
			p := newPingBench(b)
			if err := p.create(b); err != nil { // warm the package view
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			if par == 1 {
				for b.Loop() {
					if err := p.create(b); err != nil {
						b.Fatal(err)
					}
				}
				return
			}
			var failed atomic.Pointer[error]
			// par submitters in all (RunParallel starts parallelism ×
			// GOMAXPROCS goroutines).
			b.SetParallelism(max(1, par/runtime.GOMAXPROCS(0)))
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if err := p.create(b); err != nil {
						failed.CompareAndSwap(nil, &err)
						return
					}
				}
			})
			if err := failed.Load(); err != nil {
				b.Fatal(*err)
			}
		})
	}
}
