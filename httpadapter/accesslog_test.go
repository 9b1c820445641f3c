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

// TestAccessLog: one line per request with method, route pattern,
// status, duration, user and the correlation id of an error, at the level
// of Canton's response kinds (accessLevel): at the default info level,
// only the client's errors show.
func TestAccessLog(t *testing.T) {
	t.Parallel()
	type line struct {
		Level, Msg, Method, Route, User, CorrelationID string
		Status                                         int
		Duration                                       *float64
	}
	run := func(level slog.Level) (got []line, notFoundID string) {
		logs := &syncBuffer{}
		h := newHarness(t, Options{Verifier: testVerifier, Logger: slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: level}))})
		h.do(httpCall{method: "GET", target: "/v2/users/participant_admin", header: bearer("admin-token")})
		rec := h.do(httpCall{method: "GET", target: "/v2/users/ghost", header: bearer("admin-token")})
		h.do(httpCall{method: "GET", target: "/v2/state/ledger-end", header: bearer("unknown-token")})
		h.do(httpCall{method: "GET", target: "/v2/nowhere"})
		notFound := decodeCantonError(t, rec)
		for _, l := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
			if l == "" {
				continue
			}
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
		return got, deref(notFound.CorrelationID)
	}
	got, id := run(slog.LevelDebug)
	want := []line{
		{"DEBUG", "http request", "GET", "/v2/users/:user-id", "participant_admin", "", 200, nil},
		{"INFO", "http request", "GET", "/v2/users/:user-id", "participant_admin", id, 404, nil},
		{"DEBUG", "http request", "GET", "/v2/state/ledger-end", "", "redacted", 403, nil},
		{"INFO", "http request", "GET", "/v2/nowhere", "", "", 404, nil},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("access log at debug (-want +got):\n%s", diff)
	}
	got, id = run(slog.LevelInfo)
	want = []line{
		{"INFO", "http request", "GET", "/v2/users/:user-id", "participant_admin", id, 404, nil},
		{"INFO", "http request", "GET", "/v2/nowhere", "", "", 404, nil},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("access log at info (-want +got):\n%s", diff)
	}
	// At warn, none of these.
	if got, _ := run(slog.LevelWarn); len(got) > 0 {
		t.Errorf("access log at level warn: %+v", got)
	}
}

// TestAccessLevel: Canton's response kinds (V2Routes.decideResponseKind)
// at ApiRequestLogger's levels.
func TestAccessLevel(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		status int
		want   slog.Level
	}{
		{200, slog.LevelDebug}, {101, slog.LevelDebug}, {304, slog.LevelDebug},
		{400, slog.LevelInfo}, {404, slog.LevelInfo}, {409, slog.LevelInfo}, {413, slog.LevelInfo},
		{401, slog.LevelDebug}, {403, slog.LevelDebug}, {407, slog.LevelDebug},
		{500, slog.LevelError}, {503, slog.LevelError},
	} {
		if got := accessLevel(tc.status); got != tc.want {
			t.Errorf("accessLevel(%d) = %v, want %v", tc.status, got, tc.want)
		}
	}
}

// TestAccessLogSource: with AddSource, every access-log line names the
// middleware's call site, as Logger.LogAttrs would, the first request's
// and the later ones'.
func TestAccessLogSource(t *testing.T) {
	t.Parallel()
	logs := &syncBuffer{}
	h := newHarness(t, Options{Logger: slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{AddSource: true, Level: slog.LevelDebug}))})
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
