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
// the deadline, Err) and answers, under a parent context that can be
// canceled, as net/http's request context, or not, as
// BenchmarkHandlerPingCreate's.
func BenchmarkTimeoutsServe(b *testing.B) {
	canceled, cancel := context.WithCancel(context.Background())
	defer cancel()
	b.Run("cancelable", func(b *testing.B) { benchTimeoutsServe(b, canceled) })
	b.Run("background", func(b *testing.B) { benchTimeoutsServe(b, context.Background()) })
}

func benchTimeoutsServe(b *testing.B, parent context.Context) {
	to := timeouts{request: DefaultRequestTimeout}
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
			to.serve(w, req, parent, h)
		}
	})
}
