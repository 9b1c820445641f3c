package httpadapter

import (
	"net/http"
	"testing"
)

// TestUndecodableQueryString: a query string that cannot be
// percent-decoded is a 400 text/plain decode failure on every route,
// whether or not the route reads query parameters; a decodable one is
// read as before.
func TestUndecodableQueryString(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{})
	party := h.allocate("alice", nil).Party
	for _, tc := range []struct {
		name, method, target, body, want string
	}{
		{"users, its own parameter", "GET", "/v2/users/u1?identity-provider-id=%zz", "",
			`Invalid value for: query parameter identity-provider-id (invalid URL escape "%zz")`},
		{"authenticated user", "GET", "/v2/authenticated-user?identity-provider-id=%zz", "",
			`Invalid value for: query parameter identity-provider-id (invalid URL escape "%zz")`},
		{"parties, another parameter", "GET", "/v2/parties?x=%zz", "", `Invalid value for: query parameter x (invalid URL escape "%zz")`},
		{"a route without query parameters", "GET", "/v2/version?identity-provider-id=%zz", "",
			`Invalid value for: query parameter identity-provider-id (invalid URL escape "%zz")`},
		{"ledger end", "GET", "/v2/state/ledger-end?%zz=1", "", `Invalid value for: query (invalid URL escape "%zz")`},
		{"a body route", "POST", "/v2/updates/update-by-offset?limit=%4", `{"offset":1,"updateFormat":{}}`,
			`Invalid value for: query parameter limit (invalid URL escape "%4")`},
		{"a list route", "POST", "/v2/updates?limit=1%g0", `{"beginExclusive":0}`, `Invalid value for: query parameter limit (invalid URL escape "%g0")`},
		{"livez", "GET", "/livez?a=%", "", `Invalid value for: query parameter a (invalid URL escape "%")`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := h.do(httpCall{method: tc.method, target: tc.target, body: tc.body})
			wantText(t, rec, http.StatusBadRequest, tc.want)
			if rec.Body.String() != tc.want {
				t.Errorf("body %q, want %q", rec.Body, tc.want)
			}
		})
	}
	// Decodable queries are read: escapes, "+" for a space, and pairs
	// holding ";" dropped as before.
	for _, target := range []string{
		"/v2/parties/" + party + "?identity-provider-id=",
		"/v2/parties/" + party + "?identity-provider-id=&x=a%3Bb",
		"/v2/parties/" + party + "?x=a;b&identity-provider-id=",
	} {
		rec := h.do(httpCall{method: "GET", target: target})
		if rec.Code != http.StatusOK {
			t.Errorf("GET %s: %d %s, want 200", target, rec.Code, rec.Body)
		}
	}
}
