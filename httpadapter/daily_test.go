package httpadapter

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
