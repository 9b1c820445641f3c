package main

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/script"
)

// failure renders a script's failure as `daml test` does in its JUnit
// report (damlc's prettyBriefScriptError rendered on one line, in
// DA.Daml.LF.PrettyScript of the daml repository):
//
//   - a failed submission (and a submitMustFail that succeeded): "Script
//     execution failed on commit at Module:line:column: " and the
//     ledger's error (CODE: message), at the location of the submit call;
//   - a Daml exception the script did not catch, or a failWithStatus:
//     "Script execution failed: Failed with status: <error id>:
//     <message>", its metadata, then "Using Canton Error Category
//     <category>", as the 3.x runner turns an unhandled exception into
//     UNHANDLED_EXCEPTION/<Module>:<Name> in category 9;
//   - anything else: "Script execution failed: " and the runner's error.
//
// timeout is the per-script time limit, named when the script ran out of
// it.
func failure(err error, timeout time.Duration) string {
	var se *script.Error
	if !errors.As(err, &se) {
		return err.Error()
	}
	cause := se.Err
	var qe *script.QuestionError
	var te *script.ThrowError
	var ee *engine.Error
	switch {
	case errors.As(cause, &qe) && qe.Command == "Submit":
		at := "unknown source"
		if qe.Loc != nil {
			at = fmt.Sprintf("%s:%d:%d", qe.Loc.Module, qe.Loc.Line, qe.Loc.Column)
		}
		return "Script execution failed on commit at " + at + ": " + qe.Err.Error()
	case errors.As(cause, &qe):
		return "Script execution failed: " + qe.Error()
	case errors.As(cause, &te):
		id := "UNHANDLED_EXCEPTION/" + exceptionName(te.Exception)
		return "Script execution failed: " + failedWithStatus(id, te.Message, nil, int64(apierr.InvalidGivenCurrentSystemStateOther))
	case errors.As(cause, &ee) && ee.Kind == engine.ErrFailureStatus:
		return "Script execution failed: " + failedWithStatus(ee.ErrorID, ee.Message, ee.Metadata, ee.Category)
	case errors.Is(cause, context.DeadlineExceeded):
		return fmt.Sprintf("Script execution failed: Evaluation timed out after %d seconds", int(timeout.Seconds()))
	}
	return "Script execution failed: " + cause.Error()
}

// failedWithStatus is damlc's rendering of a FailureStatus error.
func failedWithStatus(id, msg string, meta map[string]string, category int64) string {
	s := "Failed with status: " + id + ": " + msg
	if len(meta) > 0 {
		s += " Including the following metadata:"
		for _, k := range slices.Sorted(maps.Keys(meta)) {
			s += " " + k + ": " + meta[k]
		}
	}
	return s + " Using Canton Error Category " + apierr.Category(category).String()
}

// exceptionName is Module:Name of an exception's type.
func exceptionName(exc *engine.Any) string {
	if tc, ok := exc.Type.(*lf.TCon); ok {
		return tc.ID.Module + ":" + tc.ID.Name
	}
	return fmt.Sprint(exc.Type)
}

// The JUnit report is damlc's (`daml test --junit FILE`, toJUnit of
// DA.Cli.Damlc.Test in the daml repository): a testsuites element with
// the errors (always 0), failures and tests counts, one testsuite per
// source file (name, tests) and in it one testcase per script (name: the
// script's value name; classname: the file), a failed one holding a
// failure element whose text is the failure. damlc names a file by its
// path in the project; a DAR stores its sources by module path
// (Module/Name.daml), which is used here.

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Errors   int          `xml:"errors,attr"`
	Failures int          `xml:"failures,attr"`
	Tests    int          `xml:"tests,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name  string      `xml:"name,attr"`
	Tests int         `xml:"tests,attr"`
	Cases []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string  `xml:"name,attr"`
	Classname string  `xml:"classname,attr"`
	Failure   *string `xml:"failure"`
}

// sourceFile is the path of a module's source in a DAR.
func sourceFile(module string) string { return strings.ReplaceAll(module, ".", "/") + ".daml" }

// writeJUnit writes the JUnit report of the scripts' results (failures
// the failure texts, "" for a pass) to path, creating its directory as
// damlc does.
func writeJUnit(path string, ids []lf.TypeConID, failures []string) error {
	r := junitSuites{}
	suite := map[string]int{}
	for i, id := range ids {
		file := sourceFile(id.Module)
		k, ok := suite[file]
		if !ok {
			k = len(r.Suites)
			suite[file] = k
			r.Suites = append(r.Suites, junitSuite{Name: file})
		}
		c := junitCase{Name: id.Name, Classname: file}
		if failures[i] != "" {
			c.Failure = &failures[i]
			r.Failures++
		}
		r.Suites[k].Cases = append(r.Suites[k].Cases, c)
		r.Suites[k].Tests++
		r.Tests++
	}
	data, err := xml.Marshal(r)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	// xml-light's showTopElement header, as damlc writes it.
	return os.WriteFile(path, append([]byte("<?xml version='1.0' ?>"), data...), 0o644)
}
