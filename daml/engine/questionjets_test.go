package engine_test

import (
	"context"
	"testing"

	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
)

// questionJetEnv is the Splice Amulet test DAR's daml-script library on
// two engines, interpreting daml-script's definitions ("daml") and with
// the script jets ("jets"), both with dangerousCast the identity (as the
// runner has it), and builders of the values the tests give them.
type questionJetEnv struct {
	t                testing.TB
	d                *lf.DAR
	script, prim     *lf.Package
	stdlib           *lf.Package
	daml, jets       *scriptJetCase
	callStack, loc   lf.TypeConID
	tuple3           lf.TypeConID
	question, queryQ lf.TypeConID
}

const lowLevel = "Daml.Script.Internal.LowLevel"

// newQuestionJetEnv returns the engines of d, the jets' engine asking
// override first (a nil value it gives is no jet).
func newQuestionJetEnv(t testing.TB, d *lf.DAR, override func(lf.TypeConID) (engine.Value, bool)) *questionJetEnv {
	x := &questionJetEnv{t: t, d: d, script: damlScript(t, d)}
	for _, p := range d.Packages {
		switch p.Name {
		case "daml-prim":
			x.prim = p
		case "daml-stdlib":
			x.stdlib = p
		}
	}
	cast := func(r lf.TypeConID) (engine.Value, bool) {
		if r.Module == lowLevel && r.Name == "dangerousCast" {
			return engine.Identity(), true
		}
		return nil, false
	}
	jets := func(r lf.TypeConID) (engine.Value, bool) {
		if v, ok := cast(r); ok {
			return v, ok
		}
		if override != nil {
			if v, ok := override(r); ok {
				return v, v != nil
			}
		}
		return engine.ScriptJet(d.Package(r.PackageID), r)
	}
	x.daml = &scriptJetCase{e: engine.New(d, engine.Options{Override: cast})}
	x.jets = &scriptJetCase{e: engine.New(d, engine.Options{Override: jets})}
	x.callStack = lf.TypeConID{PackageID: x.prim.ID, Module: "GHC.Stack.Types", Name: "CallStack"}
	x.loc = lf.TypeConID{PackageID: x.prim.ID, Module: "GHC.Stack.Types", Name: "SrcLoc"}
	x.tuple3 = lf.TypeConID{PackageID: "5aee9b21b8e9a4c4975b5f4c4198e6e6e8469df49e2010820e792f393db870f4", Module: "DA.Types", Name: "Tuple3"}
	x.question = x.ref(lowLevel, "Question")
	x.queryQ = x.ref("Daml.Script.Internal.Questions.Query", "$$fIsQuestionQueryACS$u005b$u005d")
	return x
}

func (x *questionJetEnv) ref(module, name string) lf.TypeConID {
	return lf.TypeConID{PackageID: x.script.ID, Module: module, Name: name}
}

// eval evaluates e on both engines.
func (x *questionJetEnv) eval(e lf.Expr) [2]engine.Value {
	x.t.Helper()
	var out [2]engine.Value
	for i, c := range []*scriptJetCase{x.daml, x.jets} {
		v, err := c.e.Eval(context.Background(), e)
		if err != nil {
			x.t.Fatal(err)
		}
		out[i] = v
	}
	return out
}

// stack returns a call stack of frames (package, module) pushed on stk
// (the last frame innermost), the stack frozen when freeze is set.
func (x *questionJetEnv) stack(freeze bool, frames ...[2]string) engine.Value {
	x.t.Helper()
	var stk engine.Value = &engine.Variant{ID: x.callStack, Con: "EmptyCallStack", Rank: 0, Value: engine.Unit{}}
	for i, f := range frames {
		loc, err := x.daml.e.NewRecord(x.loc, engine.Text(f[0]), engine.Text(f[1]), engine.Text("F.daml"), engine.Int64(int64(i+1)), engine.Int64(2), engine.Int64(int64(i+1)), engine.Int64(9))
		if err != nil {
			x.t.Fatal(err)
		}
		t3, err := x.daml.e.NewRecord(x.tuple3, engine.Text("f"), loc, stk)
		if err != nil {
			x.t.Fatal(err)
		}
		stk = &engine.Variant{ID: x.callStack, Con: "PushCallStack", Rank: 1, Value: t3}
	}
	if freeze {
		stk = &engine.Variant{ID: x.callStack, Con: "FreezeCallStack", Rank: 2, Value: stk}
	}
	return stk
}

// Expression shorthands.
func qVar(n string) lf.Expr                   { return &lf.EVar{Name: n} }
func qApp(f lf.Expr, args ...lf.Expr) lf.Expr { return &lf.EApp{Fun: f, Args: args} }
func qFail(msg string) lf.Expr {
	return qApp(&lf.EBuiltinFun{Fun: lf.BuiltinError}, &lf.EText{Value: msg})
}
func qMethod(body lf.Expr) lf.Expr               { return qLam(body, "_") }
func qProj(field string, s lf.Expr) lf.Expr      { return &lf.EStructProj{Field: field, Struct: s} }
func qStruct(fields ...lf.FieldExpr) lf.Expr     { return &lf.EStructCon{Fields: fields} }
func qField(name string, e lf.Expr) lf.FieldExpr { return lf.FieldExpr{Name: name, Expr: e} }
func qLam(body lf.Expr, params ...string) lf.Expr {
	var ps []lf.VarWithType
	for _, n := range params {
		ps = append(ps, lf.VarWithType{Name: n})
	}
	return &lf.EAbs{Params: ps, Body: body}
}

// TestQuestionJets: the jets of daml-script's default makeQuestion
// ($dmmakeQuestion) and of lift give what the Daml definitions give,
// interpreted, for the library's own QueryACS instance and for instances
// of the test's own (one whose makeQuestion gives the whole call stack it
// is given: the frames lift and makeScriptF push), on call stacks of user
// and internal frames, empty and frozen; the scripts lift builds give the
// same questions, answered the same; and they fail as the Daml
// definitions do, in the same order (commandVersion before commandName,
// makeQuestion when lift has its two arguments).
func TestQuestionJets(t *testing.T) {
	x := newQuestionJetEnv(t, loadDAR(t, amuletTestDARName), nil)
	ctx := context.Background()
	for _, name := range []string{"$$dmmakeQuestion", "lift"} {
		if _, ok := engine.ScriptJet(x.script, x.ref(lowLevel, name)); !ok {
			t.Fatalf("no jet for %s", name)
		}
	}
	getCallStack := &lf.EVal{Ref: lf.TypeConID{PackageID: x.stdlib.ID, Module: "DA.Stack", Name: "getCallStack"}}
	dictOf := func(command, version, makeQuestion lf.Expr) [2]engine.Value {
		return x.eval(qStruct(qField("m_command", qMethod(command)), qField("m_makeQuestion", qMethod(makeQuestion)), qField("m_version", qMethod(version))))
	}
	// full's makeQuestion gives the whole call stack it is given.
	full := dictOf(&lf.EText{Value: "Full"}, &lf.EInt64{Value: 2}, qLam(&lf.ERecCon{
		Type: lf.TypeConApp{ID: x.question},
		Fields: []lf.FieldExpr{
			qField("commandName", &lf.EText{Value: "Full"}),
			qField("commandVersion", &lf.EInt64{Value: 2}),
			qField("payload", qVar("req")),
			qField("locations", qApp(getCallStack, qApp(qProj("m_ip", qVar("dIP")), &lf.EBuiltinCon{Con: lf.ConUnit}))),
			qField("continue", qLam(qVar("b"), "b")),
		},
	}, "dIP", "req"))
	failing := dictOf(qFail("command"), qFail("version"), qFail("makeQuestion"))
	query := x.eval(&lf.EVal{Ref: x.queryQ})
	// custom's command and version are its own, its makeQuestion the
	// default one of QueryACS's.
	custom := dictOf(&lf.EText{Value: "Custom"}, &lf.EInt64{Value: 7},
		qApp(&lf.EVal{Ref: x.ref(lowLevel, "$$dmmakeQuestion")}, &lf.EVal{Ref: x.queryQ}))
	// ip s is {m_ip = \_ -> s}.
	ip := x.eval(qLam(qStruct(qField("m_ip", qMethod(qVar("s")))), "s"))
	const in, inMod = "daml-script-3.3.0", "Daml.Script.Internal.Questions"
	stacks := map[string]engine.Value{
		"empty":          x.stack(false),
		"user":           x.stack(false, [2]string{"main-1.0.0", "Main"}, [2]string{"main-1.0.0", "Test"}),
		"internal":       x.stack(false, [2]string{"main-1.0.0", "Main"}, [2]string{in, inMod}, [2]string{in, lowLevel}),
		"frozen":         x.stack(true, [2]string{"main-1.0.0", "Main"}, [2]string{in, inMod}),
		"only internals": x.stack(false, [2]string{in, inMod}),
	}
	payload := engine.Text("payload")
	values := func(c *scriptJetCase, name string) engine.Value {
		v, err := c.e.EvalValue(ctx, x.ref(lowLevel, name))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	// try applies fn to args on engine i, giving the value or the error.
	try := func(i int, fn engine.Value, args ...engine.Value) (engine.Value, string) {
		c := []*scriptJetCase{x.daml, x.jets}[i]
		v, err := c.e.Apply(ctx, fn, args...)
		if err != nil {
			return nil, err.Error()
		}
		return v, ""
	}
	for stkName, stk := range stacks {
		for _, dq := range []struct {
			name string
			dict [2]engine.Value
		}{{"QueryACS", query}, {"full", full}, {"custom", custom}, {"failing", failing}} {
			t.Run(stkName+"/"+dq.name, func(t *testing.T) {
				var got [2][2]engine.Value
				var errs [2][2]string
				for i, c := range []*scriptJetCase{x.daml, x.jets} {
					dIP, err := c.e.Apply(ctx, ip[i], stk)
					if err != nil {
						t.Fatal(err)
					}
					// $dmmakeQuestion dIsQuestion dIP req
					got[i][0], errs[i][0] = try(i, values(c, "$$dmmakeQuestion"), dq.dict[i], dIP, payload)
					// runScript (lift dIP dIsQuestion req) ()
					s, e := try(i, values(c, "lift"), dIP, dq.dict[i], payload)
					if e == "" {
						s, e = try(i, s.(*engine.Record).Fields[0], engine.Unit{})
					}
					got[i][1], errs[i][1] = s, e
				}
				for j, what := range []string{"$dmmakeQuestion", "lift"} {
					if errs[0][j] != errs[1][j] {
						t.Fatalf("%s: the jet fails with %q, the Daml definition with %q", what, errs[1][j], errs[0][j])
					}
					if errs[0][j] == "" {
						sameScript(t, x.daml, x.jets, got[0][j], got[1][j], 4)
					}
				}
				if failed := errs[0][0] != "" || errs[0][1] != ""; failed != (dq.name == "failing") {
					t.Fatalf("failures: %q", errs[0])
				}
			})
		}
	}
	// lift applied to its two arguments computes the instance's
	// makeQuestion; the first failure is version's in makeQuestion.
	var errs [2][2]string
	for i, c := range []*scriptJetCase{x.daml, x.jets} {
		dIP, err := c.e.Apply(ctx, ip[i], stacks["user"])
		if err != nil {
			t.Fatal(err)
		}
		_, errs[i][0] = try(i, values(c, "lift"), dIP, failing[i])
		_, errs[i][1] = try(i, values(c, "$$dmmakeQuestion"), failing[i], dIP, payload)
	}
	if errs[0] != errs[1] || errs[0][0] == "" || errs[0][1] == "" {
		t.Fatalf("the jets fail with %q, the Daml definitions with %q", errs[1], errs[0])
	}
}

// TestQuestionJetRefusals: no jet for $dmmakeQuestion of another body,
// nor for lift when a definition it stands in for (makeScriptF,
// castQuestion, Free's lift, liftScript, Free's >>=) has another body.
func TestQuestionJetRefusals(t *testing.T) {
	const free = "Daml.Script.Internal.Free"
	for _, c := range []struct {
		name, value string
		module      string
		change      [2]string // the definition changed (given the body of $dmversion)
	}{
		{"other body", "$$dmmakeQuestion", lowLevel, [2]string{lowLevel, "$$dmmakeQuestion"}},
		{"other body", "lift", lowLevel, [2]string{lowLevel, "lift"}},
		{"other makeScriptF", "lift", lowLevel, [2]string{lowLevel, "makeScriptF"}},
		{"other castQuestion", "lift", lowLevel, [2]string{lowLevel, "castQuestion"}},
		{"other Free.lift", "lift", lowLevel, [2]string{free, "lift"}},
		{"other liftScript", "lift", lowLevel, [2]string{lowLevel, "liftScript"}},
		{"other Free >>=", "lift", lowLevel, [2]string{free, "$$c$u003e$u003e$u003d"}},
	} {
		t.Run(c.name+" "+c.value, func(t *testing.T) {
			// A DAR of the test's own: its definitions are changed.
			p := damlScript(t, ownAmuletDAR(t))
			ref := lf.TypeConID{PackageID: p.ID, Module: c.module, Name: c.value}
			if _, ok := engine.ScriptJet(p, ref); !ok {
				t.Fatal("no jet before the change")
			}
			p.Value(c.change[0], c.change[1]).SetBody(p.Value(lowLevel, "$$dmversion").Body())
			if v, ok := engine.ScriptJet(p, ref); ok {
				t.Errorf("a jet %v", v)
			}
		})
	}
}

// BenchmarkLift: a question built by lift (the QueryACS instance's, of a
// call stack of two user frames) and run to its question, whose
// continuation is answered, with daml-script's Daml definitions, with the
// jets but the question jets, and with all the jets. Skipped without
// ../shared.
func BenchmarkLift(b *testing.B) {
	d := loadDAR(b, amuletTestDARName)
	ctx := context.Background()
	for _, name := range []string{"daml", "jets-but-question", "jets"} {
		b.Run(name, func(b *testing.B) {
			var override func(lf.TypeConID) (engine.Value, bool)
			if name == "jets-but-question" {
				override = func(r lf.TypeConID) (engine.Value, bool) {
					if r.Module == lowLevel && (r.Name == "lift" || r.Name == "$$dmmakeQuestion") {
						return nil, true
					}
					return nil, false
				}
			}
			x := newQuestionJetEnv(b, d, override)
			c := x.jets
			if name == "daml" {
				c = x.daml
			}
			i := 1
			if name == "daml" {
				i = 0
			}
			ip := x.eval(qLam(qStruct(qField("m_ip", qMethod(qVar("s")))), "s"))[i]
			query := x.eval(&lf.EVal{Ref: x.queryQ})[i]
			lift, err := c.e.EvalValue(ctx, x.ref(lowLevel, "lift"))
			if err != nil {
				b.Fatal(err)
			}
			dIP, err := c.e.Apply(ctx, ip, x.stack(false, [2]string{"main-1.0.0", "Main"}, [2]string{"main-1.0.0", "Test"}))
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				s, err := c.e.Apply(ctx, lift, dIP, query, engine.Text("payload"))
				if err != nil {
					b.Fatal(err)
				}
				fr, err := c.e.Apply(ctx, s.(*engine.Record).Fields[0], engine.Unit{})
				if err != nil {
					b.Fatal(err)
				}
				cont := fr.(*engine.Variant).Value.(*engine.Record).Fields[0].(*engine.Record).Fields[4]
				if v, err := c.e.Apply(ctx, cont, engine.ListOf()); err != nil || v.(*engine.Variant).Rank != 0 {
					b.Fatalf("not Pure: %v %v", v, err)
				}
			}
		})
	}
}
