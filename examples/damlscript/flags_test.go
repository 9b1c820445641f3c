package main

import (
	"context"
	"errors"
	"fmt"
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
