package script_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/script"
	"github.com/ledgernode/ledgernode/daml/script/scripttest"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/typecheck"
)

const amuletTestDAR = "../../../shared/testdata/dars/splice-amulet-test-0.1.8.dar"

// readDAR reads the Splice Amulet test DAR (it carries daml-script 3.3),
// skipping the test when ../shared is absent.
func readDAR(t *testing.T) *lf.DAR {
	t.Helper()
	dar, err := lf.ReadDAR(scripttest.ReadDAR(t, amuletTestDAR), lf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return dar
}

// scriptPackages returns the DAR's packages with a test package of
// scripts (Test:<name>), and the test package's id.
func scriptPackages(t *testing.T, dar *lf.DAR, scripts func(b *scripttest.Builder) map[string]lf.Expr) (engine.PackageMap, string) {
	t.Helper()
	b := scripttest.ForDAR(dar)
	pm, pkg := withTestPackage(t, dar.Packages, lftest.Package{Minor: "1", Name: "script-tests", Version: "1.0.0",
		Modules: []lftest.Module{{Name: "Test", Values: b.Values(scripts(b))}}})
	return pm, pkg.ID
}

// withTestPackage encodes the test package p and returns it decoded, with
// the library's packages; a test package that does not type-check (as a
// node would refuse it) fails the test.
func withTestPackage(t *testing.T, lib []*lf.Package, p lftest.Package) (engine.PackageMap, *lf.Package) {
	t.Helper()
	_, dalf := lftest.Dalf(p)
	pkg, err := lf.DecodeArchive(dalf, lf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pm := engine.PackageMap{pkg.ID: pkg}
	for _, q := range lib {
		pm[q.ID] = q
	}
	if err := typecheck.Check(pkg, pm.Package); err != nil {
		t.Errorf("the scripts do not type-check: %v", err)
	}
	return pm, pkg
}

// fakeLedger answers the time and party questions; the others fail.
type fakeLedger struct {
	script.Ledger // nil: unexpected questions panic
	now           time.Time
	parties       []string
}

func (f *fakeLedger) Time(context.Context) (time.Time, error) { return f.now, nil }
func (f *fakeLedger) SetTime(_ context.Context, t time.Time) error {
	f.now = t
	return nil
}
func (f *fakeLedger) AllocateParty(_ context.Context, hint string) (string, error) {
	f.parties = append(f.parties, hint)
	return hint + "::1220ab", nil
}
func (f *fakeLedger) Submit(context.Context, *script.Submission) (*tx.Transaction, error) {
	return nil, &script.SubmitError{Code: "DAML_AUTHORIZATION_ERROR", Message: "not authorized"}
}

func TestRunner(t *testing.T) {
	dar := readDAR(t)
	pm, id := scriptPackages(t, dar, func(b *scripttest.Builder) map[string]lf.Expr {
		throw := func(msg string) lf.Expr {
			return b.Ask("Throw", 1, b.Payload("Exceptions", "Throw", "exc", scripttest.GeneralError(msg)), b.Pure)
		}
		catch := func(inner lf.Expr) lf.Expr {
			act := b.Lam(func(lf.Expr) lf.Expr { return b.Script(inner) })
			return b.Ask("Catch", 1, b.Payload("Exceptions", "Catch", "act", act, "dummy", scripttest.Unit()), b.Pure)
		}
		return map[string]lf.Expr{
			"pure":          b.Pure(scripttest.Int(42)),
			"getTime":       b.Ask("GetTime", 1, b.Payload("Time", "GetTime"), b.Pure),
			"setThenGet":    b.Ask("SetTime", 1, b.Payload("Time", "SetTime", "time", &lf.ETimestamp{Micros: 5_000_000}), func(lf.Expr) lf.Expr { return b.Ask("GetTime", 1, b.Payload("Time", "GetTime"), b.Pure) }),
			"throw":         throw("boom"),
			"pureError":     b.Ask("GetTime", 1, b.Payload("Time", "GetTime"), func(lf.Expr) lf.Expr { return scripttest.Throw("pure boom") }),
			"unknown":       b.Ask("Frobnicate", 1, b.Payload("Time", "GetTime"), b.Pure),
			"badVersion":    b.Ask("GetTime", 2, b.Payload("Time", "GetTime"), b.Pure),
			"catchThrow":    catch(throw("caught")),
			"catchPure":     catch(b.Ask("GetTime", 1, b.Payload("Time", "GetTime"), func(lf.Expr) lf.Expr { return scripttest.Throw("pure caught") })),
			"catchOK":       catch(b.Pure(scripttest.Int(7))),
			"catchQuestion": catch(b.Ask("Frobnicate", 1, b.Payload("Time", "GetTime"), b.Pure)),
			"tryCommands": b.Ask("TryCommands", 1, b.Payload("Testing", "TryCommands", "act",
				b.Script(b.Ask("Frobnicate", 1, b.Payload("Time", "GetTime"), b.Pure))), b.Pure),
			"allocate": b.Ask("AllocateParty", 1, b.Payload("PartyManagement", "AllocateParty",
				"requestedName", scripttest.Text("alice"), "idHint", scripttest.Text("alice"), "participant", scripttest.None()), b.Pure),
			"allocateMismatch": b.Ask("AllocateParty", 1, b.Payload("PartyManagement", "AllocateParty",
				"requestedName", scripttest.Text("alice"), "idHint", scripttest.Text("bob"), "participant", scripttest.None()), b.Pure),
			"allocateBadHint": b.Ask("AllocateParty", 1, b.Payload("PartyManagement", "AllocateParty",
				"requestedName", scripttest.Text(""), "idHint", scripttest.Text("al!ce"), "participant", scripttest.None()), b.Pure),
			"validateBad":    b.Ask("ValidateUserId", 1, b.Payload("UserManagement", "ValidateUserId", "name", scripttest.Text("no (parens)")), b.Pure),
			"validateGood":   b.Ask("ValidateUserId", 1, b.Payload("UserManagement", "ValidateUserId", "name", scripttest.Text("alice@x")), b.Pure),
			"submitFails":    allocThen(b, func(p lf.Expr) lf.Expr { return b.Ask("Submit", 1, b.Submit(p, scripttest.MustSucceed), b.Pure) }),
			"submitMustFail": allocThen(b, func(p lf.Expr) lf.Expr { return b.Ask("Submit", 1, b.Submit(p, scripttest.MustFail), b.Pure) }),
		}
	})
	either := lf.TypeConID{PackageID: "5aee9b21b8e9a4c4975b5f4c4198e6e6e8469df49e2010820e792f393db870f4", Module: "DA.Types", Name: "Either"}
	tests := []struct {
		name string
		// check inspects a passing script's result; fail is a substring
		// of a failing script's reason.
		check func(t *testing.T, v engine.Value)
		fail  string
		is    func(err error) bool
	}{
		{name: "pure", check: func(t *testing.T, v engine.Value) { want(t, v, engine.Int64(42)) }},
		{name: "getTime", check: func(t *testing.T, v engine.Value) { want(t, v, engine.Timestamp(1_000_000)) }},
		{name: "setThenGet", check: func(t *testing.T, v engine.Value) { want(t, v, engine.Timestamp(5_000_000)) }},
		{name: "throw", fail: "Unhandled exception DA.Exception.GeneralError:GeneralError: boom", is: isType[*script.ThrowError]},
		{name: "pureError", fail: "pure boom", is: isType[*engine.Error]},
		{name: "unknown", fail: "Unknown command Frobnicate - Version 1 (asked by daml-script-3.3.0.20250214.13611.0)", is: isType[*script.UnknownQuestionError]},
		{name: "badVersion", fail: "Unknown command GetTime - Version 2 (asked by daml-script-3.3.0.20250214.13611.0)", is: isType[*script.UnknownQuestionError]},
		{name: "catchThrow", check: func(t *testing.T, v engine.Value) { wantLeft(t, v, either, "caught") }},
		{name: "catchPure", check: func(t *testing.T, v engine.Value) { wantLeft(t, v, either, "pure caught") }},
		{name: "catchOK", check: func(t *testing.T, v engine.Value) {
			want(t, v, &engine.Variant{ID: either, Con: "Right", Rank: 1, Value: engine.Int64(7)})
		}},
		{name: "catchQuestion", fail: "Unknown command Frobnicate", is: isType[*script.QuestionError]},
		{name: "tryCommands", check: func(t *testing.T, v engine.Value) {
			l, ok := v.(*engine.Variant)
			if !ok || l.Con != "Left" {
				t.Fatalf("got %#v, want Left", v)
			}
			r := l.Value.(*engine.Record)
			if r.Fields[0] != engine.Text("Frobnicate") || !strings.Contains(string(r.Fields[2].(engine.Text)), "Unknown command") {
				t.Errorf("Left %#v", r.Fields)
			}
		}},
		{name: "allocate", check: func(t *testing.T, v engine.Value) { want(t, v, engine.Party("alice::1220ab")) }},
		{name: "allocateMismatch", fail: "Requested name 'alice' cannot be different from id hint 'bob'", is: isType[*script.QuestionError]},
		{name: "allocateBadHint", fail: "Invalid party name: al!ce", is: isType[*script.QuestionError]},
		{name: "validateBad", check: func(t *testing.T, v engine.Value) {
			o, ok := v.(engine.Optional)
			if !ok || o.Value == nil || !strings.Contains(string(o.Value.(engine.Text)), "does not match regex") {
				t.Errorf("got %#v, want Some message", v)
			}
		}},
		{name: "validateGood", check: func(t *testing.T, v engine.Value) { want(t, v, engine.None) }},
		{name: "submitFails", fail: "Command Submit failed: DAML_AUTHORIZATION_ERROR: not authorized", is: isType[*script.SubmitError]},
		{name: "submitMustFail", check: func(t *testing.T, v engine.Value) {
			l, ok := v.(*engine.List)
			if !ok || l.Len() != 1 {
				t.Fatalf("got %#v, want one answer", v)
			}
			left, ok := l.Head.(*engine.Variant)
			if !ok || left.Con != "Left" {
				t.Fatalf("answer %#v, want Left", l.Head)
			}
			se := left.Value.(*engine.Variant)
			want(t, se.Con, "AuthorizationError")
			want(t, se.Value.(*engine.Record).Fields[0], engine.Text("not authorized"))
		}},
	}
	r := script.NewRunner(pm, script.Options{})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := &fakeLedger{now: time.Unix(1, 0).UTC()}
			v, err := r.Run(context.Background(), lf.TypeConID{PackageID: id, Module: "Test", Name: tc.name}, l)
			if tc.fail != "" {
				if err == nil {
					t.Fatalf("passed with %#v, want a failure %q", v, tc.fail)
				}
				var se *script.Error
				if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.fail) || (tc.is != nil && !tc.is(err)) {
					t.Fatalf("failure %v (%T), want a *script.Error with %q", err, errors.Unwrap(err), tc.fail)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, v)
		})
	}
}

// allocThen allocates party "alice" and continues with it.
func allocThen(b *scripttest.Builder, then func(p lf.Expr) lf.Expr) lf.Expr {
	return b.Ask("AllocateParty", 1, b.Payload("PartyManagement", "AllocateParty",
		"requestedName", scripttest.Text(""), "idHint", scripttest.Text("alice"), "participant", scripttest.None()), then)
}

func isType[E error](err error) bool {
	var e E
	return errors.As(err, &e)
}

func want(t *testing.T, got, want any) {
	t.Helper()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
}

// wantLeft checks a Left (AnyException GeneralError msg).
func wantLeft(t *testing.T, v engine.Value, either lf.TypeConID, msg string) {
	t.Helper()
	l, ok := v.(*engine.Variant)
	if !ok || l.ID != either || l.Con != "Left" {
		t.Fatalf("got %#v, want Left", v)
	}
	a, ok := l.Value.(*engine.Any)
	if !ok {
		t.Fatalf("Left %#v, want an AnyException", l.Value)
	}
	r := a.Value.(*engine.Record)
	if r.Fields[0] != engine.Text(msg) {
		t.Errorf("exception message %v, want %q", r.Fields[0], msg)
	}
}

func TestDiscover(t *testing.T) {
	dar := readDAR(t)
	ids := script.Discover(dar.Main)
	if len(ids) != 50 {
		t.Errorf("%d scripts, want 50", len(ids))
	}
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = script.Name(id)
	}
	if diff := cmp.Diff([]string{"Splice.Scripts.TestAmuletBurn:testAmuletBurn", "Splice.Scripts.Util:setupDefaultAppWithUsers"},
		[]string{names[0], names[len(names)-1]}); diff != "" {
		t.Errorf("first and last (-want +got):\n%s", diff)
	}
	for _, n := range names {
		if strings.Contains(n, ":$") {
			t.Errorf("discovered %s, a compiler-generated value", n)
		}
	}
}

// TestTrace: TRACE messages reach Options.Trace with the script's name.
func TestTrace(t *testing.T) {
	dar := readDAR(t)
	pm, id := scriptPackages(t, dar, func(b *scripttest.Builder) map[string]lf.Expr {
		return map[string]lf.Expr{
			"traced": b.Ask("GetTime", 1, b.Payload("Time", "GetTime"), func(lf.Expr) lf.Expr {
				return scripttest.Trace("hello from a script", b.Pure(scripttest.Unit()))
			}),
		}
	})
	var got []string
	r := script.NewRunner(pm, script.Options{Trace: func(s lf.TypeConID, msg string) { got = append(got, script.Name(s)+": "+msg) }})
	if _, err := r.Run(context.Background(), lf.TypeConID{PackageID: id, Module: "Test", Name: "traced"}, &fakeLedger{}); err != nil {
		t.Fatal(err)
	}
	want(t, got, []string{"Test:traced: hello from a script"})
}

// barrierLedger answers GetTime once every script of a WaitGroup asked
// it, so that they all are in the middle of their run.
type barrierLedger struct {
	fakeLedger
	wg *sync.WaitGroup
}

func (b *barrierLedger) Time(ctx context.Context) (time.Time, error) {
	b.wg.Done()
	b.wg.Wait()
	return b.fakeLedger.Time(ctx)
}

// TestTraceConcurrent: scripts running at once on one Runner share it,
// and each one's TRACE messages reach Options.Trace with its own name.
func TestTraceConcurrent(t *testing.T) {
	dar := readDAR(t)
	names := []string{"a", "b", "c"}
	pm, id := scriptPackages(t, dar, func(b *scripttest.Builder) map[string]lf.Expr {
		scripts := map[string]lf.Expr{}
		for _, n := range names {
			scripts[n] = b.Ask("GetTime", 1, b.Payload("Time", "GetTime"), func(lf.Expr) lf.Expr {
				return scripttest.Trace("from "+n, b.Pure(scripttest.Unit()))
			})
		}
		return scripts
	})
	var mu sync.Mutex
	var got []string
	r := script.NewRunner(pm, script.Options{Trace: func(s lf.TypeConID, msg string) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, script.Name(s)+": "+msg)
	}})
	var barrier, done sync.WaitGroup
	barrier.Add(len(names))
	for _, n := range names {
		done.Add(1)
		go func() {
			defer done.Done()
			if _, err := r.Run(context.Background(), lf.TypeConID{PackageID: id, Module: "Test", Name: n}, &barrierLedger{wg: &barrier}); err != nil {
				t.Error(err)
			}
		}()
	}
	done.Wait()
	slices.Sort(got)
	want(t, got, []string{"Test:a: from a", "Test:b: from b", "Test:c: from c"})
}
