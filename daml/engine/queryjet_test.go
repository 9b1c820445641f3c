package engine_test

import (
	"context"
	"testing"

	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
)

// TestQueryJet: the jet of daml-script's query gives what the Daml
// definition gives, interpreted: the same QueryACS question (payload,
// call stack), and a continuation that converts the same answers to the
// same contracts: none, ValidatorRights, and a FeaturedAppRight among
// them (fromSome's error on both). Skipped without ../shared.
func TestQueryJet(t *testing.T) {
	d := loadDAR(t, amuletTestDARName)
	x := newQuestionJetEnv(t, d, nil)
	ctx := context.Background()
	ref := x.ref("Daml.Script.Internal.Questions.Query", "query")
	if _, ok := engine.ScriptJet(x.script, ref); !ok {
		t.Fatal("no jet for query")
	}
	var amulet *lf.Package
	for _, p := range d.Packages {
		if p.Name == "splice-amulet" {
			amulet = p
		}
	}
	if amulet == nil {
		t.Fatal("no splice-amulet in " + amuletTestDARName)
	}
	aval := func(name string) lf.Expr {
		return &lf.EVal{Ref: lf.TypeConID{PackageID: amulet.ID, Module: "Splice.Amulet", Name: name}}
	}
	sval := func(module, name string) lf.Expr {
		return &lf.EVal{Ref: lf.TypeConID{PackageID: x.stdlib.ID, Module: module, Name: name}}
	}
	const tf = "DA.Internal.Template.Functions"
	party := func(s string) lf.Expr { return qApp(&lf.EBuiltinFun{Fun: lf.BuiltinTextToParty}, &lf.EText{Value: s}) }
	some := func(e lf.Expr) lf.Expr {
		return &lf.ECase{Scrut: e, Alts: []lf.CaseAlt{{Pattern: &lf.POptionalSome{Binder: "p"}, Body: qVar("p")}}}
	}
	// any tpl fields… is toAnyTemplate of the template's record.
	anyOf := func(tpl string, fields ...string) lf.Expr {
		var fs []lf.FieldExpr
		for i, f := range fields {
			fs = append(fs, qField(f, some(party([]string{"dso", "alice", "bob"}[i]))))
		}
		rec := &lf.ERecCon{Type: lf.TypeConApp{ID: lf.TypeConID{PackageID: amulet.ID, Module: "Splice.Amulet", Name: tpl}}, Fields: fs}
		return qApp(sval(tf, "toAnyTemplate"), aval("$$fHasToAnyTemplate"+tpl), rec)
	}
	tuple2 := lf.TypeConID{PackageID: x.tuple3.PackageID, Module: "DA.Types", Name: "Tuple2"}
	vr := anyOf("ValidatorRight", "dso", "user", "validator")
	far := anyOf("FeaturedAppRight", "dso", "provider")
	// answers are the ACS answers: (contract id, template) pairs.
	answers := map[string][][2]any{
		"none":  nil,
		"two":   {{"00aa", vr}, {"00bb", vr}},
		"other": {{"00aa", vr}, {"00cc", far}, {"00bb", vr}},
	}
	// answer builds an answer on c's engine.
	answer := func(c *scriptJetCase, pairs [][2]any) engine.Value {
		var vs []engine.Value
		for _, p := range pairs {
			tpl, err := c.e.Eval(ctx, p[1].(lf.Expr))
			if err != nil {
				t.Fatal(err)
			}
			r, err := c.e.NewRecord(tuple2, engine.ContractID(p[0].(string)), tpl)
			if err != nil {
				t.Fatal(err)
			}
			vs = append(vs, r)
		}
		return engine.ListOf(vs...)
	}
	dicts := qStruct(qField("s_1", aval("$$fHasTemplateTypeRepValidatorRight")),
		qField("s_2", aval("$$fHasToAnyTemplateValidatorRight")), qField("s_3", aval("$$fHasFromAnyTemplateValidatorRight")))
	args := []lf.Expr{dicts, aval("$$fHasEnsureValidatorRight"), sval(tf, "$$fIsPartiesParty"), party("alice")}
	var questions [2]engine.Value
	conts := [2]engine.Value{}
	for i, c := range []*scriptJetCase{x.daml, x.jets} {
		q, err := c.e.EvalValue(ctx, ref)
		if err != nil {
			t.Fatal(err)
		}
		vs := make([]engine.Value, len(args))
		for j, a := range args {
			if vs[j], err = c.e.Eval(ctx, a); err != nil {
				t.Fatal(err)
			}
		}
		s, err := c.e.Apply(ctx, q, vs...)
		if err != nil {
			t.Fatal(err)
		}
		fr, err := c.e.Apply(ctx, s.(*engine.Record).Fields[0], engine.Unit{})
		if err != nil {
			t.Fatal(err)
		}
		questions[i] = fr
		conts[i] = fr.(*engine.Variant).Value.(*engine.Record).Fields[0].(*engine.Record).Fields[4]
	}
	sameScript(t, x.daml, x.jets, questions[0], questions[1], 0)
	for name, ans := range answers {
		t.Run(name, func(t *testing.T) {
			var got [2]engine.Value
			var errs [2]string
			for i, c := range []*scriptJetCase{x.daml, x.jets} {
				v, err := c.e.Apply(ctx, conts[i], answer(c, ans))
				if err != nil {
					errs[i] = err.Error()
					continue
				}
				got[i] = v
			}
			if errs[0] != errs[1] {
				t.Fatalf("the jet fails with %q, the Daml definition with %q", errs[1], errs[0])
			}
			if (errs[0] != "") != (name == "other") {
				t.Fatalf("errors %q", errs)
			}
			if errs[0] == "" {
				if got[0].(*engine.Variant).Rank != 0 {
					t.Fatalf("not Pure: %v", got[0])
				}
				sameScript(t, x.daml, x.jets, got[0], got[1], 0)
				if n := got[1].(*engine.Variant).Value.(*engine.Record).Fields[0].(*engine.List).Len(); n != map[string]int{"none": 0, "two": 2}[name] {
					t.Fatalf("%d contracts", n)
				}
			}
		})
	}
}

// TestQueryJetRefusal: no jet for a query of another body.
func TestQueryJetRefusal(t *testing.T) {
	p := damlScript(t, ownAmuletDAR(t))
	ref := lf.TypeConID{PackageID: p.ID, Module: "Daml.Script.Internal.Questions.Query", Name: "query"}
	if _, ok := engine.ScriptJet(p, ref); !ok {
		t.Fatal("no jet before the change")
	}
	def := p.Value(ref.Module, ref.Name)
	def.SetBody(&lf.ETyApp{Expr: def.Body(), Types: []lf.Type{&lf.TBuiltin{Builtin: lf.BuiltinUnit}}})
	if v, ok := engine.ScriptJet(p, ref); ok {
		t.Errorf("a jet %v", v)
	}
}
