package typecheck

import (
	"errors"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// The hand-built test package: id pid, module Mod, with the definitions
// of Canton's TypingSpec environment that the rules below use.
const pid = "cafe"

var (
	tyInt64     = &lf.TBuiltin{Builtin: lf.BuiltinInt64}
	tyText      = &lf.TBuiltin{Builtin: lf.BuiltinText}
	tyBool      = &lf.TBuiltin{Builtin: lf.BuiltinBool}
	tyUnit      = &lf.TBuiltin{Builtin: lf.BuiltinUnit}
	tyParty     = &lf.TBuiltin{Builtin: lf.BuiltinParty}
	tyTimestamp = &lf.TBuiltin{Builtin: lf.BuiltinTimestamp}
	tyListCon   = &lf.TBuiltin{Builtin: lf.BuiltinList}
	tyAnyExc    = &lf.TBuiltin{Builtin: lf.BuiltinAnyException}
	star        = &lf.Kind{Sort: lf.KindStar}
	nat         = &lf.Kind{Sort: lf.KindNat}
	unitE       = &lf.EBuiltinCon{Con: lf.ConUnit}
	trueE       = &lf.EBuiltinCon{Con: lf.ConTrue}
)

func karrow(a, b *lf.Kind) *lf.Kind { return &lf.Kind{Sort: lf.KindArrow, Param: a, Result: b} }
func tv(n string) lf.Type           { return &lf.TVar{Name: n} }
func tapp(f lf.Type, as ...lf.Type) lf.Type {
	for _, a := range as {
		f = &lf.TApp{Fun: f, Arg: a}
	}
	return f
}
func tfn(ts ...lf.Type) lf.Type {
	r := ts[len(ts)-1]
	for i := len(ts) - 2; i >= 0; i-- {
		r = tapp(&lf.TBuiltin{Builtin: lf.BuiltinArrow}, ts[i], r)
	}
	return r
}
func tlist(t lf.Type) lf.Type     { return tapp(tyListCon, t) }
func topt(t lf.Type) lf.Type      { return tapp(&lf.TBuiltin{Builtin: lf.BuiltinOptional}, t) }
func tcid(t lf.Type) lf.Type      { return tapp(&lf.TBuiltin{Builtin: lf.BuiltinContractID}, t) }
func tupd(t lf.Type) lf.Type      { return tapp(&lf.TBuiltin{Builtin: lf.BuiltinUpdate}, t) }
func tnum(n int) lf.Type          { return tapp(&lf.TBuiltin{Builtin: lf.BuiltinNumeric}, &lf.TNat{N: n}) }
func id(name string) lf.TypeConID { return lf.TypeConID{PackageID: pid, Module: "Mod", Name: name} }
func tc(name string, args ...lf.Type) lf.Type {
	return tapp(&lf.TCon{ID: id(name)}, args...)
}
func syn(name string, args ...lf.Type) lf.Type { return &lf.TSyn{ID: id(name), Args: args} }
func tall(v string, k *lf.Kind, body lf.Type) lf.Type {
	return &lf.TForall{Param: lf.TypeParam{Name: v, Kind: k}, Body: body}
}
func tcapp(name string, args ...lf.Type) lf.TypeConApp {
	return lf.TypeConApp{ID: id(name), Args: args}
}

func ev(n string) lf.Expr { return &lf.EVar{Name: n} }
func lam(x string, t lf.Type, body lf.Expr) lf.Expr {
	return &lf.EAbs{Params: []lf.VarWithType{{Name: x, Type: t}}, Body: body}
}
func tlam(a string, k *lf.Kind, body lf.Expr) lf.Expr {
	return &lf.ETyAbs{Params: []lf.TypeParam{{Name: a, Kind: k}}, Body: body}
}
func eapp(f lf.Expr, as ...lf.Expr) lf.Expr  { return &lf.EApp{Fun: f, Args: as} }
func etapp(e lf.Expr, ts ...lf.Type) lf.Expr { return &lf.ETyApp{Expr: e, Types: ts} }
func bi(f lf.BuiltinFunction) lf.Expr        { return &lf.EBuiltinFun{Fun: f} }
func ecase(s lf.Expr, alts ...lf.CaseAlt) lf.Expr {
	return &lf.ECase{Scrut: s, Alts: alts}
}
func alt(p lf.Pattern, body lf.Expr) lf.CaseAlt { return lf.CaseAlt{Pattern: p, Body: body} }
func pure(t lf.Type, e lf.Expr) lf.Expr {
	return &lf.EUpdate{Update: &lf.UPure{Type: t, Expr: e}}
}
func nilOf(t lf.Type) lf.Expr { return &lf.ENil{Type: t} }
func text(s string) lf.Expr   { return &lf.EText{Value: s} }
func proj(rec string, f string, e lf.Expr) lf.Expr {
	return &lf.ERecProj{Type: tcapp(rec), Field: f, Record: e}
}

// baseModule is module Mod: the data types, synonyms, template,
// interface and exception the tests refer to, all well-typed.
//
//	record @serializable R (a:*) = { f1: Int64, f2: List a }
//	variant @serializable Tree (a:*) = Leaf: Unit | Node: Mod:Tree.Node a
//	record @serializable Tree.Node (a:*) = { value: a, left: Tree a, right: Tree a }
//	enum @serializable Color = Red | Green | Blue
//	record @serializable T = { person: Party, name: Text }
//	record @serializable V = { x: Int64 }          -- the view of I
//	record @serializable E = { message: Text }     -- exception E
//	record Unser = { f: Int64 -> Int64 }
//	synonym SynInt = Int64; SynIdentity (a:*) = a; SynHigh (f:*->*) = f Int64; SynBool = Bool
//	interface I (this) { viewtype V; method getParties: List Party; choice IC }
//	template T (this) { signatories [this.person]; choice Ch; key Party; implements I }
//	exception E { message \(e: E) -> e.message }
func baseModule() *lf.Module {
	a := []lf.TypeParam{{Name: "a", Kind: star}}
	this := ev("this")
	person := proj("T", "person", this)
	signatories := &lf.ECons{Type: tyParty, Front: []lf.Expr{person}, Tail: nilOf(tyParty)}
	unitChoice := func(name string, controllers lf.Expr) *lf.Choice {
		return &lf.Choice{Name: name, Consuming: true, ArgBinder: "arg", ArgType: tyUnit, ReturnType: tyUnit,
			SelfBinder: "self", Controllers: controllers, Observers: nilOf(tyParty), Update: pure(tyUnit, unitE)}
	}
	iface := id("I")
	return &lf.Module{
		Name: "Mod",
		DataTypes: []*lf.DataType{
			{Name: "R", Params: a, Serializable: true, Variety: lf.RecordVariety,
				Fields: []lf.Field{{Name: "f1", Type: tyInt64}, {Name: "f2", Type: tlist(tv("a"))}}},
			{Name: "Tree", Params: a, Serializable: true, Variety: lf.VariantVariety,
				Fields: []lf.Field{{Name: "Leaf", Type: tyUnit}, {Name: "Node", Type: tc("Tree.Node", tv("a"))}}},
			{Name: "Tree.Node", Params: a, Serializable: true, Variety: lf.RecordVariety,
				Fields: []lf.Field{{Name: "value", Type: tv("a")}, {Name: "left", Type: tc("Tree", tv("a"))}, {Name: "right", Type: tc("Tree", tv("a"))}}},
			{Name: "Color", Serializable: true, Variety: lf.EnumVariety, Constructors: []string{"Red", "Green", "Blue"}},
			{Name: "T", Serializable: true, Variety: lf.RecordVariety,
				Fields: []lf.Field{{Name: "person", Type: tyParty}, {Name: "name", Type: tyText}}},
			{Name: "V", Serializable: true, Variety: lf.RecordVariety, Fields: []lf.Field{{Name: "x", Type: tyInt64}}},
			{Name: "E", Serializable: true, Variety: lf.RecordVariety, Fields: []lf.Field{{Name: "message", Type: tyText}}},
			{Name: "Unser", Variety: lf.RecordVariety, Fields: []lf.Field{{Name: "f", Type: tfn(tyInt64, tyInt64)}}},
			{Name: "I", Variety: lf.InterfaceVariety},
		},
		Synonyms: []*lf.TypeSynonym{
			{Name: "SynInt", Type: tyInt64},
			{Name: "SynIdentity", Params: a, Type: tv("a")},
			{Name: "SynHigh", Params: []lf.TypeParam{{Name: "f", Kind: karrow(star, star)}}, Type: tapp(tv("f"), tyInt64)},
			{Name: "SynBool", Type: tyBool},
		},
		Templates: []*lf.Template{{
			Name: "T", Param: "this", Signatories: signatories, Observers: nilOf(tyParty),
			Choices: []*lf.Choice{unitChoice("Ch", signatories)},
			Key: &lf.TemplateKey{Type: tyParty, Body: person,
				Maintainers: lam("k", tyParty, &lf.ECons{Type: tyParty, Front: []lf.Expr{ev("k")}, Tail: nilOf(tyParty)})},
			Implements: []lf.TypeConID{iface},
			Instances: []*lf.InterfaceInstance{{Interface: iface,
				Methods: []lf.MethodBody{{Name: "getParties", Expr: signatories}},
				View:    &lf.ERecCon{Type: tcapp("V"), Fields: []lf.FieldExpr{{Name: "x", Expr: &lf.EInt64{Value: 1}}}}}},
		}},
		Interfaces: []*lf.Interface{{
			Name: "I", Param: "this", View: tc("V"),
			Methods: []lf.InterfaceMethod{{Name: "getParties", Type: tlist(tyParty)}},
			Choices: []*lf.Choice{unitChoice("IC", &lf.ESignatoryInterface{Interface: iface, Expr: this})},
		}},
		Exceptions:    []string{"E"},
		ExceptionDefs: []*lf.DefException{{Name: "E", Message: lam("e", tc("E"), proj("E", "message", ev("e")))}},
	}
}

// testPackage returns the package of the given modules (LF 2.3, no
// dependencies), indexed.
func testPackage(mods ...*lf.Module) *lf.Package {
	p := &lf.Package{ID: pid, LanguageVersion: lf.LF23, Name: "test", Version: "1.0.0", Modules: mods}
	p.Index()
	return p
}

// withValue returns the base package plus the value "test : t = e".
func withValue(t lf.Type, e lf.Expr) *lf.Package {
	m := baseModule()
	m.Values = append(m.Values, lf.NewDefValue("test", t, e))
	return testPackage(m)
}

// daTypes is a stand-in for the stable package DA.Types, whose Tuple2 the
// key updates return.
var daTypes = func() *lf.Package {
	ab := []lf.TypeParam{{Name: "a", Kind: star}, {Name: "b", Kind: star}}
	p := &lf.Package{ID: "5aee9b21b8e9a4c4975b5f4c4198e6e6e8469df49e2010820e792f393db870f4", LanguageVersion: lf.LF21,
		Modules: []*lf.Module{{Name: "DA.Types", DataTypes: []*lf.DataType{{Name: "Tuple2", Params: ab, Serializable: true,
			Variety: lf.RecordVariety, Fields: []lf.Field{{Name: "_1", Type: tv("a")}, {Name: "_2", Type: tv("b")}}}}}}}
	p.Index()
	return p
}()

// lookupDATypes is the universe of the test packages: daTypes.
func lookupDATypes(id string) *lf.Package {
	if id == daTypes.ID {
		return daTypes
	}
	return nil
}

// checkErr runs Check and returns its *Error (nil when accepted). The
// universe is the DAR's packages when one is given, else daTypes.
func checkErr(t *testing.T, p *lf.Package, dar ...*lf.DAR) *Error {
	t.Helper()
	lookup := Lookup(lookupDATypes)
	if len(dar) > 0 {
		lookup = dar[0].Package
	}
	err := Check(p, lookup)
	if err == nil {
		return nil
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("Check returned %T %v, want an *Error", err, err)
	}
	return e
}

func kindOfErr(e *Error) ErrorKind {
	if e == nil {
		return 0
	}
	return e.Kind
}
