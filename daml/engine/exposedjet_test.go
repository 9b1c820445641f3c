package engine_test

import (
	"context"
	"math"
	"testing"

	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
)

// TestExposedCallStackJet: daml-script's getExposedCallStack, as a jet,
// gives what the Daml definition gives, interpreted, for call stacks of
// internal and user frames, empty, frozen, and with a location whose
// conversion fails in a frame dropped and in one kept; with getCallStack
// a jet (the frames converted are only those kept) and not.
func TestExposedCallStackJet(t *testing.T) {
	d := loadDAR(t, amuletTestDARName)
	script := damlScript(t, d)
	ctx := context.Background()
	exposed := lf.TypeConID{PackageID: script.ID, Module: "Daml.Script.Internal.LowLevel", Name: "getExposedCallStack"}
	if _, ok := engine.ScriptJet(script, exposed); !ok {
		t.Fatal("no jet for getExposedCallStack")
	}
	jets := func(r lf.TypeConID) (engine.Value, bool) { return engine.ScriptJet(d.Package(r.PackageID), r) }
	engines := map[string]*engine.Engine{
		"daml": engine.New(d, engine.Options{}),
		"jets": engine.New(d, engine.Options{Override: jets}),
		"jets but getCallStack": engine.New(d, engine.Options{Override: func(r lf.TypeConID) (engine.Value, bool) {
			if r.Module == "DA.Stack" && r.Name == "getCallStack" {
				return nil, false
			}
			return jets(r)
		}}),
	}
	empty, push, freeze := callStackBuilders(t, d, engines["daml"])
	const in, inMod = "daml-script-3.3.0", "Daml.Script.Internal.Questions"
	user := push("main-1.0.0", "Main", 30, push("main-1.0.0", "Main", 40, empty))
	for _, c := range []struct {
		name string
		stk  engine.Value
		// frames is the number of frames exposed, -1 for a failure.
		frames int
	}{
		{"empty", empty, 0},
		{"one user frame", push("main-1.0.0", "Main", 10, empty), 1},
		{"internal frames", push(in, inMod, 1, push(in, "Daml.Script.Internal.LowLevel", 2, user)), 2},
		{"only internal frames", push(in, inMod, 1, push(in, inMod, 2, empty)), 0},
		{"internal frames between user frames", push(in, inMod, 1, push("main-1.0.0", "Main", 5, push(in, inMod, 2, user))), 4},
		{"frozen", push(in, inMod, 1, freeze(push(in, inMod, 2, user))), 2},
		{"a dropped frame fails", push(in, inMod, math.MinInt64, user), -1},
		{"a kept frame fails", push(in, inMod, 1, push("main-1.0.0", "Main", math.MinInt64, push(in, inMod, math.MinInt64, empty))), -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			var want engine.Value
			var wantErr string
			for _, name := range []string{"daml", "jets", "jets but getCallStack"} {
				e := engines[name]
				dict := ipDict(t, e, c.stk)
				fn, err := e.EvalValue(ctx, exposed)
				if err != nil {
					t.Fatal(err)
				}
				got, err := e.Apply(ctx, fn, dict)
				gotErr := ""
				if err != nil {
					gotErr = err.Error()
				}
				if name == "daml" {
					want, wantErr = got, gotErr
					continue
				}
				if gotErr != wantErr {
					t.Fatalf("%s: fails with %q, the Daml definition with %q", name, gotErr, wantErr)
				}
				if wantErr == "" {
					if eq, err := engine.Equal(want, got); err != nil || !eq {
						t.Fatalf("%s: gives %v, the Daml definition %v (%v)", name, got, want, err)
					}
					sameScript(t, nil, nil, want, got, 0)
				}
			}
			n := -1
			if wantErr == "" {
				n = want.(*engine.List).Len()
			}
			if n != c.frames {
				t.Fatalf("%d frames (%q), want %d", n, wantErr, c.frames)
			}
		})
	}
}

// callStackBuilders gives the DA.Stack call stacks of d's daml-prim, as
// values of e: the empty stack, push (a frame of function f at a
// location of pkg's module mod, line) and freeze.
func callStackBuilders(tb testing.TB, d *lf.DAR, e *engine.Engine) (empty engine.Value, push func(pkg, mod string, line int64, stk engine.Value) engine.Value, freeze func(engine.Value) engine.Value) {
	tb.Helper()
	var prim *lf.Package
	for _, p := range d.Packages {
		if p.Name == "daml-prim" {
			prim = p
		}
	}
	if prim == nil {
		tb.Fatal("no daml-prim in the DAR")
	}
	callStack := lf.TypeConID{PackageID: prim.ID, Module: "GHC.Stack.Types", Name: "CallStack"}
	srcLoc := lf.TypeConID{PackageID: prim.ID, Module: "GHC.Stack.Types", Name: "SrcLoc"}
	tuple3 := lf.TypeConID{PackageID: "5aee9b21b8e9a4c4975b5f4c4198e6e6e8469df49e2010820e792f393db870f4", Module: "DA.Types", Name: "Tuple3"}
	record := func(id lf.TypeConID, fs ...engine.Value) engine.Value {
		r, err := e.NewRecord(id, fs...)
		if err != nil {
			tb.Fatal(err)
		}
		return r
	}
	empty = &engine.Variant{ID: callStack, Con: "EmptyCallStack", Rank: 0, Value: engine.Unit{}}
	push = func(pkg, mod string, line int64, stk engine.Value) engine.Value {
		loc := record(srcLoc, engine.Text(pkg), engine.Text(mod), engine.Text("F.daml"), engine.Int64(line), engine.Int64(2), engine.Int64(line), engine.Int64(9))
		return &engine.Variant{ID: callStack, Con: "PushCallStack", Rank: 1, Value: record(tuple3, engine.Text("f"), loc, stk)}
	}
	freeze = func(v engine.Value) engine.Value {
		return &engine.Variant{ID: callStack, Con: "FreezeCallStack", Rank: 2, Value: v}
	}
	return empty, push, freeze
}

// ipDict gives, on e, the implicit-parameter dictionary {m_ip = \_ -> stk}.
func ipDict(tb testing.TB, e *engine.Engine, stk engine.Value) engine.Value {
	tb.Helper()
	ctx := context.Background()
	ip, err := e.Eval(ctx, &lf.EAbs{Params: []lf.VarWithType{{Name: "s"}}, Body: &lf.EStructCon{Fields: []lf.FieldExpr{
		{Name: "m_ip", Expr: &lf.EAbs{Params: []lf.VarWithType{{Name: "_"}}, Body: &lf.EVar{Name: "s"}}},
	}}})
	if err != nil {
		tb.Fatal(err)
	}
	dict, err := e.Apply(ctx, ip, stk)
	if err != nil {
		tb.Fatal(err)
	}
	return dict
}
