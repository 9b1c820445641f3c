package engine_test

import (
	"context"
	"testing"

	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
)

// freeDicts returns an engine over the Splice Amulet test DAR and the ids
// of daml-script's $fActionFree (Functor f => Action (Free f)) and
// $fFunctorScriptF (Functor ScriptF).
func freeDicts(tb testing.TB) (e *engine.Engine, actionFree, functorScriptF lf.TypeConID) {
	d := loadDAR(tb, "splice-amulet-test-0.1.8.dar")
	for _, p := range d.Packages {
		if p.Name == "daml-script" && p.Module("Daml.Script.Internal.Free") != nil {
			return engine.New(d, engine.Options{}),
				lf.TypeConID{PackageID: p.ID, Module: "Daml.Script.Internal.Free", Name: "$$fActionFree"},
				lf.TypeConID{PackageID: p.ID, Module: "Daml.Script.Internal.LowLevel", Name: "$$fFunctorScriptF"}
		}
	}
	tb.Fatal("no daml-script in the DAR")
	return nil, lf.TypeConID{}, lf.TypeConID{}
}

// TestDictionaryFunctionKept: the dictionary an instance's dictionary
// function builds from a dictionary is built once: evaluating
// $fActionFree $fFunctorScriptF again gives the same struct (by
// identity), with the methods of Action.
func TestDictionaryFunctionKept(t *testing.T) {
	e, actionFree, functorScriptF := freeDicts(t)
	ctx := context.Background()
	// The argument, a top-level value, evaluated (as it is after its
	// first use).
	if _, err := e.EvalValue(ctx, functorScriptF); err != nil {
		t.Fatal(err)
	}
	app := &lf.EApp{Fun: &lf.EVal{Ref: actionFree}, Args: []lf.Expr{&lf.EVal{Ref: functorScriptF}}}
	first, err := e.Eval(ctx, app)
	if err != nil {
		t.Fatal(err)
	}
	s, ok := first.(*engine.Struct)
	if !ok {
		t.Fatalf("$fActionFree $fFunctorScriptF = %T, want a struct", first)
	}
	hasBind := false
	for _, n := range s.Names {
		hasBind = hasBind || n == "m_$u003e$u003e$u003d" // m_>>=
	}
	if !hasBind {
		t.Errorf("the Action dictionary's fields are %v, want m_>>= ($u003e$u003e$u003d) among them", s.Names)
	}
	again, err := e.Eval(ctx, app)
	if err != nil {
		t.Fatal(err)
	}
	if again != first {
		t.Errorf("$fActionFree $fFunctorScriptF built a second dictionary")
	}
}
