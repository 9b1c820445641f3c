package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// lockedBuffer is a log sink safe for concurrent writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// server is a ledgerd started by startServer.
type server struct {
	base string
	out  bytes.Buffer
	stop func() // cancels run's context and waits for it to return
}

// startServer runs ledgerd with args and logger on a free loopback port
// until stop or the end of the test or benchmark, failing it when ledgerd
// does not start within 10s or returns an error.
func startServer(t testing.TB, logger *slog.Logger, args ...string) *server {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s := &server{}
	addrc := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"-addr", "127.0.0.1:0"}, args...), &s.out, logger, func(a string) { addrc <- a })
	}()
	select {
	case a := <-addrc:
		s.base = "http://" + a
	case err := <-done:
		cancel()
		t.Fatalf("ledgerd exited: %v", err)
	case <-time.After(10 * time.Second):
		cancel()
		t.Fatal("ledgerd did not start")
	}
	var once sync.Once
	s.stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("ledgerd: %v", err)
			}
		})
	}
	t.Cleanup(s.stop)
	return s
}

// printedToken is the participant_admin token ledgerd printed last.
func (s *server) printedToken() string {
	lines := strings.Split(strings.TrimSpace(s.out.String()), "\n")
	return lines[len(lines)-1]
}

func discard() *slog.Logger { return slog.New(slog.DiscardHandler) }

// TestTokensSurviveRestart: the generated secret is kept in the data
// directory (mode 0600), so a token printed by one run works in the next.
func TestTokensSurviveRestart(t *testing.T) {
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

// TestSelfDeleteRefused: the participant_admin token cannot delete or
// deactivate its own user; the token keeps working.
func TestSelfDeleteRefused(t *testing.T) {
	s := startServer(t, discard(), "-in-memory", "-auth", "hs256:S")
	tok := s.printedToken()
	for _, c := range []struct{ method, body, cause string }{
		{"DELETE", "", "Requesting user cannot delete itself"},
		{"PATCH", `{"user":{"id":"participant_admin","isDeactivated":true},"updateMask":{"paths":["is_deactivated"]}}`,
			"Requesting user cannot self-deactivate"},
	} {
		code, body := call(t, c.method, s.base+"/v2/users/participant_admin", tok, c.body)
		if code != 400 || body["code"] != "INVALID_ARGUMENT" || !strings.HasSuffix(body["cause"].(string), c.cause) {
			t.Errorf("%s own user = %d %v, want 400 INVALID_ARGUMENT %q", c.method, code, body, c.cause)
		}
	}
	if code, body := call(t, "GET", s.base+"/v2/users/participant_admin", tok, ""); code != 200 || body["user"].(map[string]any)["isDeactivated"] != false {
		t.Errorf("participant_admin afterwards = %d %v", code, body)
	}
}

// TestVerboseErrorsFlag: by default an unknown user's token gets the
// redacted "NA" body; with -verbose-errors the code and the cause.
func TestVerboseErrorsFlag(t *testing.T) {
	ghost := func(secret string) string {
		var out bytes.Buffer
		cli(context.Background(), []string{"token", "-user", "ghost", "-auth", "hs256:" + secret}, &out, io.Discard)
		return strings.TrimSpace(out.String())
	}
	s := startServer(t, discard(), "-in-memory", "-auth", "hs256:S")
	code, body := call(t, "GET", s.base+"/v2/state/ledger-end", ghost("S"), "")
	if code != 403 || body["code"] != "NA" || strings.Contains(body["cause"].(string), "ghost") {
		t.Errorf("default: %d %v, want the redacted 403", code, body)
	}
	v := startServer(t, discard(), "-in-memory", "-auth", "hs256:S", "-verbose-errors")
	code, body = call(t, "GET", v.base+"/v2/state/ledger-end", ghost("S"), "")
	if code != 403 || body["code"] != "PERMISSION_DENIED" || !strings.Contains(body["cause"].(string), "user ghost does not exist") ||
		body["errorCategory"] == -1.0 {
		t.Errorf("-verbose-errors: %d %v, want PERMISSION_DENIED naming ghost", code, body)
	}
	code, body = call(t, "GET", v.base+"/v2/state/ledger-end", ghost("other"), "")
	if code != 401 || body["code"] != "UNAUTHENTICATED" || body["cause"] == "A security-sensitive error has been received" {
		t.Errorf("-verbose-errors, token of another secret: %d %v", code, body)
	}
}

// TestLogs: an access-log line per request and the domain events at info,
// nothing of them at -log-level warn, JSON with -log-format json.
func TestLogs(t *testing.T) {
	var logs lockedBuffer
	s := startServer(t, slog.New(slog.NewJSONHandler(&logs, nil)), "-in-memory", "-auth", "none")
	call(t, "POST", s.base+"/v2/parties", "", `{"partyIdHint":"alice"}`)
	call(t, "GET", s.base+"/v2/parties/"+url.PathEscape("alice::1220ab"), "", "")
	s.stop()
	var access, allocated []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		switch m["msg"] {
		case "http request":
			access = append(access, m)
		case "party allocated":
			allocated = append(allocated, m)
		}
	}
	if len(access) != 2 || access[0]["route"] != "/v2/parties" || access[1]["route"] != "/v2/parties/:party" ||
		access[0]["status"] != 200.0 || access[0]["method"] != "POST" || access[0]["user"] != "participant_admin" || access[0]["duration"] == nil {
		t.Errorf("access lines %v", access)
	}
	if len(allocated) != 1 || !strings.HasPrefix(allocated[0]["party"].(string), "alice::") {
		t.Errorf("party allocated lines %v", allocated)
	}

	// Through the command line: the level and the format.
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		args []string
		want func(string) bool
	}{
		{[]string{"-log-level", "warn"}, func(s string) bool { return !strings.Contains(s, "ledgerd serving") }},
		{[]string{"-log-format", "json"}, func(s string) bool { return strings.Contains(s, `"msg":"ledgerd serving"`) }},
		{[]string{"-log-level", "debug"}, func(s string) bool { return strings.Contains(s, "msg=\"ledgerd serving\"") }},
	} {
		var errs bytes.Buffer
		args := append([]string{"-in-memory", "-auth", "none", "-addr", "127.0.0.1:0"}, tc.args...)
		if code := cli(cancelled, args, io.Discard, &errs); code != 0 || !tc.want(errs.String()) {
			t.Errorf("%q: exit %d, logs %q", tc.args, code, errs.String())
		}
	}
}

// TestCommandLine: -version, -help, and command-line mistakes exit 2 with
// the usage (not "ledgerd stopped").
func TestCommandLine(t *testing.T) {
	var out, errs bytes.Buffer
	if code := cli(context.Background(), []string{"-version"}, &out, &errs); code != 0 || !strings.HasPrefix(out.String(), "ledgerd ") ||
		!strings.Contains(out.String(), "go1.") {
		t.Errorf("-version: exit %d, %q %q", code, out.String(), errs.String())
	}
	errs.Reset()
	if code := cli(context.Background(), []string{"-help"}, io.Discard, &errs); code != 0 ||
		!strings.Contains(errs.String(), "Examples:") || !strings.Contains(errs.String(), "-verbose-errors") ||
		!strings.Contains(errs.String(), "ledgerd token -user") {
		t.Errorf("-help: exit %d, %q", code, errs.String())
	}
	for _, args := range [][]string{
		{"-nope"},
		{"-log-level", "loud"},
		{"-log-format", "xml"},
		{"-request-timeout", "soon"},
		{"-in-memory", "stray"},
		{"-in-memory", "-auth", "md5:x"},
		{"-in-memory", "-auth", "hs256:"},
	} {
		var errs bytes.Buffer
		code := cli(context.Background(), args, io.Discard, &errs)
		if code != 2 || strings.Contains(errs.String(), "stopped") || !strings.Contains(errs.String(), "-help") && !strings.Contains(errs.String(), "Usage") {
			t.Errorf("%q: exit %d, stderr %q; want 2 with the usage", args, code, errs.String())
		}
	}
}

// TestWebSocketGoingAway: shutting ledgerd down ends an open WebSocket
// stream with a close frame 1001.
func TestWebSocketGoingAway(t *testing.T) {
	s := startServer(t, discard(), "-in-memory", "-auth", "none")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.base, "http")+"/v2/updates", &websocket.DialOptions{Subprotocols: []string{"daml.ws.auth"}})
	if err != nil {
		t.Fatal(err)
	}
	req := `{"beginExclusive": 0, "updateFormat": {"includeTopologyEvents": {"includeParticipantAuthorizationEvents": {}}}}`
	if err := conn.Write(ctx, websocket.MessageText, []byte(req)); err != nil {
		t.Fatal(err)
	}
	read := make(chan error, 1)
	go func() {
		for {
			if _, frame, err := conn.Read(ctx); err != nil {
				read <- err
				return
			} else if strings.Contains(string(frame), `"code"`) {
				t.Errorf("error frame %s", frame)
			}
		}
	}()
	time.Sleep(50 * time.Millisecond)
	s.stop()
	if err := <-read; websocket.CloseStatus(err) != websocket.StatusGoingAway {
		t.Fatalf("stream ended with %v, want close status 1001", err)
	}
}
