package httpadapter

import (
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
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

	// byRoute holds the children of the requests of the adapter's routes
	// (by metricID - 1), found from the route a request took without a
	// lookup by label values (see Wrap).
	byRoute []routeMetrics
}

// metricRoute is the method and route label of the requests of a route.
type metricRoute struct{ method, path string }

// metricRoutes are the label values of the routes the label router
// (routeLabels) names, the requests that are not "unmatched"; metricIDs
// gives 1 + the index of a route's, by method and pattern.
var metricRoutes, metricIDs = metricRouteTable()

func metricRouteTable() ([]metricRoute, map[metricRoute]int) {
	var rs []metricRoute
	for _, t := range [][]route{routes, registryRoutes} {
		for _, rt := range t {
			rs = append(rs, metricRoute{rt.method, rt.path})
		}
	}
	for _, rt := range wsRoutes {
		rs = append(rs, metricRoute{http.MethodGet, rt.path})
	}
	ids := make(map[metricRoute]int, len(rs))
	for i, l := range rs {
		ids[l] = i + 1
	}
	return rs, ids
}

// metricID returns 1 + the index in metricRoutes of the route of method
// and pattern, 0 for a route the metrics do not name.
func metricID(method, pattern string) int { return metricIDs[metricRoute{method, pattern}] }

// routeMetrics are the children of one route's requests, filled as
// requests use them (a child made before a request would show in the
// metrics as a series of zeros).
type routeMetrics struct {
	observer atomic.Pointer[observerRef]
	// The counters of the first statuses answered; the rest are found
	// by Metrics.counter.
	counters [4]atomic.Pointer[statusCounter]
}

type observerRef struct{ o prometheus.Observer }

type statusCounter struct {
	status int
	c      prometheus.Counter
}

// counter returns the requests counter of the route (labels l) and status.
func (rm *routeMetrics) counter(m *Metrics, l metricRoute, status int) prometheus.Counter {
	for i := range rm.counters {
		sc := rm.counters[i].Load()
		if sc == nil {
			c := m.counter(l.method, l.path, status)
			if rm.counters[i].CompareAndSwap(nil, &statusCounter{status, c}) {
				return c
			}
			sc = rm.counters[i].Load() // another request's status
		}
		if sc.status == status {
			return sc.c
		}
	}
	return m.counter(l.method, l.path, status)
}

// observerOf returns the latency histogram of the route (labels l).
func (rm *routeMetrics) observerOf(m *Metrics, l metricRoute) prometheus.Observer {
	if o := rm.observer.Load(); o != nil {
		return o.o
	}
	o := m.observer(l.method, l.path)
	rm.observer.Store(&observerRef{o})
	return o
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
		labels:  routeLabels(),
		byRoute: make([]routeMetrics, len(metricRoutes)),
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
	if ah, ok := h.(*handler); ok && ah.labeled {
		return &metered{m: m, h: ah}
	}
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

// metered is Wrap's handler around the adapter: the adapter's routing
// tells it the route a request took (accessEntry.metric), rather than a
// second lookup in the label router, and the request's status is the
// access log's writer's.
type metered struct {
	m *Metrics
	h *handler
}

func (mh *metered) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m := mh.m
	// The stream routes are static GET routes: the label router names
	// one for its path only.
	if r.Method == http.MethodGet && isStreamPath(r.URL.EscapedPath()) {
		m.streams.Inc()
		defer m.streams.Dec()
	}
	start := time.Now()
	st := newAccessState(w, r, start)
	defer m.observe(r.Method, st, start)
	mh.h.serveMetered(st, r, start)
}

// observe counts and times a request that started at start and ran with
// st.
func (m *Metrics) observe(method string, st *accessState, start time.Time) {
	status := st.sw.status
	if status == 0 {
		status = http.StatusOK
	}
	if id := st.ctx.e.metric; id > 0 {
		rm, l := &m.byRoute[id-1], metricRoutes[id-1]
		rm.counter(m, l, status).Inc()
		rm.observerOf(m, l).Observe(time.Since(start).Seconds())
		return
	}
	m.counter(method, "unmatched", status).Inc()
	m.observer(method, "unmatched").Observe(time.Since(start).Seconds())
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
