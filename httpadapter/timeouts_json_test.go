package httpadapter

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestWriteJSONUnderTimeout: writeJSONBytes through the timeout writer
// answers what Header, WriteHeader and Write answer, whatever the handler
// did before (nothing, a header set, an answer started, the deadline
// passed).
func TestWriteJSONUnderTimeout(t *testing.T) {
	t.Parallel()
	body := []byte(`{"a":1}` + "\n")
	for name, before := range map[string]func(w http.ResponseWriter){
		"nothing":        func(http.ResponseWriter) {},
		"a header":       func(w http.ResponseWriter) { w.Header().Set("X-A", "1") },
		"a header gone":  func(w http.ResponseWriter) { w.Header().Set("X-A", "1"); w.Header().Del("X-A") },
		"answer started": func(w http.ResponseWriter) { w.WriteHeader(http.StatusAccepted) },
		"deadline past":  func(http.ResponseWriter) { time.Sleep(40 * time.Millisecond) },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			serve := func(write func(w http.ResponseWriter)) *httptest.ResponseRecorder {
				rec := httptest.NewRecorder()
				req := httptest.NewRequest(http.MethodPost, "/v2/commands/submit-and-wait", nil)
				timeouts{request: 20 * time.Millisecond, queue: new(deadlineQueue)}.serve(rec, req, nil, func(w http.ResponseWriter, _ *http.Request) {
					before(w)
					write(w)
				})
				return rec
			}
			got := serve(func(w http.ResponseWriter) { writeJSONBytes(w, http.StatusCreated, body) })
			want := serve(func(w http.ResponseWriter) {
				w.Header()["Content-Type"] = jsonContentType
				w.WriteHeader(http.StatusCreated)
				_, _ = w.Write(body)
			})
			if got.Code != want.Code || got.Body.String() != want.Body.String() || len(got.Header()) != len(want.Header()) {
				t.Fatalf("%d %v %q, want %d %v %q", got.Code, got.Header(), got.Body, want.Code, want.Header(), want.Body)
			}
			for k, v := range want.Header() {
				if g := got.Header()[k]; len(g) != len(v) || len(v) > 0 && g[0] != v[0] {
					t.Errorf("header %s: %q, want %q", k, g, v)
				}
			}
		})
	}
}
