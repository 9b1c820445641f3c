package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/daml/script/scripttest"
)

// TestRealSuites runs every script of real Splice test DARs, each compiled
// with another SDK line and so with another shape of the daml-script
// library, as `daml test` of that SDK does: every script passes. The 3.2
// library's Submission has no sPrefetchKeys field, so a runner that read
// payloads by position read no commands and failed every 3.2 script at
// its first submission. The 3.3 suite, Splice's Amulet tests, runs in
// TestSpliceAmuletSuite (once: it is the package's longest run).
func TestRealSuites(t *testing.T) {
	if testing.Short() {
		t.Skip("runs whole suites (-short)")
	}
	for _, tc := range []struct{ sdk, dar string }{
		{"3.2", "../../../shared/testdata/dars/splice-wallet-test-0.1.6.dar"},
	} {
		t.Run(tc.sdk, func(t *testing.T) {
			scripttest.ReadDAR(t, tc.dar) // skips without ../shared
			var out, errOut bytes.Buffer
			code := cli(context.Background(), []string{"--dar", tc.dar, "--all", "-p", "2"}, &out, &errOut)
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			var passed int
			for _, l := range lines[:len(lines)-1] {
				switch {
				case strings.HasPrefix(l, "PASS "):
					passed++
				case strings.HasPrefix(l, "FAIL "):
					t.Error(l)
				}
			}
			if want := fmt.Sprintf("%d passed, 0 failed", passed); passed == 0 || lines[len(lines)-1] != want || code != 0 {
				t.Errorf("exit %d, summary %q, want %q with at least one script (stderr %s)", code, lines[len(lines)-1], want, errOut.String())
			}
		})
	}
}

// TestIllTypedDARRefused: a DAR that does not type-check fails before any
// script runs, locally (the fixture's upload refuses it) and against a
// participant (checked here).
func TestIllTypedDARRefused(t *testing.T) {
	path := "../../../shared/testdata/dars/illformed.dar"
	scripttest.ReadDAR(t, path) // skips without ../shared
	for _, args := range [][]string{
		{"--dar", path, "--all"},
		{"--dar", path, "--all", "--ledger-url", "http://127.0.0.1:1"},
	} {
		var out, errOut bytes.Buffer
		code := cli(context.Background(), args, &out, &errOut)
		if code == 0 || !strings.Contains(errOut.String()+out.String(), "type mismatch") {
			t.Errorf("%v: exit %d, output %q %q, want a failure naming the type mismatch", args, code, out.String(), errOut.String())
		}
	}
}
