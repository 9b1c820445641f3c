package httpadapter_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/ledgernode/ledgernode/httpadapter"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// BenchmarkHandlerStack measures the adapter's per-request machinery
// around a route that does next to nothing (GET /livez): the metrics, the
// access log, the request timeout, the routers, authentication and the
// answer, mounted as BenchmarkHandlerPingCreate mounts them.
func BenchmarkHandlerStack(b *testing.B) {
	n := ledgertest.Open(b, ledger.Options{Logger: slog.New(slog.DiscardHandler)})
	h := httpadapter.NewMetrics(n).Wrap(httpadapter.New(n, httpadapter.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}))
	r := httptest.NewRequest(http.MethodGet, "/livez", nil)
	w := &discardWriter{h: http.Header{}}
	b.ReportAllocs()
	for b.Loop() {
		clear(w.h)
		w.status = 0
		h.ServeHTTP(w, r)
		if w.status != http.StatusOK {
			b.Fatalf("status %d", w.status)
		}
	}
}
