package httpadapter

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
)

// benchWriter is a ResponseWriter that drops the answer, reusable across
// requests.
type benchWriter struct{ h http.Header }

func (w *benchWriter) Header() http.Header         { return w.h }
func (w *benchWriter) WriteHeader(int)             {}
func (w *benchWriter) Write(b []byte) (int, error) { return len(b), nil }

// BenchmarkTimeoutsServe measures the request timeout's machinery per
// request: a handler that reads its context as the ledger does (a value,
// the deadline, Err) and answers, under a parent context of its own that
// is canceled as the request ends, as net/http's request context, or
// under context.Background, as BenchmarkHandlerPingCreate's.
func BenchmarkTimeoutsServe(b *testing.B) {
	b.Run("net-http", func(b *testing.B) { benchTimeoutsServe(b, true) })
	b.Run("background", func(b *testing.B) { benchTimeoutsServe(b, false) })
}

func benchTimeoutsServe(b *testing.B, cancelable bool) {
	to := timeouts{request: DefaultRequestTimeout, queue: new(deadlineQueue)}
	body := []byte("{}\n")
	h := func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		_ = ctx.Value(accessKey{})
		_, _ = ctx.Deadline()
		if ctx.Err() != nil {
			b.Error("ended early")
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(body)
	}
	req := httptest.NewRequest(http.MethodPost, "/v2/commands/submit-and-wait", nil)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		w := &benchWriter{h: http.Header{}}
		for pb.Next() {
			clear(w.h)
			if !cancelable {
				to.serve(w, req, context.Background(), h)
				continue
			}
			parent, cancel := context.WithCancel(context.Background())
			to.serve(w, req, parent, h)
			cancel()
		}
	})
}
