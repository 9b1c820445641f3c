package httpadapter

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/julienschmidt/httprouter"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// DefaultMaxBodyBytes is the request body limit used when
// Options.MaxBodyBytes is zero: 8 MiB, the max-content-length default of
// the pekko-http server behind Canton's JSON API.
const DefaultMaxBodyBytes int64 = 8 << 20

// Options configures the adapter. The zero value is usable: no
// authentication, an 8 MiB body limit and slog.Default().
type Options struct {
	// Verifier checks access tokens that do not come from one of the node's
	// identity providers (those are verified with the provider's JWKS, see
	// ledger.Node.TokenVerifier). When nil the adapter runs in auth mode
	// "none": every request acts as a participant admin
	// (identity.Principal{Wildcard: true}), and New logs a warning.
	Verifier identity.Verifier
	// MaxBodyBytes limits request bodies; larger bodies are rejected with a
	// 413 JsCantonError. Zero or negative means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// Logger receives the adapter's logs, among them the full details of
	// every redacted error and an access-log line per request, at the
	// level Canton logs the response's kind: debug for a request answered
	// well or refused for authentication, info for a client's error,
	// error for a server error. Nil means slog.Default().
	Logger *slog.Logger

	// RegistryRequireAuth makes the registry metadata routes
	// (/registry/metadata/v1/…) require a ledger-API token like the rest;
	// by default they are public, as registries in the wild are.
	RegistryRequireAuth bool
	// CORSAllowedOrigins lists the origins browser wallets may call the
	// registry routes from ("*" allows any). Empty: no CORS headers.
	CORSAllowedOrigins []string

	// RequestTimeout bounds every request but the WebSocket streams, the
	// reading of its body included: past it the client gets pekko-http's
	// 503 text/plain answer and the connection is closed. Zero means
	// DefaultRequestTimeout (Canton's request-timeout, 20 s); negative,
	// none.
	RequestTimeout time.Duration
	// MaxStreamIdleTimeout caps the stream_idle_timeout_ms query parameter
	// of the list routes. Zero means DefaultMaxStreamIdleTimeout (15 s);
	// negative, no cap.
	MaxStreamIdleTimeout time.Duration
	// MaxWebSocketDuration is how long a WebSocket stream may stay open
	// before its connection is closed; WebSockets are exempt from
	// RequestTimeout. Zero means DefaultMaxWebSocketDuration (1 h);
	// negative, no limit.
	MaxWebSocketDuration time.Duration

	// VerboseErrors sends security-sensitive errors to the client as they
	// are (code, cause, context and category) instead of Canton's redacted
	// "NA" body. For development servers only: the causes tell an attacker
	// why a token was refused.
	VerboseErrors bool

	// Console serves the browser console (package console) under
	// /console, authorized like the API; ConsoleToken, when set, is the
	// token of browsers that have not logged in (see console_mount.go).
	Console      bool
	ConsoleToken string
}

// adapter holds what every handler needs.
type adapter struct {
	// api is the JSON Ledger API over node; every route calls it (or, for
	// the services still served by the Node's JSON methods, the Node).
	api      *jsonapi.API
	node     *ledger.Node
	verifier identity.Verifier
	maxBody  int64
	log      *slog.Logger

	registryAuth authMode
	cors         []string
	timeouts     timeouts
	verbose      bool
	streams      *streams
}

// handler is the http.Handler returned by New.
type handler struct {
	a      *adapter
	router *httprouter.Router
	// labeled: the router serves the route tables (routes, registryRoutes,
	// wsRoutes), so that the route a request took is the one the metrics'
	// label router names (Metrics.Wrap then learns it from the routing).
	labeled bool
}

// New returns an http.Handler serving node as Canton's JSON Ledger API v2.
// It answers at the root ("/v2/…", "/livez", "/readyz"); mount it under a
// prefix with http.StripPrefix.
func New(node *ledger.Node, opts Options) http.Handler {
	a := &adapter{
		api:      jsonapi.New(node),
		node:     node,
		verifier: opts.Verifier,
		maxBody:  opts.MaxBodyBytes,
		log:      opts.Logger,
		cors:     opts.CORSAllowedOrigins,
		timeouts: newTimeouts(opts),
		verbose:  opts.VerboseErrors,
		streams:  newStreams(),
	}
	a.registryAuth = authOptional
	if opts.RegistryRequireAuth {
		a.registryAuth = authRequired
	}
	if a.maxBody <= 0 {
		a.maxBody = DefaultMaxBodyBytes
	}
	if a.log == nil {
		a.log = slog.Default()
	}
	if a.verifier != nil {
		// Tokens whose issuer is one of the node's identity providers are
		// verified with that provider's keys; the rest with opts.Verifier.
		a.verifier = node.TokenVerifier(a.verifier)
	} else {
		a.log.Warn("httpadapter: no token verifier configured (auth mode none): every request acts as a participant admin")
	}
	h := &handler{a: a, router: a.router(routes), labeled: true}
	a.mountConsole(h.router, opts)
	return h
}

// router builds the httprouter for a route table.
func (a *adapter) router(table []route) *httprouter.Router {
	r := httprouter.New()
	// Canton answers a path that differs by a trailing slash or by case
	// with a 404; httprouter's redirects would also lose a StripPrefix
	// prefix.
	r.RedirectTrailingSlash = false
	r.RedirectFixedPath = false
	// OPTIONS is not part of the API: no automatic (empty-bodied) answers.
	r.HandleOPTIONS = false
	r.HandleMethodNotAllowed = true
	r.NotFound = http.HandlerFunc(a.notFound)
	r.MethodNotAllowed = http.HandlerFunc(methodNotAllowed)
	r.PanicHandler = a.panicked
	register(r, table, a.handle)
	register(r, registryRoutes, withRoute(a.handleRegistry))
	for _, rt := range wsRoutes {
		r.Handle(http.MethodGet, rt.path, routed(rt.path, metricID(http.MethodGet, rt.path), a.websocket(rt)))
	}
	for _, rt := range registryRoutes {
		// No metrics' labels: the metrics count a preflight as unmatched.
		r.Handle(http.MethodOptions, rt.path, routed(rt.path, 0, a.registryPreflight))
	}
	return r
}

// ServeHTTP routes on the escaped path, so that a percent-encoded "/"
// inside a path parameter does not split it; the handlers unescape the
// parameters themselves (request.pathParam).
// The request runs under the timeouts (timeouts.go) and is logged when it
// ends (accesslog.go).
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.a.accessLog(w, r, nil, time.Time{}, h.serve)
}

// serveMetered is ServeHTTP for Metrics.Wrap: the request runs with st,
// the metrics' state, which the access log (when it logs) shares; start
// is when the request started.
func (h *handler) serveMetered(st *accessState, r *http.Request, start time.Time) {
	h.a.accessLog(nil, r, st, start, h.serve)
}

// serve runs the request under ctx and the timeouts.
func (h *handler) serve(w http.ResponseWriter, r *http.Request, ctx context.Context) {
	h.a.timeouts.serve(w, r, ctx, h.route)
}

func (h *handler) route(w http.ResponseWriter, r *http.Request) {
	p := r.URL.EscapedPath()
	if p == "" {
		p = "/"
	}
	if p != r.URL.Path || r.URL.RawPath != "" {
		u := *r.URL
		u.Path, u.RawPath = p, ""
		r2 := new(http.Request)
		*r2 = *r
		r2.URL = &u
		r = r2
	}
	h.router.ServeHTTP(w, r)
}

// handle turns a route into an httprouter.Handle: record the route (as
// routed does), authenticate, run the route's handler, write its result
// or its error. The request's access-log entry is looked up once.
func (a *adapter) handle(rt route) httprouter.Handle {
	metric := metricID(rt.method, rt.path)
	return func(w http.ResponseWriter, r *http.Request, ps httprouter.Params) {
		e := entryOf(r)
		if e != nil {
			e.route, e.metric = rt.path, metric
		}
		ctx, err := a.authenticate(r, rt.auth, e)
		if err != nil {
			a.fail(w, r, err)
			return
		}
		e.noteUser(ctx)
		// newRequest's record is zero: its fields are set one by one,
		// not by the copy of a whole record (reply and blk are large).
		rq := newRequest(e)
		rq.w, rq.r, rq.ctx, rq.params, rq.maxBody = w, r, ctx, ps, a.maxBody
		resp, err := rt.handler(a, rq)
		if err != nil {
			a.fail(w, r, err)
			return
		}
		a.respond(w, r, resp)
	}
}

// plainText is a handler result written as text/plain with its status.
type plainText struct {
	status int
	body   string
}

// binary is a handler result written as raw bytes with status 200, its
// Content-Type and extra response headers (GET /v2/packages/{package-id}
// answers application/octet-stream with Canton-Package-Hash). It is never
// wrapped as JSON.
type binary struct {
	contentType string
	header      http.Header
	body        []byte
}

// respond writes a handler's result: text for plainText, bytes for binary,
// a jsonReply's bytes, else JSON with status 200. A nil result or one that
// encodes as null becomes "{}": TypeScript clients reject a 2xx without a
// JSON body.
func (a *adapter) respond(w http.ResponseWriter, r *http.Request, resp any) {
	switch t := resp.(type) {
	case plainText:
		writeText(w, t.status, t.body)
		return
	case binary:
		writeBinary(w, t)
		return
	case *jsonReply:
		writeJSONBytes(w, http.StatusOK, t.body)
		return
	case jsonapi.Body:
		writeJSONBytes(w, http.StatusOK, append(t, '\n'))
		// Written: w holds no reference to the bytes (net/http copies
		// or sends them in Write), so a later page may reuse them.
		t.Release()
		return
	case jsonapi.SubmitAndWaitResponse:
		if body, ok := appendSubmitAndWait(make([]byte, 0, 128), t); ok {
			writeJSONBytes(w, http.StatusOK, body)
			return
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if resp == nil {
		resp = struct{}{}
	}
	if err := enc.Encode(resp); err != nil {
		a.fail(w, r, apierr.InternalError.Wrap(err, "encoding the response: %v", err))
		return
	}
	body := buf.Bytes()
	if bytes.Equal(bytes.TrimSpace(body), []byte("null")) {
		body = []byte("{}\n")
	}
	writeJSONBytes(w, http.StatusOK, body)
}

// writeJSON encodes v as the JSON body of a response with the status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only the adapter's own error shapes come here; they always encode.
		panic(fmt.Sprintf("httpadapter: encoding %T: %v", v, err))
	}
	writeJSONBytes(w, status, buf.Bytes())
}

func writeJSONBytes(w http.ResponseWriter, status int, body []byte) {
	if tw, ok := w.(*timeoutWriter); ok && len(tw.h) == 0 {
		tw.writeJSON(status, body)
		return
	}
	w.Header()["Content-Type"] = jsonContentType
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// jsonContentType is the Content-Type of every JSON answer, one slice
// for all: net/http copies a header's values when it writes them
// (Header.Clone), and Set and Add replace or grow the slice rather than
// write into it. It spares each answer Set's key canonicalization and
// slice.
var jsonContentType = []string{"application/json"}

// writeBinary writes a binary result with status 200.
func writeBinary(w http.ResponseWriter, b binary) {
	h := w.Header()
	for k, vs := range b.header {
		h[http.CanonicalHeaderKey(k)] = vs
	}
	h.Set("Content-Type", b.contentType)
	h.Set("Content-Length", strconv.Itoa(len(b.body)))
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b.body)
}

// writeText writes a text/plain response, as Canton does for /readyz and
// decode failures.
func writeText(w http.ResponseWriter, status int, body string) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=UTF-8")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

// legacyNotFound is the v1-shaped body Canton's JSON API answers for an
// unknown path (EndpointsCompanion.notFound).
type legacyNotFound struct {
	Errors         []string `json:"errors"`
	Status         int      `json:"status"`
	LedgerAPIError any      `json:"ledgerApiError"`
}

// notFound answers an unknown path: 404 with
// {"errors": ["GET, uri: http://host/path"], "status": 404, "ledgerApiError": null}.
func (a *adapter) notFound(w http.ResponseWriter, r *http.Request) {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	uri := r.RequestURI // the original request target, prefix included
	if uri == "" {
		uri = r.URL.RequestURI()
	}
	writeJSON(w, http.StatusNotFound, legacyNotFound{
		Errors: []string{fmt.Sprintf("%s, uri: %s://%s%s", r.Method, scheme, r.Host, uri)},
		Status: http.StatusNotFound,
	})
}

// methodNotAllowed answers a known path with a method it does not serve,
// as tapir's default reject handler does. httprouter always lists OPTIONS
// in the Allow header; the adapter does not serve it, so it is dropped.
func methodNotAllowed(w http.ResponseWriter, _ *http.Request) {
	if allow := w.Header().Get("Allow"); allow != "" {
		var kept []string
		for _, m := range strings.Split(allow, ",") {
			if m = strings.TrimSpace(m); m != http.MethodOptions {
				kept = append(kept, m)
			}
		}
		w.Header().Set("Allow", strings.Join(kept, ", "))
	}
	writeText(w, http.StatusMethodNotAllowed, "Method Not Allowed")
}

// panicked turns a handler panic into a (redacted, logged) internal error.
func (a *adapter) panicked(w http.ResponseWriter, r *http.Request, v any) {
	a.fail(w, r, apierr.InternalError.New("panic in %s %s: %v", r.Method, r.URL.Path, v))
}
