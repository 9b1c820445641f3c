package httpadapter

import (
	"bufio"
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/julienschmidt/httprouter"

	"github.com/ledgernode/ledgernode/ledger"
)

// accessEntry is what the handlers learn about a request for its
// access-log line; the middleware puts it in the request context.
type accessEntry struct {
	route         string // the matched route pattern ("" when none matched)
	metric        int    // 1 + the index in metricRoutes of the route's labels (0: none, "unmatched")
	user          string // the authenticated user
	correlationID string // the correlation id of the error answered

	// The request record of the route's handler (newRequest) and the
	// context of auth mode none's principal (withAdmin), in the same
	// allocation.
	rq      request
	rqTaken bool
	pc      principalCtx
	pcTaken bool
}

type accessKey struct{}

// entryOf returns the request's access-log entry, or nil outside the
// middleware.
func entryOf(r *http.Request) *accessEntry {
	e, _ := r.Context().Value(accessKey{}).(*accessEntry)
	return e
}

// withRoute wraps the handles a route table registers so that they record
// the route's pattern for the access log.
func withRoute(handle func(route) httprouter.Handle) func(route) httprouter.Handle {
	return func(rt route) httprouter.Handle { return routed(rt.path, metricID(rt.method, rt.path), handle(rt)) }
}

// routed records pattern as the route of the request, and metric as its
// metrics' labels (metricID), before calling h.
func routed(pattern string, metric int, h httprouter.Handle) httprouter.Handle {
	return func(w http.ResponseWriter, r *http.Request, ps httprouter.Params) {
		if e := entryOf(r); e != nil {
			e.route, e.metric = pattern, metric
		}
		h(w, r, ps)
	}
}

// noteUser records the authenticated user of ctx for the access log.
func noteUser(r *http.Request, ctx context.Context) { entryOf(r).noteUser(ctx) }

// noteUser records the authenticated user of ctx in e (nil: no entry).
func (e *accessEntry) noteUser(ctx context.Context) {
	if e != nil {
		if p, ok := ledger.PrincipalFrom(ctx); ok {
			e.user = p.UserID
		}
	}
}

// noteCorrelationID records the correlation id of the error answered.
func noteCorrelationID(r *http.Request, id string) {
	if e := entryOf(r); e != nil {
		e.correlationID = id
	}
}

// accessLog runs next and then logs one line: method, route pattern (the
// path when no route matched), status, duration, user and the correlation
// id of an error answer, at the level Canton's JSON API logs the
// response's kind (accessLevel): a request answered well at debug, a
// client's error at info, a server error at error. A WebSocket stream is
// logged when it ends, with status 101.
//
// next gets the context the request is to run under (the entry added;
// nil when nothing is logged and st is nil: r's own), and makes the
// request with it itself: the timeout middleware adds its deadline
// first, so that a request is copied once, not twice.
//
// st, when not nil, is the state the request runs with (Metrics.Wrap's,
// made when the request started at start), whether it is logged or not.
func (a *adapter) accessLog(w http.ResponseWriter, r *http.Request, st *accessState, start time.Time, next func(http.ResponseWriter, *http.Request, context.Context)) {
	if !a.log.Enabled(r.Context(), slog.LevelError) {
		if st != nil {
			next(&st.sw, r, &st.ctx)
		} else {
			next(w, r, nil)
		}
		return
	}
	if st == nil {
		start = time.Now()
		st = newAccessState(w, r, start)
	}
	next(&st.sw, r, &st.ctx)
	e := &st.ctx.e
	route := e.route
	if route == "" {
		route = r.URL.EscapedPath()
	}
	status := st.sw.status
	if status == 0 {
		status = http.StatusOK
	}
	level := accessLevel(status)
	if !a.log.Enabled(r.Context(), level) {
		return
	}
	end := time.Now() // the record's time and the duration's end: one clock read
	// The record Logger.LogAttrs would make, with the source position of
	// this call site found once: runtime.Callers for every request cost
	// about 2 µs.
	pc := accessLogPC.Load()
	if pc == 0 {
		var pcs [1]uintptr
		runtime.Callers(1, pcs[:])
		pc = pcs[0]
		accessLogPC.Store(pc)
	}
	rec := slog.NewRecord(end, level, "http request", pc)
	rec.AddAttrs(
		slog.String("method", r.Method),
		slog.String("route", route),
		slog.Int("status", status),
		slog.Duration("duration", end.Sub(start)),
	)
	if e.user != "" {
		rec.AddAttrs(slog.String("user", e.user))
	}
	if e.correlationID != "" {
		rec.AddAttrs(slog.String("correlationId", e.correlationID))
	}
	_ = a.log.Handler().Handle(r.Context(), rec)
}

// accessLevel is the level of the access-log line of a response with
// status, as Canton's JSON API decides a response's kind
// (V2Routes.decideResponseKind) and its request logger logs it
// (ApiRequestLogger.logResponseStatus): a server error at error, an
// authentication or authorization refusal at debug (Canton's Security
// kind), another client error at info, anything else at debug. A node
// at the default info level logs what went wrong, not every request.
func accessLevel(status int) slog.Level {
	switch {
	case status >= 500:
		return slog.LevelError
	case status == http.StatusUnauthorized || status == http.StatusForbidden || status == http.StatusProxyAuthRequired:
		return slog.LevelDebug
	case status >= 400:
		return slog.LevelInfo
	}
	return slog.LevelDebug
}

// accessState is what accessLog (or Metrics.Wrap, which shares it with
// the access log) allocates per request: the entry, the writer and the
// context that carries the entry in one allocation.
type accessState struct {
	sw  statusWriter
	ctx accessCtx
}

// newAccessState returns the state of a request answered on w, which
// started at start.
func newAccessState(w http.ResponseWriter, r *http.Request, start time.Time) *accessState {
	return &accessState{sw: statusWriter{ResponseWriter: w}, ctx: accessCtx{Context: r.Context(), start: start}}
}

// accessCtx is context.WithValue(parent, accessKey{}, &e) with the entry
// inside. Its Done is its parent's, so that contexts derived from it
// register with the parent as they would with WithValue's.
type accessCtx struct {
	context.Context
	e accessEntry

	// When the request started (the metrics' and the access log's
	// start): the timeout middleware's deadline counts from it, without
	// a clock read of its own.
	start time.Time

	// The context the timeout middleware derives from this one
	// (newRequestCtx), in the same allocation.
	rc      requestCtx
	rcTaken bool
}

// Value returns the entry for accessKey, else the parent's value.
func (c *accessCtx) Value(key any) any {
	if _, ok := key.(accessKey); ok {
		return &c.e
	}
	return c.Context.Value(key)
}

// String names the context as context.WithValue's does, for debugging.
func (c *accessCtx) String() string {
	return fmt.Sprint(c.Context) + ".WithValue(httpadapter.accessKey, entry)"
}

// accessLogPC is the program counter of accessLog's logging call, the
// source position of its records (0 until the first).
var accessLogPC atomic.Uintptr

// statusWriter remembers the status a handler answered (for the access log
// and the metrics); it passes Flush, Hijack (WebSocket upgrades, counted
// as 101) and http.ResponseController through.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (s *statusWriter) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

// Hijack hands the connection to a WebSocket upgrade.
func (s *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if s.status == 0 {
		s.status = http.StatusSwitchingProtocols
	}
	return http.NewResponseController(s.ResponseWriter).Hijack()
}

// Flush flushes the underlying writer when it can.
func (s *statusWriter) Flush() { _ = http.NewResponseController(s.ResponseWriter).Flush() }

// Unwrap gives http.ResponseController the underlying writer.
func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }
