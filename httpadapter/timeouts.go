package httpadapter

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ledgernode/ledgernode/ledger"
)

// Timeout defaults, as Canton's JSON API (pekko-http) configures them.
const (
	// DefaultRequestTimeout bounds a request on every route but the
	// WebSocket streams, reading its body included: Canton's
	// request-timeout, 20 s.
	DefaultRequestTimeout = 20 * time.Second
	// DefaultMaxStreamIdleTimeout caps the stream_idle_timeout_ms of the
	// list routes: 15 s, so that a quiet list request answers the elements
	// it collected before the request timeout would answer 503.
	DefaultMaxStreamIdleTimeout = 15 * time.Second
	// DefaultMaxWebSocketDuration is how long a WebSocket stream may stay
	// open: 1 hour. A client resumes from the last offset it received.
	DefaultMaxWebSocketDuration = time.Hour
	// DefaultIdleTimeout is Canton's idle-timeout of a keep-alive
	// connection without requests, 60 s: the http.Server's IdleTimeout
	// (see ServerTimeouts).
	DefaultIdleTimeout = 60 * time.Second
	// DefaultReadHeaderTimeout bounds the reading of a request's headers:
	// the http.Server's ReadHeaderTimeout (see ServerTimeouts).
	DefaultReadHeaderTimeout = 10 * time.Second
)

// requestTimeoutBody is the answer of pekko-http, the server under
// Canton's JSON API, to a request that outlives request-timeout: 503,
// text/plain.
const requestTimeoutBody = "The server was not able to produce a timely response to your request.\r\nPlease try again in a short while!"

// timeouts are the resolved timeout options.
type timeouts struct {
	request   time.Duration // <= 0: none
	maxIdle   time.Duration // <= 0: no cap
	websocket time.Duration // <= 0: none
	// queue holds the requests waiting for their deadline: one of its
	// own (newTimeouts), whose deadlines, a request timeout after each
	// start, come in order.
	queue *deadlineQueue
}

func newTimeouts(o Options) timeouts {
	t := timeouts{request: o.RequestTimeout, maxIdle: o.MaxStreamIdleTimeout, websocket: o.MaxWebSocketDuration}
	if t.request == 0 {
		t.request = DefaultRequestTimeout
	}
	if t.maxIdle == 0 {
		t.maxIdle = DefaultMaxStreamIdleTimeout
	}
	if t.websocket == 0 {
		t.websocket = DefaultMaxWebSocketDuration
	}
	t.queue = new(deadlineQueue)
	return t
}

// capIdle bounds a list request's stream idle timeout by the cap; an
// absent one stays absent (the node's default applies).
func (t timeouts) capIdle(opts *ledger.ListOptions) {
	if t.maxIdle > 0 && opts.IdleTimeout != nil && *opts.IdleTimeout > t.maxIdle {
		d := t.maxIdle
		opts.IdleTimeout = &d
	}
}

// ServerTimeouts sets the connection timeouts of an http.Server serving
// the adapter to Canton's defaults, where they are unset:
// ReadHeaderTimeout (10 s) and IdleTimeout (60 s). ReadTimeout and
// WriteTimeout stay unset on purpose: they would cut WebSocket streams;
// the adapter bounds every other request itself (Options.RequestTimeout,
// body reading included).
func ServerTimeouts(srv *http.Server) {
	if srv.ReadHeaderTimeout == 0 {
		srv.ReadHeaderTimeout = DefaultReadHeaderTimeout
	}
	if srv.IdleTimeout == 0 {
		srv.IdleTimeout = DefaultIdleTimeout
	}
}

// serve runs next under the timeouts. A WebSocket stream runs under a context
// that ends after the maximum duration (its connection is then closed), and
// without a read deadline. Any other request gets a context, a body read
// deadline and a write deadline from the request timeout; when the timeout
// passes before the handler answered, the client gets pekko-http's 503 at
// once and whatever the handler writes afterwards is dropped.
//
// ctx is the context to run the request under, derived from r's (nil:
// r's own); r is copied with it (and the timeouts' own) once.
func (t timeouts) serve(w http.ResponseWriter, r *http.Request, ctx context.Context, next http.HandlerFunc) {
	// The deadlines are the connection's: a statusWriter (the access
	// log's) would only pass them on (Unwrap).
	cw := w
	if sw, ok := w.(*statusWriter); ok {
		cw = sw.ResponseWriter
	}
	rc := http.NewResponseController(cw)
	own := ctx == nil
	if own {
		ctx = r.Context()
	}
	if isWebSocket(r) {
		_ = rc.SetReadDeadline(time.Time{})
		_ = rc.SetWriteDeadline(time.Time{})
		if t.websocket > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, t.websocket)
			defer cancel()
			own = false
		}
		if !own {
			r = r.WithContext(ctx)
		}
		next.ServeHTTP(w, r)
		return
	}
	if t.request <= 0 {
		if !own {
			r = r.WithContext(ctx)
		}
		next.ServeHTTP(w, r)
		return
	}
	// The request's start, when the access log or the metrics read it
	// (the same instant, one clock read).
	var now time.Time
	if ac, ok := ctx.(*accessCtx); ok {
		now = ac.start
	}
	if now.IsZero() {
		now = time.Now()
	}
	deadline := now.Add(t.request)
	_ = rc.SetReadDeadline(deadline)
	// Room to write the answer (or the 503) after the deadline.
	_ = rc.SetWriteDeadline(deadline.Add(DefaultIdleTimeout))
	c := newRequestCtx(ctx)
	c.parent, c.end = ctx, deadline
	parentFirst := false
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		c.end, parentFirst = d, true
	}
	c.tw = timeoutWriter{w: w, deadline: deadline}
	// At its deadline the context ends and the client gets the 503
	// (expire): at this one by the deadline queue's timer, at the
	// parent's, when that comes first, by a timer of its own.
	var timer *time.Timer
	q := t.queue
	if parentFirst {
		timer = time.AfterFunc(time.Until(c.end), c.expire)
	} else {
		q.add(c)
	}
	next.ServeHTTP(&c.tw, r.WithContext(c))
	if timer != nil {
		timer.Stop()
	} else {
		q.remove(c)
	}
	c.tw.finish()
	c.stop(context.Canceled, true) // as WithDeadline's cancel
	// The handler has returned: nothing else uses tw.h (the timer's
	// answer writes w's own map; start handed its values over, which
	// clear leaves alone).
	if c.tw.h != nil {
		clear(c.tw.h)
		headers.Put(c.tw.h)
	}
}

// requestCtx is the context of a request under the request timeout:
// context.WithDeadline(parent, tw.deadline) without its cancelCtx, timer
// and registration with the parent while the request only asks for its
// values, deadline and Err. Done makes that context (inner), and the
// requestCtx answers as it from then on: the request's children and
// AfterFuncs then register with a cancelCtx, not a goroutine each.
type requestCtx struct {
	parent context.Context
	end    time.Time     // tw.deadline, or the parent's when earlier
	state  atomic.Uint32 // ctxLive, ctxEnded (err set) or ctxInner (inner set); changed under mu
	mu     sync.Mutex
	err    error // why it ended (ctxEnded)
	own    bool  // err is its own (deadline, handler returned), not the parent's
	inner  context.Context
	cancel context.CancelFunc // inner's
	tw     timeoutWriter      // the request's writer, in the same allocation

	// Its place in its deadline queue: the lane (set by add), and under
	// the lane's mu its neighbours.
	lane       *deadlineLane
	prev, next *requestCtx
	queued     bool
}

// deadlineQueue holds the requests waiting for their own deadline (a
// request timeout after they started) in a few lanes, each with one
// timer that runs its requests' expire as each comes: the deadlines come
// about in the order the requests start, so that a request joins a
// lane's tail and leaves, when it ends first, without the runtime timer
// (and its two allocations) a request of its own would cost. Every
// request joins and leaves: the lanes spread them over several locks, so
// that requests on different cores seldom wait for one another.
type deadlineQueue struct {
	lanes [deadlineLanes]deadlineLane
}

// deadlineLanes is how many lanes a deadlineQueue has: enough that the
// requests of a busy node seldom take one lane's lock at once (a waiter
// parks, and waits behind every runnable goroutine).
const deadlineLanes = 32

// add queues c for its end, in a lane picked from bits of its end's
// nanoseconds, which vary from one request to the next: a spread that
// needs no counter shared by every request (a contended cache line).
func (q *deadlineQueue) add(c *requestCtx) {
	l := &q.lanes[uint(c.end.Nanosecond()>>6)%deadlineLanes]
	c.lane = l
	l.add(c)
}

// remove takes c out of the queue, unless its end has come (its expire
// then runs or has run).
func (q *deadlineQueue) remove(c *requestCtx) { c.lane.remove(c) }

// deadlineLane is one lane of a deadlineQueue: its requests, earliest
// end first, and its timer.
type deadlineLane struct {
	mu         sync.Mutex
	head, tail *requestCtx
	timer      *time.Timer // runs fire; nil before the first request
	armed      time.Time   // when timer fires (zero: stopped), at or before head's end
}

// add queues c for its end.
func (q *deadlineLane) add(c *requestCtx) {
	q.mu.Lock()
	at := q.tail // c goes after at, the last with an end not after c's
	for at != nil && c.end.Before(at.end) {
		at = at.prev
	}
	c.prev, c.queued = at, true
	if at == nil {
		c.next, q.head = q.head, c
	} else {
		c.next, at.next = at.next, c
	}
	if c.next == nil {
		q.tail = c
	} else {
		c.next.prev = c
	}
	if q.armed.IsZero() || c.end.Before(q.armed) {
		q.arm(c.end)
	}
	q.mu.Unlock()
}

// remove takes c out of the lane, unless its end has come (its expire
// then runs or has run).
func (q *deadlineLane) remove(c *requestCtx) {
	q.mu.Lock()
	if c.queued {
		q.unlink(c)
	}
	q.mu.Unlock()
}

// unlink takes c out (q.mu held).
func (q *deadlineLane) unlink(c *requestCtx) {
	if c.prev == nil {
		q.head = c.next
	} else {
		c.prev.next = c.next
	}
	if c.next == nil {
		q.tail = c.prev
	} else {
		c.next.prev = c.prev
	}
	c.prev, c.next, c.queued = nil, nil, false
}

// arm sets the timer for at (q.mu held).
func (q *deadlineLane) arm(at time.Time) {
	if q.timer == nil {
		q.timer = time.AfterFunc(time.Until(at), q.fire)
	} else {
		q.timer.Reset(time.Until(at))
	}
	q.armed = at
}

// fire is the timer: it expires the requests whose end has come, each
// in a goroutine of its own (as a timer of its own would), and sets the
// timer for the next end. A request that ended before the timer (the
// head the timer was set for) leaves the timer early: it is then set
// again.
func (q *deadlineLane) fire() {
	q.mu.Lock()
	q.armed = time.Time{}
	now := time.Now()
	for c := q.head; c != nil && !now.Before(c.end); c = q.head {
		q.unlink(c)
		go c.expire()
	}
	if q.head != nil {
		q.arm(q.head.end)
	}
	q.mu.Unlock()
}

// newRequestCtx returns a new requestCtx, in the allocation of the
// access log's context when that is parent (once).
func newRequestCtx(parent context.Context) *requestCtx {
	if ac, ok := parent.(*accessCtx); ok && !ac.rcTaken {
		ac.rcTaken = true
		return &ac.rc
	}
	return new(requestCtx)
}

const (
	ctxLive uint32 = iota
	ctxEnded
	ctxInner
)

func (c *requestCtx) Deadline() (time.Time, bool) { return c.end, true }

func (c *requestCtx) Err() error {
	switch c.state.Load() {
	case ctxEnded:
		return c.err
	case ctxInner:
		return c.inner.Err()
	}
	if err := c.parent.Err(); err != nil {
		return c.stop(err, false)
	}
	return nil
}

func (c *requestCtx) Done() <-chan struct{} {
	if c.state.Load() != ctxInner {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.state.Load() == ctxEnded {
			return endedCtx.Done()
		}
		if c.inner == nil {
			c.inner, c.cancel = context.WithDeadline(c.parent, c.tw.deadline)
			c.state.Store(ctxInner)
		}
	}
	return c.inner.Done()
}

// Value answers the parent's values, but for the cancelCtx that
// context.Cause asks for: inner's, or none when the context ended by
// itself (Cause is then Err).
func (c *requestCtx) Value(key any) any {
	if key == cancelCtxKey {
		switch state := c.state.Load(); {
		case state == ctxInner:
			return c.inner.Value(key)
		case state == ctxEnded && c.own:
			return nil
		}
	}
	return c.parent.Value(key)
}

// String names the context as context.WithDeadline's does, for debugging.
func (c *requestCtx) String() string {
	return fmt.Sprint(c.parent) + ".WithDeadline(" + c.tw.deadline.String() + ")"
}

// stop ends the context with err unless it has ended (inner: cancels it
// for the handler's return) and returns the error it ended with.
func (c *requestCtx) stop(err error, own bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch c.state.Load() {
	case ctxLive:
		c.err, c.own = err, own
		c.state.Store(ctxEnded)
	case ctxInner:
		if err == context.Canceled && own {
			c.cancel()
		}
		return c.inner.Err()
	}
	return c.err
}

// expire is the timer at c.end: it ends the context with the parent's
// error, else DeadlineExceeded (inner ends by its own timer), and answers
// 503 unless the request was canceled. At the parent's deadline, the
// parent gives the cause (context.Cause).
func (c *requestCtx) expire() {
	err := c.parent.Err()
	own := err == nil && !c.end.Before(c.tw.deadline)
	if err == nil {
		err = context.DeadlineExceeded
	}
	if c.stop(err, own) != context.Canceled {
		c.tw.timeout()
	}
}

// endedCtx gives the Done of a requestCtx that ended before it was asked.
var endedCtx = func() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}()

// cancelCtxKey is the key with which context.Cause asks a context's Value
// for the cancelCtx that ended it, recorded by a keyProbe.
var cancelCtxKey = func() any {
	p := &keyProbe{Context: endedCtx}
	_ = context.Cause(p)
	return p.key
}()

type keyProbe struct {
	context.Context
	key any
}

func (p *keyProbe) Value(key any) any { p.key = key; return nil }

// headers holds the empty header maps of finished requests: a map and
// its first group are about 400 bytes a request.
var headers = sync.Pool{New: func() any { return http.Header{} }}

// isWebSocket reports whether r asks for a WebSocket stream on one of the
// stream routes.
func isWebSocket(r *http.Request) bool {
	if r.Method != http.MethodGet {
		return false
	}
	// Header.Get("Upgrade") without its canonicalization of the key:
	// "Upgrade" is canonical.
	if up := r.Header["Upgrade"]; len(up) == 0 || !strings.EqualFold(up[0], "websocket") {
		return false
	}
	return isStreamPath(r.URL.EscapedPath())
}

// isStreamPath reports whether the escaped path p is a stream route's.
func isStreamPath(p string) bool {
	for _, rt := range wsRoutes {
		if p == rt.path {
			return true
		}
	}
	return false
}

// timeoutWriter is the ResponseWriter of a request under the request
// timeout: once timeout has answered 503, the handler's writes are
// dropped.
type timeoutWriter struct {
	w        http.ResponseWriter
	h        http.Header // the handler's headers (nil until Header), copied to w's when it answers
	deadline time.Time
	mu       sync.Mutex
	wrote    bool // the handler started its answer
	timedOut bool
	finished bool // the handler returned
}

// finish marks the handler as returned (waiting for a timeout answer being
// written) and hands on the headers of a handler that wrote nothing.
func (tw *timeoutWriter) finish() {
	// An answer that started is the handler's (timeout and late look at
	// wrote, which only the handler's goroutine, this one, sets): nothing
	// is left to hand on, and finished would change nothing.
	if tw.wrote {
		return
	}
	tw.mu.Lock()
	defer tw.mu.Unlock()
	tw.finished = true
	if !tw.timedOut {
		tw.start()
	}
}

func (tw *timeoutWriter) timeout() {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	if tw.wrote || tw.finished {
		return
	}
	tw.timeoutLocked()
}

// timeoutLocked answers 503 (tw.mu held).
func (tw *timeoutWriter) timeoutLocked() {
	tw.timedOut = true
	h := tw.w.Header()
	h.Set("Content-Type", "text/plain; charset=UTF-8")
	h.Set("Content-Length", strconv.Itoa(len(requestTimeoutBody)))
	h.Set("Connection", "close")
	tw.w.WriteHeader(http.StatusServiceUnavailable)
	_, _ = tw.w.Write([]byte(requestTimeoutBody))
	_ = http.NewResponseController(tw.w).Flush()
}

// writeJSON is writeJSONBytes for a handler that set no header: it
// answers as Header()["Content-Type"] = jsonContentType, WriteHeader and
// Write would, the header put in w's map itself when the answer starts
// (start would copy it there, and only it).
func (tw *timeoutWriter) writeJSON(status int, body []byte) {
	tw.mu.Lock()
	if tw.timedOut || tw.wrote || tw.passed() {
		tw.mu.Unlock()
		tw.Header()["Content-Type"] = jsonContentType
		tw.WriteHeader(status)
		_, _ = tw.Write(body)
		return
	}
	tw.wrote = true
	tw.w.Header()["Content-Type"] = jsonContentType
	tw.w.WriteHeader(status)
	tw.mu.Unlock()
	// The answer has started: no 503 can come (timeout and late look at
	// wrote), and Write would only pass the body on, under mu.
	_, _ = tw.w.Write(body)
}

// Header returns the handler's own header map (only the handler's
// goroutine touches it), copied to the connection's when it answers. It
// is taken from headers when the handler first asks: a handler that
// answers with writeJSONBytes alone needs none.
func (tw *timeoutWriter) Header() http.Header {
	if tw.h == nil {
		tw.h = headers.Get().(http.Header)
	}
	return tw.h
}

func (tw *timeoutWriter) WriteHeader(code int) {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	if tw.timedOut {
		return
	}
	if tw.late() {
		return
	}
	tw.w.WriteHeader(code)
}

func (tw *timeoutWriter) Write(b []byte) (int, error) {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	if tw.timedOut {
		return 0, http.ErrHandlerTimeout
	}
	if tw.late() {
		return 0, http.ErrHandlerTimeout
	}
	return tw.w.Write(b)
}

// late starts the handler's answer, unless the deadline has passed before
// it started: then the answer is the 503 (a handler that failed because
// its body read or its context hit the deadline answers too late to be
// heard, as with pekko-http).
func (tw *timeoutWriter) late() bool {
	if !tw.wrote && tw.passed() {
		tw.timeoutLocked()
		return true
	}
	tw.start()
	return false
}

// passed reports whether the deadline has passed: !time.Now().Before
// (tw.deadline), which compares the monotonic clock readings, with a read
// of the monotonic clock alone (time.Until).
func (tw *timeoutWriter) passed() bool { return time.Until(tw.deadline) <= 0 }

// start copies the handler's headers once, as it starts its answer.
func (tw *timeoutWriter) start() {
	if tw.wrote {
		return
	}
	tw.wrote = true
	dst := tw.w.Header()
	for k, v := range tw.h {
		dst[k] = v
	}
}

// Unwrap gives http.ResponseController the underlying writer.
func (tw *timeoutWriter) Unwrap() http.ResponseWriter { return tw.w }
