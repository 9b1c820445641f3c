package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"
)

const amuletTestDAR = "../../../shared/testdata/dars/splice-amulet-test-0.1.8.dar"

func needDAR(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(amuletTestDAR); errors.Is(err, os.ErrNotExist) {
		t.Skipf("%s is absent (../shared not checked out): skipping", amuletTestDAR)
	}
}

// TestInitScript seeds a node with Splice's setupApp script: the parties
// it allocates are there when the node serves.
func TestInitScript(t *testing.T) {
	t.Parallel()
	needDAR(t)
	base, _ := start(t, "-in-memory", "-auth", "none", "-static-time", "-dar", amuletTestDAR, "-init-script", "Splice.Scripts.Util:setupApp")
	code, body := call(t, "GET", base+"/v2/parties", "", "")
	if code != 200 {
		t.Fatalf("listing parties: %d %v", code, body)
	}
	found := false
	for _, p := range partiesOf(body) {
		if strings.HasPrefix(p, "dso-party-") {
			found = true
		}
	}
	if !found {
		t.Errorf("no dso-party-… among %v", partiesOf(body))
	}
}

// TestInitScriptFails: ledgerd does not serve when an init script is
// unknown or fails.
func TestInitScriptFails(t *testing.T) {
	t.Parallel()
	needDAR(t)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown script", []string{"-static-time", "-init-script", "Splice.Scripts.Util:nope"}, "no script Splice.Scripts.Util:nope"},
		{"setTime on wall-clock time", []string{"-init-script", "Splice.Scripts.Util:setupApp"}, "Command SetTime failed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"-addr", "127.0.0.1:0", "-in-memory", "-auth", "none", "-dar", amuletTestDAR}, tc.args...)
			err := run(context.Background(), args, io.Discard, slog.New(slog.DiscardHandler), func(string) { t.Error("ledgerd served") })
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error with %q", err, tc.want)
			}
		})
	}
}
