package httpadapter

import (
	"context"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// TestVerboseErrors: a security-sensitive error (unknown user, token of
// another secret, missing right) is redacted by default, with the
// correlation id of the log line that holds the cause; with VerboseErrors
// the client gets the code, cause and category.
func TestVerboseErrors(t *testing.T) {
	t.Parallel()
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
			if _, err := jsonapi.New(h.node).CreateUser(context.Background(), ledgerCreateUser("plain")); err != nil {
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
