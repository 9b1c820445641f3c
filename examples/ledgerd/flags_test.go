package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/url"
	"strings"
	"testing"
)

// TestVerboseErrorsFlag: by default an unknown user's token gets the
// redacted "NA" body; with -verbose-errors the code and the cause.
func TestVerboseErrorsFlag(t *testing.T) {
	t.Parallel()
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

// TestLogs: an access-log line per request (at debug for a request
// answered well, as Canton's request logger) and the domain events at
// info, nothing of them at -log-level warn, JSON with -log-format json.
func TestLogs(t *testing.T) {
	t.Parallel()
	var logs lockedBuffer
	s := startServer(t, slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})), "-in-memory", "-auth", "none")
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
		access[0]["status"] != 200.0 || access[0]["method"] != "POST" || access[0]["user"] != "participant_admin" || access[0]["duration"] == nil ||
		access[0]["level"] != "DEBUG" || access[1]["level"] != "DEBUG" {
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
