package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTokensSurviveRestart: the generated secret is kept in the data
// directory (mode 0600), so a token printed by one run works in the next.
func TestTokensSurviveRestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startServer(t, discard(), "-data", dir)
	tok := s.printedToken()
	if !strings.Contains(s.out.String(), "ledgerd token -user U -data "+dir) {
		t.Errorf("the banner does not say how to get other tokens:\n%s", s.out.String())
	}
	s.stop()
	fi, err := os.Stat(filepath.Join(dir, secretFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("secret file: %v, %v; want mode 0600", fi, err)
	}
	s = startServer(t, discard(), "-data", dir)
	if code, body := call(t, "GET", s.base+"/v2/authenticated-user", tok, ""); code != 200 {
		t.Fatalf("the first run's token after a restart = %d %v", code, body)
	}
	// -in-memory keeps nothing: a token of one run is refused by the next.
	m := startServer(t, discard(), "-in-memory")
	first := m.printedToken()
	m.stop()
	m = startServer(t, discard(), "-in-memory")
	if code, _ := call(t, "GET", m.base+"/v2/authenticated-user", first, ""); code != 401 {
		t.Errorf("an in-memory run accepted the previous run's token: %d", code)
	}
}

// TestTokenCommand: "ledgerd token" prints a token a running ledgerd
// accepts, for any user, from the data directory's secret or from -auth.
func TestTokenCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startServer(t, discard(), "-data", dir)
	admin := s.printedToken()
	if code, body := call(t, "POST", s.base+"/v2/users", admin, `{"user":{"id":"alice"},"rights":[]}`); code != 200 {
		t.Fatalf("create alice = %d %v", code, body)
	}
	h := startServer(t, discard(), "-in-memory", "-auth", "hs256:S")
	if code, body := call(t, "POST", h.base+"/v2/users", h.printedToken(), `{"user":{"id":"alice"},"rights":[]}`); code != 200 {
		t.Fatalf("create alice = %d %v", code, body)
	}
	for _, tc := range []struct {
		base string
		args []string
	}{
		{s.base, []string{"token", "-user", "alice", "-data", dir}},
		{s.base, []string{"token", "--user", "alice", "--ttl", "1h", "--data", dir}},
		{h.base, []string{"token", "-user", "alice", "-auth", "hs256:S"}},
	} {
		var out, errs bytes.Buffer
		if code := cli(context.Background(), tc.args, &out, &errs); code != 0 {
			t.Fatalf("%q: exit %d: %s", tc.args, code, errs.String())
		}
		tok := strings.TrimSpace(out.String())
		code, body := call(t, "GET", tc.base+"/v2/authenticated-user", tok, "")
		if code != 200 || body["user"].(map[string]any)["id"] != "alice" {
			t.Errorf("%q: authenticated-user = %d %v", tc.args, code, body)
		}
	}
	// A token of another scope is refused (the default target scope).
	var out bytes.Buffer
	cli(context.Background(), []string{"token", "-user", "alice", "-data", dir, "-scope", "other"}, &out, io.Discard)
	if code, _ := call(t, "GET", s.base+"/v2/authenticated-user", strings.TrimSpace(out.String()), ""); code != 401 {
		t.Errorf("a token of scope other = %d, want 401", code)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"token"}, 2, "-user is required"},
		{[]string{"token", "-user", "alice", "-data", t.TempDir()}, 1, "no secret in"},
		{[]string{"token", "-user", "alice", "-auth", "rs256:key.pem"}, 2, "only hs256"},
		{[]string{"token", "-nope"}, 2, "Usage: ledgerd token"},
	} {
		var errs bytes.Buffer
		if code := cli(context.Background(), tc.args, io.Discard, &errs); code != tc.code || !strings.Contains(errs.String(), tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", tc.args, code, errs.String(), tc.code, tc.want)
		}
	}
}
