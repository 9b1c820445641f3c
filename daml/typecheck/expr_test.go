package typecheck

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/lf"
)

// TestBasePackageAccepted: the fixture every rule test mutates is
// well-typed, so each refusal below is the mutation's.
func TestBasePackageAccepted(t *testing.T) {
	t.Parallel()
	if e := checkErr(t, testPackage(baseModule())); e != nil {
		t.Fatalf("base package refused: %v", e)
	}
}

// exprCase is a value "test : Type = Expr" added to the base module
// (after mod, when set, changed it) and the kind Check must answer
// (0: accepted).
type exprCase struct {
	name string
	typ  lf.Type
	expr lf.Expr
	mod  func(m *lf.Module)
	want ErrorKind
}

func runExprCases(t *testing.T, cases []exprCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := baseModule()
			if tt.mod != nil {
				tt.mod(m)
			}
			m.Values = append(m.Values, lf.NewDefValue("test", tt.typ, tt.expr))
			e := checkErr(t, testPackage(m))
			if got := kindOfErr(e); got != tt.want {
				t.Fatalf("kind %v, want %v (%v)", got, tt.want, e)
			}
			if e != nil && e.Kind != ECollision && e.Context.Sort != ContextValue {
				t.Errorf("context %+v, want the value", e.Context)
			}
		})
	}
}

var (
	rInt64   = tc("R", tyInt64)
	treeInt  = tc("Tree", tyInt64)
	tT       = tc("T")
	tI       = tc("I")
	int1     = &lf.EInt64{Value: 1}
	emptyR   = &lf.ERecCon{Type: tcapp("R", tyInt64), Fields: []lf.FieldExpr{{Name: "f1", Expr: int1}, {Name: "f2", Expr: nilOf(tyInt64)}}}
	addInt64 = bi(lf.BuiltinAddInt64)
	idFun    = tlam("a", star, lam("x", tv("a"), ev("x")))
	tupleTCT = func(t lf.Type) lf.Type {
		return tapp(&lf.TCon{ID: lf.TypeConID{PackageID: tuple2.ID.PackageID, Module: "DA.Types", Name: "Tuple2"}}, tcid(t), t)
	}
)

// TestExprAccepted: one well-typed instance of each expression and update
// form (a checker that refuses one of these would refuse real code).
func TestExprAccepted(t *testing.T) {
	t.Parallel()
	e := func(u lf.Update) lf.Expr { return &lf.EUpdate{Update: u} }
	runExprCases(t, []exprCase{
		{name: "lambda and var", typ: tfn(tyInt64, tyInt64), expr: lam("x", tyInt64, ev("x"))},
		{name: "n-ary lambda, later param shadows", typ: tfn(tyInt64, tyText, tyText),
			expr: &lf.EAbs{Params: []lf.VarWithType{{Name: "x", Type: tyInt64}, {Name: "x", Type: tyText}}, Body: ev("x")}},
		{name: "builtin application", typ: tyInt64, expr: eapp(addInt64, int1, int1)},
		{name: "partial application", typ: tfn(tyInt64, tyInt64), expr: eapp(addInt64, int1)},
		{name: "numeric literal scale", typ: tnum(1), expr: &lf.ENumeric{Text: "1.0", Scale: 1}},
		{name: "MUL_NUMERIC", typ: tnum(10), expr: eapp(etapp(bi(lf.BuiltinMulNumeric), &lf.TNat{N: 2}, &lf.TNat{N: 3}, &lf.TNat{N: 10}),
			&lf.ENumeric{Text: "0.0000000000", Scale: 10}, &lf.ENumeric{Text: "1.00", Scale: 2}, &lf.ENumeric{Text: "1.000", Scale: 3})},
		{name: "ty_app of a forall", typ: tyInt64, expr: eapp(etapp(idFun, tyInt64), int1)},
		{name: "ty_app chain", typ: tfn(tyInt64, tyInt64), expr: etapp(etapp(tlam("a", star, tlam("b", star, lam("x", tv("b"), ev("x")))), tyText), tyInt64)},
		{name: "forall alpha-equivalent", typ: tall("b", star, tfn(tv("b"), tv("b"))), expr: idFun},
		{name: "record con, proj, upd", typ: tyInt64, expr: proj2(&lf.ERecUpd{Type: tcapp("R", tyInt64), Field: "f1", Record: emptyR, Update: int1})},
		{name: "variant con", typ: treeInt, expr: &lf.EVariantCon{Type: tcapp("Tree", tyInt64), Con: "Leaf", Arg: unitE}},
		{name: "enum con", typ: tc("Color"), expr: &lf.EEnumCon{ID: id("Color"), Con: "Red"}},
		{name: "struct con and proj", typ: tyText, expr: &lf.EStructProj{Field: "b", Struct: &lf.EStructCon{Fields: []lf.FieldExpr{{Name: "b", Expr: text("x")}, {Name: "a", Expr: int1}}}}},
		{name: "struct type order-insensitive", typ: &lf.TStruct{Fields: []lf.Field{{Name: "b", Type: tyText}, {Name: "a", Type: tyInt64}}},
			expr: &lf.EStructUpd{Field: "a", Struct: &lf.EStructCon{Fields: []lf.FieldExpr{{Name: "a", Expr: int1}, {Name: "b", Expr: text("x")}}}, Update: int1}},
		{name: "let uses inferred type", typ: tyInt64, expr: &lf.ELet{Bindings: []lf.Binding{{Var: lf.VarWithType{Name: "x", Type: tyInt64}, Bound: int1}}, Body: ev("x")}},
		{name: "case variant with default", typ: tfn(treeInt, tyInt64), expr: lam("t", treeInt, ecase(ev("t"),
			alt(&lf.PVariant{ID: id("Tree"), Con: "Node", Binder: "n"}, &lf.ERecProj{Type: tcapp("Tree.Node", tyInt64), Field: "value", Record: ev("n")}),
			alt(&lf.PDefault{}, int1)))},
		{name: "case variant binder typed", typ: tfn(treeInt, tyInt64), expr: lam("t", treeInt, ecase(ev("t"),
			alt(&lf.PVariant{ID: id("Tree"), Con: "Node", Binder: "n"}, &lf.ERecProj{Type: tcapp("Tree.Node", tyInt64), Field: "value", Record: ev("n")}),
			alt(&lf.PVariant{ID: id("Tree"), Con: "Leaf", Binder: "u"}, int1)))},
		{name: "case enum exhaustive", typ: tfn(tc("Color"), tyInt64), expr: lam("c", tc("Color"), ecase(ev("c"),
			alt(&lf.PEnum{ID: id("Color"), Con: "Red"}, int1), alt(&lf.PEnum{ID: id("Color"), Con: "Green"}, int1), alt(&lf.PEnum{ID: id("Color"), Con: "Blue"}, int1)))},
		{name: "case bool", typ: tfn(tyBool, tyInt64), expr: lam("b", tyBool, ecase(ev("b"), alt(&lf.PBuiltinCon{Con: lf.ConTrue}, int1), alt(&lf.PBuiltinCon{Con: lf.ConFalse}, int1)))},
		{name: "case unit", typ: tyInt64, expr: ecase(unitE, alt(&lf.PBuiltinCon{Con: lf.ConUnit}, int1))},
		{name: "case list", typ: tfn(tlist(tyInt64), tyInt64), expr: lam("l", tlist(tyInt64), ecase(ev("l"),
			alt(&lf.PNil{}, int1), alt(&lf.PCons{Head: "h", Tail: "t"}, ev("h"))))},
		{name: "case optional", typ: tfn(topt(tyInt64), tyInt64), expr: lam("o", topt(tyInt64), ecase(ev("o"),
			alt(&lf.POptionalNone{}, int1), alt(&lf.POptionalSome{Binder: "x"}, ev("x"))))},
		{name: "case record with default only", typ: tfn(tT, tyInt64), expr: lam("t", tT, ecase(ev("t"), alt(&lf.PDefault{}, int1)))},
		{name: "cons and optional", typ: tlist(topt(tyInt64)), expr: &lf.ECons{Type: topt(tyInt64), Front: []lf.Expr{&lf.EOptionalSome{Type: tyInt64, Value: int1}}, Tail: nilOf(topt(tyInt64))}},
		{name: "to_any, from_any, type_rep", typ: tfn(tT, topt(tT)), expr: lam("t", tT, &lf.EFromAny{Type: tT, Expr: &lf.EToAny{Type: tT, Expr: ev("t")}})},
		{name: "type_rep", typ: &lf.TBuiltin{Builtin: lf.BuiltinTypeRep}, expr: &lf.ETypeRep{Type: tI}},
		{name: "throw and exceptions", typ: tyInt64, expr: &lf.EThrow{ReturnType: tyInt64, ExceptionType: tc("E"),
			Exception: &lf.ERecCon{Type: tcapp("E"), Fields: []lf.FieldExpr{{Name: "message", Expr: text("boom")}}}}},
		{name: "from_any_exception", typ: tfn(tyAnyExc, topt(tc("E"))), expr: lam("x", tyAnyExc, &lf.EFromAnyException{Type: tc("E"), Expr: ev("x")})},
		{name: "interface conversions", typ: tfn(tT, topt(tT)), expr: lam("t", tT, &lf.EFromInterface{Interface: id("I"), Template: id("T"),
			Expr: &lf.EToInterface{Interface: id("I"), Template: id("T"), Expr: ev("t")}})},
		{name: "interface calls", typ: tfn(tI, tlist(tyParty)), expr: lam("i", tI, &lf.ECallInterface{Interface: id("I"), Method: "getParties", Expr: ev("i")})},
		{name: "interface view", typ: tfn(tI, tc("V")), expr: lam("i", tI, &lf.EViewInterface{Interface: id("I"), Expr: ev("i")})},
		{name: "interface observers", typ: tfn(tI, tlist(tyParty)), expr: lam("i", tI, &lf.EObserverInterface{Interface: id("I"), Expr: ev("i")})},
		{name: "synonym expanded in equality", typ: tfn(syn("SynInt"), tyInt64), expr: lam("x", syn("SynInt"), eapp(addInt64, ev("x"), int1))},
		{name: "parameterised synonym", typ: tfn(syn("SynIdentity", tyInt64), tyInt64), expr: lam("x", syn("SynIdentity", tyInt64), ev("x"))},
		{name: "higher-kinded synonym", typ: tfn(syn("SynHigh", tyListCon), tlist(tyInt64)), expr: lam("x", syn("SynHigh", tyListCon), ev("x"))},
		{name: "pure and block", typ: tupd(tyInt64), expr: e(&lf.UBlock{Bindings: []lf.Binding{{Var: lf.VarWithType{Name: "x", Type: tyInt64}, Bound: pure(tyInt64, int1)}}, Body: pure(tyInt64, ev("x"))})},
		{name: "create, fetch, exercise", typ: tfn(tT, tupd(tyUnit)), expr: lam("t", tT, e(&lf.UBlock{
			Bindings: []lf.Binding{
				{Var: lf.VarWithType{Name: "cid", Type: tcid(tT)}, Bound: e(&lf.UCreate{Template: id("T"), Expr: ev("t")})},
				{Var: lf.VarWithType{Name: "t2", Type: tT}, Bound: e(&lf.UFetch{Template: id("T"), ContractID: ev("cid")})},
			},
			Body: e(&lf.UExercise{Template: id("T"), Choice: "Ch", ContractID: ev("cid"), Arg: unitE})}))},
		{name: "interface updates", typ: tfn(tcid(tI), tupd(tyUnit)), expr: lam("cid", tcid(tI), e(&lf.UBlock{
			Bindings: []lf.Binding{{Var: lf.VarWithType{Name: "i", Type: tI}, Bound: e(&lf.UFetchInterface{Interface: id("I"), ContractID: ev("cid")})}},
			Body:     e(&lf.UExerciseInterface{Interface: id("I"), Choice: "IC", ContractID: ev("cid"), Arg: unitE})}))},
		{name: "exercise_by_key", typ: tfn(tyParty, tupd(tyUnit)), expr: lam("p", tyParty, e(&lf.UExerciseByKey{Template: id("T"), Choice: "Ch", Key: ev("p"), Arg: unitE}))},
		{name: "fetch_by_key", typ: tfn(tyParty, tupd(tupleTCT(tT))), expr: e(&lf.UFetchByKey{Template: id("T")})},
		{name: "get_time, ledger_time_lt, embed_expr", typ: tupd(tyBool), expr: e(&lf.UEmbedExpr{Type: tyBool, Expr: e(&lf.UBlock{
			Bindings: []lf.Binding{{Var: lf.VarWithType{Name: "now", Type: tyTimestamp}, Bound: e(&lf.UGetTime{})}},
			Body:     e(&lf.ULedgerTimeLT{Expr: ev("now")})})})},
		{name: "try_catch", typ: tupd(tyInt64), expr: e(&lf.UTryCatch{ReturnType: tyInt64, Try: pure(tyInt64, int1), Var: "ex",
			Catch: &lf.EOptionalSome{Type: tupd(tyInt64), Value: pure(tyInt64, eapp(etapp(bi(lf.BuiltinError), tyInt64), text("x")))}})},
	})
}

// proj2 is ERecProj f1 of an R Int64.
func proj2(e lf.Expr) lf.Expr {
	if p, ok := e.(*lf.ERecProj); ok {
		return p
	}
	return &lf.ERecProj{Type: tcapp("R", tyInt64), Field: "f1", Record: e}
}

// TestExprRefused: the ill-typed expressions of Canton's TypingSpec
// (community/daml-lf/validation/src/test/scala/com/digitalasset/daml/lf/validation/TypingSpec.scala),
// each refused with Canton's error kind.
func TestExprRefused(t *testing.T) {
	t.Parallel()
	e := func(u lf.Update) lf.Expr { return &lf.EUpdate{Update: u} }
	withT2 := func(m *lf.Module) {
		m.DataTypes = append(m.DataTypes, &lf.DataType{Name: "T2", Serializable: true, Variety: lf.RecordVariety, Fields: []lf.Field{{Name: "p", Type: tyParty}}})
		m.Templates = append(m.Templates, &lf.Template{Name: "T2", Param: "this", Signatories: nilOf(tyParty), Observers: nilOf(tyParty)})
	}
	runExprCases(t, []exprCase{
		{name: "#2 apply a non-function", typ: tyUnit, want: EExpectedFunctionType,
			expr: tlam("t1", star, tlam("t2", star, lam("e1", tv("t2"), lam("e2", tv("t1"), eapp(ev("e1"), ev("e2"))))))},
		{name: "#3 argument of the wrong type", typ: tyUnit, want: ETypeMismatch,
			expr: tlam("t1", star, tlam("t2", star, tlam("t3", star, lam("e1", tfn(tv("t2"), tv("t3")), lam("e2", tv("t1"), eapp(ev("e1"), ev("e2"))))))),
		},
		{name: "#4 type argument of the wrong kind", typ: tyUnit, want: EKindMismatch,
			expr: tlam("s", karrow(star, star), lam("e", tall("a", star, tapp(tv("s"), tv("a"))), etapp(ev("e"), tv("s"))))},
		{name: "#5 type application of a non-forall", typ: tyUnit, want: EExpectedUniversalType,
			expr: lam("e", tyInt64, etapp(ev("e"), tyInt64))},
		{name: "#6 lambda parameter of kind * -> *", typ: tyUnit, want: EKindMismatch, expr: lam("x", tyListCon, unitE)},
		{name: "#7 ty_abs of kind * -> nat", typ: tyUnit, want: ENatKindRightOfArrow, expr: tlam("s", karrow(star, nat), unitE)},
		{name: "#8 record with a wrong field", typ: rInt64, want: EFieldMismatch,
			expr: &lf.ERecCon{Type: tcapp("R", tyInt64), Fields: []lf.FieldExpr{{Name: "f1", Expr: int1}, {Name: "f3", Expr: nilOf(tyInt64)}}}},
		{name: "#8 record with fields reordered", typ: rInt64, want: EFieldMismatch,
			expr: &lf.ERecCon{Type: tcapp("R", tyInt64), Fields: []lf.FieldExpr{{Name: "f2", Expr: nilOf(tyInt64)}, {Name: "f1", Expr: int1}}}},
		{name: "#8 record with a missing field", typ: rInt64, want: EFieldMismatch,
			expr: &lf.ERecCon{Type: tcapp("R", tyInt64), Fields: []lf.FieldExpr{{Name: "f1", Expr: int1}}}},
		{name: "#9 projection of an unknown field", typ: tyInt64, want: EUnknownField,
			expr: &lf.ERecProj{Type: tcapp("R", tyInt64), Field: "f3", Record: emptyR}},
		{name: "#10 record update of the wrong type is ETypeMismatch", typ: rInt64, want: ETypeMismatch,
			expr: &lf.ERecUpd{Type: tcapp("R", tyInt64), Field: "f2", Record: emptyR, Update: trueE}},
		{name: "#11 struct with a duplicate field", typ: tyUnit, want: EDuplicateField,
			expr: &lf.EStructCon{Fields: []lf.FieldExpr{{Name: "f1", Expr: int1}, {Name: "f1", Expr: int1}}}},
		{name: "#12 case True only", typ: tfn(tyBool, tyUnit), want: ENonExhaustivePatterns,
			expr: lam("e", tyBool, ecase(ev("e"), alt(&lf.PBuiltinCon{Con: lf.ConTrue}, unitE)))},
		{name: "#13 case missing a variant constructor", typ: tfn(treeInt, tyUnit), want: ENonExhaustivePatterns,
			expr: lam("e", treeInt, ecase(ev("e"), alt(&lf.PVariant{ID: id("Tree"), Con: "Node", Binder: "x"}, unitE)))},
		{name: "#13 case missing an enum constructor", typ: tfn(tc("Color"), tyUnit), want: ENonExhaustivePatterns,
			expr: lam("e", tc("Color"), ecase(ev("e"), alt(&lf.PEnum{ID: id("Color"), Con: "Red"}, unitE), alt(&lf.PEnum{ID: id("Color"), Con: "Red"}, unitE)))},
		{name: "#13 case on a list without nil", typ: tfn(tlist(tyInt64), tyUnit), want: ENonExhaustivePatterns,
			expr: lam("e", tlist(tyInt64), ecase(ev("e"), alt(&lf.PCons{Head: "h", Tail: "t"}, unitE)))},
		{name: "#14 variant pattern on a type variable", typ: tyUnit, want: EPatternTypeMismatch,
			expr: tlam("t", star, lam("e", tv("t"), ecase(ev("e"), alt(&lf.PVariant{ID: id("Tree"), Con: "Node", Binder: "x"}, unitE), alt(&lf.PDefault{}, unitE))))},
		{name: "pattern of another variant", typ: tfn(treeInt, tyUnit), want: EPatternTypeMismatch,
			expr: lam("e", treeInt, ecase(ev("e"), alt(&lf.PEnum{ID: id("Color"), Con: "Red"}, unitE), alt(&lf.PDefault{}, unitE)))},
		{name: "unknown variant constructor in a pattern", typ: tfn(treeInt, tyUnit), want: EUnknownVariantCon,
			expr: lam("e", treeInt, ecase(ev("e"), alt(&lf.PVariant{ID: id("Tree"), Con: "Branch", Binder: "x"}, unitE), alt(&lf.PDefault{}, unitE)))},
		{name: "pattern errors come before body errors", typ: tfn(treeInt, tyUnit), want: EPatternTypeMismatch,
			expr: lam("e", treeInt, ecase(ev("e"), alt(&lf.PDefault{}, ev("nope")), alt(&lf.PNil{}, unitE)))},
		{name: "#15 cons pattern binding one name twice", typ: tfn(tlist(tyInt64), tyUnit), want: EClashingPatternVariables,
			expr: lam("e", tlist(tyInt64), ecase(ev("e"), alt(&lf.PCons{Head: "x", Tail: "x"}, unitE), alt(&lf.PDefault{}, unitE)))},
		{name: "#16 case without alternatives", typ: tyUnit, want: EEmptyCase, expr: ecase(unitE)},
		{name: "alternatives of different types", typ: tfn(tyBool, tyUnit), want: ETypeMismatch,
			expr: lam("e", tyBool, ecase(ev("e"), alt(&lf.PBuiltinCon{Con: lf.ConTrue}, unitE), alt(&lf.PDefault{}, int1)))},
		{name: "#17 to_any of Text", typ: tfn(tyText, &lf.TBuiltin{Builtin: lf.BuiltinAny}), want: EExpectedAnyType,
			expr: lam("t", tyText, &lf.EToAny{Type: tyText, Expr: ev("t")})},
		{name: "#17 type_rep of Int64", typ: tyUnit, want: EExpectedAnyType, expr: &lf.ETypeRep{Type: tyInt64}},
		{name: "#17 to_any of an applied data type", typ: tyUnit, want: EExpectedAnyType, expr: &lf.ETypeRep{Type: rInt64}},
		{name: "#18 to_any of a parameterised data type", typ: tyUnit, want: EKindMismatch, expr: &lf.ETypeRep{Type: tc("R")}},
		{name: "#19 to_any_exception of Bool", typ: tyUnit, want: EExpectedExceptionType, expr: &lf.EToAnyException{Type: tyBool, Expr: trueE}},
		{name: "#19 throw of a record that is not an exception", typ: tfn(tT, tyUnit), want: EUnknownDefinition,
			expr: lam("t", tT, &lf.EThrow{ReturnType: tyUnit, ExceptionType: tT, Exception: ev("t")})},
		{name: "#20 exercise of an interface as a template", typ: tfn(tcid(tI), tupd(tyUnit)), want: EUnknownDefinition,
			expr: lam("c", tcid(tI), e(&lf.UExercise{Template: id("I"), Choice: "Ch", ContractID: ev("c"), Arg: unitE}))},
		{name: "#21 fetch_by_key with a key of the wrong type", typ: tyUnit, want: ETypeMismatch,
			expr: eapp(e(&lf.UFetchByKey{Template: id("T")}), text("Bob"))},
		{name: "#22 to_interface of a template without the instance", typ: tyUnit, want: EUnknownDefinition, mod: withT2,
			expr: lam("t", tc("T2"), &lf.EToInterface{Interface: id("I"), Template: id("T2"), Expr: ev("t")})},
		{name: "#23 to_required_interface of an interface not required", typ: tyUnit, want: EWrongInterfaceRequirement,
			expr: lam("i", tI, &lf.EToRequiredInterface{Required: id("Z"), Requiring: id("I"), Expr: ev("i")})},
		{name: "#39 Numeric 10 = 1.0", typ: tnum(10), want: ETypeMismatch, expr: &lf.ENumeric{Text: "1.0", Scale: 1}},
		{name: "#40 case on a synonym of Bool", typ: tfn(syn("SynBool"), tyInt64), want: EPatternTypeMismatch,
			expr: lam("x", syn("SynBool"), ecase(ev("x"), alt(&lf.PBuiltinCon{Con: lf.ConTrue}, int1), alt(&lf.PBuiltinCon{Con: lf.ConFalse}, int1)))},
		{name: "#32 synonym applied to too many arguments", typ: tyUnit, want: ETypeSynAppWrongArity, expr: lam("x", syn("SynInt", tyText), unitE)},
		{name: "#32 synonym argument of the wrong kind", typ: tyUnit, want: EKindMismatch, expr: lam("x", syn("SynIdentity", tyListCon), unitE)},
		{name: "#32 higher-kinded synonym argument of kind *", typ: tyUnit, want: EKindMismatch, expr: lam("x", syn("SynHigh", tyText), unitE)},
		{name: "#32 unknown synonym", typ: tyUnit, want: EUnknownDefinition, expr: lam("x", syn("MissingSyn"), unitE)},
		{name: "unknown expression variable", typ: tyUnit, want: EUnknownExprVar, expr: ev("x")},
		{name: "unknown type variable", typ: tyUnit, want: EUnknownTypeVar, expr: lam("x", tv("a"), unitE)},
		{name: "unknown value", typ: tyUnit, want: EUnknownDefinition, expr: &lf.EVal{Ref: id("nope")}},
		{name: "unknown module", typ: tyUnit, want: EUnknownDefinition, expr: &lf.EVal{Ref: lf.TypeConID{PackageID: pid, Module: "Nope", Name: "x"}}},
		{name: "unknown package", typ: tyUnit, want: EUnknownDefinition, expr: &lf.EVal{Ref: lf.TypeConID{PackageID: "beef", Module: "Mod", Name: "x"}}},
		{name: "data type used as a value", typ: tyUnit, want: EUnknownDefinition, expr: &lf.EVal{Ref: id("R")}},
		{name: "type constructor of the wrong arity", typ: tyUnit, want: ETypeConAppWrongArity,
			expr: &lf.ERecCon{Type: tcapp("R"), Fields: []lf.FieldExpr{{Name: "f1", Expr: int1}}}},
		{name: "record expression over a variant", typ: tyUnit, want: EExpectedRecordType,
			expr: &lf.ERecCon{Type: tcapp("Tree", tyInt64), Fields: []lf.FieldExpr{{Name: "Leaf", Expr: unitE}}}},
		{name: "variant expression over a record", typ: tyUnit, want: EExpectedVariantType,
			expr: &lf.EVariantCon{Type: tcapp("R", tyInt64), Con: "f1", Arg: int1}},
		{name: "unknown variant constructor", typ: tyUnit, want: EUnknownVariantCon,
			expr: &lf.EVariantCon{Type: tcapp("Tree", tyInt64), Con: "Branch", Arg: unitE}},
		{name: "variant argument of the wrong type", typ: treeInt, want: ETypeMismatch,
			expr: &lf.EVariantCon{Type: tcapp("Tree", tyInt64), Con: "Leaf", Arg: int1}},
		{name: "enum constructor of a record", typ: tyUnit, want: EExpectedEnumType, expr: &lf.EEnumCon{ID: id("T"), Con: "Red"}},
		{name: "unknown enum constructor", typ: tyUnit, want: EUnknownEnumCon, expr: &lf.EEnumCon{ID: id("Color"), Con: "Purple"}},
		{name: "struct projection of a non-struct", typ: tyUnit, want: EExpectedStructType, expr: &lf.EStructProj{Field: "f", Struct: int1}},
		{name: "struct projection of an unknown field", typ: tyUnit, want: EUnknownField,
			expr: &lf.EStructProj{Field: "g", Struct: &lf.EStructCon{Fields: []lf.FieldExpr{{Name: "f", Expr: int1}}}}},
		{name: "type applied to a type of kind *", typ: tyUnit, want: EExpectedHigherKind, expr: lam("x", tapp(tyInt64, tyText), unitE)},
		{name: "Numeric applied to a type", typ: tyUnit, want: EKindMismatch, expr: lam("x", tapp(&lf.TBuiltin{Builtin: lf.BuiltinNumeric}, tyInt64), unitE)},
		{name: "projection of the wrong type is EFieldTypeMismatch", typ: tyUnit, want: EFieldTypeMismatch,
			expr: lam("r", rInt64, &lf.ELet{Bindings: []lf.Binding{{Var: lf.VarWithType{Name: "x", Type: tyText}, Bound: &lf.ERecProj{Type: tcapp("R", tyInt64), Field: "f1", Record: ev("r")}}}, Body: unitE})},
		{name: "let binding of the wrong type", typ: tyUnit, want: ETypeMismatch,
			expr: &lf.ELet{Bindings: []lf.Binding{{Var: lf.VarWithType{Name: "x", Type: tyText}, Bound: int1}}, Body: unitE}},
		{name: "cons without front", typ: tyUnit, want: EEmptyConsFront, expr: &lf.ECons{Type: tyInt64, Tail: nilOf(tyInt64)}},
		{name: "cons element of the wrong type", typ: tyUnit, want: ETypeMismatch, expr: &lf.ECons{Type: tyInt64, Front: []lf.Expr{text("x")}, Tail: nilOf(tyInt64)}},
		{name: "block body not an update", typ: tyUnit, want: EExpectedUpdateType,
			expr: e(&lf.UBlock{Bindings: []lf.Binding{{Var: lf.VarWithType{Name: "x", Type: tyUnit}, Bound: pure(tyUnit, unitE)}}, Body: int1})},
		{name: "block binding not an update", typ: tyUnit, want: ETypeMismatch,
			expr: e(&lf.UBlock{Bindings: []lf.Binding{{Var: lf.VarWithType{Name: "x", Type: tyUnit}, Bound: unitE}}, Body: pure(tyUnit, unitE)})},
		{name: "create of a non-template", typ: tyUnit, want: EUnknownDefinition, expr: e(&lf.UCreate{Template: id("R"), Expr: unitE})},
		{name: "create with the wrong argument", typ: tyUnit, want: ETypeMismatch, expr: e(&lf.UCreate{Template: id("T"), Expr: unitE})},
		{name: "exercise of an unknown choice", typ: tfn(tcid(tT), tyUnit), want: EUnknownDefinition,
			expr: lam("c", tcid(tT), e(&lf.UExercise{Template: id("T"), Choice: "Nope", ContractID: ev("c"), Arg: unitE}))},
		{name: "exercise with the wrong contract id", typ: tfn(tcid(tI), tyUnit), want: ETypeMismatch,
			expr: lam("c", tcid(tI), e(&lf.UExercise{Template: id("T"), Choice: "Ch", ContractID: ev("c"), Arg: unitE}))},
		{name: "exercise_interface checks the contract id first", typ: tyUnit, want: ETypeMismatch,
			expr: e(&lf.UExerciseInterface{Interface: id("I"), Choice: "Nope", ContractID: unitE, Arg: unitE})},
		{name: "fetch_by_key of a template without key", typ: tyUnit, want: EUnknownDefinition, mod: withT2,
			expr: e(&lf.UFetchByKey{Template: id("T2")})},
		{name: "try_catch handler not optional", typ: tyUnit, want: ETypeMismatch,
			expr: e(&lf.UTryCatch{ReturnType: tyInt64, Try: pure(tyInt64, int1), Var: "ex", Catch: pure(tyInt64, int1)})},
		{name: "call of an unknown method", typ: tfn(tI, tyUnit), want: EUnknownDefinition,
			expr: lam("i", tI, &lf.ECallInterface{Interface: id("I"), Method: "nope", Expr: ev("i")})},
		{name: "builtin applied to the wrong argument", typ: tyInt64, want: ETypeMismatch, expr: eapp(addInt64, text("1"), int1)},
		{name: "value of the wrong type (illformed.dar)", typ: tyBool, want: ETypeMismatch, expr: unitE},
		{name: "value type of kind * -> *", typ: tyListCon, want: EKindMismatch, expr: unitE},
	})
}

// TestErrorRendering: messages and the Canton string, as Canton renders
// them (ValidationError.pretty).
func TestErrorRendering(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		p    *lf.Package
		want string
	}{
		{"type mismatch", withValue(tyBool, unitE),
			"validation error in value cafe:Mod:test: type mismatch:\n * expected type: Bool\n * found type: Unit"},
		{"function types print with arrows", withValue(tfn(tyInt64, tlist(tyText), tyBool), lam("x", tyInt64, unitE)),
			"validation error in value cafe:Mod:test: type mismatch:\n * expected type: Int64 → List Text → Bool\n * found type: Int64 → Unit"},
		{"foralls print their binders together", withValue(tyUnit, idFun),
			"validation error in value cafe:Mod:test: type mismatch:\n * expected type: Unit\n * found type: ∀a. a → a"},
		{"Bool missing-pattern quirk", withValue(tfn(tyBool, tyUnit), lam("e", tyBool, ecase(ev("e"), alt(&lf.PBuiltinCon{Con: lf.ConTrue}, unitE)))),
			"validation error in value cafe:Mod:test: non-exhaustive pattern match:\n * missing patterns: CPBuiltinCon(BCTrue)\n * scrutinee type: Bool"},
		{"missing variant constructor", withValue(tfn(treeInt, tyUnit), lam("e", treeInt, ecase(ev("e"), alt(&lf.PVariant{ID: id("Tree"), Con: "Node", Binder: "x"}, unitE)))),
			"validation error in value cafe:Mod:test: non-exhaustive pattern match:\n * missing patterns: CPVariant(cafe:Mod:Tree,Leaf,_)\n * scrutinee type: Mod:Tree Int64"},
		{"kind mismatch", withValue(tyUnit, lam("x", tyListCon, unitE)),
			"validation error in value cafe:Mod:test: kind mismatch:\n * expected kind: *\n * found Kind: *->*"},
		{"unknown value", withValue(tyUnit, &lf.EVal{Ref: id("g")}),
			"validation error in value cafe:Mod:test: unknown definition cafe:Mod:g while looking for value cafe:Mod:g"},
		{"unknown template choice", withValue(tyUnit, &lf.EUpdate{Update: &lf.UExercise{Template: id("U"), Choice: "Ch", ContractID: unitE, Arg: unitE}}),
			"validation error in value cafe:Mod:test: unknown template cafe:Mod:U while looking for choice Ch in template cafe:Mod:U"},
		{"nat kind", withValue(tyUnit, tlam("s", karrow(star, karrow(star, nat)), unitE)),
			"validation error in value cafe:Mod:test: invalid kind *->nat"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := checkErr(t, tt.p)
			if e == nil {
				t.Fatal("accepted")
			}
			if diff := cmp.Diff(tt.want, e.Error()); diff != "" {
				t.Errorf("Error() (-want +got):\n%s", diff)
			}
			if want := "com.digitalasset.daml.lf.validation." + e.Kind.String() + ": " + tt.want; e.CantonString() != want {
				t.Errorf("CantonString() = %q", e.CantonString())
			}
		})
	}
}

// TestErrorFields: the error carries the types involved.
func TestErrorFields(t *testing.T) {
	t.Parallel()
	e := checkErr(t, withValue(tyBool, unitE))
	if e == nil || e.Found.String() != "Unit" || e.Expected != lf.Type(tyBool) {
		t.Fatalf("got %+v, want found Unit, expected Bool", e)
	}
	e = checkErr(t, withValue(tfn(tyBool, tyUnit), lam("e", tyBool, ecase(ev("e"), alt(&lf.PBuiltinCon{Con: lf.ConFalse}, unitE)))))
	if diff := cmp.Diff([]string{"CPBuiltinCon(BCFalse)"}, e.Names); diff != "" {
		t.Errorf("missing patterns (-want +got):\n%s", diff)
	}
}
