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
	ctx := context.Background()
	e := engine.New(d, engine.Options{Override: func(r lf.TypeConID) (engine.Value, bool) { return engine.ScriptJet(d.Package(r.PackageID), r) }})
	stk, push, _ := callStackBuilders(b, d, e)
	for i := range 4 {
		stk = push("main-1.0.0", "Main", int64(10*i+10), stk)
	}
	stk = push("daml-script-3.3.0", "Daml.Script.Internal.LowLevel", 2, stk)
	stk = push("daml-script-3.3.0", "Daml.Script.Internal.Questions", 1, stk)
	dict := ipDict(b, e, stk)
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
