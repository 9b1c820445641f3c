package httpadapter_test

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/httpadapter"
	"github.com/ledgernode/ledgernode/internal/cputime"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// discardWriter is a ResponseWriter that keeps the status and drops the
// body, reusable across requests (a benchmark's client). It takes the
// connection deadlines the timeout middleware sets, as net/http's writer
// does: without them http.ResponseController builds an error per call
// that a real server never pays.
type discardWriter struct {
	h      http.Header
	status int
}

func (w *discardWriter) Header() http.Header              { return w.h }
func (w *discardWriter) WriteHeader(code int)             { w.status = code }
func (w *discardWriter) Write(b []byte) (int, error)      { return len(b), nil }
func (w *discardWriter) SetReadDeadline(time.Time) error  { return nil }
func (w *discardWriter) SetWriteDeadline(time.Time) error { return nil }

// BenchmarkHandlerPingCreate measures the adapter and the node without
// the network: Ping creates posted to /v2/commands/submit-and-wait from
// 16 goroutines straight into the handler, as ledgerd mounts it (its
// metrics, an access log at info level, which writes nothing for a 200). It
// reports the process's CPU µs per create: the node's side of
// examples/ledgerd's BenchmarkHTTPPingCreateVsLimit, without the
// clients and net/http.
func BenchmarkHandlerPingCreate(b *testing.B) {
	dar, err := os.ReadFile(filepath.Join("..", "..", "shared", "testdata", "dars", "canton-builtin-admin-workflow-ping.dar"))
	if err != nil {
		b.Skipf("../shared not found: skipping the Ping benchmark (%v)", err)
	}
	n := ledgertest.Open(b, ledger.Options{Logger: slog.New(slog.DiscardHandler)})
	ledgertest.MustUploadDAR(b, n, dar)
	pingT := ledgertest.MainPackageID(b, dar) + ":Canton.Internal.Ping:Ping"
	alice, bob := ledgertest.MustAllocate(b, n, "alice"), ledgertest.MustAllocate(b, n, "bob")
	h := httpadapter.NewMetrics(n).Wrap(httpadapter.New(n, httpadapter.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}))
	var seq atomic.Int64
	create := func(w *discardWriter) {
		i := seq.Add(1)
		body := fmt.Appendf(nil, `{"commandId":"c%d","actAs":[%q],"userId":"participant_admin","commands":[{"CreateCommand":{"templateId":%q,"createArguments":{"id":"p%d","initiator":%q,"responder":%q}}}]}`,
			i, alice, pingT, i, alice, bob)
		r := httptest.NewRequest(http.MethodPost, "/v2/commands/submit-and-wait", bytes.NewReader(body))
		clear(w.h)
		w.status = 0
		h.ServeHTTP(w, r)
		if w.status != http.StatusOK {
			b.Errorf("status %d", w.status)
		}
	}
	create(&discardWriter{h: http.Header{}}) // warm the package view
	b.ReportAllocs()
	b.SetParallelism(8) // 16 submitters on 2 cores
	b.ResetTimer()
	cpu0 := cputime.Process()
	b.RunParallel(func(pb *testing.PB) {
		w := &discardWriter{h: http.Header{}}
		for pb.Next() {
			create(w)
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(cputime.Process()-cpu0)/float64(time.Microsecond)/float64(b.N), "cpu-µs/create")
}
