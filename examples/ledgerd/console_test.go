package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestConsoleFlags: ledgerd serves the console by default, prints its
// URL, asks for a token when it has a verifier, and -console=false turns
// it off.
func TestConsoleFlags(t *testing.T) {
	t.Parallel()
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	status := func(t *testing.T, u string) (int, string) {
		t.Helper()
		res, err := noRedirect.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, res.Header.Get("Location") + string(b)
	}

	s := startServer(t, discard(), "-in-memory", "-auth", "none")
	if want := "Console: " + s.base + "/console/"; !strings.Contains(s.out.String(), want) {
		t.Errorf("the banner does not print %q:\n%s", want, s.out.String())
	}
	if code, body := status(t, s.base+"/console/"); code != http.StatusOK || !strings.Contains(body, "Participant id") {
		t.Errorf("GET /console/ with -auth none: %d", code)
	}

	s = startServer(t, discard(), "-in-memory")
	if code, loc := status(t, s.base+"/console/parties"); code != http.StatusSeeOther || !strings.HasPrefix(loc, "/console/login") {
		t.Errorf("GET /console/parties without a token: %d %s, want the login page", code, loc)
	}
	if !strings.HasSuffix(strings.TrimSpace(s.out.String()), s.printedToken()) || strings.Contains(s.printedToken(), "Console") {
		t.Errorf("the token is not the banner's last line:\n%s", s.out.String())
	}

	s = startServer(t, discard(), "-in-memory", "-auth", "hs256:console-flag-secret", "-console-token", mintFor(t, "console-flag-secret"))
	if code, body := status(t, s.base+"/console/parties"); code != http.StatusOK || !strings.Contains(body, "participant_admin") {
		t.Errorf("GET /console/parties with -console-token: %d", code)
	}

	s = startServer(t, discard(), "-in-memory", "-auth", "none", "-console=false")
	if strings.Contains(s.out.String(), "Console:") {
		t.Errorf("-console=false still prints the console's URL")
	}
	if code, _ := status(t, s.base+"/console/"); code != http.StatusNotFound {
		t.Errorf("GET /console/ with -console=false: %d, want 404", code)
	}
}
