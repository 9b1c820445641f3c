package lftest

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/lf"
)

// otherID is an imported (non-stable) package id.
var otherID = strings.Repeat("ab", 32)

// Model building blocks. Ids with PackageID SelfID are the package itself.
var (
	tT      = lf.TypeConID{Module: "Main", Name: "T"}
	tI      = lf.TypeConID{Module: "Main", Name: "I"}
	tJ      = lf.TypeConID{Module: "Other.Mod", Name: "J"}
	tExt    = lf.TypeConID{PackageID: otherID, Module: "Ext.Mod", Name: "E"}
	tyUnit  = &lf.TBuiltin{Builtin: lf.BuiltinUnit}
	tyInt   = &lf.TBuiltin{Builtin: lf.BuiltinInt64}
	tyParty = &lf.TBuiltin{Builtin: lf.BuiltinParty}
	star    = &lf.Kind{Sort: lf.KindStar}
	x       = &lf.EVar{Name: "x"}
	y       = &lf.EVar{Name: "y"}
	unit    = &lf.EBuiltinCon{Con: lf.ConUnit}
)

func tapp(f lf.Type, args ...lf.Type) lf.Type {
	for _, a := range args {
		f = &lf.TApp{Fun: f, Arg: a}
	}
	return f
}

// allTypes is a type using every Type form (TSyn and TForall included),
// for the positions of expressions that carry types.
var allTypes = tapp(&lf.TBuiltin{Builtin: lf.BuiltinArrow},
	tapp(&lf.TCon{ID: tT}, &lf.TVar{Name: "a"}, tapp(&lf.TBuiltin{Builtin: lf.BuiltinNumeric}, &lf.TNat{N: 10})),
	&lf.TForall{Param: lf.TypeParam{Name: "f", Kind: &lf.Kind{Sort: lf.KindArrow, Param: star, Result: &lf.Kind{Sort: lf.KindNat}}},
		Body: &lf.TStruct{Fields: []lf.Field{{Name: "s", Type: &lf.TSyn{ID: tExt, Args: []lf.Type{tyInt, tapp(&lf.TVar{Name: "f"}, tyUnit)}}}, {Name: "t", Type: tyParty}}}})

// exprCases covers every Expr and Update node of daml/lf/expr.go (with
// single-parameter lambdas, type abstractions and type applications,
// which every LF 2 minor keeps as they are) and every pattern.
func exprCases() map[string]lf.Expr {
	upd := func(u lf.Update) lf.Expr { return &lf.EUpdate{Update: u} }
	tca := lf.TypeConApp{ID: tT, Args: []lf.Type{tyInt, allTypes}}
	return map[string]lf.Expr{
		"var":           x,
		"val_self":      &lf.EVal{Ref: lf.ValueRef{Module: "Main", Name: "some.value"}},
		"val_import":    &lf.EVal{Ref: lf.ValueRef{PackageID: otherID, Module: "A.B", Name: "v"}},
		"builtin":       &lf.EBuiltinFun{Fun: lf.BuiltinAddInt64},
		"builtin_dev":   &lf.EBuiltinFun{Fun: lf.BuiltinAddBigNumeric},
		"con_true":      &lf.EBuiltinCon{Con: lf.ConTrue},
		"con_unit":      unit,
		"int64":         &lf.EInt64{Value: -1234567890123},
		"int64_zero":    &lf.EInt64{Value: 0},
		"numeric":       &lf.ENumeric{Text: "-12.3400000000", Scale: 10},
		"text":          &lf.EText{Value: "héllo\x00world"},
		"timestamp":     &lf.ETimestamp{Micros: -62135596800000000},
		"date":          &lf.EDate{Days: -719162},
		"failure":       &lf.EFailureCategory{Category: lf.InvalidGivenCurrentSystemStateOther},
		"rounding":      &lf.ERoundingMode{Mode: lf.RoundingHalfEven},
		"rec_con":       &lf.ERecCon{Type: tca, Fields: []lf.FieldExpr{{Name: "a", Expr: x}, {Name: "b", Expr: unit}}},
		"rec_proj":      &lf.ERecProj{Type: tca, Field: "a", Record: x},
		"rec_upd":       &lf.ERecUpd{Type: tca, Field: "b", Record: x, Update: y},
		"variant_con":   &lf.EVariantCon{Type: lf.TypeConApp{ID: tExt}, Con: "Left", Arg: x},
		"enum_con":      &lf.EEnumCon{ID: tT, Con: "Red"},
		"struct_con":    &lf.EStructCon{Fields: []lf.FieldExpr{{Name: "m", Expr: x}}},
		"struct_proj":   &lf.EStructProj{Field: "m", Struct: x},
		"struct_upd":    &lf.EStructUpd{Field: "m", Struct: x, Update: y},
		"app":           &lf.EApp{Fun: &lf.EBuiltinFun{Fun: lf.BuiltinAddInt64}, Args: []lf.Expr{x, y, unit}},
		"ty_app":        &lf.ETyApp{Expr: &lf.EBuiltinFun{Fun: lf.BuiltinLess}, Types: []lf.Type{allTypes}},
		"abs":           &lf.EAbs{Params: []lf.VarWithType{{Name: "x", Type: allTypes}}, Body: x},
		"ty_abs":        &lf.ETyAbs{Params: []lf.TypeParam{{Name: "a", Kind: &lf.Kind{Sort: lf.KindArrow, Param: star, Result: star}}}, Body: x},
		"let":           &lf.ELet{Bindings: []lf.Binding{{Var: lf.VarWithType{Name: "x", Type: tyInt}, Bound: y}, {Var: lf.VarWithType{Name: "z", Type: tyUnit}, Bound: x}}, Body: x},
		"nil":           &lf.ENil{Type: allTypes},
		"cons":          &lf.ECons{Type: tyInt, Front: []lf.Expr{x, y}, Tail: &lf.ENil{Type: tyInt}},
		"optional_none": &lf.EOptionalNone{Type: tyParty},
		"optional_some": &lf.EOptionalSome{Type: tyParty, Value: x},
		"to_any":        &lf.EToAny{Type: allTypes, Expr: x},
		"from_any":      &lf.EFromAny{Type: tyInt, Expr: x},
		"type_rep":      &lf.ETypeRep{Type: allTypes},
		"to_any_exc":    &lf.EToAnyException{Type: &lf.TCon{ID: tT}, Expr: x},
		"from_any_exc":  &lf.EFromAnyException{Type: &lf.TCon{ID: tT}, Expr: x},
		"throw":         &lf.EThrow{ReturnType: tyInt, ExceptionType: &lf.TCon{ID: tT}, Exception: x},
		"to_iface":      &lf.EToInterface{Interface: tI, Template: tT, Expr: x},
		"from_iface":    &lf.EFromInterface{Interface: tI, Template: tT, Expr: x},
		"unsafe_from":   &lf.EUnsafeFromInterface{Interface: tI, Template: tT, ContractID: y, Expr: x},
		"call_iface":    &lf.ECallInterface{Interface: tI, Method: "getOwner", Expr: x},
		"sig_iface":     &lf.ESignatoryInterface{Interface: tI, Expr: x},
		"obs_iface":     &lf.EObserverInterface{Interface: tI, Expr: x},
		"view_iface":    &lf.EViewInterface{Interface: tI, Expr: x},
		"iface_typerep": &lf.EInterfaceTemplateTypeRep{Interface: tI, Expr: x},
		"to_required":   &lf.EToRequiredInterface{Required: tJ, Requiring: tI, Expr: x},
		"from_required": &lf.EFromRequiredInterface{Required: tJ, Requiring: tI, Expr: x},
		"unsafe_req":    &lf.EUnsafeFromRequiredInterface{Required: tJ, Requiring: tI, ContractID: y, Expr: x},
		"experimental":  &lf.EExperimental{Name: "ANSWER", Type: tyInt},
		"case_patterns": &lf.ECase{Scrut: x, Alts: []lf.CaseAlt{
			{Pattern: &lf.PVariant{ID: tExt, Con: "Left", Binder: "l"}, Body: &lf.EVar{Name: "l"}},
			{Pattern: &lf.PEnum{ID: tT, Con: "Red"}, Body: unit},
			{Pattern: &lf.PBuiltinCon{Con: lf.ConUnit}, Body: unit},
			{Pattern: &lf.PBuiltinCon{Con: lf.ConFalse}, Body: unit},
			{Pattern: &lf.PNil{}, Body: unit},
			{Pattern: &lf.PCons{Head: "h", Tail: "t"}, Body: &lf.EVar{Name: "t"}},
			{Pattern: &lf.POptionalNone{}, Body: unit},
			{Pattern: &lf.POptionalSome{Binder: "s"}, Body: &lf.EVar{Name: "s"}},
			{Pattern: &lf.PDefault{}, Body: y},
		}},
		"u_pure":         upd(&lf.UPure{Type: tyInt, Expr: x}),
		"u_block":        upd(&lf.UBlock{Bindings: []lf.Binding{{Var: lf.VarWithType{Name: "x", Type: tyInt}, Bound: upd(&lf.UGetTime{})}}, Body: upd(&lf.UPure{Type: tyInt, Expr: x})}),
		"u_create":       upd(&lf.UCreate{Template: tT, Expr: x}),
		"u_create_iface": upd(&lf.UCreateInterface{Interface: tI, Expr: x}),
		"u_exercise":     upd(&lf.UExercise{Template: tT, Choice: "Go", ContractID: x, Arg: y}),
		"u_exercise_if":  upd(&lf.UExerciseInterface{Interface: tI, Choice: "Go", ContractID: x, Arg: y}),
		"u_exercise_ifg": upd(&lf.UExerciseInterface{Interface: tI, Choice: "Go", ContractID: x, Arg: y, Guard: &lf.EAbs{Params: []lf.VarWithType{{Name: "v", Type: tyUnit}}, Body: unit}}),
		"u_exercise_key": upd(&lf.UExerciseByKey{Template: tT, Choice: "Go", Key: x, Arg: y}),
		"u_fetch":        upd(&lf.UFetch{Template: tT, ContractID: x}),
		"u_fetch_iface":  upd(&lf.UFetchInterface{Interface: tI, ContractID: x}),
		"u_get_time":     upd(&lf.UGetTime{}),
		"u_time_lt":      upd(&lf.ULedgerTimeLT{Expr: x}),
		"u_embed":        upd(&lf.UEmbedExpr{Type: tyUnit, Expr: x}),
		"u_fetch_key":    upd(&lf.UFetchByKey{Template: tT}),
		"u_lookup_key":   upd(&lf.ULookupByKey{Template: tT}),
		"u_query_key":    upd(&lf.UQueryNByKey{Template: tT}),
		"u_try":          upd(&lf.UTryCatch{ReturnType: tyInt, Try: x, Var: "e", Catch: &lf.EOptionalNone{Type: tyInt}}),
	}
}

// roundTrip encodes each expression as the body of a value of a package
// of the LF minor and decodes the package.
func roundTrip(t *testing.T, minor string, imports []string, exprs map[string]lf.Expr) *lf.Package {
	t.Helper()
	var vals []Value
	for name, e := range exprs {
		vals = append(vals, Value{Name: name, Type: B(Unit), Expr: e})
	}
	p := Package{Minor: minor, Name: "exprs", Version: "1.0.0", Imports: imports, Modules: []Module{{Name: "Main", Values: vals}}}
	_, dalf := Dalf(p)
	pkg, err := lf.DecodeArchive(dalf, lf.ReadOptions{AllowDevLF: true})
	if err != nil {
		t.Fatalf("decode LF 2.%s: %v", minor, err)
	}
	return pkg
}

// selfEq compares ids with the decoded package's own id read as SelfID.
func selfEq(selfID string) cmp.Option {
	norm := func(id lf.TypeConID) lf.TypeConID {
		if id.PackageID == selfID {
			id.PackageID = SelfID
		}
		return id
	}
	return cmp.Comparer(func(a, b lf.TypeConID) bool { return norm(a) == norm(b) })
}

func checkRoundTrip(t *testing.T, minor string, imports []string, exprs map[string]lf.Expr, want func(string) lf.Expr) {
	t.Helper()
	pkg := roundTrip(t, minor, imports, exprs)
	for name := range exprs {
		v := pkg.Value("Main", name)
		if v == nil {
			t.Errorf("LF 2.%s: value %s not decoded", minor, name)
			continue
		}
		if diff := cmp.Diff(want(name), v.Body(), selfEq(pkg.ID)); diff != "" {
			t.Errorf("LF 2.%s %s (-want +got):\n%s", minor, name, diff)
		}
	}
}

// TestExprRoundTrip encodes every expression, update and pattern form and
// decodes it back unchanged, in LF 2.dev (every form is allowed there).
func TestExprRoundTrip(t *testing.T) {
	exprs := exprCases()
	checkRoundTrip(t, "dev", []string{otherID}, exprs, func(n string) lf.Expr { return exprs[n] })
}

// TestExprRoundTripLF21 checks the LF 2.1 encoding (types flattened into
// their head's arguments, no imports table: other packages named by id),
// where lambdas, type abstractions and type applications keep all their
// parameters in one node.
func TestExprRoundTripLF21(t *testing.T) {
	exprs := exprCases()
	for _, dev := range []string{"builtin_dev", "rounding", "experimental", "u_exercise_ifg", "u_exercise_key", "u_fetch_key",
		"u_lookup_key", "u_query_key", "allTypes"} {
		delete(exprs, dev) // not in LF 2.1
	}
	exprs["abs_multi"] = &lf.EAbs{Params: []lf.VarWithType{{Name: "x", Type: tyInt}, {Name: "y", Type: allTypes}}, Body: x}
	exprs["ty_abs_multi"] = &lf.ETyAbs{Params: []lf.TypeParam{{Name: "a", Kind: star}, {Name: "n", Kind: &lf.Kind{Sort: lf.KindNat}}}, Body: x}
	exprs["ty_app_multi"] = &lf.ETyApp{Expr: x, Types: []lf.Type{tyInt, allTypes}}
	checkRoundTrip(t, "1", nil, exprs, func(n string) lf.Expr { return exprs[n] })
}

// TestExprFlatNesting: from LF 2.2 on, a lambda (type abstraction, type
// application) of several parameters is written as nested one-parameter
// nodes, which is what decodes: the model's multi-parameter node does not
// survive (it means the same).
func TestExprFlatNesting(t *testing.T) {
	a, b := lf.VarWithType{Name: "a", Type: tyInt}, lf.VarWithType{Name: "b", Type: tyUnit}
	p, q := lf.TypeParam{Name: "p", Kind: star}, lf.TypeParam{Name: "q", Kind: &lf.Kind{Sort: lf.KindNat}}
	exprs := map[string]lf.Expr{
		"abs":    &lf.EAbs{Params: []lf.VarWithType{a, b}, Body: x},
		"ty_abs": &lf.ETyAbs{Params: []lf.TypeParam{p, q}, Body: x},
		"ty_app": &lf.ETyApp{Expr: x, Types: []lf.Type{tyInt, tyUnit}},
	}
	want := map[string]lf.Expr{
		"abs":    &lf.EAbs{Params: []lf.VarWithType{a}, Body: &lf.EAbs{Params: []lf.VarWithType{b}, Body: x}},
		"ty_abs": &lf.ETyAbs{Params: []lf.TypeParam{p}, Body: &lf.ETyAbs{Params: []lf.TypeParam{q}, Body: x}},
		"ty_app": &lf.ETyApp{Expr: &lf.ETyApp{Expr: x, Types: []lf.Type{tyInt}}, Types: []lf.Type{tyUnit}},
	}
	for _, minor := range []string{"2", "3", "dev"} {
		checkRoundTrip(t, minor, []string{}, exprs, func(n string) lf.Expr { return want[n] })
	}
}

// gen generates random expressions (a seeded, fuzz-free generator) over
// the forms every LF 2 minor ≥ 2.2 accepts.
type gen struct{ r *rand.Rand }

func (g gen) name() string { return []string{"x", "y", "z", "acc", "this"}[g.r.IntN(5)] }

func (g gen) typ(depth int) lf.Type {
	switch n := g.r.IntN(7); {
	case depth <= 0 || n == 0:
		return &lf.TBuiltin{Builtin: []lf.BuiltinType{lf.BuiltinInt64, lf.BuiltinText, lf.BuiltinParty, lf.BuiltinUnit}[g.r.IntN(4)]}
	case n == 1:
		return &lf.TVar{Name: g.name()}
	case n == 2:
		return tapp(&lf.TBuiltin{Builtin: lf.BuiltinList}, g.typ(depth-1))
	case n == 3:
		return tapp(&lf.TBuiltin{Builtin: lf.BuiltinNumeric}, &lf.TNat{N: g.r.IntN(38)})
	case n == 4:
		return &lf.TCon{ID: []lf.TypeConID{tT, tExt}[g.r.IntN(2)]}
	case n == 5:
		return &lf.TStruct{Fields: []lf.Field{{Name: "f", Type: g.typ(depth - 1)}}}
	default:
		return tapp(&lf.TBuiltin{Builtin: lf.BuiltinArrow}, g.typ(depth-1), g.typ(depth-1))
	}
}

func (g gen) expr(depth int) lf.Expr {
	if depth <= 0 {
		switch g.r.IntN(4) {
		case 0:
			return &lf.EVar{Name: g.name()}
		case 1:
			return &lf.EInt64{Value: g.r.Int64() - g.r.Int64()}
		case 2:
			return &lf.EText{Value: fmt.Sprint(g.r.Uint32())}
		default:
			return &lf.EBuiltinCon{Con: lf.BuiltinCon(g.r.IntN(3))}
		}
	}
	d := depth - 1
	switch g.r.IntN(10) {
	case 0:
		args := make([]lf.Expr, 1+g.r.IntN(3))
		for i := range args {
			args[i] = g.expr(d)
		}
		return &lf.EApp{Fun: g.expr(d), Args: args}
	case 1:
		return &lf.EAbs{Params: []lf.VarWithType{{Name: g.name(), Type: g.typ(2)}}, Body: g.expr(d)}
	case 2:
		return &lf.ELet{Bindings: []lf.Binding{{Var: lf.VarWithType{Name: g.name(), Type: g.typ(2)}, Bound: g.expr(d)}}, Body: g.expr(d)}
	case 3:
		return &lf.ECase{Scrut: g.expr(d), Alts: []lf.CaseAlt{{Pattern: &lf.PCons{Head: g.name(), Tail: g.name()}, Body: g.expr(d)}, {Pattern: &lf.PDefault{}, Body: g.expr(d)}}}
	case 4:
		return &lf.ECons{Type: g.typ(2), Front: []lf.Expr{g.expr(d)}, Tail: g.expr(d)}
	case 5:
		return &lf.ERecProj{Type: lf.TypeConApp{ID: tT, Args: []lf.Type{g.typ(2)}}, Field: g.name(), Record: g.expr(d)}
	case 6:
		return &lf.EStructCon{Fields: []lf.FieldExpr{{Name: g.name(), Expr: g.expr(d)}}}
	case 7:
		return &lf.EUpdate{Update: &lf.UBlock{Bindings: []lf.Binding{{Var: lf.VarWithType{Name: g.name(), Type: g.typ(2)}, Bound: g.expr(d)}}, Body: g.expr(d)}}
	case 8:
		return &lf.EUpdate{Update: &lf.UExercise{Template: tT, Choice: "C", ContractID: g.expr(d), Arg: g.expr(d)}}
	default:
		return &lf.ETyApp{Expr: g.expr(d), Types: []lf.Type{g.typ(3)}}
	}
}

// TestExprRoundTripRandom round-trips random expressions.
func TestExprRoundTripRandom(t *testing.T) {
	g := gen{rand.New(rand.NewPCG(1, 2))}
	exprs := map[string]lf.Expr{}
	for i := range 200 {
		exprs[fmt.Sprintf("e%d", i)] = g.expr(1 + i%6)
	}
	checkRoundTrip(t, "2", []string{otherID}, exprs, func(n string) lf.Expr { return exprs[n] })
}
