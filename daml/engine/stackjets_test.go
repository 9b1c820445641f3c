package engine_test

import (
	"context"
	"math"
	"testing"

	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
)

// TestStackJets: the jets of pushCallStack, getCallStack, convSrcLoc and
// dropInternalFrames give what the definitions they replace give, interpreted, on empty,
// pushed and frozen call stacks, and fail as they do on a location whose
// line is the least Int64.
func TestStackJets(t *testing.T) {
	d := loadDAR(t, amuletTestDARName)
	var prim, stdlib *lf.Package
	for _, p := range d.Packages {
		switch p.Name {
		case "daml-prim":
			prim = p
		case "daml-stdlib":
			stdlib = p
		}
	}
	if prim == nil || stdlib == nil {
		t.Fatal("no daml-prim or daml-stdlib")
	}
	ctx := context.Background()
	push := lf.TypeConID{PackageID: prim.ID, Module: "GHC.Stack.Types", Name: "pushCallStack"}
	get := lf.TypeConID{PackageID: stdlib.ID, Module: "DA.Stack", Name: "getCallStack"}
	conv := lf.TypeConID{PackageID: stdlib.ID, Module: "DA.Stack", Name: "convSrcLoc"}
	for _, ref := range []lf.TypeConID{push, get, conv} {
		if _, ok := engine.ScriptJet(d.Package(ref.PackageID), ref); !ok {
			t.Fatalf("no jet for %s", ref.Name)
		}
	}
	// Not for packages of other names.
	for _, c := range []struct {
		p   *lf.Package
		ref lf.TypeConID
	}{{prim, push}, {stdlib, get}, {stdlib, conv}} {
		other := *c.p
		other.Name = "my-" + c.p.Name
		if _, ok := engine.ScriptJet(&other, c.ref); ok {
			t.Errorf("a jet for %s in %s", c.ref.Name, other.Name)
		}
	}
	callStack := lf.TypeConID{PackageID: prim.ID, Module: "GHC.Stack.Types", Name: "CallStack"}
	srcLoc := lf.TypeConID{PackageID: prim.ID, Module: "GHC.Stack.Types", Name: "SrcLoc"}
	tuple2 := lf.TypeConID{PackageID: "5aee9b21b8e9a4c4975b5f4c4198e6e6e8469df49e2010820e792f393db870f4", Module: "DA.Types", Name: "Tuple2"}
	daml := engine.New(d, engine.Options{})
	jets := engine.New(d, engine.Options{Override: func(r lf.TypeConID) (engine.Value, bool) {
		return engine.ScriptJet(d.Package(r.PackageID), r)
	}})
	loc := func(line int64) engine.Value {
		r, err := daml.NewRecord(srcLoc, engine.Text("pkg"), engine.Text("M"), engine.Text("M.daml"), engine.Int64(line), engine.Int64(2), engine.Int64(line), engine.Int64(9))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	frame := func(fn string, line int64) engine.Value {
		r, err := daml.NewRecord(tuple2, engine.Text(fn), loc(line))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	empty := &engine.Variant{ID: callStack, Con: "EmptyCallStack", Rank: 0, Value: engine.Unit{}}
	freeze := func(v engine.Value) engine.Value {
		return &engine.Variant{ID: callStack, Con: "FreezeCallStack", Rank: 2, Value: v}
	}
	// run applies ref on both engines and compares the values, or the
	// failures.
	run := func(t *testing.T, ref lf.TypeConID, args ...engine.Value) engine.Value {
		t.Helper()
		var got [2]engine.Value
		var errs [2]string
		for i, e := range []*engine.Engine{daml, jets} {
			fn, err := e.EvalValue(ctx, ref)
			if err != nil {
				t.Fatal(err)
			}
			v, err := e.Apply(ctx, fn, args...)
			if err != nil {
				errs[i] = err.Error()
			}
			got[i] = v
		}
		if errs[0] != errs[1] {
			t.Fatalf("%s: jet fails with %q, the Daml definition with %q", ref.Name, errs[1], errs[0])
		}
		if errs[0] == "" {
			if eq, err := engine.Equal(got[0], got[1]); err != nil || !eq {
				t.Fatalf("%s: jet gives %v, the Daml definition %v (%v)", ref.Name, got[1], got[0], err)
			}
			// The same types of records and variants too (Equal
			// compares their fields).
			sameScript(t, nil, nil, got[0], got[1], 0)
		}
		return got[0]
	}
	t.Run("push and get", func(t *testing.T) {
		s1 := run(t, push, frame("f", 10), empty)
		s2 := run(t, push, frame("g", 20), s1)
		s3 := run(t, push, frame("h", 30), freeze(s2))
		s4 := run(t, push, frame("i", 40), run(t, push, frame("j", 50), freeze(empty)))
		for _, s := range []engine.Value{empty, s1, s2, freeze(s2), s3, s4, freeze(freeze(s1))} {
			run(t, get, s)
		}
	})
	t.Run("dropInternalFrames", func(t *testing.T) {
		script := damlScript(t, d)
		drop := lf.TypeConID{PackageID: script.ID, Module: "Daml.Script.Internal.LowLevel", Name: "dropInternalFrames"}
		if _, ok := engine.ScriptJet(script, drop); !ok {
			t.Fatal("no jet for dropInternalFrames")
		}
		daLoc := lf.TypeConID{PackageID: "60c61c542207080e97e378ab447cc355ecc47534b3a3ebbff307c4fb8339bc4d", Module: "DA.Stack.Types", Name: "SrcLoc"}
		fr := func(pkg, mod string) engine.Value {
			l, err := daml.NewRecord(daLoc, engine.Text(pkg), engine.Text(mod), engine.Text("F.daml"), engine.Int64(1), engine.Int64(2), engine.Int64(3), engine.Int64(4))
			if err != nil {
				t.Fatal(err)
			}
			r, err := daml.NewRecord(tuple2, engine.Text("f"), l)
			if err != nil {
				t.Fatal(err)
			}
			return r
		}
		in := fr("daml-script-3.3.0", "Daml.Script.Internal.LowLevel")
		for _, l := range [][]engine.Value{
			nil,
			{in},
			{in, in},
			{in, fr("main-1.0.0", "Main"), in},
			{fr("main-1.0.0", "Main"), in},
			{fr("daml-script-3.3.0", "Main"), in},
			{fr("main", "Daml.Script"), in},
			{fr("daml-script-", "Daml.Script"), fr("daml-script", "Daml.Script"), in},
			{fr("daml3-script-3.2", "Daml.Script.Internal"), in},
			{fr("daml-script-é", "Daml.Scripté"), fr("", "")},
		} {
			run(t, drop, engine.ListOf(l...))
		}
	})
	t.Run("callStack", func(t *testing.T) {
		cs := lf.TypeConID{PackageID: stdlib.ID, Module: "DA.Stack", Name: "callStack"}
		if _, ok := engine.ScriptJet(stdlib, cs); !ok {
			t.Fatal("no jet for callStack")
		}
		// ip s is the implicit parameter {m_ip = \_ -> s}; ipErr's
		// m_ip fails.
		ip, err := daml.Eval(ctx, &lf.EAbs{Params: []lf.VarWithType{{Name: "s"}}, Body: &lf.EStructCon{Fields: []lf.FieldExpr{
			{Name: "m_ip", Expr: &lf.EAbs{Params: []lf.VarWithType{{Name: "_"}}, Body: &lf.EVar{Name: "s"}}},
		}}})
		if err != nil {
			t.Fatal(err)
		}
		ipErr, err := daml.Eval(ctx, &lf.EStructCon{Fields: []lf.FieldExpr{
			{Name: "m_ip", Expr: &lf.EAbs{Params: []lf.VarWithType{{Name: "_"}}, Body: &lf.EApp{
				Fun: &lf.EBuiltinFun{Fun: lf.BuiltinError}, Args: []lf.Expr{&lf.EText{Value: "no stack"}},
			}}},
		}})
		if err != nil {
			t.Fatal(err)
		}
		dict := func(s engine.Value) engine.Value {
			v, err := daml.Apply(ctx, ip, s)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		s1 := run(t, push, frame("f", 10), empty)
		s2 := run(t, push, frame("g", 20), s1)
		for _, s := range []engine.Value{empty, s1, s2, freeze(empty), freeze(s2)} {
			run(t, get, run(t, cs, dict(s)))
		}
		run(t, cs, ipErr)
	})
	t.Run("conv", func(t *testing.T) {
		run(t, conv, loc(1))
		run(t, conv, loc(math.MinInt64))
		s := run(t, push, frame("f", math.MinInt64), run(t, push, frame("g", 7), empty))
		run(t, get, s)
	})
}
