package httpadapter

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// fakeVerifier accepts the tokens it maps to claims and rejects every
// other one as UNAUTHENTICATED, as an identity.Verifier does.
type fakeVerifier map[string]identity.Claims

func (v fakeVerifier) Verify(_ context.Context, token string) (identity.Claims, error) {
	if c, ok := v[token]; ok {
		return c, nil
	}
	return identity.Claims{}, apierr.Unauthenticated.New("the test verifier does not know token %q", token)
}

// testVerifier knows an admin token and a token for a user the node does
// not have.
var testVerifier = fakeVerifier{
	"admin-token":   {UserID: identity.DefaultParticipantAdmin},
	"unknown-token": {UserID: "nobody"},
}

// syncBuffer is a log sink safe for concurrent writes.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// harness is a real in-memory node behind the adapter.
type harness struct {
	t    *testing.T
	node *ledger.Node
	h    http.Handler
	logs *syncBuffer
}

// newHarness opens an in-memory node and the adapter over it. The
// adapter's logs go to h.logs.
func newHarness(t *testing.T, opts Options) *harness {
	t.Helper()
	return newHarnessWith(t, ledger.Options{}, opts)
}

// newHarnessWith is newHarness over a node opened with lopts, always in
// memory and, unless lopts sets one, with a discarding Logger.
func newHarnessWith(t *testing.T, lopts ledger.Options, opts Options) *harness {
	t.Helper()
	lopts.InMemory = true
	if lopts.Logger == nil {
		lopts.Logger = slog.New(slog.DiscardHandler)
	}
	node, err := ledger.Open(lopts)
	if err != nil {
		t.Fatalf("ledger.Open: %v", err)
	}
	t.Cleanup(func() { _ = node.Close() })
	logs := &syncBuffer{}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(logs, nil))
	}
	return &harness{t: t, node: node, h: New(node, opts), logs: logs}
}

// httpCall is one HTTP request of a test.
type httpCall struct {
	method string
	target string // path and query, as sent on the wire
	body   string
	header map[string]string
	// chunked sends the body without a Content-Length.
	chunked bool
}

// do serves c and validates the response (checkResponse).
func (h *harness) do(c httpCall) *httptest.ResponseRecorder {
	h.t.Helper()
	return serve(h.t, h.h, c)
}

func serve(t testing.TB, handler http.Handler, c httpCall) *httptest.ResponseRecorder {
	t.Helper()
	var body io.Reader
	if c.body != "" {
		body = strings.NewReader(c.body)
		if c.chunked {
			body = io.MultiReader(body) // hides the length from NewRequest
		}
	}
	req := httptest.NewRequest(c.method, c.target, body)
	for k, v := range c.header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	handler.ServeHTTP(rec, req)
	checkResponse(t, req, rec)
	return rec
}

// auth returns the header of a bearer token.
func bearer(token string) map[string]string {
	return map[string]string{"Authorization": "Bearer " + token}
}

// decodeAs decodes a JSON response body, failing the test on a non-200.
func decodeAs[T any](t testing.TB, rec *httptest.ResponseRecorder) T {
	t.Helper()
	var v T
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d, want 200; body %s", rec.Code, rec.Body)
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatalf("decoding %s: %v", rec.Body, err)
	}
	return v
}

// decodeError decodes a JsCantonError body.
func decodeCantonError(t testing.TB, rec *httptest.ResponseRecorder) jsCantonError {
	t.Helper()
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type %q, want application/json; body %s", ct, rec.Body)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(rec.Body.Bytes(), &raw); err != nil {
		t.Fatalf("decoding %s: %v", rec.Body, err)
	}
	for _, k := range []string{"code", "cause", "correlationId", "traceId", "context", "resources",
		"errorCategory", "grpcCodeValue", "retryInfo", "definiteAnswer"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("JsCantonError %s lacks the key %q", rec.Body, k)
		}
	}
	if len(raw) != 10 {
		t.Errorf("JsCantonError %s has %d keys, want 10", rec.Body, len(raw))
	}
	var e jsCantonError
	if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil {
		t.Fatalf("decoding %s: %v", rec.Body, err)
	}
	return e
}

// wantText checks a text/plain response.
func wantText(t testing.TB, rec *httptest.ResponseRecorder, status int, prefix string) {
	t.Helper()
	if rec.Code != status {
		t.Errorf("status %d, want %d; body %s", rec.Code, status, rec.Body)
	}
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Errorf("Content-Type %q, want text/plain", ct)
	}
	if !strings.HasPrefix(rec.Body.String(), prefix) {
		t.Errorf("body %q, want prefix %q", rec.Body, prefix)
	}
}

// state is what a rejected request must leave unchanged.
type state struct {
	End     int64
	Parties jsonapi.ListPartiesResponse
}

func (h *harness) state() state {
	h.t.Helper()
	ctx := context.Background()
	end, err := h.node.LedgerEnd(ctx)
	if err != nil {
		h.t.Fatalf("LedgerEnd: %v", err)
	}
	parties, err := jsonapi.New(h.node).ListParties(ctx, ledger.ListPartiesRequest{})
	if err != nil {
		h.t.Fatalf("ListParties: %v", err)
	}
	return state{end, parties}
}

// allocate allocates a party through the adapter and returns its details.
func (h *harness) allocate(hint string, header map[string]string) jsonapi.PartyDetails {
	h.t.Helper()
	rec := h.do(httpCall{method: "POST", target: "/v2/parties", body: `{"partyIdHint":"` + hint + `"}`, header: header})
	return decodeAs[jsonapi.AllocatePartyResponse](h.t, rec).PartyDetails
}

// encodeURIComponent percent-encodes like JavaScript's encodeURIComponent
// for the characters of party ids (url.PathEscape keeps ':').
func encodeURIComponent(s string) string {
	return strings.NewReplacer(":", "%3A", " ", "%20", "/", "%2F", "!", "%21").Replace(s)
}

func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }
