package httpadapter

import (
	"net/http"
	"net/http/httptest"
	"testing"

	dto "github.com/prometheus/client_model/go"

	"github.com/ledgernode/ledgernode/ledger"
)

// TestMetricsChildrenFoundOnce: the requests of one route and status use
// one counter child and one histogram child, found in the vectors once,
// and count every request.
func TestMetricsChildrenFoundOnce(t *testing.T) {
	t.Parallel()
	node, err := ledger.Open(ledger.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	m := NewMetrics(node)
	h := m.Wrap(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusTeapot) }))
	for range 3 {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/livez", nil))
	}
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, "/livez", nil))
	counters, observers := 0, 0
	m.counters.Range(func(any, any) bool { counters++; return true })
	m.observers.Range(func(any, any) bool { observers++; return true })
	if counters != 2 || observers != 2 {
		t.Errorf("%d counter and %d histogram children remembered, want 2 and 2", counters, observers)
	}
	var got dto.Metric
	if err := m.counter(http.MethodGet, "/livez", http.StatusTeapot).Write(&got); err != nil {
		t.Fatal(err)
	}
	if got.GetCounter().GetValue() != 3 {
		t.Errorf("GET /livez 418: %v requests, want 3", got.GetCounter().GetValue())
	}
	var hist dto.Metric
	if err := m.latency.WithLabelValues(http.MethodGet, "/livez").(interface{ Write(*dto.Metric) error }).Write(&hist); err != nil {
		t.Fatal(err)
	}
	if hist.GetHistogram().GetSampleCount() != 3 {
		t.Errorf("GET /livez latency: %d samples, want 3", hist.GetHistogram().GetSampleCount())
	}
}
