package httpadapter

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"

	"github.com/ledgernode/ledgernode/ledger"
)

// TestMetricsRouteFromRouting: Metrics.Wrap around the adapter labels
// every request with the route the label router names for it (the
// adapter's routing tells it which), "unmatched" included: for every
// method on every route's path, escaped and unescaped, with a trailing
// slash, on the console's and the registry preflight's paths and on no
// route's, with the access log on and off.
func TestMetricsRouteFromRouting(t *testing.T) {
	t.Parallel()
	node, err := ledger.Open(ledger.Options{InMemory: true, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	paths := []string{"", "/", "/no/such/route", "/console", "/console/x", "/v2/parties/participant%2Did",
		"/v2/parties/a%2Fb", "/v2/parties/participant-id/", "/V2/version", "/v2/version?x=1", "/v2/users/u/rights/"}
	for _, l := range metricRoutes {
		var segs []string
		for _, s := range strings.Split(l.path, "/") {
			if strings.HasPrefix(s, ":") {
				s = "x"
			}
			segs = append(segs, s)
		}
		p := strings.Join(segs, "/")
		paths = append(paths, p, p+"/", strings.Replace(p, "v", "%76", 1))
	}
	methods := []string{http.MethodGet, http.MethodPost, http.MethodPatch, http.MethodDelete, http.MethodOptions, http.MethodPut, http.MethodHead}
	for _, level := range []slog.Level{slog.LevelDebug, slog.LevelError + 1} {
		m := NewMetrics(node)
		h := m.Wrap(New(node, Options{Console: true, CORSAllowedOrigins: []string{"*"},
			Logger: slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: level}))}))
		if _, ok := h.(*metered); !ok {
			t.Fatalf("Wrap(New(…)) is a %T, want the adapter's own", h)
		}
		total := func() float64 {
			n := 0.0
			m.counters.Range(func(_, c any) bool {
				var d dto.Metric
				if err := c.(interface{ Write(*dto.Metric) error }).Write(&d); err != nil {
					t.Fatal(err)
				}
				n += d.GetCounter().GetValue()
				return true
			})
			return n
		}
		value := func(method, route string, status int) float64 {
			var d dto.Metric
			if err := m.counter(method, route, status).Write(&d); err != nil {
				t.Fatal(err)
			}
			return d.GetCounter().GetValue()
		}
		for _, method := range methods {
			for _, p := range paths {
				r := httptest.NewRequest(method, "http://node"+p, strings.NewReader("{}"))
				if p == "" {
					r.URL.Path = ""
				}
				want, _ := m.route(r)
				rec := httptest.NewRecorder()
				before, t0 := 0.0, total()
				// The status is known after the request: read every
				// status's count of the route before.
				counts := map[int]float64{}
				for _, s := range []int{200, 201, 303, 400, 401, 403, 404, 405, 409, 413, 426, 500, 501, 503} {
					counts[s] = value(method, want, s)
				}
				h.ServeHTTP(rec, r)
				if c, ok := counts[rec.Code]; ok {
					before = c
				} else {
					t.Fatalf("%s %q: status %d not watched", method, p, rec.Code)
				}
				if got := value(method, want, rec.Code); got != before+1 {
					t.Errorf("%s %q (%d): {route=%q} counted %v times, want once", method, p, rec.Code, want, got-before)
				}
				if got := total(); got != t0+1 {
					t.Errorf("%s %q: %v requests counted, want 1", method, p, got-t0)
				}
			}
		}
	}
}
