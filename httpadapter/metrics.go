package httpadapter

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/julienschmidt/httprouter"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/ledgernode/ledgernode/ledger"
)

// Metrics instruments a node and its HTTP API for Prometheus: requests by
// method, route (the route's pattern, as /v2/parties/:party; "unmatched"
// for paths no route serves) and status, their latency, the WebSocket
// streams open, and the node's own metrics (ledger.Node.Collector: commits,
// commit latency, ledger end, store sizes), with the Go runtime and process
// collectors, in one registry of its own.
//
//	m := httpadapter.NewMetrics(node)
//	api := m.Wrap(httpadapter.New(node, opts))
//	mux.Handle("/metrics", m.Handler())
//
// Handler serves the registry without authentication, as Canton's metrics
// endpoint does (it is on a port of its own there): serve it where only the
// scraper can reach it when the numbers are sensitive.
type Metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	streams  prometheus.Gauge
	labels   *httprouter.Router

	// The children of requests (by requestLabels) and latency (by
	// latencyLabels) that requests have used: found in a sync.Map rather
	// than by the vectors' hashing and locking of the label values on
	// every request. They hold the children the vectors hold (which are
	// never deleted), no more.
	counters  sync.Map
	observers sync.Map
}

// requestLabels are the label values of a child of Metrics.requests.
type requestLabels struct {
	method, route string
	status        int
}

// latencyLabels are the label values of a child of Metrics.latency.
type latencyLabels struct{ method, route string }

// counter returns the requests counter of the labels.
func (m *Metrics) counter(method, route string, status int) prometheus.Counter {
	k := requestLabels{method, route, status}
	if c, ok := m.counters.Load(k); ok {
		return c.(prometheus.Counter)
	}
	c := m.requests.WithLabelValues(method, route, strconv.Itoa(status))
	m.counters.Store(k, c)
	return c
}

// observer returns the latency histogram of the labels.
func (m *Metrics) observer(method, route string) prometheus.Observer {
	k := latencyLabels{method, route}
	if o, ok := m.observers.Load(k); ok {
		return o.(prometheus.Observer)
	}
	o := m.latency.WithLabelValues(method, route)
	m.observers.Store(k, o)
	return o
}

// NewMetrics returns the metrics of node, registered in a new registry.
func NewMetrics(node *ledger.Node) *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "ledgernode_http_requests_total",
			Help: "HTTP requests answered, by method, route pattern and status code.",
		}, []string{"method", "route", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "ledgernode_http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by method and route pattern (a WebSocket stream: its whole life).",
			Buckets: prometheus.ExponentialBuckets(0.0005, 2.5, 12),
		}, []string{"method", "route"}),
		streams: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "ledgernode_http_open_streams",
			Help: "WebSocket streams open now.",
		}),
		labels: routeLabels(),
	}
	m.reg.MustRegister(m.requests, m.latency, m.streams, node.Collector(),
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Registry returns the registry the metrics are in, to add an embedder's
// own collectors or to serve it elsewhere.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the metrics in the Prometheus text format (or
// OpenMetrics, when the scraper asks for it).
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// Wrap returns h counting and timing every request (h is normally what New
// returned).
func (m *Metrics) Wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		route, stream := m.route(r)
		if stream {
			m.streams.Inc()
			defer m.streams.Dec()
		}
		sw := &statusWriter{ResponseWriter: w}
		start := time.Now()
		defer func() {
			status := sw.status
			if status == 0 {
				status = http.StatusOK
			}
			m.counter(r.Method, route, status).Inc()
			m.observer(r.Method, route).Observe(time.Since(start).Seconds())
		}()
		h.ServeHTTP(sw, r)
	})
}

// routeLabel is what a handle of the label router writes: the route
// pattern and whether it is a WebSocket stream. The label router's handles
// get it as their ResponseWriter (they write nothing else).
type routeLabel struct {
	http.ResponseWriter // nil: never written to
	pattern             string
	stream              bool
}

// routeLabels is a router of the adapter's routes whose handles only name
// the route matched.
func routeLabels() *httprouter.Router {
	r := httprouter.New()
	name := func(rt route) httprouter.Handle {
		return func(w http.ResponseWriter, _ *http.Request, _ httprouter.Params) {
			l := w.(*routeLabel)
			l.pattern, l.stream = rt.path, false
		}
	}
	register(r, routes, name)
	register(r, registryRoutes, name)
	for _, rt := range wsRoutes {
		p := rt.path
		r.Handle(http.MethodGet, p, func(w http.ResponseWriter, _ *http.Request, _ httprouter.Params) {
			l := w.(*routeLabel)
			l.pattern, l.stream = p, true
		})
	}
	return r
}

// route names the route r goes to and whether it is a WebSocket stream.
func (m *Metrics) route(r *http.Request) (string, bool) {
	path := r.URL.EscapedPath()
	h, ps, _ := m.labels.Lookup(r.Method, path)
	if h == nil {
		return "unmatched", false
	}
	// The handles see the path as the adapter's router does (escaped);
	// the request is copied only when that differs from r's.
	req := r
	if path != r.URL.Path || r.URL.RawPath != "" {
		u := *r.URL
		u.Path, u.RawPath = path, ""
		req = new(http.Request)
		*req = *r
		req.URL = &u
	}
	var l routeLabel
	h(&l, req, ps)
	return l.pattern, l.stream
}
