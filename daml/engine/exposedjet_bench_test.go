package engine_test

import (
	"context"
	"testing"

	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
)

// BenchmarkExposedCallStackJet applies daml-script's getExposedCallStack
// jet to a call stack of two internal frames over four user frames, as
// every question a Splice script asks does (the frames walked,
// callStackFrames, and the call-stack jets' top-level values, topRef).
func BenchmarkExposedCallStackJet(b *testing.B) {
	d := loadDAR(b, amuletTestDARName)
	script := damlScript(b, d)
	var prim *lf.Package
	for _, p := range d.Packages {
		if p.Name == "daml-prim" {
			prim = p
		}
	}
	ctx := context.Background()
	e := engine.New(d, engine.Options{Override: func(r lf.TypeConID) (engine.Value, bool) { return engine.ScriptJet(d.Package(r.PackageID), r) }})
	callStack := lf.TypeConID{PackageID: prim.ID, Module: "GHC.Stack.Types", Name: "CallStack"}
	srcLoc := lf.TypeConID{PackageID: prim.ID, Module: "GHC.Stack.Types", Name: "SrcLoc"}
	tuple3 := lf.TypeConID{PackageID: "5aee9b21b8e9a4c4975b5f4c4198e6e6e8469df49e2010820e792f393db870f4", Module: "DA.Types", Name: "Tuple3"}
	record := func(id lf.TypeConID, fs ...engine.Value) engine.Value {
		r, err := e.NewRecord(id, fs...)
		if err != nil {
			b.Fatal(err)
		}
		return r
	}
	stk := engine.Value(&engine.Variant{ID: callStack, Con: "EmptyCallStack", Rank: 0, Value: engine.Unit{}})
	push := func(pkg, mod string, line int64) {
		loc := record(srcLoc, engine.Text(pkg), engine.Text(mod), engine.Text("F.daml"), engine.Int64(line), engine.Int64(2), engine.Int64(line), engine.Int64(9))
		stk = &engine.Variant{ID: callStack, Con: "PushCallStack", Rank: 1, Value: record(tuple3, engine.Text("f"), loc, stk)}
	}
	for i := range 4 {
		push("main-1.0.0", "Main", int64(10*i+10))
	}
	push("daml-script-3.3.0", "Daml.Script.Internal.LowLevel", 2)
	push("daml-script-3.3.0", "Daml.Script.Internal.Questions", 1)
	ip, err := e.Eval(ctx, &lf.EAbs{Params: []lf.VarWithType{{Name: "s"}}, Body: &lf.EStructCon{Fields: []lf.FieldExpr{
		{Name: "m_ip", Expr: &lf.EAbs{Params: []lf.VarWithType{{Name: "_"}}, Body: &lf.EVar{Name: "s"}}},
	}}})
	if err != nil {
		b.Fatal(err)
	}
	dict, err := e.Apply(ctx, ip, stk)
	if err != nil {
		b.Fatal(err)
	}
	fn, err := e.EvalValue(ctx, lf.TypeConID{PackageID: script.ID, Module: "Daml.Script.Internal.LowLevel", Name: "getExposedCallStack"})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		got, err := e.Apply(ctx, fn, dict)
		if err != nil || got.(*engine.List).Len() != 4 {
			b.Fatalf("%v, %v; want 4 frames", got, err)
		}
	}
}
