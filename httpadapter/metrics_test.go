package httpadapter_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/ledgernode/ledgernode/httpadapter"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// TestMetrics: /metrics parses as the Prometheus text format and counts
// requests by route pattern and status, commits and the ledger end.
func TestMetrics(t *testing.T) {
	t.Parallel()
	node := ledgertest.Open(t, ledger.Options{})
	m := httpadapter.NewMetrics(node)
	api := m.Wrap(httpadapter.New(node, httpadapter.Options{Logger: slog.New(slog.DiscardHandler)}))
	get := func(h http.Handler, path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		return rec
	}
	scrape := func() map[string]*dto.MetricFamily {
		t.Helper()
		rec := get(m.Handler(), "/metrics")
		if rec.Code != 200 {
			t.Fatalf("/metrics: %d", rec.Code)
		}
		p := expfmt.NewTextParser(model.UTF8Validation)
		fams, err := p.TextToMetricFamilies(rec.Body)
		if err != nil {
			t.Fatalf("parsing /metrics: %v", err)
		}
		return fams
	}
	// value returns the value of the family's sample with these labels.
	value := func(fams map[string]*dto.MetricFamily, name string, labels map[string]string) (float64, bool) {
		f := fams[name]
		if f == nil {
			return 0, false
		}
	samples:
		for _, s := range f.Metric {
			have := map[string]string{}
			for _, l := range s.Label {
				have[l.GetName()] = l.GetValue()
			}
			for k, v := range labels {
				if have[k] != v {
					continue samples
				}
			}
			switch {
			case s.Counter != nil:
				return s.Counter.GetValue(), true
			case s.Gauge != nil:
				return s.Gauge.GetValue(), true
			case s.Histogram != nil:
				return float64(s.Histogram.GetSampleCount()), true
			}
		}
		return 0, false
	}

	before := scrape()
	if v, ok := value(before, "ledgernode_http_requests_total", map[string]string{"route": "/v2/version"}); ok {
		t.Fatalf("a request counted before any: %v", v)
	}
	for _, name := range []string{"ledgernode_interpretation_duration_seconds", "ledgernode_commit_duration_seconds",
		"ledgernode_badger_size_bytes", "ledgernode_http_open_streams", "go_goroutines"} {
		if before[name] == nil {
			t.Errorf("no %s", name)
		}
	}

	get(api, "/v2/version")
	get(api, "/v2/version")
	if rec := get(api, "/v2/parties/nobody::1220ab"); rec.Code != 200 {
		t.Logf("GET /v2/parties/{party}: %d", rec.Code)
	}
	get(api, "/v2/parties/participant%2Did") // escaped: the static route, not /v2/parties/:party
	get(api, "/no/such/route")
	if _, err := jsonapi.New(node).AllocateParty(context.Background(), jsonapi.AllocatePartyRequest{PartyIDHint: "alice"}); err != nil {
		t.Fatal(err)
	}

	after := scrape()
	tests := []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"ledgernode_http_requests_total", map[string]string{"method": "GET", "route": "/v2/version", "status": "200"}, 2},
		{"ledgernode_http_request_duration_seconds", map[string]string{"method": "GET", "route": "/v2/version"}, 2},
		{"ledgernode_http_requests_total", map[string]string{"route": "/v2/parties/:party"}, 1},
		{"ledgernode_http_requests_total", map[string]string{"route": "unmatched", "status": "404"}, 1},
		{"ledgernode_http_requests_total", map[string]string{"route": "/v2/parties/participant-id", "status": "200"}, 1},
		{"ledgernode_commits_total", map[string]string{"outcome": "failed"}, 0},
		{"ledgernode_ledger_end", nil, 1},
		{"ledgernode_http_open_streams", nil, 0},
	}
	for _, tt := range tests {
		if got, ok := value(after, tt.name, tt.labels); !ok || got != tt.want {
			t.Errorf("%s%v = %v (present %v), want %v", tt.name, tt.labels, got, ok, tt.want)
		}
	}
	b, _ := value(before, "ledgernode_commits_total", map[string]string{"outcome": "committed"})
	a, _ := value(after, "ledgernode_commits_total", map[string]string{"outcome": "committed"})
	if a != b+1 {
		t.Errorf("ledgernode_commits_total{committed}: %v then %v, want one more", b, a)
	}
	b, _ = value(before, "ledgernode_commit_duration_seconds", nil)
	a, _ = value(after, "ledgernode_commit_duration_seconds", nil)
	if a != b+1 {
		t.Errorf("ledgernode_commit_duration_seconds count: %v then %v, want one more", b, a)
	}
}
