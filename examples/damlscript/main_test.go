package main

import (
	"bytes"
	"context"
	"errors"
	"go/parser"
	"go/token"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/script/scripttest"
	"github.com/ledgernode/ledgernode/httpadapter"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

const amuletTestDAR = "../../../shared/testdata/dars/splice-amulet-test-0.1.8.dar"

func readBase(t *testing.T) []byte {
	t.Helper()
	return scripttest.ReadDAR(t, amuletTestDAR)
}

// testDAR writes a DAR whose main package holds a template Main:T and the
// scripts Test:ok, Test:assertFails, Test:mustFailSucceeds and
// Test:unknown, over the Splice DAR's daml-script library.
func testDAR(t *testing.T) string {
	t.Helper()
	base := readBase(t)
	dar, err := lf.ReadDAR(base, lf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b := scripttest.ForDAR(dar)
	T := lf.TypeConID{PackageID: lftest.SelfID, Module: "Main", Name: "T"}
	scripts := map[string]lf.Expr{
		"ok":         b.Pure(scripttest.Unit()),
		"assertFail": b.Ask("Throw", 1, b.Payload("Exceptions", "Throw", "exc", scripttest.GeneralError("assertion failed: 1 == 2")), b.Pure),
		"mustFailSucceeds": b.Alloc("alice", func(p lf.Expr) lf.Expr {
			return b.Ask("Submit", 1, b.Submit(p, scripttest.MustFail, b.CreateCmd(T, scripttest.Record(T, 0, "owner", p))), b.Pure)
		}),
		"unknown": b.Ask("Frobnicate", 1, b.Payload("Time", "GetTime"), b.Pure),
	}
	_, dalf := lftest.Dalf(lftest.Package{Minor: "1", Name: "cli-tests", Version: "1.0.0", Modules: []lftest.Module{
		{Name: "Main", DataTypes: []lftest.DataType{{Name: "T", Serializable: true, Fields: []lftest.Field{{Name: "owner", Type: lftest.B(lftest.Party)}}}},
			Templates: []lftest.Template{{Name: "T"}}},
		{Name: "Test", Values: b.Values(scripts)},
	}})
	data, err := scripttest.ExtendDAR(base, dalf)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "tests.dar")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

var msTime = regexp.MustCompile(`\(\d+ ms\)`)

func TestCLI(t *testing.T) {
	path := testDAR(t)
	want := []string{
		"FAIL Test:assertFail: Unhandled exception DA.Exception.GeneralError:GeneralError: assertion failed: 1 == 2",
		"FAIL Test:mustFailSucceeds: Command Submit failed: Expected submit to fail but it succeeded",
		"PASS Test:ok (N ms)",
		"FAIL Test:unknown: Command Frobnicate failed: Unknown command Frobnicate - Version 1 (asked by daml-script-3.3.0.20250214.13611.0)",
		"1 passed, 3 failed",
	}
	tests := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"all", []string{"--dar", path, "--all"}, 1, want},
		{"all in parallel", []string{"--dar", path, "--all", "-p", "3"}, 1, want},
		{"one passing", []string{"--dar", path, "--script-name", "Test:ok"}, 0, []string{"PASS Test:ok (N ms)", "1 passed, 0 failed"}},
		{"unknown name", []string{"--dar", path, "--script-name", "Test:nope"}, 1, []string{"FAIL Test:nope: no value Test:nope in package " + lastPackage(t, path), "0 passed, 1 failed"}},
		{"no dar", []string{"--all"}, 2, nil},
		{"all and a name", []string{"--dar", path, "--all", "--script-name", "Test:ok"}, 2, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := cli(context.Background(), tc.args, &out, &errOut)
			if code != tc.code {
				t.Errorf("exit %d, want %d (stderr %s)", code, tc.code, errOut.String())
			}
			if tc.want == nil {
				return
			}
			got := strings.Split(strings.TrimSpace(msTime.ReplaceAllString(out.String(), "(N ms)")), "\n")
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCLIRemote runs scripts against a node served over the JSON Ledger
// API (as ledgerd -auth none), with --ledger-url.
func TestCLIRemote(t *testing.T) {
	path := testDAR(t)
	serve := func(t *testing.T, dar []byte) string {
		node, _ := ledgertest.OpenStatic(t, ledger.Options{}, time.Unix(0, 0))
		ledgertest.MustUploadDAR(t, node, dar)
		srv := httptest.NewServer(httpadapter.New(node, httpadapter.Options{Logger: slog.New(slog.DiscardHandler)}))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		dar  []byte
		args []string
		code int
		want []string
	}{
		{"hand-written scripts", data, []string{"--dar", path, "--all"}, 1, []string{
			"FAIL Test:assertFail: Unhandled exception DA.Exception.GeneralError:GeneralError: assertion failed: 1 == 2",
			"FAIL Test:mustFailSucceeds: Command Submit failed: Expected submit to fail but it succeeded",
			"PASS Test:ok (N ms)",
			"FAIL Test:unknown: Command Frobnicate failed: Unknown command Frobnicate - Version 1 (asked by daml-script-3.3.0.20250214.13611.0)",
			"1 passed, 3 failed",
		}},
		{"a Splice script", readBase(t), []string{"--dar", amuletTestDAR, "--script-name", "Splice.Scripts.TestLockAndAmuletExpiry:testExpireAmulet"}, 0, []string{
			"PASS Splice.Scripts.TestLockAndAmuletExpiry:testExpireAmulet (N ms)",
			"1 passed, 0 failed",
		}},
		{"no token file", data, []string{"--dar", path, "--all", "--access-token-file", filepath.Join(t.TempDir(), "none")}, 1, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := cli(context.Background(), append(tc.args, "--ledger-url", serve(t, tc.dar)), &out, &errOut)
			if code != tc.code {
				t.Errorf("exit %d, want %d (stderr %s)", code, tc.code, errOut.String())
			}
			if tc.want == nil {
				return
			}
			got := strings.Split(strings.TrimSpace(msTime.ReplaceAllString(out.String(), "(N ms)")), "\n")
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
		})
	}
}

// lastPackage is the main package id of a DAR.
func lastPackage(t *testing.T, path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := lf.ReadDAR(data, lf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return d.Main.ID
}

// TestSpliceAmuletSuite runs the acceptance suite: every script of
// Splice's Amulet test DAR passes (skipped with -short: about 15 s).
func TestSpliceAmuletSuite(t *testing.T) {
	readBase(t)
	if testing.Short() {
		t.Skip("-short: the whole Splice suite takes about 15 s")
	}
	var out, errOut bytes.Buffer
	if code := cli(context.Background(), []string{"--dar", amuletTestDAR, "--all"}, &out, &errOut); code != 0 {
		t.Errorf("exit %d:\n%s", code, out.String())
	}
	if !strings.HasSuffix(strings.TrimSpace(out.String()), "50 passed, 0 failed") {
		t.Errorf("report:\n%s", out.String())
	}
}

func TestReasonIsCut(t *testing.T) {
	long := strings.Repeat("é", maxReason)
	got := reason(errors.New(long))
	if !strings.HasSuffix(got, "… (2000 more bytes)") || !utf8ValidPrefix(got) {
		t.Errorf("reason of %d bytes: %q…", len(long), got[:40])
	}
	if got := reason(errors.New("short")); got != "short" {
		t.Errorf("reason %q, want short", got)
	}
}

func utf8ValidPrefix(s string) bool { return strings.ToValidUTF8(s, "?") == s }

// TestImportsOnlyPublicPackages: the example builds when copied out of the
// module, as the other examples do, so it imports no internal package of
// ledgernode.
func TestImportsOnlyPublicPackages(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range af.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(path, "github.com/ledgernode/ledgernode/") && slices.Contains(strings.Split(path, "/"), "internal") {
				t.Errorf("%s imports %s: an example must build outside the module", f, path)
			}
		}
	}
}

// timeDAR writes a DAR whose scripts set the time: Time:a2030 and
// Time:b2030again to 2030-01-01, Time:c2029 to 2029-01-01.
func timeDAR(t *testing.T) string {
	t.Helper()
	base := readBase(t)
	dar, err := lf.ReadDAR(base, lf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b := scripttest.ForDAR(dar)
	setTime := func(at time.Time) lf.Expr {
		return b.Ask("SetTime", 1, b.Payload("Time", "SetTime", "time", &lf.ETimestamp{Micros: at.UnixMicro()}), b.Pure)
	}
	scripts := map[string]lf.Expr{
		"a2030":      setTime(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)),
		"b2030again": setTime(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)),
		"c2029":      setTime(time.Date(2029, 1, 1, 0, 0, 0, 0, time.UTC)),
	}
	_, dalf := lftest.Dalf(lftest.Package{Minor: "1", Name: "time-tests", Version: "1.0.0", Modules: []lftest.Module{
		{Name: "Time", Values: b.Values(scripts)},
	}})
	data, err := scripttest.ExtendDAR(base, dalf)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "time.dar")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestSharedTime: against a participant on static time (--ledger-url),
// the scripts share its time, which only moves forward, as against a
// Canton participant: setting the time the ledger shows is allowed, and a
// script that sets a time before it fails with Canton's time-service
// error, although each of them passes on a fresh node of its own.
func TestSharedTime(t *testing.T) {
	path := timeDAR(t)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	node, clock := ledgertest.OpenStatic(t, ledger.Options{}, time.Unix(0, 0))
	ledgertest.MustUploadDAR(t, node, data)
	srv := httptest.NewServer(httpadapter.New(node, httpadapter.Options{Logger: slog.New(slog.DiscardHandler)}))
	t.Cleanup(srv.Close)

	tests := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"each on a fresh node", []string{"--dar", path, "--all"}, 0, []string{
			"PASS Time:a2030 (N ms)",
			"PASS Time:b2030again (N ms)",
			"PASS Time:c2029 (N ms)",
			"3 passed, 0 failed",
		}},
		{"on a shared static-time participant", []string{"--dar", path, "--all", "--ledger-url", srv.URL}, 1, []string{
			"PASS Time:a2030 (N ms)",
			"PASS Time:b2030again (N ms)",
			"FAIL Time:c2029: Command SetTime failed: setting the time through /ledgernode/v1/time: INVALID_ARGUMENT: " +
				"The submitted request has invalid arguments: new_time [2029-01-01T00:00:00Z] is before current_time [2030-01-01T00:00:00Z]. Setting time backwards is not allowed.",
			"2 passed, 1 failed",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := cli(context.Background(), tc.args, &out, &errOut); code != tc.code {
				t.Errorf("exit %d, want %d (stderr %s)", code, tc.code, errOut.String())
			}
			got := strings.Split(strings.TrimSpace(msTime.ReplaceAllString(out.String(), "(N ms)")), "\n")
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
		})
	}
	if want := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC); !clock.Now().Equal(want) {
		t.Errorf("the participant's time is %v, want %v (moved forward once, never back)", clock.Now(), want)
	}
}
