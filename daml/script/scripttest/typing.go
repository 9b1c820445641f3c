package scripttest

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
)

// The Builder's expressions carry holes where their types are not known
// when they are built (the element type of Nil, the type arguments of a
// record, the result type of a script, ...). Values then infers the holes
// by unification over the whole script (typer), inserts the library's
// dangerousCast where a LedgerValue is expected and something else is
// given (as the library's toLedgerValue does), and writes the solved types
// into the expression, a hole nothing constrains becoming (). The result
// type-checks as Daml-LF (daml/typecheck).

// holes numbers the holes; a hole is a type variable named "?<n>", a name
// no Daml-LF type variable has.
var holes atomic.Int64

// hole is a fresh hole.
func hole() lf.Type { return &lf.TVar{Name: "?" + strconv.FormatInt(holes.Add(1), 10)} }

// holeName is the name of t when t is a hole.
func holeName(t lf.Type) (string, bool) {
	v, ok := t.(*lf.TVar)
	if ok && strings.HasPrefix(v.Name, "?") {
		return v.Name, true
	}
	return "", false
}

func holesN(n int) []lf.Type {
	ts := make([]lf.Type, n)
	for i := range ts {
		ts[i] = hole()
	}
	return ts
}

func tBuiltin(b lf.BuiltinType, args ...lf.Type) lf.Type {
	return tApply(&lf.TBuiltin{Builtin: b}, args...)
}

func tApply(f lf.Type, args ...lf.Type) lf.Type {
	for _, a := range args {
		f = &lf.TApp{Fun: f, Arg: a}
	}
	return f
}

func tCon(id lf.TypeConID, args ...lf.Type) lf.Type { return tApply(&lf.TCon{ID: id}, args...) }

func tFn(a, r lf.Type) lf.Type { return tBuiltin(lf.BuiltinArrow, a, r) }

// arrow splits a -> r.
func arrow(t lf.Type) (a, r lf.Type, ok bool) {
	h, args := lf.SplitApp(t)
	if b, isB := h.(*lf.TBuiltin); isB && b.Builtin == lf.BuiltinArrow && len(args) == 2 {
		return args[0], args[1], true
	}
	return nil, nil, false
}

// question is what Ask records of a Question record it built, for the
// typer to give the continuation the question's answer type.
type question struct {
	name string
}

// typer solves the holes of one script.
type typer struct {
	b     *Builder
	sub   map[string]lf.Type
	env   map[string]lf.Type
	casts map[lf.Expr]lf.Type // inserted casts: the type cast from
	err   error
}

func (b *Builder) newTyper() *typer {
	return &typer{b: b, sub: map[string]lf.Type{}, env: map[string]lf.Type{}, casts: map[lf.Expr]lf.Type{}}
}

func (t *typer) fail(format string, args ...any) {
	if t.err == nil {
		t.err = fmt.Errorf(format, args...)
	}
}

// resolve substitutes the solved holes of x, deeply.
func (t *typer) resolve(x lf.Type) lf.Type {
	switch y := x.(type) {
	case *lf.TVar:
		if n, ok := holeName(y); ok {
			if s, ok := t.sub[n]; ok {
				r := t.resolve(s)
				t.sub[n] = r
				return r
			}
		}
	case *lf.TApp:
		f, a := t.resolve(y.Fun), t.resolve(y.Arg)
		if f != y.Fun || a != y.Arg {
			return &lf.TApp{Fun: f, Arg: a}
		}
	}
	return x
}

// final is x resolved with its unsolved holes as ().
func (t *typer) final(x lf.Type) lf.Type {
	if x == nil {
		return unit
	}
	switch y := t.resolve(x).(type) {
	case *lf.TVar:
		if _, ok := holeName(y); ok {
			return unit
		}
		return y
	case *lf.TApp:
		return &lf.TApp{Fun: t.final(y.Fun), Arg: t.final(y.Arg)}
	case *lf.TForall:
		return &lf.TForall{Param: y.Param, Body: t.final(y.Body)}
	default:
		return y
	}
}

func (t *typer) occurs(n string, x lf.Type) bool {
	switch y := t.resolve(x).(type) {
	case *lf.TVar:
		return y.Name == n
	case *lf.TApp:
		return t.occurs(n, y.Fun) || t.occurs(n, y.Arg)
	}
	return false
}

// unify makes a and b equal, solving holes; it reports whether it could.
func (t *typer) unify(a, b lf.Type) bool {
	a, b = t.resolve(a), t.resolve(b)
	if n, ok := holeName(a); ok {
		if m, ok := holeName(b); ok && m == n {
			return true
		}
		if t.occurs(n, b) {
			return false
		}
		t.sub[n] = b
		return true
	}
	if _, ok := holeName(b); ok {
		return t.unify(b, a)
	}
	switch x := a.(type) {
	case *lf.TApp:
		y, ok := b.(*lf.TApp)
		return ok && t.unify(x.Fun, y.Fun) && t.unify(x.Arg, y.Arg)
	case *lf.TCon:
		y, ok := b.(*lf.TCon)
		return ok && x.ID == y.ID
	case *lf.TBuiltin:
		y, ok := b.(*lf.TBuiltin)
		return ok && x.Builtin == y.Builtin
	case *lf.TVar:
		y, ok := b.(*lf.TVar)
		return ok && x.Name == y.Name
	case *lf.TNat:
		y, ok := b.(*lf.TNat)
		return ok && x.N == y.N
	}
	return false
}

// subst replaces the type variables of x by their values in s.
func subst(x lf.Type, s map[string]lf.Type) lf.Type {
	switch y := x.(type) {
	case *lf.TVar:
		if r, ok := s[y.Name]; ok {
			return r
		}
	case *lf.TApp:
		return &lf.TApp{Fun: subst(y.Fun, s), Arg: subst(y.Arg, s)}
	case *lf.TForall:
		inner := make(map[string]lf.Type, len(s))
		for k, v := range s {
			if k != y.Param.Name {
				inner[k] = v
			}
		}
		return &lf.TForall{Param: y.Param, Body: subst(y.Body, inner)}
	}
	return x
}

func (t *typer) pkg(id string) *lf.Package {
	if t.b.pkgs == nil || id == lftest.SelfID {
		return nil
	}
	return t.b.pkgs(id)
}

// dataType is the definition of id with the substitution of its
// parameters by args, whose length it fixes (nil when unknown: a type of
// the package being built).
func (t *typer) dataType(app *lf.TypeConApp) (*lf.DataType, map[string]lf.Type) {
	var dt *lf.DataType
	if p := t.pkg(app.ID.PackageID); p != nil {
		dt = p.DataType(app.ID.Module, app.ID.Name)
	}
	if dt == nil {
		return nil, nil
	}
	if len(app.Args) != len(dt.Params) {
		app.Args = holesN(len(dt.Params))
	}
	s := make(map[string]lf.Type, len(dt.Params))
	for i, p := range dt.Params {
		s[p.Name] = app.Args[i]
	}
	return dt, s
}

func (t *typer) bind(name string, x lf.Type) func() {
	old, had := t.env[name]
	t.env[name] = x
	return func() {
		if had {
			t.env[name] = old
		} else {
			delete(t.env, name)
		}
	}
}

// check types e against want (nil: unknown) and returns e, wrapped in a
// cast to LedgerValue when want is LedgerValue and e is of another type.
func (t *typer) check(e lf.Expr, want lf.Type) lf.Expr {
	e, _ = t.checkT(e, want)
	return e
}

// checkT is check, also returning the type of the result.
func (t *typer) checkT(e lf.Expr, want lf.Type) (lf.Expr, lf.Type) {
	e, got := t.expr(e, want)
	if want == nil {
		return e, got
	}
	w, g := t.resolve(want), t.resolve(got)
	_, gHole := holeName(g)
	if t.isLedgerValue(w) && !gHole && !t.isLedgerValue(g) {
		c := t.b.cast(g, w, e)
		t.casts[c] = g
		return c, w
	}
	if !t.unify(w, g) {
		t.fail("%T: expected %v, found %v", e, t.final(w), t.final(g))
	}
	return e, w
}

func (t *typer) isLedgerValue(x lf.Type) bool {
	c, ok := x.(*lf.TCon)
	return ok && c.ID == t.b.ds("Daml.Script.Internal.LowLevel", "LedgerValue")
}

// expr types e (want is a hint, nil when unknown) and returns it, with
// casts inserted in it, and its type.
func (t *typer) expr(e lf.Expr, want lf.Type) (lf.Expr, lf.Type) {
	switch x := e.(type) {
	case *lf.EBuiltinCon:
		if x.Con == lf.ConUnit {
			return e, unit
		}
		return e, tBuiltin(lf.BuiltinBool)
	case *lf.EInt64:
		return e, tBuiltin(lf.BuiltinInt64)
	case *lf.EText:
		return e, tBuiltin(lf.BuiltinText)
	case *lf.ETimestamp:
		return e, tBuiltin(lf.BuiltinTimestamp)
	case *lf.EDate:
		return e, tBuiltin(lf.BuiltinDate)
	case *lf.ENumeric:
		return e, tBuiltin(lf.BuiltinNumeric, &lf.TNat{N: x.Scale})
	case *lf.EFailureCategory:
		return e, tBuiltin(lf.BuiltinFailureCategory)
	case *lf.EVar:
		if v, ok := t.env[x.Name]; ok {
			return e, v
		}
		return e, hole()
	case *lf.EVal:
		if p := t.pkg(x.Ref.PackageID); p != nil {
			if v := p.Value(x.Ref.Module, x.Ref.Name); v != nil {
				return e, v.Type
			}
		}
		return e, hole()
	case *lf.ETyApp:
		inner, ft := t.expr(x.Expr, nil)
		x.Expr = inner
		if b, ok := inner.(*lf.EBuiltinFun); ok && len(x.Types) == 1 {
			v := x.Types[0]
			switch b.Fun {
			case lf.BuiltinTextMapEmpty:
				return e, tBuiltin(lf.BuiltinTextMap, v)
			case lf.BuiltinError:
				return e, tFn(tBuiltin(lf.BuiltinText), v)
			case lf.BuiltinTrace:
				return e, tFn(tBuiltin(lf.BuiltinText), tFn(v, v))
			case lf.BuiltinTextMapInsert:
				m := tBuiltin(lf.BuiltinTextMap, v)
				return e, tFn(tBuiltin(lf.BuiltinText), tFn(v, tFn(m, m)))
			}
		}
		for _, a := range x.Types {
			f, ok := ft.(*lf.TForall)
			if !ok {
				return e, hole()
			}
			ft = subst(f.Body, map[string]lf.Type{f.Param.Name: a})
		}
		return e, ft
	case *lf.EApp:
		fun, ft := t.expr(x.Fun, nil)
		x.Fun = fun
		for i, a := range x.Args {
			p, r, ok := arrow(t.resolve(ft))
			if !ok {
				p, r = hole(), hole()
				t.unify(ft, tFn(p, r))
			}
			x.Args[i] = t.check(a, p)
			ft = r
		}
		return e, ft
	case *lf.EAbs:
		var restore []func()
		w := want
		for i := range x.Params {
			p := &x.Params[i]
			if p.Type == nil {
				p.Type = hole()
			}
			var r lf.Type
			if w != nil {
				if a, res, ok := arrow(t.resolve(w)); ok {
					t.unify(p.Type, a)
					r = res
				}
			}
			w = r
			restore = append(restore, t.bind(p.Name, p.Type))
		}
		var bt lf.Type
		x.Body, bt = t.checkT(x.Body, w)
		for i := len(restore) - 1; i >= 0; i-- {
			restore[i]()
		}
		typ := bt
		for i := len(x.Params) - 1; i >= 0; i-- {
			typ = tFn(x.Params[i].Type, typ)
		}
		return e, typ
	case *lf.ERecCon:
		dt, s := t.dataType(&x.Type)
		if dt != nil {
			// The declaration's field order (Daml-LF requires it).
			order := map[string]int{}
			for i, f := range dt.Fields {
				order[f.Name] = i
			}
			slices.SortStableFunc(x.Fields, func(f, g lf.FieldExpr) int { return order[f.Name] - order[g.Name] })
		}
		q, isQ := t.b.questions[x]
		for i := range x.Fields {
			f := &x.Fields[i]
			var ft lf.Type
			if dt != nil {
				if fd, ok := dt.Field(f.Name); ok {
					ft = subst(fd.Type, s)
				} else {
					t.fail("no field %s in %v", f.Name, x.Type.ID)
				}
			}
			f.Expr = t.check(f.Expr, ft)
			if isQ && f.Name == "payload" && len(x.Type.Args) == 3 {
				t.unify(x.Type.Args[1], t.b.answerType(t, q, f.Expr))
			}
		}
		return e, tCon(x.Type.ID, x.Type.Args...)
	case *lf.ERecProj:
		dt, s := t.dataType(&x.Type)
		x.Record = t.check(x.Record, tCon(x.Type.ID, x.Type.Args...))
		if dt != nil {
			if fd, ok := dt.Field(x.Field); ok {
				return e, subst(fd.Type, s)
			}
		}
		return e, hole()
	case *lf.EVariantCon:
		dt, s := t.dataType(&x.Type)
		var at lf.Type
		if dt != nil {
			if fd, ok := dt.Field(x.Con); ok {
				at = subst(fd.Type, s)
			}
		}
		x.Arg = t.check(x.Arg, at)
		return e, tCon(x.Type.ID, x.Type.Args...)
	case *lf.EEnumCon:
		return e, tCon(x.ID)
	case *lf.ENil:
		return e, tBuiltin(lf.BuiltinList, x.Type)
	case *lf.ECons:
		for i, y := range x.Front {
			x.Front[i] = t.check(y, x.Type)
		}
		x.Tail = t.check(x.Tail, tBuiltin(lf.BuiltinList, x.Type))
		return e, tBuiltin(lf.BuiltinList, x.Type)
	case *lf.EOptionalNone:
		return e, tBuiltin(lf.BuiltinOptional, x.Type)
	case *lf.EOptionalSome:
		x.Value = t.check(x.Value, x.Type)
		return e, tBuiltin(lf.BuiltinOptional, x.Type)
	case *lf.EToAny:
		x.Expr = t.check(x.Expr, x.Type)
		return e, tBuiltin(lf.BuiltinAny)
	case *lf.EFromAny:
		x.Expr = t.check(x.Expr, tBuiltin(lf.BuiltinAny))
		return e, tBuiltin(lf.BuiltinOptional, x.Type)
	case *lf.EToAnyException:
		x.Expr = t.check(x.Expr, x.Type)
		return e, tBuiltin(lf.BuiltinAnyException)
	case *lf.ETypeRep:
		return e, tBuiltin(lf.BuiltinTypeRep)
	case *lf.EThrow:
		x.Exception = t.check(x.Exception, x.ExceptionType)
		return e, x.ReturnType
	case *lf.ECase:
		scrut, st := t.expr(x.Scrut, nil)
		x.Scrut = scrut
		res := want
		if res == nil {
			res = hole()
		}
		for i := range x.Alts {
			alt := &x.Alts[i]
			var restore []func()
			switch p := alt.Pattern.(type) {
			case *lf.PCons:
				elem := hole()
				t.unify(st, tBuiltin(lf.BuiltinList, elem))
				restore = append(restore, t.bind(p.Head, elem), t.bind(p.Tail, tBuiltin(lf.BuiltinList, elem)))
			case *lf.POptionalSome:
				elem := hole()
				t.unify(st, tBuiltin(lf.BuiltinOptional, elem))
				restore = append(restore, t.bind(p.Binder, elem))
			case *lf.PVariant:
				app := lf.TypeConApp{ID: p.ID}
				dt, s := t.dataType(&app)
				t.unify(st, tCon(app.ID, app.Args...))
				var at lf.Type = hole()
				if dt != nil {
					if fd, ok := dt.Field(p.Con); ok {
						at = subst(fd.Type, s)
					}
				}
				restore = append(restore, t.bind(p.Binder, at))
			}
			alt.Body = t.check(alt.Body, res)
			for _, r := range restore {
				r()
			}
		}
		return e, res
	case *lf.ELet:
		var restore []func()
		for i := range x.Bindings {
			bd := &x.Bindings[i]
			if bd.Var.Type == nil {
				bd.Var.Type = hole()
			}
			bd.Bound = t.check(bd.Bound, bd.Var.Type)
			restore = append(restore, t.bind(bd.Var.Name, bd.Var.Type))
		}
		body, bt := t.expr(x.Body, want)
		x.Body = body
		for i := len(restore) - 1; i >= 0; i-- {
			restore[i]()
		}
		return e, bt
	}
	return e, hole()
}

// zonk writes the solved types into the type slots of e.
func (t *typer) zonk(e lf.Expr) {
	args := func(ts []lf.Type) {
		for i := range ts {
			ts[i] = t.final(ts[i])
		}
	}
	lf.Inspect(e, func(n any) bool {
		switch x := n.(type) {
		case *lf.ERecCon:
			args(x.Type.Args)
		case *lf.ERecProj:
			args(x.Type.Args)
		case *lf.EVariantCon:
			args(x.Type.Args)
		case *lf.ETyApp:
			args(x.Types)
		case *lf.EAbs:
			for i := range x.Params {
				x.Params[i].Type = t.final(x.Params[i].Type)
			}
		case *lf.ELet:
			for i := range x.Bindings {
				x.Bindings[i].Var.Type = t.final(x.Bindings[i].Var.Type)
			}
		case *lf.ENil:
			x.Type = t.final(x.Type)
		case *lf.ECons:
			x.Type = t.final(x.Type)
		case *lf.EOptionalNone:
			x.Type = t.final(x.Type)
		case *lf.EOptionalSome:
			x.Type = t.final(x.Type)
		case *lf.EToAny:
			x.Type = t.final(x.Type)
		case *lf.EFromAny:
			x.Type = t.final(x.Type)
		case *lf.EToAnyException:
			x.Type = t.final(x.Type)
		case *lf.ETypeRep:
			x.Type = t.final(x.Type)
		case *lf.EThrow:
			x.ReturnType, x.ExceptionType = t.final(x.ReturnType), t.final(x.ExceptionType)
		}
		return true
	})
}

// Typed returns the Script record of a script (a Free expression, as Pure
// and Ask build it) with its types solved, and the script's result type.
// The error tells where the script does not type-check with the library's
// definitions (a Builder of ForDAR or Library.Builder knows them; others
// type the library's records loosely); the script is then typed as far as
// it could be. Typed writes the types into the script's nodes.
func (b *Builder) Typed(free lf.Expr) (script lf.Expr, result lf.Type, err error) {
	t := b.newTyper()
	s, st := t.expr(b.Script(free), nil)
	t.zonk(s)
	result = unit
	if _, args := lf.SplitApp(t.final(st)); len(args) == 1 {
		result = args[0]
	}
	return s, result, t.err
}

// answerType is the type of the answer to a question (the res of its
// IsQuestion instance in the library's Internal/Questions/*.daml): a hole
// for a question the library does not know or that is never answered.
func (b *Builder) answerType(t *typer, q question, payload lf.Expr) lf.Type {
	ds := func(module, name string, args ...lf.Type) lf.Type {
		return tCon(b.ds("Daml.Script.Internal."+module, name), args...)
	}
	stable := func(pkg, module, name string, args ...lf.Type) lf.Type {
		return tCon(lf.TypeConID{PackageID: pkg, Module: module, Name: name}, args...)
	}
	list := func(x lf.Type) lf.Type { return tBuiltin(lf.BuiltinList, x) }
	opt := func(x lf.Type) lf.Type { return tBuiltin(lf.BuiltinOptional, x) }
	tuple2 := func(x, y lf.Type) lf.Type { return stable(daTypes, "DA.Types", "Tuple2", x, y) }
	either := func(x, y lf.Type) lf.Type { return stable(daTypes, "DA.Types", "Either", x, y) }
	text := tBuiltin(lf.BuiltinText)
	cid := tBuiltin(lf.BuiltinContractID, unit)
	anyTemplate := stable(daAny, "DA.Internal.Any", "AnyTemplate")
	lv := ds("LowLevel", "LedgerValue")
	switch q.name {
	case "Submit":
		return list(either(ds("Questions.Submit.Error", "SubmitError"),
			tuple2(list(ds("Questions.Commands", "CommandResult")), ds("Questions.TransactionTree", "TransactionTree"))))
	case "QueryACS", "QueryNByKey":
		return list(tuple2(cid, anyTemplate))
	case "QueryContractId":
		return opt(stable(daTypes, "DA.Types", "Tuple3", anyTemplate, stable(daAny, "DA.Internal.Any", "TemplateTypeRep"), text))
	case "QueryContractKey", "QueryByKey":
		return opt(tuple2(cid, anyTemplate))
	case "QueryInterface":
		return list(tuple2(cid, opt(lv)))
	case "QueryInterfaceContractId":
		return opt(lv)
	case "AllocateParty":
		return tBuiltin(lf.BuiltinParty)
	case "ListKnownParties":
		return list(ds("Questions.PartyManagement", "PartyDetails"))
	case "GetTime":
		return tBuiltin(lf.BuiltinTimestamp)
	case "SetTime", "Sleep", "VetPackages", "UnvetPackages", "VetDar", "UnvetDar":
		return unit
	case "Catch":
		return either(tBuiltin(lf.BuiltinAnyException), t.actResult(payload))
	case "TryCommands":
		return either(stable(daTypes, "DA.Types", "Tuple3", text, text, text), t.actResult(payload))
	case "TryFailureStatus":
		return either(stable(daFailTypes, "DA.Internal.Fail.Types", "FailureStatus"), t.actResult(payload))
	case "ValidateUserId":
		return opt(text)
	case "CreateUser", "DeleteUser":
		return opt(unit)
	case "GetUser":
		return opt(ds("Questions.UserManagement", "User"))
	case "ListAllUsers":
		return list(ds("Questions.UserManagement", "User"))
	case "GrantUserRights", "RevokeUserRights", "ListUserRights":
		return opt(list(ds("Questions.UserManagement", "UserRight")))
	case "ListVettedPackages", "ListAllPackages":
		return list(ds("Questions.Packages", "PackageName"))
	case "Secp256k1Sign", "Secp256k1WithEcdsaSign":
		return text
	case "Secp256k1GenerateKeyPair":
		return ds("Questions.Crypto.Text", "Secp256k1KeyPair")
	}
	return hole()
}

// actResult is the result type of the script in the act field of a
// payload (Catch, TryCommands, TryFailureStatus: a Script cast to
// LedgerValue, or a function returning one).
func (t *typer) actResult(payload lf.Expr) lf.Type {
	r, ok := payload.(*lf.ERecCon)
	if !ok {
		return hole()
	}
	for _, f := range r.Fields {
		if f.Name != "act" {
			continue
		}
		e := f.Expr
		if abs, ok := e.(*lf.EAbs); ok {
			e = abs.Body
		}
		if from, ok := t.casts[e]; ok {
			h, args := lf.SplitApp(t.resolve(from))
			if c, ok := h.(*lf.TCon); ok && c.ID == t.b.ds("Daml.Script.Internal.LowLevel", "Script") && len(args) == 1 {
				return args[0]
			}
		}
	}
	return hole()
}

// lftestType is x as lftest encodes it.
func lftestType(x lf.Type) lftest.Type {
	switch y := x.(type) {
	case *lf.TCon:
		ref := lftest.ByID(y.ID.PackageID)
		if y.ID.PackageID == lftest.SelfID {
			ref = lftest.Self()
		}
		return lftest.Con(ref, y.ID.Module, y.ID.Name)
	case *lf.TBuiltin:
		return lftest.B(int(y.Builtin))
	case *lf.TApp:
		return lftest.App(lftestType(y.Fun), lftestType(y.Arg))
	case *lf.TVar:
		return lftest.Var(y.Name)
	case *lf.TNat:
		return lftest.Nat(y.N)
	}
	panic(fmt.Sprintf("scripttest: no lftest type for %v", x))
}
