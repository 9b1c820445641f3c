package main

import (
	"archive/zip"
	"bytes"
	"context"
	"go/parser"
	"go/token"
	"io"
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

// handWritten is a DAR of hand-written scripts over the Splice DAR's
// daml-script library, and what nodes hold to run them. The scripts'
// package is not well typed (scripttest erases types) and nodes refuse
// it, so it stays off them: the runner reads it from the DAR, the nodes
// hold the templates the scripts use, in a package of their own.
type handWritten struct {
	// path is the DAR (--dar): the scripts' package (main), the
	// templates' package and the daml-script library.
	path string
	// model is a DAR of the templates' package alone, which nodes hold.
	model []byte
	// scripts is the main package's id, modelID the templates'.
	scripts, modelID string
}

// modelPackage is the templates' package of the hand-written scripts:
// Main:T {owner} with a consuming choice Go, and Main:U {owner} without
// choices.
func modelPackage() lftest.Package {
	p := lftest.TemplatePackage("cli-tests-model", "1.0.0", nil, lftest.Field{Name: "owner", Type: lftest.B(lftest.Party)})
	p.Modules[0].DataTypes = append(p.Modules[0].DataTypes, lftest.DataType{Name: "U", Serializable: true,
		Fields: []lftest.Field{{Name: "owner", Type: lftest.B(lftest.Party)}}})
	p.Modules[0].Templates = append(p.Modules[0].Templates, lftest.Template{Name: "U"})
	// Go's argument is the record Main:Go, as damlc makes a choice's.
	p.Modules[0].DataTypes = append(p.Modules[0].DataTypes, lftest.DataType{Name: "Go", Serializable: true})
	p.Modules[0].Templates[0].Choices[0].Arg = lftest.Con(lftest.Self(), "Main", "Go")
	return p
}

// writeHandWritten writes a DAR whose main package (name) holds the
// scripts in module, over modelPackage and the Splice DAR's daml-script
// library.
func writeHandWritten(t *testing.T, name, module string, scripts func(b *scripttest.Builder, model string) map[string]lf.Expr) handWritten {
	t.Helper()
	base := readBase(t)
	dar, err := lf.ReadDAR(base, lf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b := scripttest.ForDAR(dar)
	model, ids := lftest.DAR(modelPackage())
	_, modelDalf := lftest.Dalf(modelPackage())
	vals, err := b.TypedValues(scripts(b, ids[0]))
	if err != nil {
		t.Fatalf("the hand-written scripts do not type-check: %v", err)
	}
	// LF 2.2, as the model package lftest builds: a package may not
	// depend on one of a newer LF version.
	id, dalf := lftest.Dalf(lftest.Package{Minor: "2", Name: name, Version: "1.0.0", Modules: []lftest.Module{
		{Name: module, Values: vals},
	}})
	data, err := scripttest.ExtendDAR(base, dalf)
	if err != nil {
		t.Fatal(err)
	}
	// The model goes in when the scripts use it: a DAR holds exactly its
	// main package's dependency closure.
	pkg, err := lf.DecodeArchive(dalf, lf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(pkg.DirectDeps, ids[0]) {
		data = addDalf(t, data, "cli-tests-model.dalf", modelDalf)
	}
	path := filepath.Join(t.TempDir(), name+".dar")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return handWritten{path: path, model: model, scripts: id, modelID: ids[0]}
}

// addDalf returns the DAR with one more dalf, listed in its manifest.
func addDalf(t *testing.T, dar []byte, name string, dalf []byte) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(dar), int64(len(dar)))
	if err != nil {
		t.Fatal(err)
	}
	var files []lftest.File
	var names []string
	for _, f := range zr.File {
		if f.Name == "META-INF/MANIFEST.MF" {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, lftest.File{Name: f.Name, Data: data})
		names = append(names, f.Name)
	}
	files = append(files, lftest.File{Name: name, Data: dalf})
	names = append(names, name)
	manifest := lftest.File{Name: "META-INF/MANIFEST.MF", Data: []byte(lftest.ManifestText(names[0], names))}
	return lftest.Zip(append([]lftest.File{manifest}, files...)...)
}

// testDAR writes the DAR of the scripts (package cli-tests, module Test)
// ok; assertFail (an uncaught exception); mustFailSucceeds (a
// submitMustFail that creates a Main:U); unknown (an unknown question);
// createArchive (creates a Main:T and exercises Go on it); and
// submitFails (dave creates carol's Main:T: refused, the submit called
// at Test:12:3). Each allocates parties of its own: the scripts may share
// a ledger (--ledger-url).
func testDAR(t *testing.T) handWritten {
	t.Helper()
	return writeHandWritten(t, "cli-tests", "Test", func(b *scripttest.Builder, model string) map[string]lf.Expr {
		T := lf.TypeConID{PackageID: model, Module: "Main", Name: "T"}
		U := lf.TypeConID{PackageID: model, Module: "Main", Name: "U"}
		goArg := lf.TypeConID{PackageID: model, Module: "Main", Name: "Go"}
		return map[string]lf.Expr{
			"ok":         b.Pure(scripttest.Unit()),
			"assertFail": b.Ask("Throw", 1, b.Payload("Exceptions", "Throw", "exc", scripttest.GeneralError("assertion failed: 1 == 2")), b.Pure),
			"mustFailSucceeds": b.Alloc("mallory", func(p lf.Expr) lf.Expr {
				return b.Ask("Submit", 1, b.Submit(p, scripttest.MustFail, b.CreateCmd(U, scripttest.Record(U, 0, "owner", p))), b.Pure)
			}),
			"unknown": b.Ask("Frobnicate", 1, b.Payload("Time", "GetTime"), b.Pure),
			"createArchive": b.Alloc("alice", func(p lf.Expr) lf.Expr {
				return b.Ask("Submit", 1, b.Submit(p, scripttest.MustSucceed, b.CreateCmd(T, scripttest.Record(T, 0, "owner", p))), func(ans lf.Expr) lf.Expr {
					return b.CreatedCid(ans, func(cid lf.Expr) lf.Expr {
						return b.Ask("Submit", 1, b.Submit(p, scripttest.MustSucceed, b.ExerciseCmd(T, cid, goArg, scripttest.Record(goArg, 0))), b.Pure)
					})
				})
			}),
			"submitFails": b.Alloc("carol", func(carol lf.Expr) lf.Expr {
				return b.Alloc("dave", func(dave lf.Expr) lf.Expr {
					return askAt(b, "Submit", b.Submit(dave, scripttest.MustSucceed, b.CreateCmd(T, scripttest.Record(T, 0, "owner", carol))),
						"submit", "Test", 11, 2, b.Pure)
				})
			}),
		}
	})
}

// askAt is b.Ask of version 1 with a call stack: the question asked by
// calling fn at module:line:col (0-based, as SrcLoc holds them).
func askAt(b *scripttest.Builder, name string, payload lf.Expr, fn, module string, line, col int64, then func(lf.Expr) lf.Expr) lf.Expr {
	const daStackTypes = "60c61c542207080e97e378ab447cc355ecc47534b3a3ebbff307c4fb8339bc4d"
	const daTypes = "5aee9b21b8e9a4c4975b5f4c4198e6e6e8469df49e2010820e792f393db870f4"
	loc := scripttest.Record(lf.TypeConID{PackageID: daStackTypes, Module: "DA.Stack.Types", Name: "SrcLoc"}, 0,
		"srcLocPackage", scripttest.Text("cli-tests"), "srcLocModule", scripttest.Text(module), "srcLocFile", scripttest.Text(sourceFile(module)),
		"srcLocStartLine", scripttest.Int(line), "srcLocStartCol", scripttest.Int(col), "srcLocEndLine", scripttest.Int(line), "srcLocEndCol", scripttest.Int(col+6))
	frame := scripttest.Record(lf.TypeConID{PackageID: daTypes, Module: "DA.Types", Name: "Tuple2"}, 2, "_1", scripttest.Text(fn), "_2", loc)
	return b.AskAt(name, 1, payload, scripttest.List(frame), then)
}

var (
	msTime  = regexp.MustCompile(`\(\d+\.\d\d ms\)`)
	partyID = regexp.MustCompile(`::1220[0-9a-f]{64}`)
)

// want is the report of testDAR's scripts with --all.
func (h handWritten) want() []string {
	return []string{
		"FAIL Test:assertFail: Script execution failed: Failed with status: UNHANDLED_EXCEPTION/DA.Exception.GeneralError:GeneralError: assertion failed: 1 == 2 Using Canton Error Category InvalidGivenCurrentSystemStateOther",
		"PASS Test:createArchive (N ms)",
		"FAIL Test:mustFailSucceeds: Script execution failed on commit at unknown source: Expected submit to fail but it succeeded",
		"PASS Test:ok (N ms)",
		"FAIL Test:submitFails: Script execution failed on commit at Test:12:3: DAML_AUTHORIZATION_ERROR: " +
			"Interpretation error: Error: node NodeId(0) (" + h.modelID + ":Main:T) requires authorizers carol::N, but only dave::N were given",
		"FAIL Test:unknown: Script execution failed: Command Frobnicate failed: Unknown command Frobnicate - Version 1 (asked by daml-script-3.3.0.20250214.13611.0)",
		"2 passed, 4 failed",
	}
}

// runCLI runs the command line and returns its exit status and its
// output's lines, durations as "(N ms)".
func runCLI(t *testing.T, args []string) (int, []string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := cli(context.Background(), args, &out, &errOut)
	s := partyID.ReplaceAllString(msTime.ReplaceAllString(out.String(), "(N ms)"), "::N")
	return code, strings.Split(strings.TrimSpace(s), "\n"), errOut.String()
}

func TestCLI(t *testing.T) {
	hw := testDAR(t)
	path := hw.path
	tests := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"all", []string{"--dar", path, "--all"}, 1, hw.want()},
		{"all in parallel", []string{"--dar", path, "--all", "-p", "3"}, 1, hw.want()},
		{"one passing", []string{"--dar", path, "--script-name", "Test:ok"}, 0, []string{"PASS Test:ok (N ms)", "1 passed, 0 failed"}},
		{"unknown name", []string{"--dar", path, "--script-name", "Test:nope"}, 1, []string{"FAIL Test:nope: Script execution failed: no value Test:nope in package " + hw.scripts, "0 passed, 1 failed"}},
		{"no dar", []string{"--all"}, 2, nil},
		{"all and a name", []string{"--dar", path, "--all", "--script-name", "Test:ok"}, 2, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, got, stderr := runCLI(t, tc.args)
			if code != tc.code {
				t.Errorf("exit %d, want %d (stderr %s)", code, tc.code, stderr)
			}
			if tc.want == nil {
				return
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
		})
	}
}

// serve serves a node that holds the DAR over the JSON Ledger API (as
// ledgerd -auth none) and returns its URL.
func serve(t *testing.T, dar []byte) string {
	node, _ := ledgertest.OpenStatic(t, ledger.Options{}, time.Unix(0, 0))
	ledgertest.MustUploadDAR(t, node, dar)
	srv := httptest.NewServer(httpadapter.New(node, httpadapter.Options{Logger: slog.New(slog.DiscardHandler)}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestCLIRemote runs scripts against a node served over the JSON Ledger
// API (as ledgerd -auth none), with --ledger-url.
func TestCLIRemote(t *testing.T) {
	hw := testDAR(t)
	path := hw.path
	tests := []struct {
		name string
		dar  []byte
		args []string
		code int
		want []string
	}{
		{"hand-written scripts", hw.model, []string{"--dar", path, "--all"}, 1, hw.want()},
		{"a Splice script", readBase(t), []string{"--dar", amuletTestDAR, "--script-name", "Splice.Scripts.TestLockAndAmuletExpiry:testExpireAmulet"}, 0, []string{
			"PASS Splice.Scripts.TestLockAndAmuletExpiry:testExpireAmulet (N ms)",
			"1 passed, 0 failed",
		}},
		{"no token file", hw.model, []string{"--dar", path, "--all", "--access-token-file", filepath.Join(t.TempDir(), "none")}, 1, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, got, stderr := runCLI(t, append(tc.args, "--ledger-url", serve(t, tc.dar)))
			if code != tc.code {
				t.Errorf("exit %d, want %d (stderr %s)", code, tc.code, stderr)
			}
			if tc.want == nil {
				return
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSpliceAmuletSuite runs the acceptance suite: every script of
// Splice's Amulet test DAR passes (skipped with -short: about 15 s). The
// same run writes the JUnit report and the coverage report, checked
// against the DAR (checkAmuletCoverage).
func TestSpliceAmuletSuite(t *testing.T) {
	readBase(t)
	if testing.Short() {
		t.Skip("-short: the whole Splice suite takes about 15 s")
	}
	junit := filepath.Join(t.TempDir(), "junit.xml")
	var out, errOut bytes.Buffer
	if code := cli(context.Background(), []string{"--dar", amuletTestDAR, "--all", "-p", "2", "--junit", junit, "--show-coverage"}, &out, &errOut); code != 0 {
		t.Errorf("exit %d:\n%s", code, out.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	i := slices.Index(lines, "Modules internal to this package:")
	if i < 1 || lines[i-1] != "50 passed, 0 failed" {
		t.Fatalf("report:\n%s", out.String())
	}
	if r := readJUnit(t, junit, lines[:i]); r.Tests != 50 {
		t.Errorf("JUnit report of %d tests, want 50", r.Tests)
	}
	checkAmuletCoverage(t, readBase(t), lines[i:])
}

func TestReasonIsCut(t *testing.T) {
	long := strings.Repeat("é", maxReason)
	got := cut(long)
	if !strings.HasSuffix(got, "… (2000 more bytes)") || !utf8ValidPrefix(got) {
		t.Errorf("reason of %d bytes: %q…", len(long), got[:40])
	}
	if got := cut("short"); got != "short" {
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
func timeDAR(t *testing.T) handWritten {
	t.Helper()
	return writeHandWritten(t, "time-tests", "Time", func(b *scripttest.Builder, _ string) map[string]lf.Expr {
		setTime := func(at time.Time) lf.Expr {
			return b.Ask("SetTime", 1, b.Payload("Time", "SetTime", "time", &lf.ETimestamp{Micros: at.UnixMicro()}), b.Pure)
		}
		return map[string]lf.Expr{
			"a2030":      setTime(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)),
			"b2030again": setTime(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)),
			"c2029":      setTime(time.Date(2029, 1, 1, 0, 0, 0, 0, time.UTC)),
		}
	})
}

// TestSharedTime: against a participant on static time (--ledger-url),
// the scripts share its time, which only moves forward, as against a
// Canton participant: setting the time the ledger shows is allowed, and a
// script that sets a time before it fails with Canton's time-service
// error, although each of them passes on a fresh node of its own.
func TestSharedTime(t *testing.T) {
	hw := timeDAR(t)
	path := hw.path
	node, clock := ledgertest.OpenStatic(t, ledger.Options{}, time.Unix(0, 0))
	ledgertest.MustUploadDAR(t, node, hw.model)
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
			"FAIL Time:c2029: Script execution failed: Command SetTime failed: setting the time through /ledgernode/v1/time: INVALID_ARGUMENT: " +
				"The submitted request has invalid arguments: new_time [2029-01-01T00:00:00Z] is before current_time [2030-01-01T00:00:00Z]. Setting time backwards is not allowed.",
			"2 passed, 1 failed",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, got, stderr := runCLI(t, tc.args)
			if code != tc.code {
				t.Errorf("exit %d, want %d (stderr %s)", code, tc.code, stderr)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
		})
	}
	if want := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC); !clock.Now().Equal(want) {
		t.Errorf("the participant's time is %v, want %v (moved forward once, never back)", clock.Now(), want)
	}
}
