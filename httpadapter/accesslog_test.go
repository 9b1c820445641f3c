package httpadapter

import (
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// logLine returns the first log line containing msg.
func logLine(logs, msg string) string {
	for _, l := range strings.Split(logs, "\n") {
		if strings.Contains(l, msg) {
			return l
		}
	}
	return ""
}

// TestAccessLog: one info line per request with method, route pattern,
// status, duration, user and the correlation id of an error.
func TestAccessLog(t *testing.T) {
	t.Parallel()
	logs := &syncBuffer{}
	h := newHarness(t, Options{Verifier: testVerifier, Logger: slog.New(slog.NewJSONHandler(logs, nil))})
	h.do(httpCall{method: "GET", target: "/v2/users/participant_admin", header: bearer("admin-token")})
	rec := h.do(httpCall{method: "GET", target: "/v2/users/ghost", header: bearer("admin-token")})
	h.do(httpCall{method: "GET", target: "/v2/state/ledger-end", header: bearer("unknown-token")})
	h.do(httpCall{method: "GET", target: "/v2/nowhere"})
	notFound := decodeCantonError(t, rec)
	type line struct {
		Level, Msg, Method, Route, User, CorrelationID string
		Status                                         int
		Duration                                       *float64
	}
	var got []line
	for _, l := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var v line
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		if v.Msg == "http request" {
			if v.Duration == nil {
				t.Errorf("line without a duration: %s", l)
			}
			v.Duration = nil
			if v.CorrelationID != "" && v.Status == 403 {
				v.CorrelationID = "redacted"
			}
			got = append(got, v)
		}
	}
	want := []line{
		{"INFO", "http request", "GET", "/v2/users/:user-id", "participant_admin", "", 200, nil},
		{"INFO", "http request", "GET", "/v2/users/:user-id", "participant_admin", deref(notFound.CorrelationID), 404, nil},
		{"INFO", "http request", "GET", "/v2/state/ledger-end", "", "redacted", 403, nil},
		{"INFO", "http request", "GET", "/v2/nowhere", "", "", 404, nil},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("access log (-want +got):\n%s", diff)
	}
	// Below info, nothing.
	quiet := &syncBuffer{}
	h = newHarness(t, Options{Logger: slog.New(slog.NewTextHandler(quiet, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	h.do(httpCall{method: "GET", target: "/livez"})
	if strings.Contains(quiet.String(), "http request") {
		t.Errorf("access log at level warn: %s", quiet)
	}
}

// TestAccessLogSource: with AddSource, every access-log line names the
// middleware's call site, as Logger.LogAttrs would, the first request's
// and the later ones'.
func TestAccessLogSource(t *testing.T) {
	t.Parallel()
	logs := &syncBuffer{}
	h := newHarness(t, Options{Logger: slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{AddSource: true}))})
	for range 3 {
		h.do(httpCall{method: "GET", target: "/livez"})
	}
	n := 0
	for _, l := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var v struct {
			Msg    string
			Source struct{ Function, File string }
		}
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		if v.Msg != "http request" {
			continue
		}
		n++
		if !strings.HasSuffix(v.Source.Function, "httpadapter.(*adapter).accessLog") || !strings.HasSuffix(v.Source.File, "/httpadapter/accesslog.go") {
			t.Errorf("source %+v, want the access log's", v.Source)
		}
	}
	if n != 3 {
		t.Errorf("%d access-log lines, want 3", n)
	}
}
