package engine_test

import (
	"context"
	"testing"

	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
)

// TestScriptMonadJets: the jets of the Script monad (>>=, pure, fmap,
// <*> and liftScript of Daml.Script.Internal.LowLevel's Script) give what the
// definitions they replace give, interpreted: scripts whose runScript
// gives the same Pure and Free values, with continuations that give the
// same when answered, for scripts that finish and scripts that stop at
// questions, nested.
func TestScriptMonadJets(t *testing.T) {
	d := loadDAR(t, amuletTestDARName)
	p := damlScript(t, d)
	ctx := context.Background()
	ref := func(module, name string) lf.TypeConID {
		return lf.TypeConID{PackageID: p.ID, Module: module, Name: name}
	}
	const free, low = "Daml.Script.Internal.Free", "Daml.Script.Internal.LowLevel"
	names := []string{"$$c$u003e$u003e$u003d", "$$cpure", "$$cfmap2", "$$c$u003c$u002a$u003e", "liftScript"}
	for _, name := range names {
		if _, ok := engine.ScriptJet(p, ref(low, name)); !ok {
			t.Fatalf("no jet for %s", name)
		}
	}
	type monad struct {
		c                       *scriptJetCase
		bind, pure, fmap, ap    engine.Value
		lift, wpure             engine.Value
		got, pair, pureGot, bad engine.Value
	}
	val := func(name string) lf.Expr { return &lf.EVal{Ref: ref(low, name)} }
	v := func(n string) lf.Expr { return &lf.EVar{Name: n} }
	lam := func(body lf.Expr, params ...string) lf.Expr {
		var ps []lf.VarWithType
		for _, n := range params {
			ps = append(ps, lf.VarWithType{Name: n})
		}
		return &lf.EAbs{Params: ps, Body: body}
	}
	app := func(f lf.Expr, args ...lf.Expr) lf.Expr { return &lf.EApp{Fun: f, Args: args} }
	got := func(fields ...string) lf.Expr {
		var fs []lf.FieldExpr
		for _, n := range fields {
			fs = append(fs, lf.FieldExpr{Name: "got_" + n, Expr: v(n)})
		}
		return &lf.EStructCon{Fields: fs}
	}
	mk := func(jets bool) *monad {
		opts := engine.Options{}
		if jets {
			opts.Override = func(r lf.TypeConID) (engine.Value, bool) { return engine.ScriptJet(d.Package(r.PackageID), r) }
		}
		c := &scriptJetCase{e: engine.New(d, opts)}
		m := &monad{c: c}
		for _, x := range []struct {
			v *engine.Value
			x lf.Expr
		}{
			{&m.bind, val("$$c$u003e$u003e$u003d")},
			{&m.pure, val("$$cpure")},
			{&m.fmap, val("$$cfmap2")},
			{&m.ap, val("$$c$u003c$u002a$u003e")},
			{&m.lift, val("liftScript")},
			{&m.wpure, &lf.EVal{Ref: ref(free, "$$WPure")}},
			// got x = {got_x = x}
			{&m.got, lam(got("x"), "x")},
			// pair x = \y -> {got_x = x, got_y = y}
			{&m.pair, lam(lam(got("x", "y"), "y"), "x")},
			// pureGot x = pure {got_x = x}
			{&m.pureGot, lam(app(val("$$cpure"), got("x")), "x")},
			// bad x = x: not a script
			{&m.bad, lam(v("x"), "x")},
		} {
			r, err := c.e.Eval(ctx, x.x)
			if err != nil {
				t.Fatal(err)
			}
			*x.v = r
		}
		return m
	}
	daml, jet := mk(false), mk(true)
	freeID := ref(free, "Free")
	apply := func(m *monad, fn engine.Value, args ...engine.Value) engine.Value {
		t.Helper()
		r, err := m.c.e.Apply(ctx, fn, args...)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	// question is liftScript (Free (ScriptF (Question name 1 () [] Pure))).
	question := func(m *monad, name string) engine.Value {
		q, err := m.c.e.NewRecord(ref(low, "Question"), engine.Text(name), engine.Int64(1), engine.Unit{}, (*engine.List)(nil), m.wpure)
		if err != nil {
			t.Fatal(err)
		}
		sf, err := m.c.e.NewRecord(ref(low, "ScriptF"), q)
		if err != nil {
			t.Fatal(err)
		}
		return apply(m, m.lift, &engine.Variant{ID: freeID, Con: "Free", Rank: 1, Value: sf})
	}
	// run is runScript s ().
	run := func(m *monad, s engine.Value) engine.Value {
		t.Helper()
		r, ok := s.(*engine.Record)
		if !ok || len(r.Fields) != 2 {
			t.Fatalf("not a Script: %v", s)
		}
		return apply(m, r.Fields[0], engine.Unit{})
	}
	for _, tc := range []struct {
		name string
		s    func(m *monad) engine.Value
	}{
		{"pure", func(m *monad) engine.Value { return apply(m, m.pure, engine.Int64(5)) }},
		{"liftScript Pure", func(m *monad) engine.Value {
			return apply(m, m.lift, &engine.Variant{ID: freeID, Con: "Pure", Rank: 0, Value: engine.Int64(5)})
		}},
		{"liftScript question", func(m *monad) engine.Value { return question(m, "Q") }},
		{"bind pure", func(m *monad) engine.Value {
			return apply(m, m.bind, apply(m, m.pure, engine.Int64(5)), m.pureGot)
		}},
		{"bind question", func(m *monad) engine.Value { return apply(m, m.bind, question(m, "Q"), m.pureGot) }},
		{"bind bind question", func(m *monad) engine.Value {
			s := apply(m, m.bind, question(m, "Q"), m.pureGot)
			return apply(m, m.bind, s, m.pureGot)
		}},
		{"bind to a question", func(m *monad) engine.Value {
			// k x = question "R" (the answer of Q is dropped).
			k, err := m.c.e.Eval(ctx, lam(app(val("liftScript"), app(&lf.EVal{Ref: ref(free, "$$WPure")}, v("x"))), "x"))
			if err != nil {
				t.Fatal(err)
			}
			s := apply(m, m.bind, question(m, "Q"), k)
			return apply(m, m.bind, s, m.pureGot)
		}},
		{"fmap pure", func(m *monad) engine.Value { return apply(m, m.fmap, m.got, apply(m, m.pure, engine.Int64(5))) }},
		{"fmap question", func(m *monad) engine.Value { return apply(m, m.fmap, m.got, question(m, "Q")) }},
		{"fmap fmap bind question", func(m *monad) engine.Value {
			s := apply(m, m.bind, question(m, "Q"), m.pureGot)
			return apply(m, m.fmap, m.got, apply(m, m.fmap, m.got, s))
		}},
		{"ap pure pure", func(m *monad) engine.Value {
			return apply(m, m.ap, apply(m, m.pure, apply(m, m.pair, engine.Int64(1))), apply(m, m.pure, engine.Int64(2)))
		}},
		{"ap question question", func(m *monad) engine.Value {
			return apply(m, m.ap, apply(m, m.fmap, m.pair, question(m, "Q")), question(m, "R"))
		}},
		{"bind ap", func(m *monad) engine.Value {
			s := apply(m, m.ap, apply(m, m.fmap, m.pair, question(m, "Q")), apply(m, m.pure, engine.Int64(2)))
			return apply(m, m.bind, s, m.pureGot)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sameScript(t, daml.c, jet.c, run(daml, tc.s(daml)), run(jet, tc.s(jet)), 4)
		})
	}
	// A continuation that is not a Script fails on both.
	for _, m := range []*monad{daml, jet} {
		s := apply(m, m.bind, apply(m, m.pure, engine.Int64(5)), m.bad)
		if v, err := m.c.e.Apply(ctx, s.(*engine.Record).Fields[0], engine.Unit{}); err == nil {
			t.Errorf("binding to a non-script gave %v", v)
		}
	}
}

// BenchmarkScriptMonad: a script of a question under eight nested Script
// binds and fmaps (as helper functions nest in a test script), run to
// its question and answered, with daml-script's Daml definitions, with
// the free monad's jets only, and with all the jets (free monad, Script
// monad). Skipped without ../shared.
func BenchmarkScriptMonad(b *testing.B) {
	d := loadDAR(b, amuletTestDARName)
	p := damlScript(b, d)
	ctx := context.Background()
	ref := func(module, name string) lf.TypeConID {
		return lf.TypeConID{PackageID: p.ID, Module: module, Name: name}
	}
	const free, low = "Daml.Script.Internal.Free", "Daml.Script.Internal.LowLevel"
	// The Script monad's own jets, left out in "free-jets".
	scriptMonad := map[string]bool{"$$c$u003e$u003e$u003d": true, "$$cfmap2": true, "$$cpure": true, "$$c$u003c$u002a$u003e": true, "liftScript": true}
	for _, name := range []string{"daml", "free-jets", "jets"} {
		opts := engine.Options{}
		if name != "daml" {
			opts.Override = func(r lf.TypeConID) (engine.Value, bool) {
				if name == "free-jets" && r.Module == low && scriptMonad[r.Name] {
					return nil, false
				}
				return engine.ScriptJet(d.Package(r.PackageID), r)
			}
		}
		b.Run(name, func(b *testing.B) {
			e := engine.New(d, opts)
			val := func(module, name string) engine.Value {
				v, err := e.EvalValue(ctx, ref(module, name))
				if err != nil {
					b.Fatal(err)
				}
				return v
			}
			bind, fmap, pure, lift, wpure := val(low, "$$c$u003e$u003e$u003d"), val(low, "$$cfmap2"), val(low, "$$cpure"), val(low, "liftScript"), val(free, "$$WPure")
			id, err := e.Eval(ctx, &lf.EAbs{Params: []lf.VarWithType{{Name: "x"}}, Body: &lf.EVar{Name: "x"}})
			if err != nil {
				b.Fatal(err)
			}
			q, err := e.NewRecord(ref(low, "Question"), engine.Text("Q"), engine.Int64(1), engine.Unit{}, (*engine.List)(nil), wpure)
			if err != nil {
				b.Fatal(err)
			}
			sf, err := e.NewRecord(ref(low, "ScriptF"), q)
			if err != nil {
				b.Fatal(err)
			}
			apply := func(fn engine.Value, args ...engine.Value) engine.Value {
				v, err := e.Apply(ctx, fn, args...)
				if err != nil {
					b.Fatal(err)
				}
				return v
			}
			s := apply(lift, &engine.Variant{ID: ref(free, "Free"), Con: "Free", Rank: 1, Value: sf})
			for i := range 8 {
				if i%2 == 0 {
					s = apply(bind, s, pure)
				} else {
					s = apply(fmap, id, s)
				}
			}
			run := s.(*engine.Record).Fields[0]
			b.ReportAllocs()
			for b.Loop() {
				fr := apply(run, engine.Unit{}).(*engine.Variant)
				cont := fr.Value.(*engine.Record).Fields[0].(*engine.Record).Fields[4]
				if v := apply(cont, engine.Int64(7)).(*engine.Variant); v.Rank != 0 {
					b.Fatalf("not Pure: %v", v)
				}
			}
		})
	}
}
