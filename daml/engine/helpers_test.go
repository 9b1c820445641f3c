package engine

import (
	"context"
	"errors"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
)

const testPkg = "testpkg"

func tid(name string) lf.TypeConID { return lf.TypeConID{PackageID: testPkg, Module: "M", Name: name} }

// AST shorthands.
func v(n string) lf.Expr                     { return &lf.EVar{Name: n} }
func i64(i int64) lf.Expr                    { return &lf.EInt64{Value: i} }
func txt(s string) lf.Expr                   { return &lf.EText{Value: s} }
func bi(f lf.BuiltinFunction) lf.Expr        { return &lf.EBuiltinFun{Fun: f} }
func app(f lf.Expr, args ...lf.Expr) lf.Expr { return &lf.EApp{Fun: f, Args: args} }
func val(n string) lf.Expr                   { return &lf.EVal{Ref: tid(n)} }
func lam(body lf.Expr, ps ...string) lf.Expr {
	vs := make([]lf.VarWithType, len(ps))
	for i, p := range ps {
		vs[i] = lf.VarWithType{Name: p}
	}
	return &lf.EAbs{Params: vs, Body: body}
}
func let(x string, bound, body lf.Expr) lf.Expr {
	return &lf.ELet{Bindings: []lf.Binding{{Var: lf.VarWithType{Name: x}, Bound: bound}}, Body: body}
}
func tru() lf.Expr  { return &lf.EBuiltinCon{Con: lf.ConTrue} }
func fls() lf.Expr  { return &lf.EBuiltinCon{Con: lf.ConFalse} }
func unit() lf.Expr { return &lf.EBuiltinCon{Con: lf.ConUnit} }
func nilE() lf.Expr { return &lf.ENil{} }
func cons(tail lf.Expr, front ...lf.Expr) lf.Expr {
	return &lf.ECons{Front: front, Tail: tail}
}
func caseE(s lf.Expr, alts ...lf.CaseAlt) lf.Expr { return &lf.ECase{Scrut: s, Alts: alts} }
func alt(p lf.Pattern, body lf.Expr) lf.CaseAlt   { return lf.CaseAlt{Pattern: p, Body: body} }
func add(a, b lf.Expr) lf.Expr                    { return app(bi(lf.BuiltinAddInt64), a, b) }
func upd(u lf.Update) lf.Expr                     { return &lf.EUpdate{Update: u} }

// testPackage is a package with the data types the tests use, the
// exception E (message: "E: " <> msg) and the given values.
func testPackage(values map[string]lf.Expr) *lf.Package {
	mod := &lf.Module{
		Name: "M",
		DataTypes: []*lf.DataType{
			{Name: "R", Variety: lf.RecordVariety, Fields: []lf.Field{{Name: "a"}, {Name: "b"}}},
			{Name: "V", Variety: lf.VariantVariety, Fields: []lf.Field{{Name: "L"}, {Name: "Rt"}}},
			{Name: "C", Variety: lf.EnumVariety, Constructors: []string{"Red", "Green", "Blue"}},
			{Name: "E", Variety: lf.RecordVariety, Fields: []lf.Field{{Name: "msg"}}},
			{Name: "T", Variety: lf.RecordVariety, Fields: []lf.Field{{Name: "owner"}, {Name: "n"}}},
			{Name: "Arg", Variety: lf.RecordVariety},
		},
		Templates: []*lf.Template{testTemplate()},
		Interfaces: []*lf.Interface{{Name: "I", Param: "me",
			Methods: []lf.InterfaceMethod{{Name: "getN"}},
			Choices: []*lf.Choice{{Name: "Get", ArgBinder: "arg", SelfBinder: "self",
				Controllers: &lf.ESignatoryInterface{Interface: tid("I"), Expr: v("me")},
				Update:      upd(&lf.UPure{Expr: &lf.ECallInterface{Interface: tid("I"), Method: "getN", Expr: v("me")}})}}}},
		Exceptions: []string{"E"},
		ExceptionDefs: []*lf.DefException{{Name: "E", Message: lam(
			app(bi(lf.BuiltinAppendText), txt("E: "), &lf.ERecProj{Type: lf.TypeConApp{ID: tid("E")}, Field: "msg", Record: v("e")}), "e")}},
	}
	for n, x := range values {
		mod.Values = append(mod.Values, lf.NewDefValue(n, nil, x))
	}
	p := &lf.Package{ID: testPkg, Modules: []*lf.Module{mod}}
	p.Index()
	return p
}

func newTestEngine(values map[string]lf.Expr, opts Options) *Engine {
	return New(PackageMap{testPkg: testPackage(values)}, opts)
}

func errKind(err error) ErrorKind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return 0
}

func mustEval(t *testing.T, e *Engine, x lf.Expr) Value {
	t.Helper()
	got, err := e.Eval(context.Background(), x)
	if err != nil {
		t.Fatalf("Eval: %v", err)
	}
	return got
}

func tproj(f string) lf.Expr {
	return &lf.ERecProj{Type: lf.TypeConApp{ID: tid("T")}, Field: f, Record: v("this")}
}

// testTemplate is template T with owner: Party, n: Int64: signatory
// owner, ensure n >= 0; choices Bump (consuming: creates T with n+1),
// Boom (consuming: creates T with n+1, then throws), TryBump
// (non-consuming: exercises Boom on self inside a try whose handler
// returns 0) and Peek (non-consuming: fetches self).
func testTemplate() *lf.Template {
	owner := cons(nilE(), tproj("owner"))
	choice := func(name string, consuming bool, update lf.Expr) *lf.Choice {
		return &lf.Choice{Name: name, Consuming: consuming, ArgBinder: "arg", SelfBinder: "self",
			Controllers: owner, Update: update}
	}
	bump := upd(&lf.UCreate{Template: tid("T"), Expr: &lf.ERecUpd{Type: lf.TypeConApp{ID: tid("T")}, Field: "n",
		Record: v("this"), Update: add(tproj("n"), i64(1))}})
	boom := upd(&lf.UBlock{Bindings: []lf.Binding{{Var: lf.VarWithType{Name: "x"}, Bound: bump}}, Body: throwE("boom")})
	tryBump := upd(&lf.UTryCatch{Try: upd(&lf.UExercise{Template: tid("T"), Choice: "Boom", ContractID: v("self"), Arg: v("arg")}),
		Var: "e", Catch: &lf.EOptionalSome{Value: upd(&lf.UPure{Expr: i64(0)})}})
	peek := upd(&lf.UFetch{Template: tid("T"), ContractID: v("self")})
	badCtrl := choice("BadCtrl", false, upd(&lf.UPure{Expr: unit()}))
	badCtrl.Controllers = throwE("controllers")
	tryBad := upd(&lf.UTryCatch{Try: upd(&lf.UExercise{Template: tid("T"), Choice: "BadCtrl", ContractID: v("self"), Arg: v("arg")}),
		Var: "e", Catch: &lf.EOptionalSome{Value: upd(&lf.UPure{Expr: unit()})}})
	return &lf.Template{
		Name: "T", Param: "this",
		Implements: []lf.TypeConID{tid("I")},
		Instances: []*lf.InterfaceInstance{{Interface: tid("I"),
			Methods: []lf.MethodBody{{Name: "getN", Expr: tproj("n")}},
			View:    add(tproj("n"), i64(100))}},
		Precond:     app(bi(lf.BuiltinGreaterEq), tproj("n"), i64(0)),
		Signatories: owner,
		Observers:   nilE(),
		Choices: []*lf.Choice{choice("Bump", true, bump), choice("TryBump", false, tryBump), choice("Peek", false, peek), choice("Boom", true, boom),
			badCtrl, choice("TryBadCtrl", false, tryBad)},
	}
}
