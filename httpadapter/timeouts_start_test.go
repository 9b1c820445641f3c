package httpadapter

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestDeadlineFromStart: under the access log's context, the request's
// deadline counts from the start the access log (or the metrics) read;
// without one, from the timeout middleware's own clock read.
func TestDeadlineFromStart(t *testing.T) {
	t.Parallel()
	const d = time.Minute
	deadlineOf := func(parent context.Context) time.Time {
		var got time.Time
		req := httptest.NewRequest(http.MethodPost, "/v2/commands/submit-and-wait", nil)
		timeouts{request: d, queue: new(deadlineQueue)}.serve(httptest.NewRecorder(), req, parent, func(_ http.ResponseWriter, r *http.Request) {
			got, _ = r.Context().Deadline()
		})
		return got
	}
	start := time.Now().Add(-time.Second)
	st := newAccessState(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil), start)
	if got, want := deadlineOf(&st.ctx), start.Add(d); !got.Equal(want) {
		t.Errorf("deadline under the access log's context: %v, want %v", got, want)
	}
	before := time.Now()
	got := deadlineOf(context.Background())
	if got.Before(before.Add(d)) || got.After(time.Now().Add(d)) {
		t.Errorf("deadline without a start: %v, want between %v and %v", got, before.Add(d), time.Now().Add(d))
	}
}
