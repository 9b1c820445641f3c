package httpadapter

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
)

// TestUserCannotRemoveItselfOverHTTP: DELETE and PATCH of the caller's
// own user (delete, deactivate, revoke its ParticipantAdmin) answer 400
// INVALID_ARGUMENT with Canton's cause, change nothing, and the caller's
// token keeps working.
func TestUserCannotRemoveItselfOverHTTP(t *testing.T) {
	h := newHarness(t, Options{Verifier: testVerifier})
	admin := bearer("admin-token")
	for _, tc := range []struct {
		name, method, target, body, cause string
	}{
		{"delete", "DELETE", "/v2/users/participant_admin", "", "Requesting user cannot delete itself"},
		{"deactivate", "PATCH", "/v2/users/participant_admin",
			`{"user":{"id":"participant_admin","isDeactivated":true},"updateMask":{"paths":["is_deactivated"]}}`,
			"Requesting user cannot self-deactivate"},
		{"revoke own admin", "PATCH", "/v2/users/participant_admin/rights",
			`{"userId":"participant_admin","rights":[{"kind":{"ParticipantAdmin":{"value":{}}}}]}`,
			"Requesting user cannot remove own admin rights"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := h.adminState()
			e := wantCantonError(t, h.do(httpCall{method: tc.method, target: tc.target, body: tc.body, header: admin}),
				http.StatusBadRequest, "INVALID_ARGUMENT")
			if want := "The submitted request has invalid arguments: " + tc.cause; e.Cause != want {
				t.Errorf("cause %q, want %q", e.Cause, want)
			}
			if diff := cmp.Diff(before, h.adminState()); diff != "" {
				t.Errorf("state changed (-before +after):\n%s", diff)
			}
			if rec := h.do(httpCall{method: "GET", target: "/v2/authenticated-user", header: admin}); rec.Code != http.StatusOK ||
				!strings.Contains(rec.Body.String(), `"participant_admin"`) {
				t.Errorf("authenticated-user afterwards = %d %s", rec.Code, rec.Body)
			}
		})
	}
}

// TestVerboseErrors: a security-sensitive error (unknown user, token of
// another secret, missing right) is redacted by default, with the
// correlation id of the log line that holds the cause; with VerboseErrors
// the client gets the code, cause and category.
func TestVerboseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, token, target, code, cause string
	}{
		{"unknown user", "unknown-token", "/v2/state/ledger-end", "PERMISSION_DENIED", "user nobody does not exist"},
		{"bad token", "forged", "/v2/state/ledger-end", "UNAUTHENTICATED", "the test verifier does not know token"},
		{"missing right", "plain-token", "/v2/users", "PERMISSION_DENIED", "neither a participant admin"},
	} {
		verifier := fakeVerifier{"unknown-token": {UserID: "nobody"}, "plain-token": {UserID: "plain"}}
		for _, verbose := range []bool{false, true} {
			h := newHarness(t, Options{Verifier: verifier, VerboseErrors: verbose})
			if _, err := h.node.CreateUser(context.Background(), ledgerCreateUser("plain")); err != nil {
				t.Fatal(err)
			}
			rec := h.do(httpCall{method: "GET", target: tc.target, header: bearer(tc.token)})
			e := decodeCantonError(t, rec)
			if !verbose {
				if e.Code != "NA" || strings.Contains(rec.Body.String(), tc.cause) || e.ErrorCategory != -1 {
					t.Errorf("%s: redacted body %s", tc.name, rec.Body)
				}
				if e.CorrelationID == nil {
					t.Fatalf("%s: redacted body without a correlation id: %s", tc.name, rec.Body)
				}
				line := logLine(h.logs.String(), "security-sensitive error redacted")
				if !strings.Contains(line, "correlationId="+*e.CorrelationID) || !strings.Contains(line, tc.cause) {
					t.Errorf("%s: log line %q lacks correlation id %s or the cause", tc.name, line, *e.CorrelationID)
				}
				continue
			}
			if e.Code != tc.code || !strings.Contains(e.Cause, tc.cause) || e.ErrorCategory == -1 ||
				e.Context["category"] == "" {
				t.Errorf("%s: verbose body %s, want %s with cause %q", tc.name, rec.Body, tc.code, tc.cause)
			}
		}
	}
}

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

// TestWebSocketGoingAwayOnShutdown: Shutdown ends an open stream with a
// close frame 1001, refuses a new one the same way, and returns once the
// streams have ended.
func TestWebSocketGoingAwayOnShutdown(t *testing.T) {
	h := newHarness(t, Options{Verifier: fakeVerifier{"admin": {UserID: identity.DefaultParticipantAdmin}}})
	srv := httptest.NewServer(h.h)
	defer srv.Close()
	if _, err := h.node.GrantUserRights(context.Background(), ledger.UserRightsRequest{UserID: identity.DefaultParticipantAdmin,
		Rights: []identity.Right{{Kind: identity.RightCanReadAsAnyParty}}}); err != nil {
		t.Fatal(err)
	}
	all := `"updateFormat": {"includeTopologyEvents": {"includeParticipantAuthorizationEvents": {}}}`
	conn := dialStream(t, srv.URL+"/v2/updates", "admin", `{"beginExclusive": 0, `+all+`}`)
	read := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		for {
			if _, frame, err := conn.Read(ctx); err != nil {
				read <- err
				return
			} else if strings.Contains(string(frame), `"code"`) {
				t.Errorf("error frame %s", frame)
			}
		}
	}()
	time.Sleep(50 * time.Millisecond) // the stream is waiting for updates
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := Shutdown(ctx, h.h); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	if err := <-read; websocket.CloseStatus(err) != websocket.StatusGoingAway {
		t.Fatalf("open stream ended with %v, want close status 1001", err)
	}
	late := dialStream(t, srv.URL+"/v2/updates", "admin", `{"beginExclusive": 0, `+all+`}`)
	rctx, rcancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer rcancel()
	if _, _, err := late.Read(rctx); websocket.CloseStatus(err) != websocket.StatusGoingAway {
		t.Fatalf("stream opened after Shutdown ended with %v, want close status 1001", err)
	}
}

func ledgerCreateUser(id string) ledger.CreateUserRequest {
	return ledger.CreateUserRequest{User: identity.User{ID: id}}
}
