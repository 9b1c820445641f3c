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
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
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
			code, got, stderr := runCLI(t, append([]string{"--dar", hw.path}, tc.args...), hw.adjust)
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
	code := cli(context.Background(), []string{"--dar", hw.path, "--all", "--junit", path}, &out, &errOut, hw.adjust)
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
