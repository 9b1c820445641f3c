package httpadapter

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

func TestHealth(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Verifier: testVerifier})
	tests := []struct {
		name   string
		call   httpCall
		status int
		ct     string
		body   string
	}{
		{"livez without a token", httpCall{method: "GET", target: "/livez"}, 200, "application/json", "{}\n"},
		{"livez with a token it does not verify", httpCall{method: "GET", target: "/livez", header: bearer("whatever")}, 200, "application/json", "{}\n"},
		{"livez with an empty bearer", httpCall{method: "GET", target: "/livez", header: map[string]string{"Authorization": "Bearer "}}, 400, "text/plain; charset=UTF-8",
			"Invalid value for: header Authorization (the Bearer token is empty)"},
		{"readyz", httpCall{method: "GET", target: "/readyz"}, 200, "text/plain; charset=UTF-8", "[+] ledger ok (SERVING)\nreadyz check passed\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := h.do(tt.call)
			got := []any{rec.Code, rec.Header().Get("Content-Type"), rec.Body.String()}
			if diff := cmp.Diff([]any{tt.status, tt.ct, tt.body}, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}

	t.Run("readyz after Close", func(t *testing.T) {
		if err := h.node.Close(); err != nil {
			t.Fatal(err)
		}
		rec := h.do(httpCall{method: "GET", target: "/readyz"})
		wantText(t, rec, http.StatusServiceUnavailable, "[-] ledger failed (")
		if !strings.HasSuffix(rec.Body.String(), ")\nreadyz check failed\n") {
			t.Errorf("body %q does not end with the failed check", rec.Body)
		}
		rec = h.do(httpCall{method: "GET", target: "/livez"})
		if rec.Code != 200 {
			t.Errorf("livez after Close: %d, want 200", rec.Code)
		}
	})
}

func TestVersionParticipantIDLedgerEnd(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{})
	v := decodeAs[jsonapi.VersionResponse](t, h.do(httpCall{method: "GET", target: "/v2/version"}))
	if v.Version == "" {
		t.Errorf("version is empty: %+v", v)
	}
	pid := decodeAs[jsonapi.ParticipantIDResponse](t, h.do(httpCall{method: "GET", target: "/v2/parties/participant-id"}))
	if diff := cmp.Diff(jsonapi.ParticipantIDResponse{ParticipantID: h.node.ParticipantIDString()}, pid); diff != "" {
		t.Errorf("participant id (-want +got):\n%s", diff)
	}
	end := decodeAs[jsonapi.LedgerEnd](t, h.do(httpCall{method: "GET", target: "/v2/state/ledger-end"}))
	if diff := cmp.Diff(jsonapi.LedgerEnd{Offset: h.state().End}, end); diff != "" {
		t.Errorf("ledger end (-want +got):\n%s", diff)
	}
}

func TestAllocateAndGetParties(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{})
	before := h.state().End
	alice := h.allocate("alice", nil)
	bob := h.allocate("bob", nil)
	if !strings.HasPrefix(alice.Party, "alice::") || !alice.IsLocal {
		t.Fatalf("allocated %+v", alice)
	}
	if got := h.state().End; got <= before {
		t.Errorf("ledger end %d after two allocations, want > %d", got, before)
	}

	tests := []struct {
		name   string
		target string
		want   []jsonapi.PartyDetails
	}{
		{"percent-encoded path", "/v2/parties/" + encodeURIComponent(alice.Party), []jsonapi.PartyDetails{alice}},
		{"raw path", "/v2/parties/" + alice.Party, []jsonapi.PartyDetails{alice}},
		{"path and repeated query", "/v2/parties/" + encodeURIComponent(alice.Party) + "?parties=" + encodeURIComponent(bob.Party) + "&identity-provider-id=",
			[]jsonapi.PartyDetails{alice, bob}},
		{"unknown party", "/v2/parties/" + encodeURIComponent("carol::1220"+strings.Repeat("ab", 32)), []jsonapi.PartyDetails{}},
		{"participant-id-like party", "/v2/parties/participant-idx", []jsonapi.PartyDetails{}},
	}
	sortParties := cmpopts.SortSlices(func(a, b jsonapi.PartyDetails) bool { return a.Party < b.Party })
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := decodeAs[jsonapi.GetPartiesResponse](t, h.do(httpCall{method: "GET", target: tt.target}))
			if diff := cmp.Diff(jsonapi.GetPartiesResponse{PartyDetails: tt.want}, got, sortParties, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	t.Run("unknown party prints an empty list", func(t *testing.T) {
		rec := h.do(httpCall{method: "GET", target: "/v2/parties/nobody"})
		if diff := cmp.Diff(`{"partyDetails":[]}`, strings.TrimSpace(rec.Body.String())); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
}

func TestGetPartiesDecodeFailures(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{})
	tests := []struct {
		name, target, prefix string
	}{
		{"bad path party", "/v2/parties/bad%21party", "Invalid value for: path parameter party ("},
		{"encoded slash in path party", "/v2/parties/a%2Fb", "Invalid value for: path parameter party ("},
		{"too long path party", "/v2/parties/" + strings.Repeat("a", 256), "Invalid value for: path parameter party ("},
		{"bad parties value", "/v2/parties/alice?parties=ok&parties=b%21d", "Invalid value for: query parameter parties ("},
		{"empty parties value", "/v2/parties/alice?parties=", "Invalid value for: query parameter parties ("},
		{"bad identity-provider-id", "/v2/parties/alice?identity-provider-id=a%25b", "Invalid value for: query parameter identity-provider-id ("},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantText(t, h.do(httpCall{method: "GET", target: tt.target}), http.StatusBadRequest, tt.prefix)
		})
	}
}

func TestListParties(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{})
	alice := h.allocate("alice", nil)
	bob := h.allocate("bob", nil)

	all := decodeAs[jsonapi.ListPartiesResponse](t, h.do(httpCall{method: "GET", target: "/v2/parties"}))
	var got []string
	for _, p := range all.PartyDetails {
		got = append(got, p.Party)
	}
	for _, want := range []string{alice.Party, bob.Party} {
		if !strings.Contains(strings.Join(got, ","), want) {
			t.Errorf("list %v lacks %s", got, want)
		}
	}

	page := decodeAs[jsonapi.ListPartiesResponse](t, h.do(httpCall{method: "GET", target: "/v2/parties?pageSize=1"}))
	if len(page.PartyDetails) != 1 || page.NextPageToken == "" {
		t.Fatalf("first page of 1: %+v", page)
	}
	next := decodeAs[jsonapi.ListPartiesResponse](t, h.do(httpCall{method: "GET",
		target: "/v2/parties?pageSize=1&pageToken=" + url.QueryEscape(page.NextPageToken)}))
	if len(next.PartyDetails) != 1 || next.PartyDetails[0].Party == page.PartyDetails[0].Party {
		t.Errorf("second page %+v repeats or misses after %+v", next, page)
	}

	filtered := decodeAs[jsonapi.ListPartiesResponse](t, h.do(httpCall{method: "GET", target: "/v2/parties?filter-party=bob"}))
	if diff := cmp.Diff(jsonapi.ListPartiesResponse{PartyDetails: []jsonapi.PartyDetails{bob}}, filtered); diff != "" {
		t.Errorf("filter-party (-want +got):\n%s", diff)
	}

	for _, q := range []string{"pageSize=abc", "pageSize=2147483648", "pageSize=1.5"} {
		rec := h.do(httpCall{method: "GET", target: "/v2/parties?" + q})
		wantText(t, rec, http.StatusBadRequest, "Invalid value for: query parameter pageSize (For input string: ")
	}
}

func TestBodyDecoding(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		body    string
		header  map[string]string
		chunked bool
		status  int
		prefix  string // for 400s
	}{
		{"no Content-Type", `{"partyIdHint":"p1"}`, nil, false, 200, ""},
		{"text/plain Content-Type", `{"partyIdHint":"p2"}`, map[string]string{"Content-Type": "text/plain"}, false, 200, ""},
		{"unknown fields ignored", `{"partyIdHint":"p3","shoeSize":44,"nested":{"a":[1]}}`, nil, false, 200, ""},
		{"all fields", `{"partyIdHint":"p4","localMetadata":{"resourceVersion":"","annotations":{"k":"v"}},"identityProviderId":"","synchronizerId":"","userId":""}`, nil, false, 200, ""},
		{"chunked", `{"partyIdHint":"p5"}`, nil, true, 200, ""},
		{"empty object", `{}`, nil, false, 200, ""},
		{"malformed", `{"partyIdHint":`, nil, false, 400, "Invalid value for: body (malformed JSON"},
		{"not JSON", `partyIdHint=x`, nil, false, 400, "Invalid value for: body (malformed JSON"},
		{"trailing garbage", `{"partyIdHint":"x"} {}`, nil, false, 400, "Invalid value for: body (malformed JSON"},
		{"wrong type", `{"partyIdHint":5}`, nil, false, 400, "Invalid value for: body (expected a string, got number at 'partyIdHint')"},
		{"wrong nested type", `{"localMetadata":{"annotations":{"k":1}}}`, nil, false, 400, "Invalid value for: body (expected a string, got number at 'localMetadata.annotations')"},
		{"array", `[]`, nil, false, 400, "Invalid value for: body (expected a JSON object, got an array)"},
		{"null", `null`, nil, false, 400, "Invalid value for: body (expected a JSON object, got null)"},
		{"empty body", ``, nil, false, 400, "Invalid value for: body (the body is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, Options{})
			before := h.state()
			rec := h.do(httpCall{method: "POST", target: "/v2/parties", body: tt.body, header: tt.header, chunked: tt.chunked})
			if tt.status == 200 {
				decodeAs[jsonapi.AllocatePartyResponse](t, rec)
				return
			}
			wantText(t, rec, tt.status, tt.prefix)
			if diff := cmp.Diff(before, h.state()); diff != "" {
				t.Errorf("a rejected request changed the state (-before +after):\n%s", diff)
			}
		})
	}
}

func TestBodyTooLarge(t *testing.T) {
	t.Parallel()
	for _, chunked := range []bool{false, true} {
		h := newHarness(t, Options{MaxBodyBytes: 64})
		before := h.state()
		body := `{"partyIdHint":"big","localMetadata":{"annotations":{"k":"` + strings.Repeat("v", 100) + `"}}}`
		rec := h.do(httpCall{method: "POST", target: "/v2/parties", body: body, chunked: chunked})
		if rec.Code != http.StatusRequestEntityTooLarge {
			t.Fatalf("chunked=%v: status %d, want 413; body %s", chunked, rec.Code, rec.Body)
		}
		e := decodeCantonError(t, rec)
		if e.Code != apierr.RequestTooLarge.Name || !strings.Contains(e.Cause, "64 bytes") {
			t.Errorf("chunked=%v: error %+v, want %s naming the 64-byte limit", chunked, e, apierr.RequestTooLarge.Name)
		}
		if diff := cmp.Diff(before, h.state()); diff != "" {
			t.Errorf("chunked=%v: a rejected request changed the state (-before +after):\n%s", chunked, diff)
		}
		// A body at the limit is accepted.
		ok := `{"partyIdHint":"small"}`
		ok += strings.Repeat(" ", 64-len(ok))
		decodeAs[jsonapi.AllocatePartyResponse](t, h.do(httpCall{method: "POST", target: "/v2/parties", body: ok, chunked: chunked}))
	}
	if New(nil, Options{Logger: discardLogger()}).(*handler).a.maxBody != 8<<20 {
		t.Errorf("default body limit is not 8 MiB")
	}
}

func TestUnknownPathAndWrongMethod(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Verifier: testVerifier})
	notFound := []struct{ method, target string }{
		{"GET", "/v2/nope?x=1"},
		{"POST", "/v2/nope"},
		{"GET", "/v2/version/"},    // no trailing-slash redirect
		{"GET", "/V2/VERSION"},     // no case-fixing redirect
		{"GET", "/v2/parties/a/b"}, // no such path
		{"GET", "/"},
	}
	for _, tt := range notFound {
		rec := h.do(httpCall{method: tt.method, target: tt.target})
		if rec.Code != http.StatusNotFound || rec.Header().Get("Content-Type") != "application/json" {
			t.Errorf("%s %s: %d %q, want a 404 JSON", tt.method, tt.target, rec.Code, rec.Header().Get("Content-Type"))
		}
		want := `{"errors":["` + tt.method + `, uri: http://example.com` + tt.target + `"],"status":404,"ledgerApiError":null}`
		if diff := cmp.Diff(want, strings.TrimSpace(rec.Body.String())); diff != "" {
			t.Errorf("%s %s (-want +got):\n%s", tt.method, tt.target, diff)
		}
	}

	wrongMethod := []struct{ method, target, allow string }{
		{"DELETE", "/v2/version", "GET"},
		{"POST", "/livez", "GET"},
		{"PUT", "/v2/parties", "GET, POST"},
		// PATCH /v2/parties/{party} matches the path too.
		{"POST", "/v2/parties/participant-id", "GET, PATCH"},
		{"PUT", "/v2/users", "GET, POST"},
		{"PUT", "/v2/users/alice", "DELETE, GET, PATCH"},
		{"DELETE", "/v2/users/alice/rights", "GET, PATCH, POST"},
		{"GET", "/v2/users/alice/identity-provider-id", "PATCH"},
		{"POST", "/v2/authenticated-user", "GET"},
		{"DELETE", "/v2/idps", "GET, POST"},
		{"POST", "/v2/idps/idp1", "DELETE, GET, PATCH"},
		{"OPTIONS", "/v2/parties", "GET, POST"},
	}
	for _, tt := range wrongMethod {
		rec := h.do(httpCall{method: tt.method, target: tt.target})
		wantText(t, rec, http.StatusMethodNotAllowed, "Method Not Allowed")
		if got := rec.Header().Get("Allow"); got != tt.allow {
			t.Errorf("%s %s: Allow %q, want %q", tt.method, tt.target, got, tt.allow)
		}
	}
}

func TestTokens(t *testing.T) {
	t.Parallel()
	const target = "/v2/state/ledger-end"
	tests := []struct {
		name   string
		header map[string]string
		status int
		// for 400s: the text prefix; for JsCantonErrors: the context
		prefix  string
		context map[string]string
	}{
		{"no token", nil, 401, "", map[string]string{}},
		{"empty bearer", map[string]string{"Authorization": "Bearer "}, 400, "Invalid value for: header Authorization (", nil},
		{"empty Authorization", map[string]string{"Authorization": ""}, 400, "Invalid value for: header Authorization (", nil},
		{"basic scheme", map[string]string{"Authorization": "Basic YTpi"}, 400, "Invalid value for: header Authorization (", nil},
		{"bearer valid", bearer("admin-token"), 200, "", nil},
		{"bearer lower-case scheme", map[string]string{"Authorization": "bearer admin-token"}, 200, "", nil},
		{"bearer invalid", bearer("forged"), 401, "", map[string]string{}},
		{"websocket protocol valid", map[string]string{"Sec-WebSocket-Protocol": "jwt.token.admin-token, daml.ws.auth"}, 200, "", nil},
		{"websocket protocol token second", map[string]string{"Sec-WebSocket-Protocol": "daml.ws.auth,jwt.token.admin-token"}, 200, "", nil},
		{"websocket protocol without token", map[string]string{"Sec-WebSocket-Protocol": "daml.ws.auth"}, 401, "", map[string]string{}},
		{"websocket protocol invalid", map[string]string{"Sec-WebSocket-Protocol": "jwt.token.forged, daml.ws.auth"}, 401, "", map[string]string{}},
		{"both, bearer valid", map[string]string{"Authorization": "Bearer admin-token", "Sec-WebSocket-Protocol": "jwt.token.forged, daml.ws.auth"}, 200, "", nil},
		{"both, bearer invalid", map[string]string{"Authorization": "Bearer forged", "Sec-WebSocket-Protocol": "jwt.token.admin-token, daml.ws.auth"}, 401, "", map[string]string{}},
		{"unknown user", bearer("unknown-token"), 403, "", map[string]string{"ledger_api_error": "invalid token"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, Options{Verifier: testVerifier})
			rec := h.do(httpCall{method: "GET", target: target, header: tt.header})
			switch {
			case tt.status == 200:
				decodeAs[jsonapi.LedgerEnd](t, rec)
			case tt.status == 400:
				wantText(t, rec, 400, tt.prefix)
			default:
				if rec.Code != tt.status {
					t.Fatalf("status %d, want %d; body %s", rec.Code, tt.status, rec.Body)
				}
				e := decodeCantonError(t, rec)
				grpc := map[int]int{401: 16, 403: 7}[tt.status]
				want := jsCantonError{Code: "NA", Cause: redactedCause, Context: tt.context, Resources: [][2]string{},
					ErrorCategory: -1, GRPCCodeValue: &grpc}
				if diff := cmp.Diff(want, e, cmpopts.IgnoreFields(jsCantonError{}, "CorrelationID")); diff != "" {
					t.Errorf("(-want +got):\n%s", diff)
				}
				if e.CorrelationID == nil || *e.CorrelationID == "" || !strings.Contains(h.logs.String(), *e.CorrelationID) {
					t.Errorf("correlation id %v is not in the logs:\n%s", e.CorrelationID, h.logs)
				}
			}
		})
	}
}

// TestPrincipalReachesTheNode checks that the authenticated principal is
// what the node authorizes: an admin token and auth mode none may
// allocate, the same request without a token may not.
func TestPrincipalReachesTheNode(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Verifier: testVerifier})
	h.allocate("viatoken", bearer("admin-token"))
	h.allocate("viawebsocketprotocol", map[string]string{"Sec-WebSocket-Protocol": "jwt.token.admin-token,daml.ws.auth"})

	none := newHarness(t, Options{})
	if !strings.Contains(none.logs.String(), "auth mode none") {
		t.Errorf("no warning about auth mode none in the logs:\n%s", none.logs)
	}
	none.allocate("nonemode", nil)
	// In auth mode none a token is ignored, however bogus.
	none.allocate("nonemodewithtoken", bearer("forged"))
}

func TestRejectedRequestsLeaveNoTrace(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Verifier: testVerifier, MaxBodyBytes: 1024})
	h.allocate("existing", bearer("admin-token"))
	before := h.state()
	valid := `{"partyIdHint":"newparty"}`
	rejected := []httpCall{
		{method: "POST", target: "/v2/parties", body: valid},                                                                                 // 401
		{method: "POST", target: "/v2/parties", body: valid, header: bearer("forged")},                                                       // 401
		{method: "POST", target: "/v2/parties", body: valid, header: bearer("unknown-token")},                                                // 403
		{method: "POST", target: "/v2/parties", body: valid, header: map[string]string{"Authorization": "Bearer "}},                          // 400
		{method: "POST", target: "/v2/parties", body: `{"partyIdHint":`, header: bearer("admin-token")},                                      // 400
		{method: "POST", target: "/v2/parties", body: `{"partyIdHint":"x` + strings.Repeat("y", 2000) + `"}`, header: bearer("admin-token")}, // 413
		{method: "POST", target: "/v2/parties", body: `{"partyIdHint":"existing"}`, header: bearer("admin-token")},                           // node rejects
		{method: "POST", target: "/v2/parties", body: `{"partyIdHint":"bad!hint"}`, header: bearer("admin-token")},                           // node rejects
		{method: "PUT", target: "/v2/parties", body: valid, header: bearer("admin-token")},                                                   // 405
		{method: "POST", target: "/v2/partiesx", body: valid, header: bearer("admin-token")},                                                 // 404
	}
	for _, c := range rejected {
		rec := h.do(c)
		if rec.Code < 400 {
			t.Errorf("%s %s %v: %d, want a rejection", c.method, c.target, c.header, rec.Code)
		}
	}
	if diff := cmp.Diff(before, h.state()); diff != "" {
		t.Errorf("rejected requests changed the state (-before +after):\n%s", diff)
	}
}

// TestEvery2xxHasAJSONBody calls every route successfully; checkResponse
// asserts the non-empty JSON body of each (for GET
// /v2/packages/{package-id}: the octet-stream payload and its hash header).
func TestEvery2xxHasAJSONBody(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Verifier: testVerifier})
	auth := bearer("admin-token")
	p := h.allocate("someone", auth)
	dar, ids := lftest.DAR(lftest.TemplatePackage("app", "1.0.0", nil, owner))
	vet := `{"changes":[{"operation":{"Vet":{"value":{"packages":[{"packageId":"` + ids[0] + `"}]}}}}]}`
	for _, c := range []httpCall{
		{method: "GET", target: "/livez"},
		{method: "GET", target: "/v2/version", header: auth},
		{method: "GET", target: "/v2/parties/participant-id", header: auth},
		{method: "POST", target: "/v2/parties", body: `{}`, header: auth},
		{method: "GET", target: "/v2/parties", header: auth},
		{method: "GET", target: "/v2/parties/" + encodeURIComponent(p.Party), header: auth},
		{method: "GET", target: "/v2/state/ledger-end", header: auth},
		{method: "PATCH", target: "/v2/parties/" + encodeURIComponent(p.Party), header: auth,
			body: `{"partyDetails":{"party":"` + p.Party + `","localMetadata":{"annotations":{"k":"v"}}},"updateMask":{"paths":["local_metadata.annotations"]}}`},

		{method: "POST", target: "/v2/idps", header: auth,
			body: `{"identityProviderConfig":{"identityProviderId":"idp1","issuer":"https://idp1.example","jwksUrl":"https://idp1.example/jwks"}}`},
		{method: "GET", target: "/v2/idps", header: auth},
		{method: "GET", target: "/v2/idps/idp1", header: auth},
		{method: "PATCH", target: "/v2/idps/idp1", header: auth,
			body: `{"identityProviderConfig":{"identityProviderId":"idp1","issuer":"","jwksUrl":"","audience":"a"},"updateMask":{"paths":["audience"]}}`},

		{method: "POST", target: "/v2/users", body: `{"user":{"id":"u1"},"rights":[{"kind":{"CanActAs":{"value":{"party":"` + p.Party + `"}}}}]}`, header: auth},
		{method: "GET", target: "/v2/users", header: auth},
		{method: "GET", target: "/v2/users/u1", header: auth},
		{method: "PATCH", target: "/v2/users/u1", body: `{"user":{"id":"u1","primaryParty":"` + p.Party + `"},"updateMask":{"paths":["primary_party"]}}`, header: auth},
		{method: "GET", target: "/v2/users/u1/rights", header: auth},
		{method: "POST", target: "/v2/users/u1/rights", body: `{"userId":"u1","rights":[{"kind":{"ParticipantAdmin":{"value":{}}}}]}`, header: auth},
		{method: "PATCH", target: "/v2/users/u1/rights", body: `{"userId":"u1","rights":[{"kind":{"ParticipantAdmin":{"value":{}}}}]}`, header: auth},
		{method: "PATCH", target: "/v2/users/u1/identity-provider-id", body: `{"userId":"u1","sourceIdentityProviderId":"","targetIdentityProviderId":"idp1"}`, header: auth},
		{method: "PATCH", target: "/v2/users/u1/identity-provider-id", body: `{"userId":"u1","sourceIdentityProviderId":"idp1"}`, header: auth},
		{method: "GET", target: "/v2/authenticated-user", header: auth},
		{method: "DELETE", target: "/v2/users/u1", header: auth},
		{method: "DELETE", target: "/v2/idps/idp1", header: auth},

		{method: "POST", target: "/v2/dars/validate", body: string(dar), header: auth},
		{method: "POST", target: "/v2/dars?vetAllPackages=false", body: string(dar), header: auth},
		{method: "POST", target: "/v2/packages", body: string(dar), header: auth},
		{method: "GET", target: "/v2/packages", header: auth},
		{method: "GET", target: "/v2/packages/" + ids[0], header: auth},
		{method: "GET", target: "/v2/packages/" + ids[0] + "/status", header: auth},
		{method: "POST", target: "/v2/package-vetting", body: vet, header: auth},
		{method: "POST", target: "/v2/package-vetting/update", body: vet, header: auth},
		{method: "POST", target: "/v2/package-vetting/list", body: `{}`, header: auth},
		{method: "GET", target: "/v2/package-vetting", body: `{}`, header: auth},
	} {
		if rec := h.do(c); rec.Code != http.StatusOK {
			t.Errorf("%s %s: %d %s", c.method, c.target, rec.Code, rec.Body)
		}
	}
	exerciseLedgerRoutes(t, auth)
	// Every route in the table is exercised above and in
	// exerciseLedgerRoutes (plus /readyz, text); the six interactive routes
	// (external parties, prepare, execute*) answer 2xx in
	// interactive_test.go, and the two completions lists in
	// completions_test.go, and the six routes of issue 13 item 6
	// (latest-pruned-offsets, transaction-by-id|offset, contract-by-id,
	// preferred-package-version, preferred-packages) in newops_test.go,
	// through checkResponse as well; the two ledgernode time routes (not in
	// the OpenAPI document) answer 2xx in ledgertest's
	// TestStaticTimeOverHTTP.
	if len(routes) != 69 {
		t.Errorf("the route table has %d routes; extend this test", len(routes))
	}
}

func TestNodeErrorsAfterClose(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{})
	_ = h.node.Close()
	rec := h.do(httpCall{method: "GET", target: "/v2/state/ledger-end"})
	if rec.Code != http.StatusServiceUnavailable {
		t.Fatalf("status %d, want 503; body %s", rec.Code, rec.Body)
	}
	e := decodeCantonError(t, rec)
	if e.Code != apierr.ServiceNotRunning.Name || e.RetryInfo == nil || *e.RetryInfo != "1 second" {
		t.Errorf("error %+v, want SERVICE_NOT_RUNNING with retryInfo \"1 second\"", e)
	}
}

func TestRedaction(t *testing.T) {
	securityAlert := apierr.Code{Name: "PACKAGE_VALIDATION_FAILED", Category: apierr.SecurityAlert}
	traceparent := "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	traceID := "4bf92f3577b34da6a3ce929d0e0e4736"
	ptr := func(s string) *string { return &s }
	iptr := func(i int) *int { return &i }
	bptr := func(b bool) *bool { return &b }

	tests := []struct {
		name   string
		err    error
		trace  bool
		status int
		want   jsCantonError // CorrelationID of redacted errors is checked apart
	}{
		{"internal (4)", apierr.InternalError.New("boom with secrets").WithContext("k", "v").WithResource("USER", "bob"), false, 500,
			jsCantonError{Code: "NA", Cause: redactedCause, Context: map[string]string{}, Resources: [][2]string{}, ErrorCategory: -1, GRPCCodeValue: iptr(13)}},
		{"plain Go error (4)", errors.New("disk on fire"), false, 500,
			jsCantonError{Code: "NA", Cause: redactedCause, Context: map[string]string{}, Resources: [][2]string{}, ErrorCategory: -1, GRPCCodeValue: iptr(13)}},
		{"security alert (5)", securityAlert.New("bad package"), true, 400,
			jsCantonError{Code: "NA", Cause: redactedCause, TraceID: &traceID, Context: map[string]string{}, Resources: [][2]string{}, ErrorCategory: -1, GRPCCodeValue: iptr(3)}},
		{"unauthenticated (6)", apierr.Unauthenticated.New("expired"), false, 401,
			jsCantonError{Code: "NA", Cause: redactedCause, Context: map[string]string{}, Resources: [][2]string{}, ErrorCategory: -1, GRPCCodeValue: iptr(16)}},
		{"permission denied (7)", apierr.PermissionDenied.New("not an admin").WithContext("ledger_api_error", "invalid token"), false, 403,
			jsCantonError{Code: "NA", Cause: redactedCause, Context: map[string]string{}, Resources: [][2]string{}, ErrorCategory: -1, GRPCCodeValue: iptr(7)}},
		{"permission denied from token resolution (7)", &tokenResolutionError{apierr.PermissionDenied.New("no such user")}, false, 403,
			jsCantonError{Code: "NA", Cause: redactedCause, Context: map[string]string{"ledger_api_error": "invalid token"}, Resources: [][2]string{}, ErrorCategory: -1, GRPCCodeValue: iptr(7)}},
		{"unsupported (14)", apierr.Unimplemented.New("later"), false, 501,
			jsCantonError{Code: "NA", Cause: redactedCause, Context: map[string]string{}, Resources: [][2]string{}, ErrorCategory: -1, GRPCCodeValue: iptr(12)}},

		{"invalid argument (8)", apierr.InvalidArgument.New("bad thing").WithContext("field", "x").WithDefiniteAnswer(false), true, 400,
			jsCantonError{Code: "INVALID_ARGUMENT", Cause: "The submitted request has invalid arguments: bad thing", TraceID: &traceID,
				Context: map[string]string{"field": "x", "category": "8", "definite_answer": "false"}, Resources: [][2]string{},
				ErrorCategory: 8, GRPCCodeValue: iptr(3), DefiniteAnswer: bptr(false)}},
		{"not found (11)", func() error {
			e := apierr.UserNotFound.New("getting user bob failed: no such user").WithResource("USER", "bob")
			e.CorrelationID = "sub-1"
			return e
		}(), false, 404,
			jsCantonError{Code: "USER_NOT_FOUND", Cause: "getting user bob failed: no such user", CorrelationID: ptr("sub-1"),
				Context: map[string]string{"category": "11"}, Resources: [][2]string{{"USER", "bob"}}, ErrorCategory: 11, GRPCCodeValue: iptr(5)}},
		{"contention (2) retries", apierr.ConcurrentUserUpdate.New("stale"), false, 409,
			jsCantonError{Code: "CONCURRENT_USER_UPDATE_DETECTED", Cause: "stale", Context: map[string]string{"category": "2"}, Resources: [][2]string{},
				ErrorCategory: 2, GRPCCodeValue: iptr(10), RetryInfo: ptr("1 second")}},
		{"list limit (2) forced 413", apierr.MaximumListElementsReached.New("The number of matching elements (201) is greater than the node limit (200)."), false, 413,
			jsCantonError{Code: "JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED", Cause: "The number of matching elements (201) is greater than the node limit (200).",
				Context: map[string]string{"category": "2"}, Resources: [][2]string{}, ErrorCategory: 2, GRPCCodeValue: iptr(10), RetryInfo: ptr("1 second")}},
		{"seek after end (12)", apierr.OffsetAfterLedgerEnd.New("offset 9 is after the ledger end 3"), false, 400,
			jsCantonError{Code: "OFFSET_AFTER_LEDGER_END", Cause: "offset 9 is after the ledger end 3", Context: map[string]string{"category": "12"}, Resources: [][2]string{},
				ErrorCategory: 12, GRPCCodeValue: iptr(11), RetryInfo: ptr("1 second")}},
		{"wrapped error keeps its code", errorsJoin(apierr.PartyNotFound.New("p")), false, 404,
			jsCantonError{Code: "PARTY_NOT_FOUND", Cause: "p", Context: map[string]string{"category": "11"}, Resources: [][2]string{}, ErrorCategory: 11, GRPCCodeValue: iptr(5)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			logs := &syncBuffer{}
			a := New(nil, Options{Logger: slog.New(slog.NewTextHandler(logs, nil))}).(*handler).a
			req := httptest.NewRequest("GET", "/v2/version", nil)
			if tt.trace {
				req.Header.Set("traceparent", traceparent)
			}
			rec := httptest.NewRecorder()
			a.fail(rec, req, tt.err)
			checkResponse(t, req, rec)
			if rec.Code != tt.status {
				t.Errorf("status %d, want %d", rec.Code, tt.status)
			}
			got := decodeCantonError(t, rec)
			redacted := tt.want.Code == "NA"
			opts := cmp.Options{}
			if redacted {
				opts = append(opts, cmpopts.IgnoreFields(jsCantonError{}, "CorrelationID"))
			}
			if diff := cmp.Diff(tt.want, got, opts); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if redacted {
				e := apierr.From(tt.err)
				if got.CorrelationID == nil || *got.CorrelationID == "" {
					t.Fatalf("redacted error without a correlation id")
				}
				log := logs.String()
				for _, s := range []string{*got.CorrelationID, e.Code.Name, e.Cause, "level=WARN"} {
					if !strings.Contains(log, s) {
						t.Errorf("the log lacks %q:\n%s", s, log)
					}
				}
				// A fresh id per error.
				rec2 := httptest.NewRecorder()
				a.fail(rec2, req, tt.err)
				if again := decodeCantonError(t, rec2); *again.CorrelationID == *got.CorrelationID {
					t.Errorf("the correlation id %s was reused", *got.CorrelationID)
				}
			}
		})
	}
}

// errorsJoin wraps err the way callers of the node might.
func errorsJoin(err error) error { return errors.Join(errors.New("context"), err) }

func TestRouteTable(t *testing.T) {
	for _, rt := range routes {
		if !strings.HasPrefix(rt.path, "/") || rt.handler == nil {
			t.Errorf("bad route %+v", rt)
		}
	}
	tests := []struct {
		pattern, path string
		want          bool
	}{
		{"/v2/parties/:party", "/v2/parties/participant-id", true},
		{"/v2/parties/:party", "/v2/parties", false},
		{"/v2/parties/:party", "/v2/parties/", false},
		{"/v2/users/:user-id/rights", "/v2/users/me/rights", true},
		{"/v2/users/:user-id/rights", "/v2/users/me", false},
		{"/v2/idps/:idp-id", "/v2/users/x", false},
	}
	for _, tt := range tests {
		if got := matchesPattern(tt.pattern, tt.path); got != tt.want {
			t.Errorf("matchesPattern(%q, %q) = %v, want %v", tt.pattern, tt.path, got, tt.want)
		}
	}
}

func TestScalaDuration(t *testing.T) {
	for d, want := range map[string]string{"1s": "1 second", "2s": "2 seconds", "1m": "1 minute", "90s": "90 seconds",
		"500ms": "500 milliseconds", "1ms": "1 millisecond", "1500us": "1500 microseconds", "3ns": "3 nanoseconds"} {
		dur, _ := time.ParseDuration(d)
		if got := scalaDuration(dur); got != want {
			t.Errorf("scalaDuration(%s) = %q, want %q", d, got, want)
		}
	}
}

func TestTraceIDFrom(t *testing.T) {
	tests := []struct {
		header string
		want   string // "" = null
	}{
		{"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "4bf92f3577b34da6a3ce929d0e0e4736"},
		{" 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00 ", "4bf92f3577b34da6a3ce929d0e0e4736"},
		{"01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-future", "4bf92f3577b34da6a3ce929d0e0e4736"},
		{"", ""},
		{"00-00000000000000000000000000000000-00f067aa0ba902b7-01", ""},
		{"00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", ""},
		{"00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", ""},
		{"ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", ""},
		{"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra", ""},
		{"00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01", ""},
		{"garbage", ""},
	}
	for _, tt := range tests {
		req := httptest.NewRequest("GET", "/", nil)
		if tt.header != "" {
			req.Header.Set("traceparent", tt.header)
		}
		if got := deref(traceIDFrom(req)); got != tt.want {
			t.Errorf("traceIDFrom(%q) = %q, want %q", tt.header, got, tt.want)
		}
	}
}

func TestQueryHelpers(t *testing.T) {
	rq := &request{r: httptest.NewRequest("GET", "/x?a=5&b=-9223372036854775808&c=x&t=true&f=false&z=yes&a=6", nil)}
	if v, err := rq.queryInt64("b"); err != nil || v != -9223372036854775808 {
		t.Errorf("queryInt64(b) = %d, %v", v, err)
	}
	if v, err := rq.queryInt32("a"); err != nil || v != 5 {
		t.Errorf("queryInt32(a) = %d, %v (the first value counts)", v, err)
	}
	if v, err := rq.queryInt64("missing"); err != nil || v != 0 {
		t.Errorf("queryInt64(missing) = %d, %v", v, err)
	}
	if _, err := rq.queryInt64("c"); err == nil || err.Error() != `Invalid value for: query parameter c (For input string: "x")` {
		t.Errorf("queryInt64(c) error = %v", err)
	}
	for name, want := range map[string]bool{"t": true, "f": false, "missing": true} {
		if v, err := rq.queryBool(name, true); err != nil || v != want {
			t.Errorf("queryBool(%s) = %v, %v", name, v, err)
		}
	}
	if _, err := rq.queryBool("z", false); err == nil {
		t.Errorf("queryBool(z) accepted %q", "yes")
	}
}

func TestTokenFrom(t *testing.T) {
	tests := []struct {
		name    string
		header  http.Header
		token   string
		present bool
		bad     bool
	}{
		{"none", http.Header{}, "", false, false},
		{"bearer", http.Header{"Authorization": {"Bearer abc"}}, "abc", true, false},
		{"ws", http.Header{"Sec-Websocket-Protocol": {"daml.ws.auth", "jwt.token.abc"}}, "abc", true, false},
		{"ws empty token", http.Header{"Sec-Websocket-Protocol": {"jwt.token., daml.ws.auth"}}, "", false, false},
		{"ws first token wins", http.Header{"Sec-Websocket-Protocol": {"jwt.token.a, jwt.token.b"}}, "a", true, false},
		{"bearer wins", http.Header{"Authorization": {"Bearer a"}, "Sec-Websocket-Protocol": {"jwt.token.b"}}, "a", true, false},
		{"empty bearer", http.Header{"Authorization": {"Bearer"}}, "", false, true},
		{"other scheme", http.Header{"Authorization": {"Token abc"}}, "", false, true},
	}
	for _, tt := range tests {
		token, present, err := tokenFrom(tt.header)
		if token != tt.token || present != tt.present || (err != nil) != tt.bad {
			t.Errorf("%s: tokenFrom = %q, %v, %v; want %q, %v, bad=%v", tt.name, token, present, err, tt.token, tt.present, tt.bad)
		}
	}
}

// TestRoutingMachinery runs the router over a synthetic table: static
// routes under a parameter (in both orders), a deeper parameterised
// route, percent-decoding, and panic recovery.
func TestRoutingMachinery(t *testing.T) {
	echo := func(name string) handlerFunc {
		return func(_ *adapter, rq *request) (any, error) {
			out := map[string]string{"route": name}
			for _, p := range rq.params {
				v, err := rq.pathParam(p.Key)
				if err != nil {
					return nil, err
				}
				out[p.Key] = v
			}
			return out, nil
		}
	}
	table := []route{
		{"GET", "/x/:id", authOptional, echo("id")},
		{"GET", "/x/me", authOptional, echo("me")},
		{"GET", "/x/self", authOptional, echo("self")},
		{"GET", "/x/:id/rights", authOptional, echo("rights")},
		{"POST", "/x/new", authOptional, echo("new")},
		{"GET", "/boom", authOptional, func(*adapter, *request) (any, error) { panic("kaboom") }},
	}
	logs := &syncBuffer{}
	a := New(nil, Options{Logger: slog.New(slog.NewTextHandler(logs, nil))}).(*handler).a
	h := &handler{a: a, router: a.router(table)}
	tests := []struct {
		method, target string
		status         int
		want           map[string]string
	}{
		{"GET", "/x/me", 200, map[string]string{"route": "me"}},
		{"GET", "/x/self", 200, map[string]string{"route": "self"}},
		{"GET", "/x/m%65", 200, map[string]string{"route": "me"}},
		{"GET", "/x/mee", 200, map[string]string{"route": "id", "id": "mee"}},
		{"GET", "/x/a%3A%3Ab%2Fc", 200, map[string]string{"route": "id", "id": "a::b/c"}},
		{"GET", "/x/me/rights", 200, map[string]string{"route": "rights", "id": "me"}},
		{"GET", "/x/a%2Fb/rights", 200, map[string]string{"route": "rights", "id": "a/b"}},
		{"POST", "/x/new", 200, map[string]string{"route": "new"}},
		{"POST", "/x/me", 405, nil},
		{"GET", "/x", 404, nil},
	}
	for _, tt := range tests {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(tt.method, tt.target, nil))
		if rec.Code != tt.status {
			t.Errorf("%s %s: %d, want %d; %s", tt.method, tt.target, rec.Code, tt.status, rec.Body)
			continue
		}
		if tt.want != nil {
			got := decodeAs[map[string]string](t, rec)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("%s %s (-want +got):\n%s", tt.method, tt.target, diff)
			}
		}
	}

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/boom", nil))
	if rec.Code != 500 {
		t.Fatalf("panic: %d, want 500", rec.Code)
	}
	if e := decodeCantonError(t, rec); e.Code != "NA" || !strings.Contains(logs.String(), "kaboom") {
		t.Errorf("panic: %+v, logs %s", e, logs)
	}
}

func TestMountedUnderPrefix(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{})
	alice := h.allocate("alice", nil)
	mux := http.NewServeMux()
	mux.Handle("/ledger/", http.StripPrefix("/ledger", h.h))

	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("GET", "/ledger/v2/parties/"+encodeURIComponent(alice.Party), nil))
	got := decodeAs[jsonapi.GetPartiesResponse](t, rec)
	if diff := cmp.Diff(jsonapi.GetPartiesResponse{PartyDetails: []jsonapi.PartyDetails{alice}}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	rec = httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("GET", "/ledger/v2/nope?a=b", nil))
	want := `{"errors":["GET, uri: http://example.com/ledger/v2/nope?a=b"],"status":404,"ledgerApiError":null}`
	if diff := cmp.Diff(want, strings.TrimSpace(rec.Body.String())); diff != "" || rec.Code != 404 {
		t.Errorf("%d (-want +got):\n%s", rec.Code, diff)
	}
}

// exerciseLedgerRoutes calls each command, update and state route once with
// a 2xx answer, on a node with two synchronizers, as the participant admin
// granted CanActAs on a party at its allocation.
func exerciseLedgerRoutes(t *testing.T, auth map[string]string) {
	t.Helper()
	const a, b = "a::1220aa", "b::1220bb"
	h := newHarnessWith(t, ledger.Options{Synchronizers: []string{a, b}}, Options{Verifier: testVerifier})
	dar, ids := lftest.DAR(lftest.TemplatePackage("app", "1.0.0", nil, owner))
	for _, s := range []string{a, b} {
		wantEmptyObject(t, h.do(darCall("/v2/dars?synchronizerId="+url.QueryEscape(s), dar, auth)))
	}
	p := decodeAs[jsonapi.AllocatePartyResponse](t, h.do(httpCall{method: "POST", target: "/v2/parties", header: auth,
		body: `{"partyIdHint":"actor","userId":"` + identity.DefaultParticipantAdmin + `"}`})).PartyDetails.Party
	create := func(id string) string {
		return `{"commandId":"` + id + `","actAs":["` + p + `"],"commands":[{"CreateCommand":{"templateId":"` + ids[0] +
			`:Main:T","createArguments":{"owner":"` + p + `"}}}]}`
	}
	ok := func(c httpCall) *httptest.ResponseRecorder {
		t.Helper()
		c.header = auth
		rec := h.do(c)
		if rec.Code != http.StatusOK {
			t.Errorf("%s %s: %d %s", c.method, c.target, rec.Code, rec.Body)
		}
		return rec
	}
	party := `{"filtersByParty":{"` + p + `":{}}}`
	ok(httpCall{method: "POST", target: "/v2/commands/submit-and-wait", body: create("k1")})
	ok(httpCall{method: "POST", target: "/v2/commands/submit-and-wait-for-transaction-tree", body: create("k2")})
	ok(httpCall{method: "POST", target: "/v2/commands/async/submit", body: create("k3")})
	tx := decodeAs[jsonapi.SubmitAndWaitForTransactionResponse](t, ok(httpCall{method: "POST", target: "/v2/commands/submit-and-wait-for-transaction",
		body: `{"commands":` + create("k4") + `}`})).Transaction
	cid := tx.Events[0].CreatedEvent.ContractID
	un := decodeAs[jsonapi.SubmitAndWaitForReassignmentResponse](t, ok(httpCall{method: "POST", target: "/v2/commands/submit-and-wait-for-reassignment",
		body: `{"reassignmentCommands":{"commandId":"u","submitter":"` + p + `","commands":[{"command":{"UnassignCommand":{"value":{"contractId":"` +
			cid + `","source":"` + a + `","target":"` + b + `"}}}}]},"eventFormat":` + party + `}`})).Reassignment
	rid := un.Events[0].JsUnassignedEvent.Value.ReassignmentID
	ok(httpCall{method: "POST", target: "/v2/commands/async/submit-reassignment",
		body: `{"reassignmentCommands":{"commandId":"a","submitter":"` + p + `","commands":[{"command":{"AssignCommand":{"value":{"reassignmentId":"` +
			rid + `","source":"` + a + `","target":"` + b + `"}}}}]}}`})

	format := `{"includeTransactions":{"eventFormat":` + party + `,"transactionShape":"TRANSACTION_SHAPE_LEDGER_EFFECTS"},"includeReassignments":` + party + `}`
	end := fmt.Sprint(tx.Offset + 2)
	for _, c := range []httpCall{
		{method: "POST", target: "/v2/updates", body: `{"beginExclusive":0,"endInclusive":` + end + `,"updateFormat":` + format + `}`},
		{method: "POST", target: "/v2/updates/flats", body: `{"beginExclusive":0,"endInclusive":` + end + `,"filter":` + party + `}`},
		{method: "POST", target: "/v2/updates/trees?limit=10", body: `{"beginExclusive":0,"endInclusive":` + end + `,"filter":` + party + `}`},
		{method: "POST", target: "/v2/updates/get-updates-page", body: `{"updateFormat":` + format + `}`},
		{method: "POST", target: "/v2/updates/update-by-id", body: `{"updateId":"` + tx.UpdateID + `","updateFormat":` + format + `}`},
		{method: "POST", target: "/v2/updates/update-by-offset", body: `{"offset":` + end + `,"updateFormat":` + format + `}`},
		{method: "GET", target: "/v2/updates/transaction-tree-by-id/" + tx.UpdateID + "?parties=" + encodeURIComponent(p)},
		{method: "GET", target: fmt.Sprintf("/v2/updates/transaction-tree-by-offset/%d?parties=%s", tx.Offset, encodeURIComponent(p))},
		{method: "POST", target: "/v2/state/active-contracts", body: `{"activeAtOffset":` + end + `,"eventFormat":` + party + `}`},
		{method: "POST", target: "/v2/state/active-contracts-page", body: `{"eventFormat":` + party + `}`},
		{method: "GET", target: "/v2/state/active-contracts-page", body: `{"eventFormat":` + party + `}`},
		{method: "GET", target: "/v2/state/connected-synchronizers?party=" + encodeURIComponent(p)},
		{method: "POST", target: "/v2/events/events-by-contract-id", body: `{"contractId":"` + cid + `","eventFormat":` + party + `}`},
	} {
		ok(c)
	}
}
