package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/script"
)

// TestTestPattern: --test-pattern runs the scripts whose value name (not
// the module) contains the text, as daml test --test-pattern.
func TestTestPattern(t *testing.T) {
	hw := testDAR(t)
	all := hw.want()
	tests := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"a subset", []string{"--test-pattern", "Fail"}, 1, []string{all[0], all[2], all[4], "0 passed, 3 failed"}},
		{"with --all", []string{"--all", "--test-pattern", "ok"}, 0, []string{"PASS Test:ok (N ms)", "1 passed, 0 failed"}},
		{"the module is not matched", []string{"--test-pattern", "Test"}, 0, []string{"0 passed, 0 failed"}},
		{"not a regular expression", []string{"--test-pattern", "o."}, 0, []string{"0 passed, 0 failed"}},
		{"not with --script-name", []string{"--test-pattern", "ok", "--script-name", "Test:ok"}, 2, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, got, stderr := runCLI(t, append([]string{"--dar", hw.path}, tc.args...))
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

// junitReport is the JUnit XML damlc writes, as a reader parses it.
type junitReport struct {
	XMLName  xml.Name `xml:"testsuites"`
	Errors   int      `xml:"errors,attr"`
	Failures int      `xml:"failures,attr"`
	Tests    int      `xml:"tests,attr"`
	Suites   []struct {
		Name  string `xml:"name,attr"`
		Tests int    `xml:"tests,attr"`
		Cases []struct {
			Name      string  `xml:"name,attr"`
			Classname string  `xml:"classname,attr"`
			Failure   *string `xml:"failure"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

var summary = regexp.MustCompile(`^(\d+) passed, (\d+) failed$`)

// readJUnit parses a JUnit report and checks its counts against the
// printed summary (the last line of out): tests and failures equal the
// summary's, and the testcases are as many, failures as many.
func readJUnit(t *testing.T, path string, out []string) junitReport {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte("<?xml version='1.0' ?><testsuites ")) {
		t.Errorf("report starts %.60q, want xml-light's header then testsuites", data)
	}
	var r junitReport
	if err := xml.Unmarshal(data, &r); err != nil {
		t.Fatalf("the report is not well-formed XML: %v\n%s", err, data)
	}
	m := summary.FindStringSubmatch(out[len(out)-1])
	if m == nil {
		t.Fatalf("no summary in %q", out)
	}
	passed, _ := strconv.Atoi(m[1])
	failed, _ := strconv.Atoi(m[2])
	cases, failures := 0, 0
	for _, s := range r.Suites {
		if s.Tests != len(s.Cases) {
			t.Errorf("testsuite %s: tests=%d, %d testcases", s.Name, s.Tests, len(s.Cases))
		}
		for _, c := range s.Cases {
			cases++
			if c.Failure != nil {
				failures++
			}
		}
	}
	if r.Tests != passed+failed || r.Failures != failed || r.Errors != 0 || cases != r.Tests || failures != r.Failures {
		t.Errorf("testsuites tests=%d failures=%d errors=%d with %d testcases, %d failed; summary %q",
			r.Tests, r.Failures, r.Errors, cases, failures, out[len(out)-1])
	}
	return r
}

// TestJUnit: --junit writes damlc's JUnit XML: one testsuite per module
// file, one testcase per script, a failure's text the reason the report
// prints, counts equal to the summary's; the report's directory is
// created.
func TestJUnit(t *testing.T) {
	hw := testDAR(t)
	path := filepath.Join(t.TempDir(), "reports", "junit.xml")
	var out, errOut bytes.Buffer
	code := cli(context.Background(), []string{"--dar", hw.path, "--all", "--junit", path}, &out, &errOut)
	if code != 1 {
		t.Errorf("exit %d, want 1 (stderr %s)", code, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	r := readJUnit(t, path, lines)
	// The reason each FAIL line prints, by script.
	reasons := map[string]string{}
	for _, l := range lines {
		if name, reason, ok := strings.Cut(strings.TrimPrefix(l, "FAIL Test:"), ": "); ok && strings.HasPrefix(l, "FAIL ") {
			reasons[name] = reason
		}
	}
	type tc struct{ Name, Classname, Failure string }
	var got []tc
	for _, s := range r.Suites {
		if s.Name != "Test.daml" {
			t.Errorf("testsuite %q, want Test.daml", s.Name)
		}
		for _, c := range s.Cases {
			f := ""
			if c.Failure != nil {
				f = *c.Failure
			}
			got = append(got, tc{c.Name, c.Classname, f})
		}
	}
	var want []tc
	for _, name := range []string{"assertFail", "createArchive", "mustFailSucceeds", "ok", "submitFails", "unknown"} {
		want = append(want, tc{name, "Test.daml", reasons[name]})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("testcases (-want +got):\n%s", diff)
	}
	if !strings.Contains(reasons["submitFails"], "on commit at Test:12:3: DAML_AUTHORIZATION_ERROR: ") {
		t.Errorf("submitFails failed with %q, want its location and the ledger's error", reasons["submitFails"])
	}
}

// TestShowCoverage: --show-coverage prints damlc's coverage report of the
// passing scripts together: createArchive created a Main:T and exercised
// its Go; mustFailSucceeds created a Main:U, but it failed, and failed
// scripts do not count. The templates are in a package of the DAR other
// than its main one: external.
func TestShowCoverage(t *testing.T) {
	hw := testDAR(t)
	code, got, stderr := runCLI(t, []string{"--dar", hw.path, "--all", "-p", "2", "--show-coverage"})
	if code != 1 {
		t.Errorf("exit %d, want 1 (stderr %s)", code, stderr)
	}
	want := append(hw.want(),
		"Modules internal to this package:",
		"- Internal templates",
		"  0 defined",
		"  0 (100.0%) created",
		"  internal templates never created: 0",
		"- Internal template choices",
		"  0 defined",
		"  0 (100.0%) exercised",
		"  internal template choices never exercised: 0",
		"- Internal interface implementations",
		"  0 defined",
		"    0 internal interfaces",
		"    0 external interfaces",
		"- Internal interface choices",
		"  0 defined",
		"  0 (100.0%) exercised",
		"  internal interface choices never exercised: 0",
		"Modules external to this package:",
		"- External templates",
		"  2 defined",
		"  1 ( 50.0%) created in any tests",
		"  1 ( 50.0%) created in internal tests",
		"  0 (  0.0%) created in external tests",
		"  external templates never created: 1",
		"    cli-tests-model:Main:U",
		"- External template choices",
		"  3 defined",
		"  1 ( 33.3%) exercised in any tests",
		"  1 ( 33.3%) exercised in internal tests",
		"  0 (  0.0%) exercised in external tests",
		"  external template choices never exercised: 2",
		"    cli-tests-model:Main:T:Archive",
		"    cli-tests-model:Main:U:Archive",
		"- External interface implementations",
		"  0 defined",
		"- External interface choices",
		"  0 defined",
		"  0 (100.0%) exercised in any tests",
		"  0 (100.0%) exercised in internal tests",
		"  0 (100.0%) exercised in external tests",
		"  external interface choices never exercised: 0",
	)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
}

// TestCoverageReportInternal: the definitions of the DAR's main package
// are internal, printed without their package's name; choices are listed
// by choice name first, as damlc's maps sort them.
func TestCoverageReportInternal(t *testing.T) {
	data, ids := lftest.DAR(modelPackage())
	dar, err := lf.ReadDAR(data, lf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	T := lf.TypeConID{PackageID: ids[0], Module: "Main", Name: "T"}
	cov := newCoverage()
	cov.created[T] = true
	cov.exercised[choiceOn{"Go", T}] = true
	cov.exercised[choiceOn{"Go", lf.TypeConID{PackageID: "elsewhere", Module: "Main", Name: "T"}}] = true // not the DAR's
	var out bytes.Buffer
	writeCoverage(&out, dar, cov, true)
	want := `Modules internal to this package:
- Internal templates
  2 defined
  1 ( 50.0%) created
  internal templates never created: 1
    Main:U
- Internal template choices
  3 defined
  1 ( 33.3%) exercised
  internal template choices never exercised: 2
    Main:T:Archive
    Main:U:Archive
- Internal interface implementations
  0 defined
    0 internal interfaces
    0 external interfaces
- Internal interface choices
  0 defined
  0 (100.0%) exercised
  internal interface choices never exercised: 0
Modules external to this package:
- External templates
  0 defined
  0 (100.0%) created in any tests
  0 (100.0%) created in internal tests
  0 (100.0%) created in external tests
  external templates never created: 0
- External template choices
  0 defined
  0 (100.0%) exercised in any tests
  0 (100.0%) exercised in internal tests
  0 (100.0%) exercised in external tests
  external template choices never exercised: 0
- External interface implementations
  0 defined
- External interface choices
  0 defined
  0 (100.0%) exercised in any tests
  0 (100.0%) exercised in internal tests
  0 (100.0%) exercised in external tests
  external interface choices never exercised: 0

`
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("report (-want +got):\n%s", diff)
	}
}

// TestPct: damlc's percentages are printf "%5.1f" of Haskell, which
// rounds the shortest decimal digits, a tie to even.
func TestPct(t *testing.T) {
	for _, tc := range []struct {
		n, d int
		want string
	}{
		{0, 0, "100.0"},
		{0, 3, "  0.0"},
		{1, 3, " 33.3"},
		{2, 3, " 66.7"},
		{3, 3, "100.0"},
		{1, 16, "  6.2"},     // 6.25: a tie, to even
		{3, 16, " 18.8"},     // 18.75: a tie, to even
		{127, 2000, "  6.4"}, // 6.35 (shortest digits): a tie to even; Go's %.1f says 6.3
		{1, 7, " 14.3"},
		{4, 3, "100.0"}, // at most 100
	} {
		if got := pct(tc.n, tc.d); got != tc.want {
			t.Errorf("pct(%d, %d) = %q, want %q", tc.n, tc.d, got, tc.want)
		}
	}
}

// TestFailure: a failure's text, as damlc's JUnit report renders it.
func TestFailure(t *testing.T) {
	id := lf.TypeConID{Module: "Test", Name: "s"}
	generalError := &engine.Any{Type: &lf.TCon{ID: lf.TypeConID{Module: "DA.Exception.GeneralError", Name: "GeneralError"}}}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"a failed submission", &script.Error{Script: id, Err: &script.QuestionError{Command: "Submit", Location: "submit at Test:4",
			Loc: &script.SrcLoc{Function: "submit", Module: "Test", Line: 4, Column: 3}, Err: &script.SubmitError{Code: "CONTRACT_NOT_FOUND", Message: "Contract could not be found"}}},
			"Script execution failed on commit at Test:4:3: CONTRACT_NOT_FOUND: Contract could not be found"},
		{"a failed submission, no location", &script.Error{Script: id, Err: &script.QuestionError{Command: "Submit", Err: errors.New("Expected submit to fail but it succeeded")}},
			"Script execution failed on commit at unknown source: Expected submit to fail but it succeeded"},
		{"another question", &script.Error{Script: id, Err: &script.QuestionError{Command: "AllocateParty", Location: "allocateParty at Test:2", Err: errors.New("boom")}},
			"Script execution failed: Command AllocateParty failed: boom (at allocateParty at Test:2)"},
		{"an uncaught exception", &script.Error{Script: id, Err: &script.ThrowError{Exception: generalError, Message: "ohno"}},
			"Script execution failed: Failed with status: UNHANDLED_EXCEPTION/DA.Exception.GeneralError:GeneralError: ohno Using Canton Error Category InvalidGivenCurrentSystemStateOther"},
		{"failWithStatus", &script.Error{Script: id, Err: &engine.Error{Kind: engine.ErrFailureStatus, ErrorID: "my-error", Category: 8, Message: "bad input",
			Metadata: map[string]string{"b": "2", "a": "1"}}},
			"Script execution failed: Failed with status: my-error: bad input Including the following metadata: a: 1 b: 2 Using Canton Error Category InvalidIndependentOfSystemState"},
		{"a timeout", &script.Error{Script: id, Err: fmt.Errorf("waiting: %w", context.DeadlineExceeded)},
			"Script execution failed: Evaluation timed out after 60 seconds"},
		{"not a script's failure", errors.New("opening the node: disk full"), "opening the node: disk full"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := failure(tc.err, 60*time.Second); got != tc.want {
				t.Errorf("failure:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// coverageSection is a "- " section of a coverage report as printed.
type coverageSection struct {
	defined int
	// counts are the "N (P%) what" lines: what → N and P as printed.
	counts map[string]struct {
		n   int
		pct string
	}
	// lists are the "variety: N" lists (N checked against the items).
	lists map[string][]string
	// interfaces are the "N internal/external interfaces" lines.
	interfaces map[string]int
}

var (
	countLine = regexp.MustCompile(`^  (\d+) \(([ \d.]{5})%\) (.+)$`)
	listLine  = regexp.MustCompile(`^  (.+): (\d+)$`)
	ifaceLine = regexp.MustCompile(`^    (\d+) (internal|external) interfaces$`)
)

// parseCoverage parses a coverage report's lines by section.
func parseCoverage(t *testing.T, lines []string) map[string]*coverageSection {
	t.Helper()
	sections := map[string]*coverageSection{}
	var cur *coverageSection
	var list string
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "Modules "):
			cur = nil
		case strings.HasPrefix(l, "- "):
			cur = &coverageSection{counts: map[string]struct {
				n   int
				pct string
			}{}, lists: map[string][]string{}, interfaces: map[string]int{}}
			sections[l[2:]] = cur
			list = ""
		case cur == nil:
			t.Errorf("line %q outside a section", l)
		case strings.HasSuffix(l, " defined"):
			cur.defined, _ = strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(l, " defined")))
		case countLine.MatchString(l):
			m := countLine.FindStringSubmatch(l)
			n, _ := strconv.Atoi(m[1])
			cur.counts[m[3]] = struct {
				n   int
				pct string
			}{n, m[2]}
		case ifaceLine.MatchString(l):
			m := ifaceLine.FindStringSubmatch(l)
			cur.interfaces[m[2]], _ = strconv.Atoi(m[1])
		case listLine.MatchString(l):
			m := listLine.FindStringSubmatch(l)
			list = m[1]
			cur.lists[list] = []string{}
		case strings.HasPrefix(l, "    ") && list != "":
			cur.lists[list] = append(cur.lists[list], l[4:])
		default:
			t.Errorf("unexpected line %q", l)
		}
	}
	return sections
}

// checkAmuletCoverage checks the coverage report of the whole Amulet
// suite against the DAR: each section's "defined" is the count of the
// DAR's templates, choices, interface instances and interface choices
// (Archive excepted) of the main package (internal) and of the others
// (external); each list names definitions of the DAR and holds
// defined − created (or exercised) of them; each percentage is that
// count over defined; the suite creates and exercises external ones.
func checkAmuletCoverage(t *testing.T, data []byte, lines []string) {
	t.Helper()
	dar, err := lf.ReadDAR(data, lf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	type defs struct {
		templates, choices, instances, ifaceChoices map[string]bool
		internalIfaces, externalIfaces              int
	}
	mk := func() *defs {
		return &defs{templates: map[string]bool{}, choices: map[string]bool{}, instances: map[string]bool{}, ifaceChoices: map[string]bool{}}
	}
	local, external := mk(), mk()
	for _, p := range dar.Packages {
		d, prefix := external, p.Name+":"
		if p == dar.Main {
			d, prefix = local, ""
		}
		for _, m := range p.Modules {
			for _, tp := range m.Templates {
				name := prefix + m.Name + ":" + tp.Name
				d.templates[name] = true
				for _, ch := range tp.Choices {
					d.choices[name+":"+ch.Name] = true
				}
				for _, ifc := range tp.Implements {
					d.instances[name+" "+ifc.String()] = true
					if ifc.PackageID == dar.Main.ID {
						d.internalIfaces++
					} else {
						d.externalIfaces++
					}
					ip := dar.Package(ifc.PackageID)
					if ip == nil || ip.Interface(ifc.Module, ifc.Name) == nil {
						continue
					}
					for _, ch := range ip.Interface(ifc.Module, ifc.Name).Choices {
						if ch.Name != "Archive" {
							d.ifaceChoices[name+":"+ch.Name+" "+ifc.String()] = true
						}
					}
				}
			}
		}
	}
	names := func(m map[string]bool) map[string]bool { // the printed names: without the interface
		out := map[string]bool{}
		for k := range m {
			n, _, _ := strings.Cut(k, " ")
			out[n] = true
		}
		return out
	}
	sections := parseCoverage(t, lines)
	check := func(section string, defined map[string]bool, counts []string, list string) {
		s := sections[section]
		if s == nil {
			t.Errorf("no section %q", section)
			return
		}
		if s.defined != len(defined) {
			t.Errorf("%s: %d defined, the DAR has %d", section, s.defined, len(defined))
		}
		if counts == nil {
			return
		}
		never, ok := s.lists[list]
		if !ok {
			t.Errorf("%s: no list %q", section, list)
		}
		valid := names(defined)
		for _, n := range never {
			if !valid[n] {
				t.Errorf("%s: %q is not one of the DAR's", section, n)
			}
		}
		covered := len(defined) - len(never)
		for i, what := range counts {
			c, ok := s.counts[what]
			want := covered
			if i == 2 { // "in external tests": only the main package's scripts run
				want = 0
			}
			if !ok || c.n != want || c.pct != pct(want, len(defined)) {
				t.Errorf("%s: %q is %d (%q%%), want %d (%q%%)", section, what, c.n, c.pct, want, pct(want, len(defined)))
			}
		}
	}
	check("Internal templates", local.templates, []string{"created"}, "internal templates never created")
	check("Internal template choices", local.choices, []string{"exercised"}, "internal template choices never exercised")
	check("Internal interface implementations", local.instances, nil, "")
	check("Internal interface choices", local.ifaceChoices, []string{"exercised"}, "internal interface choices never exercised")
	check("External templates", external.templates,
		[]string{"created in any tests", "created in internal tests", "created in external tests"}, "external templates never created")
	check("External template choices", external.choices,
		[]string{"exercised in any tests", "exercised in internal tests", "exercised in external tests"}, "external template choices never exercised")
	check("External interface implementations", external.instances, nil, "")
	check("External interface choices", external.ifaceChoices,
		[]string{"exercised in any tests", "exercised in internal tests", "exercised in external tests"}, "external interface choices never exercised")
	if s := sections["Internal interface implementations"]; s != nil &&
		(s.interfaces["internal"] != local.internalIfaces || s.interfaces["external"] != local.externalIfaces) {
		t.Errorf("internal interface implementations of %v interfaces, the DAR's are %d internal, %d external", s.interfaces, local.internalIfaces, local.externalIfaces)
	}
	for _, section := range []string{"External templates", "External template choices"} {
		if s := sections[section]; s != nil && s.counts["created in any tests"].n+s.counts["exercised in any tests"].n == 0 {
			t.Errorf("%s: the suite covered none", section)
		}
	}
	t.Logf("coverage of the Amulet suite:\n%s", strings.Join(lines, "\n"))
}

// TestHeapLimit: the memory limit set once the packages are loaded is
// 135 MiB, or four times the live heap when that is more, so that the
// collector never runs for a heap that is mostly live.
func TestHeapLimit(t *testing.T) {
	for _, tc := range []struct {
		live uint64
		want int64
	}{
		{0, 135 << 20},
		{30 << 20, 135 << 20},
		{33 << 20, 135 << 20},
		{34 << 20, 136 << 20},
		{1 << 30, 4 << 30},
	} {
		if got := heapLimit(tc.live); got != tc.want {
			t.Errorf("heapLimit(%d MiB) = %d MiB, want %d MiB", tc.live>>20, got>>20, tc.want>>20)
		}
	}
}

// TestSetupHeapLimit: while the collector is paused for the setup, the
// memory limit is 135 MiB, or 64 times the DAR's size when that is more.
func TestSetupHeapLimit(t *testing.T) {
	for _, tc := range []struct {
		darSize int
		want    int64
	}{
		{0, 135 << 20},
		{1 << 20, 135 << 20},
		{3 << 20, 192 << 20},
		{1 << 30, 64 << 30},
	} {
		if got := setupHeapLimit(tc.darSize); got != tc.want {
			t.Errorf("setupHeapLimit(%d) = %d MiB, want %d MiB", tc.darSize, got>>20, tc.want>>20)
		}
	}
}

// TestAfterNextGC: the function runs once a collection has run.
func TestAfterNextGC(t *testing.T) {
	done := make(chan struct{})
	afterNextGC(func() { close(done) })
	deadline := time.After(10 * time.Second)
	for {
		runtime.GC()
		select {
		case <-done:
			return
		case <-deadline:
			t.Fatal("did not run after collections")
		case <-time.After(time.Millisecond):
		}
	}
}
