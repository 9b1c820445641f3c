package httpadapter_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/httpadapter"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// TestConsoleMount: the console is served under /console only when
// Options.Console is set, behind the adapter's authentication, and its
// links follow a prefix the adapter is mounted under.
func TestConsoleMount(t *testing.T) {
	t.Parallel()
	node := ledgertest.Open(t, ledger.Options{})
	noRedirect := func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	fetch := func(t *testing.T, h http.Handler, path string) (int, string, http.Header) {
		t.Helper()
		srv := httptest.NewServer(h)
		defer srv.Close()
		c := &http.Client{CheckRedirect: noRedirect}
		res, err := c.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b), res.Header
	}
	v, err := identity.ParseAuthSpec("hs256:mount-secret", identity.VerifyOptions{ParticipantID: node.ParticipantIDString()})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		handler http.Handler
		path    string
		status  int
		want    string
	}{
		{"off by default", httpadapter.New(node, httpadapter.Options{}), "/console/", http.StatusNotFound, ""},
		{"auth none", httpadapter.New(node, httpadapter.Options{Console: true}), "/console/", http.StatusOK, node.ParticipantIDString()},
		{"bare prefix", httpadapter.New(node, httpadapter.Options{Console: true}), "/console", http.StatusSeeOther, ""},
		{"token required", httpadapter.New(node, httpadapter.Options{Console: true, Verifier: v}), "/console/parties", http.StatusSeeOther, ""},
		{"under a prefix", http.StripPrefix("/ledger", httpadapter.New(node, httpadapter.Options{Console: true})), "/ledger/console/parties", http.StatusOK, `href="/ledger/console/packages"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status, body, h := fetch(t, tc.handler, tc.path)
			if status != tc.status {
				t.Fatalf("GET %s: %d, want %d\n%s", tc.path, status, tc.status, body)
			}
			if !strings.Contains(body, tc.want) {
				t.Errorf("GET %s: %q is not in the page", tc.path, tc.want)
			}
			if status == http.StatusSeeOther && tc.name == "token required" && !strings.HasPrefix(h.Get("Location"), "/console/login") {
				t.Errorf("redirected to %s, want the login page", h.Get("Location"))
			}
		})
	}
}
