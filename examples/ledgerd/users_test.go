package main

import (
	"strings"
	"testing"
)

// TestSelfDeleteRefused: the participant_admin token cannot delete or
// deactivate its own user; the token keeps working.
func TestSelfDeleteRefused(t *testing.T) {
	t.Parallel()
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
