package httpadapter

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/registry"
)

var (
	registrySpecOnce   sync.Once
	registrySpecRouter routers.Router
)

// checkRegistryResponse validates a registry response against the
// package's own description of the registry API (testdata), which ships
// with the repository.
func checkRegistryResponse(t testing.TB, req *http.Request, rec *httptest.ResponseRecorder) {
	t.Helper()
	registrySpecOnce.Do(func() {
		doc, err := openapi3.NewLoader().LoadFromFile("testdata/registry-metadata-v1.yaml")
		if err != nil {
			t.Fatalf("loading the registry fixture: %v", err)
		}
		doc.Servers = openapi3.Servers{{URL: "/"}}
		if registrySpecRouter, err = gorillamux.NewRouter(doc); err != nil {
			t.Fatal(err)
		}
	})
	vreq := req.Clone(context.Background())
	route, params, err := registrySpecRouter.FindRoute(vreq)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	err = openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: vreq, PathParams: params, Route: route},
		Status:                 rec.Code, Header: rec.Header(), Body: io.NopCloser(bytes.NewReader(rec.Body.Bytes())),
		Options: &openapi3filter.Options{MultiError: true},
	})
	if err != nil {
		t.Errorf("%s %s: %d %s does not match the registry API: %v", req.Method, req.URL, rec.Code, rec.Body, err)
	}
}

const walletFile = `{
  "adminId": "registry::1220abcd",
  "supportedApis": {"splice-api-token-metadata-v1": 1},
  "instruments": [
    {"id": "Amulet", "name": "Amulet", "symbol": "AMT", "supportedApis": {"splice-api-token-metadata-v1": 1},
     "totalSupply": "1000000.0000000001", "totalSupplyAsOf": "2026-11-01T00:00:00Z"},
    {"id": "EURX", "name": "Euro X", "symbol": "EURX", "decimals": 2, "supportedApis": {},
     "paused": true, "pauseInfo": {"reason": "audit", "until": "2026-12-01T00:00:00Z"},
     "accountInputFieldsToShow": ["provider", "accountId"]},
    {"id": "GOLD", "name": "Gold", "symbol": "AU", "decimals": 4, "supportedApis": {}, "showAccountInputFields": false},
    {"id": "USDX", "name": "US Dollar X", "symbol": "USDX", "decimals": 2, "supportedApis": {}}
  ]
}`

func registryHarness(t *testing.T, opts Options) (*harness, registry.File) {
	t.Helper()
	h := newHarness(t, opts)
	f, err := registry.ParseFile([]byte(walletFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := h.node.PutInstruments(context.Background(), f); err != nil {
		t.Fatal(err)
	}
	return h, f
}

func (h *harness) registryGet(t *testing.T, target string, header map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, target, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.h.ServeHTTP(rec, req)
	checkRegistryResponse(t, req, rec)
	return rec
}

func decodeRegistry[T any](t *testing.T, rec *httptest.ResponseRecorder, status int) T {
	t.Helper()
	if rec.Code != status || rec.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("status %d %s, want %d application/json; body %s", rec.Code, rec.Header().Get("Content-Type"), status, rec.Body)
	}
	var v T
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestRegistryWallet reads the info, every instrument and all pages as a
// wallet does, with exact field values.
func TestRegistryWallet(t *testing.T) {
	t.Parallel()
	h, f := registryHarness(t, Options{Verifier: fakeVerifier{}})
	info := decodeRegistry[registry.Info](t, h.registryGet(t, "/registry/metadata/v1/info", nil), 200)
	if diff := cmp.Diff(f.Info, info); diff != "" {
		t.Errorf("info (-want +got):\n%s", diff)
	}
	for _, want := range f.Instruments {
		got := decodeRegistry[registry.Instrument](t, h.registryGet(t, "/registry/metadata/v1/instruments/"+want.ID, nil), 200)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("instrument %s (-want +got):\n%s", want.ID, diff)
		}
	}
	raw := h.registryGet(t, "/registry/metadata/v1/instruments/GOLD", nil).Body.String()
	if want := `{"id":"GOLD","name":"Gold","symbol":"AU","decimals":4,"supportedApis":{},"showAccountInputFields":false}` + "\n"; raw != want {
		t.Errorf("GOLD on the wire:\n got %s\nwant %s", raw, want)
	}
	var all []registry.Instrument
	target := "/registry/metadata/v1/instruments?pageSize=3"
	for pages := 0; ; pages++ {
		page := decodeRegistry[instrumentsPage](t, h.registryGet(t, target, nil), 200)
		all = append(all, page.Instruments...)
		if page.NextPageToken == "" {
			break
		}
		target = "/registry/metadata/v1/instruments?pageSize=3&pageToken=" + page.NextPageToken
	}
	if diff := cmp.Diff(f.Instruments, all); diff != "" {
		t.Errorf("paged instruments (-want +got):\n%s", diff)
	}
	def := decodeRegistry[instrumentsPage](t, h.registryGet(t, "/registry/metadata/v1/instruments", nil), 200)
	if len(def.Instruments) != 4 || def.NextPageToken != "" {
		t.Errorf("default page = %+v", def)
	}
}

func TestRegistryErrors(t *testing.T) {
	t.Parallel()
	h, _ := registryHarness(t, Options{Verifier: fakeVerifier{}})
	for _, tc := range []struct {
		target string
		status int
	}{
		{"/registry/metadata/v1/instruments/NOPE", 404},
		{"/registry/metadata/v1/instruments?pageSize=0", 400},
		{"/registry/metadata/v1/instruments?pageSize=-3", 400},
		{"/registry/metadata/v1/instruments?pageSize=101", 400},
		{"/registry/metadata/v1/instruments?pageSize=ten", 400},
		{"/registry/metadata/v1/instruments?pageToken=%25%25", 400},
	} {
		e := decodeRegistry[registryError](t, h.registryGet(t, tc.target, nil), tc.status)
		if e.Error == "" {
			t.Errorf("%s: empty error message", tc.target)
		}
	}
	empty := newHarness(t, Options{})
	decodeRegistry[registryError](t, empty.registryGet(t, "/registry/metadata/v1/info", nil), 404)
}

func TestRegistryAuthAndCORS(t *testing.T) {
	t.Parallel()
	h, _ := registryHarness(t, Options{Verifier: fakeVerifier{"admin-token": {UserID: "participant_admin"}},
		RegistryRequireAuth: true, CORSAllowedOrigins: []string{"https://wallet.example"}})
	decodeRegistry[registryError](t, h.registryGet(t, "/registry/metadata/v1/info", nil), 401)
	decodeRegistry[registryError](t, h.registryGet(t, "/registry/metadata/v1/info", bearer("bad-token")), 401)
	rec := h.registryGet(t, "/registry/metadata/v1/info", map[string]string{
		"Authorization": "Bearer admin-token", "Origin": "https://wallet.example"})
	decodeRegistry[registry.Info](t, rec, 200)
	if got := rec.Header().Get("Access-Control-Allow-Origin"); got != "https://wallet.example" {
		t.Errorf("Access-Control-Allow-Origin = %q", got)
	}
	rec = h.registryGet(t, "/registry/metadata/v1/instruments/USDX", map[string]string{
		"Authorization": "Bearer admin-token", "Origin": "https://evil.example"})
	if got := rec.Header().Get("Access-Control-Allow-Origin"); got != "" || rec.Code != 200 {
		t.Errorf("other origin: %d, Access-Control-Allow-Origin %q", rec.Code, got)
	}

	pre := httptest.NewRequest(http.MethodOptions, "/registry/metadata/v1/instruments", nil)
	pre.Header.Set("Origin", "https://wallet.example")
	pre.Header.Set("Access-Control-Request-Method", "GET")
	out := httptest.NewRecorder()
	h.h.ServeHTTP(out, pre)
	if out.Code != 200 || out.Header().Get("Access-Control-Allow-Methods") == "" || out.Header().Get("Access-Control-Allow-Origin") != "https://wallet.example" {
		t.Errorf("preflight: %d %v", out.Code, out.Header())
	}

	public, _ := registryHarness(t, Options{Verifier: fakeVerifier{}})
	decodeRegistry[registry.Info](t, public.registryGet(t, "/registry/metadata/v1/info", nil), 200)
}
