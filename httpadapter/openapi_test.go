package httpadapter

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// openAPIPath is the official JSON Ledger API 3.5 document, relative to
// this package's directory (the shared reference tree sits beside the
// repository).
const openAPIPath = "../../shared/reference/openapi-3.5.yaml"

var (
	specOnce   sync.Once
	specDoc    *openapi3.T
	specRouter routers.Router
	specErr    error
)

// specMissing logs once per test binary that ../shared is absent.
var specMissing sync.Once

// loadSpec loads and routes the OpenAPI document once per test binary. It
// returns nil when ../shared is absent (a fresh clone): the adapter's tests
// still run, without the schema check.
func loadSpec(t testing.TB) routers.Router {
	t.Helper()
	if _, err := os.Stat(openAPIPath); err != nil {
		specMissing.Do(func() {
			fmt.Fprintf(os.Stderr, "../shared not found: responses are not validated against the OpenAPI document (%v)\n", err)
		})
		return nil
	}
	specOnce.Do(func() {
		loader := openapi3.NewLoader()
		doc, err := loader.LoadFromFile(openAPIPath)
		if err != nil {
			specErr = err
			return
		}
		// The document declares no servers; route relative paths.
		doc.Servers = openapi3.Servers{{URL: "/"}}
		specDoc = doc
		specRouter, specErr = gorillamux.NewRouter(doc)
	})
	if specErr != nil {
		t.Fatalf("loading %s: %v", openAPIPath, specErr)
	}
	return specRouter
}

// requireSpec skips a test that is about the OpenAPI document itself when
// ../shared is absent.
func requireSpec(t testing.TB) routers.Router {
	t.Helper()
	r := loadSpec(t)
	if r == nil {
		t.Skip("../shared not found: skipping a test of the OpenAPI validation itself")
	}
	return r
}

// checkResponse validates a response of the adapter against the official
// OpenAPI document, and checks the adapter's own wire rules:
//
//   - every 2xx has Content-Type application/json and a non-empty JSON body
//     (except GET /readyz, which is text/plain, and GET
//     /v2/packages/{package-id}, application/octet-stream bytes with a
//     Canton-Package-Hash header; the document's schema and required
//     header are checked for it too);
//   - JSON bodies (2xx and JsCantonError) validate against the operation's
//     response for the status, else its `default` (JsCantonError);
//   - 400 text/plain decode failures validate against the 400 response.
//
// Responses to requests the document does not describe (an unknown path,
// a known path with another method) are not schema-checked; their tests
// check their shape.
//
// Canton prints null for absent optional fields (and so does the adapter,
// e.g. JsCantonError's correlationId/traceId/retryInfo/definiteAnswer),
// but the document does not mark those fields nullable. Null-valued object
// keys are therefore stripped from JSON bodies before validation.
func checkResponse(t testing.TB, req *http.Request, rec *httptest.ResponseRecorder) {
	t.Helper()
	status := rec.Code
	body := rec.Body.Bytes()
	ct := rec.Header().Get("Content-Type")
	isJSON := strings.HasPrefix(ct, "application/json")

	switch {
	case status < 200 || status >= 300 || req.URL.Path == "/readyz":
	case isBinaryRoute(req):
		if ct != "application/octet-stream" {
			t.Errorf("%s %s: 2xx with Content-Type %q, want application/octet-stream", req.Method, req.URL, ct)
		}
		if len(body) == 0 || rec.Header().Get("Canton-Package-Hash") == "" {
			t.Errorf("%s %s: 2xx with %d bytes and Canton-Package-Hash %q, want a payload and its hash",
				req.Method, req.URL, len(body), rec.Header().Get("Canton-Package-Hash"))
		}
	default:
		if !isJSON {
			t.Errorf("%s %s: 2xx with Content-Type %q, want application/json", req.Method, req.URL, ct)
		}
		if len(bytes.TrimSpace(body)) == 0 || !json.Valid(body) {
			t.Errorf("%s %s: 2xx body %q is not a non-empty JSON value", req.Method, req.URL, body)
		}
	}

	router := loadSpec(t)
	if router == nil {
		return
	}
	vreq := req.Clone(context.Background())
	vreq.Body = http.NoBody
	route, pathParams, err := router.FindRoute(vreq)
	if errors.Is(err, routers.ErrPathNotFound) || errors.Is(err, routers.ErrMethodNotAllowed) {
		return
	}
	if err != nil {
		t.Fatalf("%s %s: finding the OpenAPI route: %v", req.Method, req.URL, err)
	}
	if req.URL.Path == "/readyz" && status == http.StatusServiceUnavailable {
		// Canton's not-ready answer is a 503 text/plain the document does
		// not list (Canton's http/json/JsHealthService.scala); its test checks the text.
		return
	}
	if isJSON {
		if !json.Valid(body) {
			t.Errorf("%s %s: %d application/json body %q is not JSON", req.Method, req.URL, status, body)
			return
		}
		body = stripNulls(t, body)
	}
	if isJSON && status >= 400 {
		// A JsCantonError. The document lists some error statuses (400)
		// with their text/plain decode-failure body only, although Canton
		// answers them with a JsCantonError too (V2Routes' error
		// handling): every
		// JSON error body is validated against the operation's `default`
		// response, the JsCantonError.
		validateErrorBody(t, req, route, body)
		return
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request:    vreq,
			PathParams: pathParams,
			Route:      route,
		},
		Status:  status,
		Header:  rec.Header(),
		Body:    io.NopCloser(bytes.NewReader(body)),
		Options: &openapi3filter.Options{MultiError: true},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		t.Errorf("%s %s: response %d %s does not match the OpenAPI document: %v", req.Method, req.URL, status, rec.Body.Bytes(), err)
	}
}

// isBinaryRoute reports whether req is GET /v2/packages/{package-id},
// whose 2xx answer is the package's bytes (application/octet-stream).
func isBinaryRoute(req *http.Request) bool {
	return req.Method == http.MethodGet && matchesPattern("/v2/packages/:package-id", req.URL.EscapedPath())
}

// stripNulls removes null-valued object keys, recursively (see
// checkResponse).
func stripNulls(t testing.TB, body []byte) []byte {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("JSON body %q: %v", body, err)
	}
	out, err := json.Marshal(dropNulls(v))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func dropNulls(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if e == nil {
				delete(x, k)
			} else {
				x[k] = dropNulls(e)
			}
		}
	case []any:
		for i, e := range x {
			x[i] = dropNulls(e)
		}
	}
	return v
}

// validateErrorBody validates a JSON error body against the schema of the
// operation's default response.
func validateErrorBody(t testing.TB, req *http.Request, route *routers.Route, body []byte) {
	t.Helper()
	def := route.Operation.Responses.Default()
	if def == nil || def.Value == nil {
		t.Fatalf("%s %s: the operation has no default response", req.Method, req.URL)
	}
	mt := def.Value.Content.Get("application/json")
	if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
		t.Fatalf("%s %s: the default response has no JSON schema", req.Method, req.URL)
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	if err := mt.Schema.Value.VisitJSON(v, openapi3.MultiErrors()); err != nil {
		t.Errorf("%s %s: error body %s does not match the default JsCantonError response: %v", req.Method, req.URL, body, err)
	}
}

// recordingTB records Errorf calls instead of failing the test.
type recordingTB struct {
	testing.TB
	errors []string
}

func (r *recordingTB) Helper() {}

func (r *recordingTB) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// TestRoutesAreInTheOpenAPIDocument checks that every row of the route
// table is an operation of the official document, and that the checker
// finds each route (so that validation is not silently skipped).
func TestRoutesAreInTheOpenAPIDocument(t *testing.T) {
	router := requireSpec(t)
	for _, rt := range routes {
		if strings.HasPrefix(rt.path, "/ledgernode/") {
			continue // ledgernode's own admin routes (time.go)
		}
		var segs []string
		for _, seg := range strings.Split(rt.path, "/") {
			if name, ok := strings.CutPrefix(seg, ":"); ok {
				seg = "{" + name + "}"
			}
			segs = append(segs, seg)
		}
		path := strings.Join(segs, "/")
		item := specDoc.Paths.Value(path)
		if item == nil || item.GetOperation(rt.method) == nil {
			t.Errorf("%s %s is not an operation of the OpenAPI document", rt.method, path)
			continue
		}
		target := strings.NewReplacer("{party}", "alice%3A%3A1220ab", "{user-id}", "alice", "{idp-id}", "idp1", "{package-id}", "00ff", "{update-id}", "1220ab", "{offset}", "3").Replace(path)
		if _, _, err := router.FindRoute(httptest.NewRequest(rt.method, target, nil)); err != nil {
			t.Errorf("%s %s: the checker does not find the route: %v", rt.method, target, err)
		}
	}
}

// TestCheckResponseRejects makes sure the checker does fail on responses
// that break the document.
func TestCheckResponseRejects(t *testing.T) {
	requireSpec(t)
	tests := []struct {
		name, method, target string
		status               int
		ct, body             string
	}{
		{"version lacks required fields", "GET", "/v2/version", 200, "application/json", `{}`},
		{"ledger end offset is a string", "GET", "/v2/state/ledger-end", 200, "application/json", `{"offset":"3"}`},
		{"2xx without a body", "GET", "/v2/state/ledger-end", 200, "application/json", ``},
		{"2xx as text", "GET", "/livez", 200, "text/plain", `ok`},
		{"error lacks code", "GET", "/v2/version", 404, "application/json", `{"cause":"x","context":{},"errorCategory":11}`},
		{"resources are not pairs", "GET", "/v2/version", 404, "application/json", `{"code":"X","cause":"x","context":{},"errorCategory":11,"resources":[["a"]]}`},
		{"context values are not strings", "GET", "/v2/version", 404, "application/json", `{"code":"X","cause":"x","context":{"category":11},"errorCategory":11}`},
		{"package without its hash header", "GET", "/v2/packages/00ff", 200, "application/octet-stream", "payload"},
		{"package as JSON", "GET", "/v2/packages/00ff", 200, "application/json", `{"payload":"x"}`},
		{"upload answer is not an object", "POST", "/v2/dars", 200, "application/json", `[]`},
	}
	for _, tt := range tests {
		rec := httptest.NewRecorder()
		rec.Header().Set("Content-Type", tt.ct)
		rec.WriteHeader(tt.status)
		rec.WriteString(tt.body)
		tb := &recordingTB{TB: t}
		checkResponse(tb, httptest.NewRequest(tt.method, tt.target, nil), rec)
		if len(tb.errors) == 0 {
			t.Errorf("%s: the checker accepted %d %s %q", tt.name, tt.status, tt.ct, tt.body)
		}
	}
}
