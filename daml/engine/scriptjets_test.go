package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
)

const amuletTestDARName = "splice-amulet-test-0.1.8.dar"

// damlScript returns the daml-script package of the Splice Amulet test
// DAR.
func damlScript(tb testing.TB, d *lf.DAR) *lf.Package {
	for _, p := range d.Packages {
		if p.Name == "daml-script" {
			return p
		}
	}
	tb.Fatal("no daml-script in " + amuletTestDARName)
	return nil
}

// scriptJetCase is one engine the script jets are tested on: the Daml
// definitions or the jets, with the values of the free monad built on it.
type scriptJetCase struct {
	e                *engine.Engine
	bind, fmap, pure engine.Value
	dFunctor         engine.Value
}

// TestScriptJet: the jets of daml-script's free monad give what the
// definitions they replace give, interpreted: the same Pure and Free
// variants, questions and scripts, and continuations that give the same
// when applied, for binds and fmaps on a script that stopped at a question
// and on one that finished, nested.
func TestScriptJet(t *testing.T) {
	d := loadDAR(t, amuletTestDARName)
	p := damlScript(t, d)
	ctx := context.Background()
	ref := func(module, name string) lf.TypeConID {
		return lf.TypeConID{PackageID: p.ID, Module: module, Name: name}
	}
	const free, low = "Daml.Script.Internal.Free", "Daml.Script.Internal.LowLevel"
	for _, name := range [][2]string{{free, "$$c$u003e$u003e$u003d"}, {free, "$$cfmap"}, {low, "$$cfmap"}, {low, "$$cfmap1"}} {
		if _, ok := engine.ScriptJet(p, ref(name[0], name[1])); !ok {
			t.Fatalf("no jet for %s:%s", name[0], name[1])
		}
	}
	mk := func(jets bool) *scriptJetCase {
		opts := engine.Options{}
		if jets {
			opts.Override = func(r lf.TypeConID) (engine.Value, bool) { return engine.ScriptJet(d.Package(r.PackageID), r) }
		}
		c := &scriptJetCase{e: engine.New(d, opts)}
		for _, x := range []struct {
			v   *engine.Value
			ref lf.TypeConID
		}{
			{&c.bind, ref(free, "$$c$u003e$u003e$u003d")},
			{&c.fmap, ref(free, "$$cfmap")},
			{&c.pure, ref(free, "$$WPure")},
			{&c.dFunctor, ref(low, "$$fFunctorScriptF")},
		} {
			v, err := c.e.EvalValue(ctx, x.ref)
			if err != nil {
				t.Fatal(err)
			}
			*x.v = v
		}
		return c
	}
	daml, jet := mk(false), mk(true)
	freeID := ref(free, "Free")
	question := func(c *scriptJetCase, name string) engine.Value {
		q, err := c.e.NewRecord(ref(low, "Question"), engine.Text(name), engine.Int64(1), engine.Unit{}, (*engine.List)(nil), c.pure)
		if err != nil {
			t.Fatal(err)
		}
		sf, err := c.e.NewRecord(ref(low, "ScriptF"), q)
		if err != nil {
			t.Fatal(err)
		}
		return &engine.Variant{ID: freeID, Con: "Free", Rank: 1, Value: sf}
	}
	pure5 := &engine.Variant{ID: freeID, Con: "Pure", Rank: 0, Value: engine.Int64(5)}
	apply := func(c *scriptJetCase, fn engine.Value, args ...engine.Value) engine.Value {
		t.Helper()
		v, err := c.e.Apply(ctx, fn, args...)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		name string
		run  func(c *scriptJetCase) engine.Value
	}{
		{"bind Pure", func(c *scriptJetCase) engine.Value { return apply(c, c.bind, c.dFunctor, pure5, c.pure) }},
		{"bind Free", func(c *scriptJetCase) engine.Value { return apply(c, c.bind, c.dFunctor, question(c, "Q"), c.pure) }},
		{"bind bind Free", func(c *scriptJetCase) engine.Value {
			inner := apply(c, c.bind, c.dFunctor, question(c, "Q"), c.pure)
			return apply(c, c.bind, c.dFunctor, inner, c.pure)
		}},
		{"bind bind bind Free, f observable", func(c *scriptJetCase) engine.Value {
			// f x = Pure {got = x}, a bind that is not the identity
			// (binding pure is).
			f, err := c.e.Eval(ctx, &lf.EAbs{Params: []lf.VarWithType{{Name: "x"}}, Body: &lf.EVariantCon{
				Type: lf.TypeConApp{ID: freeID}, Con: "Pure",
				Arg: &lf.EStructCon{Fields: []lf.FieldExpr{{Name: "got", Expr: &lf.EVar{Name: "x"}}}},
			}})
			if err != nil {
				t.Fatal(err)
			}
			v := apply(c, c.bind, c.dFunctor, question(c, "Q"), f)
			v = apply(c, c.bind, c.dFunctor, v, f)
			return apply(c, c.bind, c.dFunctor, v, f)
		}},
		{"bind on two Functors", func(c *scriptJetCase) engine.Value {
			// The fmap of each dictionary, whichever the engine asked
			// last (Engine.fmapMemo).
			other, err := c.e.Eval(ctx, otherFunctor)
			if err != nil {
				t.Fatal(err)
			}
			var out []engine.Value
			for _, d := range []engine.Value{c.dFunctor, other, other, c.dFunctor, other} {
				out = append(out, apply(c, c.bind, d, question(c, "Q"), c.pure))
			}
			return engine.ListOf(out...)
		}},
		{"fmap Pure", func(c *scriptJetCase) engine.Value { return apply(c, c.fmap, c.dFunctor, c.pure, pure5) }},
		{"fmap Free", func(c *scriptJetCase) engine.Value { return apply(c, c.fmap, c.dFunctor, c.pure, question(c, "Q")) }},
		{"fmap fmap Free", func(c *scriptJetCase) engine.Value {
			inner := apply(c, c.fmap, c.dFunctor, c.pure, question(c, "Q"))
			return apply(c, c.fmap, c.dFunctor, c.pure, inner)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sameScript(t, daml, jet, tc.run(daml), tc.run(jet), 4)
		})
	}
}

// otherFunctor is a Functor dictionary whose fmap gives "other".
var otherFunctor = &lf.EStructCon{Fields: []lf.FieldExpr{
	{Name: "m_fmap", Expr: &lf.EAbs{Params: []lf.VarWithType{{Name: "_"}}, Body: &lf.EAbs{
		Params: []lf.VarWithType{{Name: "f"}, {Name: "x"}},
		Body:   &lf.EText{Value: "other"},
	}}},
	{Name: "m_$u003c$$", Expr: &lf.EAbs{Params: []lf.VarWithType{{Name: "_"}}, Body: &lf.EText{Value: "unused"}}},
}}

// sameScript fails unless a (of engine ca) and b (of cb) are the same
// values, functions being the same when they give the same for the same
// argument (engine.Int64(7)), depth levels of functions deep.
func sameScript(t *testing.T, ca, cb *scriptJetCase, a, b engine.Value, depth int) {
	t.Helper()
	switch x := a.(type) {
	case *engine.PAP:
		y, ok := b.(*engine.PAP)
		if !ok || x.Arity() != y.Arity() {
			t.Fatalf("function of arity %d, got %T %v", x.Arity(), b, b)
		}
		if depth == 0 || x.Arity() != 1 {
			return
		}
		va, err := ca.e.Apply(context.Background(), x, engine.Int64(7))
		if err != nil {
			t.Fatal(err)
		}
		vb, err := cb.e.Apply(context.Background(), y, engine.Int64(7))
		if err != nil {
			t.Fatal(err)
		}
		sameScript(t, ca, cb, va, vb, depth-1)
	case *engine.List:
		y, ok := b.(*engine.List)
		if !ok || x.Len() != y.Len() {
			t.Fatalf("%v, got %v", a, b)
		}
		for ; x != nil; x, y = x.Tail, y.Tail {
			sameScript(t, ca, cb, x.Head, y.Head, depth)
		}
	case *engine.Variant:
		y, ok := b.(*engine.Variant)
		if !ok || x.ID != y.ID || x.Con != y.Con || x.Rank != y.Rank {
			t.Fatalf("%v, got %v", a, b)
		}
		sameScript(t, ca, cb, x.Value, y.Value, depth)
	case *engine.Record:
		y, ok := b.(*engine.Record)
		if !ok || x.Type.ID != y.Type.ID || !slices.Equal(x.Type.Fields, y.Type.Fields) || len(x.Fields) != len(y.Fields) {
			t.Fatalf("%v, got %v", a, b)
		}
		for i := range x.Fields {
			sameScript(t, ca, cb, x.Fields[i], y.Fields[i], depth)
		}
	default:
		if eq, err := engine.Equal(a, b); err != nil || !eq {
			t.Fatalf("%v, got %v (%v)", a, b, err)
		}
	}
}

// TestScriptJetRefusals: no jet for a definition of a package of another
// name, for a daml-script definition without one, or for one whose body
// or type is not the one the jet implements.
func TestScriptJetRefusals(t *testing.T) {
	p := damlScript(t, ownAmuletDAR(t))
	const free, low = "Daml.Script.Internal.Free", "Daml.Script.Internal.LowLevel"
	bind := p.Value(free, "$$c$u003e$u003e$u003d")
	fmap := p.Value(free, "$$cfmap")
	other := *p
	other.Name = "my-script"
	for _, c := range []struct {
		name   string
		p      *lf.Package
		module string
		value  string
		change func()
	}{
		{"other package", &other, free, "$$c$u003e$u003e$u003d", nil},
		{"no package", nil, free, "$$c$u003e$u003e$u003d", nil},
		{"no jet", p, free, "$$fActionFree", nil},
		{"no jet", p, low, "$$fActionScript", nil},
		// The Script monad's jets stand in for Free's definitions too.
		{"other dependency", p, low, "$$cpure", func() { p.Value(free, "$$WPure").SetBody(fmap.Body()) }},
		{"other body", p, free, "$$c$u003e$u003e$u003d", func() { bind.SetBody(fmap.Body()) }},
		{"other type", p, free, "$$cfmap", func() { fmap.Type = bind.Type }},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.change != nil {
				if _, ok := engine.ScriptJet(c.p, lf.TypeConID{PackageID: p.ID, Module: c.module, Name: c.value}); !ok {
					t.Fatal("no jet before the change")
				}
				c.change()
			}
			if v, ok := engine.ScriptJet(c.p, lf.TypeConID{PackageID: p.ID, Module: c.module, Name: c.value}); ok {
				t.Errorf("a jet %v", v)
			}
		})
	}
}

// ownAmuletDAR reads the Splice Amulet test DAR into packages of the
// test's own (not the process-wide cache's), so that the test may change
// their definitions; it skips the test without the DAR.
func ownAmuletDAR(t *testing.T) *lf.DAR {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(sharedDARs(), amuletTestDARName))
	if err != nil {
		t.Skipf("real DAR not found (%v)", err)
	}
	d, err := lf.ReadDAR(data, lf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}
