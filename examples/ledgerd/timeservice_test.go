package main

import (
	"strings"
	"testing"
)

// TestTimeServiceOverHTTP: ledgerd's POST /ledgernode/v1/time with
// currentTime and newTime is Canton's TimeService.SetTime: the time moves
// from the time the client read, forward only; a refusal is Canton's
// error and leaves the time unchanged.
func TestTimeServiceOverHTTP(t *testing.T) {
	t.Parallel()
	base, _ := start(t, "-in-memory", "-auth", "none", "-static-time=2030-01-01T00:00:00Z")
	tests := []struct {
		name   string
		body   string
		status int
		code   string
		cause  string
		now    string
	}{
		{"forward", `{"currentTime": "2030-01-01T00:00:00Z", "newTime": "2030-01-02T00:00:00Z"}`, 200, "", "", "2030-01-02T00:00:00Z"},
		{"backwards", `{"currentTime": "2030-01-02T00:00:00Z", "newTime": "2030-01-01T00:00:00Z"}`, 400, "INVALID_ARGUMENT",
			"new_time [2030-01-01T00:00:00Z] is before current_time [2030-01-02T00:00:00Z]. Setting time backwards is not allowed.", "2030-01-02T00:00:00Z"},
		{"stale current time", `{"currentTime": "2030-01-01T00:00:00Z", "newTime": "2030-01-03T00:00:00Z"}`, 400, "INVALID_ARGUMENT",
			"current_time mismatch. Provided: 2030-01-01T00:00:00Z. Actual: 2030-01-02T00:00:00Z", "2030-01-02T00:00:00Z"},
		{"no current time", `{"newTime": "2030-01-03T00:00:00Z"}`, 400, "MISSING_FIELD", "current_time", "2030-01-02T00:00:00Z"},
		{"the same time", `{"currentTime": "2030-01-02T00:00:00Z", "newTime": "2030-01-02T00:00:00Z"}`, 200, "", "", "2030-01-02T00:00:00Z"},
	}
	for _, tc := range tests { // in order: each starts from the time the previous left
		code, body := call(t, "POST", base+"/ledgernode/v1/time", "", tc.body)
		if code != tc.status || tc.code != "" && (body["code"] != tc.code || !strings.HasSuffix(body["cause"].(string), tc.cause)) {
			t.Errorf("%s: %d %v, want %d %s …%s", tc.name, code, body, tc.status, tc.code, tc.cause)
		}
		if _, now := call(t, "GET", base+"/ledgernode/v1/time", "", ""); now["currentTime"] != tc.now {
			t.Errorf("%s: the time is %v after it, want %s", tc.name, now["currentTime"], tc.now)
		}
	}
}
