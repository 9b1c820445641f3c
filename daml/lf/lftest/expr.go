package lftest

import (
	"fmt"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/internal/lfenc"
	"google.golang.org/protobuf/encoding/protowire"
)

// exprEnc encodes lf.Expr, lf.Update and lf.Type trees into Expr and Type
// messages, the inverse of daml/lf's decoder: strings and dotted names are
// interned, every type outside the type table is an interned_type
// reference, and from LF 2.2 on (Flat) a lambda, type abstraction or type
// application of several parameters or arguments is written as nested
// one-parameter nodes (so it decodes as that nesting). It panics on what
// LF cannot carry: a nil expression, update, pattern or type, a binder
// without a type, or (LF 2.1) a type application whose head is not a
// variable, constructor or builtin.
type exprEnc struct{ *lfenc.Enc }

var msg = lfenc.Msg

// ref returns the package reference of a resolved package id: SelfID is
// the package itself, an id of the imports table its index, another id
// an interned package id.
func (e *exprEnc) ref(id string) Ref {
	if id == SelfID {
		return Self()
	}
	for i, imp := range e.Imports {
		if imp == id {
			return Import(i)
		}
	}
	return ByID(id)
}

func (e *exprEnc) tycon(id lf.TypeConID) []byte {
	return e.TyConID(e.ref(id.PackageID), id.Module, id.Name)
}

// kind returns the Kind message of k.
func (e *exprEnc) kind(k *lf.Kind) []byte {
	if k == nil {
		panic("lftest: nil kind")
	}
	switch k.Sort {
	case lf.KindStar:
		return msg(1, []byte{})
	case lf.KindNat:
		return msg(3, []byte{})
	}
	return msg(2, msg(1, e.kind(k.Param), 2, e.kind(k.Result)))
}

func (e *exprEnc) typeVar(p lf.TypeParam) []byte {
	return msg(3, e.Str(p.Name), 2, e.kind(p.Kind))
}

// typ returns an interned_type reference to t.
func (e *exprEnc) typ(t lf.Type) []byte { return e.InternType(e.rawType(t)) }

// inner encodes a type nested in a table entry: a reference from LF 2.2
// on, structural before.
func (e *exprEnc) inner(t lf.Type) []byte {
	if e.Flat {
		return e.typ(t)
	}
	return e.rawType(t)
}

// rawType returns the structural Type message of t (a type-table entry).
func (e *exprEnc) rawType(t lf.Type) []byte {
	if !e.Flat {
		if _, ok := t.(*lf.TApp); ok {
			head, args := lf.SplitApp(t)
			var kv []any
			switch h := head.(type) {
			case *lf.TVar:
				kv = []any{3, e.Str(h.Name)}
			case *lf.TCon:
				kv = []any{1, e.tycon(h.ID)}
			case *lf.TBuiltin:
				kv = []any{1, int(h.Builtin)}
			default:
				panic(fmt.Sprintf("lftest: LF 2.1 cannot apply the type %s", head))
			}
			for _, a := range args {
				kv = append(kv, 2, e.rawType(a))
			}
			return msg(caseOf(head), msg(kv...))
		}
	}
	switch t := t.(type) {
	case *lf.TVar:
		return msg(1, msg(3, e.Str(t.Name)))
	case *lf.TCon:
		return msg(2, msg(1, e.tycon(t.ID)))
	case *lf.TBuiltin:
		return msg(3, msg(1, int(t.Builtin)))
	case *lf.TNat:
		return lfenc.NatType(t.N)
	case *lf.TApp:
		return msg(9, msg(1, e.typ(t.Fun), 2, e.typ(t.Arg)))
	case *lf.TForall:
		return msg(4, msg(1, e.typeVar(t.Param), 2, e.inner(t.Body)))
	case *lf.TStruct:
		var kv []any
		for _, f := range t.Fields {
			kv = append(kv, 1, msg(3, e.Str(f.Name), 2, e.inner(f.Type)))
		}
		return msg(5, msg(kv...))
	case *lf.TSyn:
		kv := []any{1, e.tycon(t.ID)}
		for _, a := range t.Args {
			kv = append(kv, 2, e.inner(a))
		}
		return msg(7, msg(kv...))
	}
	panic(fmt.Sprintf("lftest: cannot encode type %T", t))
}

// caseOf is the Type case number of an application head (LF 2.1).
func caseOf(head lf.Type) int {
	switch head.(type) {
	case *lf.TVar:
		return 1
	case *lf.TCon:
		return 2
	}
	return 3
}

func (e *exprEnc) tyConApp(t lf.TypeConApp) []byte {
	kv := []any{1, e.tycon(t.ID)}
	for _, a := range t.Args {
		kv = append(kv, 2, e.typ(a))
	}
	return msg(kv...)
}

func (e *exprEnc) varWithType(v lf.VarWithType) []byte {
	if v.Type == nil {
		panic(fmt.Sprintf("lftest: binder %s has no type", v.Name))
	}
	return msg(3, e.Str(v.Name), 2, e.typ(v.Type))
}

func (e *exprEnc) fields(n int, fs []lf.FieldExpr) []any {
	var kv []any
	for _, f := range fs {
		kv = append(kv, n, msg(3, e.Str(f.Name), 2, e.expr(f.Expr)))
	}
	return kv
}

func (e *exprEnc) block(bs []lf.Binding, body lf.Expr) []byte {
	var kv []any
	for _, b := range bs {
		kv = append(kv, 1, msg(1, e.varWithType(b.Var), 2, e.expr(b.Bound)))
	}
	return msg(append(kv, 2, e.expr(body))...)
}

func lit(n int, v uint64, wt protowire.Type) []byte {
	b := protowire.AppendTag(nil, protowire.Number(n), wt)
	if wt == protowire.Fixed64Type {
		return msg(6, protowire.AppendFixed64(b, v))
	}
	return msg(6, protowire.AppendVarint(b, v))
}

// abstraction returns the Expr of case c (17 abs, 18 ty_abs) binding
// params, each encoded by param, over body; from LF 2.2 on (Flat) each
// node binds one parameter and nests the rest.
func abstraction[P any](e *exprEnc, c int, params []P, body lf.Expr, param func(P) []byte) []byte {
	if e.Flat && len(params) > 1 {
		return msg(c, msg(1, param(params[0]), 2, abstraction(e, c, params[1:], body, param)))
	}
	var kv []any
	for _, p := range params {
		kv = append(kv, 1, param(p))
	}
	return msg(c, msg(append(kv, 2, e.expr(body))...))
}

// expr returns the Expr message of x.
func (e *exprEnc) expr(x lf.Expr) []byte {
	switch x := x.(type) {
	case *lf.EVar:
		return msg(2, e.Str(x.Name))
	case *lf.EVal:
		return msg(3, e.tycon(x.Ref))
	case *lf.EBuiltinFun:
		return msg(4, int(x.Fun))
	case *lf.EBuiltinCon:
		return msg(5, int(x.Con))
	case *lf.EInt64:
		return lit(1, protowire.EncodeZigZag(x.Value), protowire.VarintType)
	case *lf.ETimestamp:
		return lit(2, uint64(x.Micros), protowire.Fixed64Type)
	case *lf.ENumeric:
		return msg(6, msg(3, e.Str(x.Text)))
	case *lf.EText:
		return msg(6, msg(4, e.Str(x.Value)))
	case *lf.EDate:
		return msg(6, msg(5, int(x.Days)))
	case *lf.EFailureCategory:
		return msg(6, msg(6, int(x.Category)))
	case *lf.ERoundingMode:
		return msg(6, msg(1001, int(x.Mode)))
	case *lf.ERecCon:
		return msg(7, msg(append([]any{1, e.tyConApp(x.Type)}, e.fields(2, x.Fields)...)...))
	case *lf.ERecProj:
		return msg(8, msg(1, e.tyConApp(x.Type), 4, e.Str(x.Field), 3, e.expr(x.Record)))
	case *lf.ERecUpd:
		return msg(9, msg(1, e.tyConApp(x.Type), 2, e.Str(x.Field), 3, e.expr(x.Record), 4, e.expr(x.Update)))
	case *lf.EVariantCon:
		return msg(10, msg(1, e.tyConApp(x.Type), 2, e.Str(x.Con), 3, e.expr(x.Arg)))
	case *lf.EEnumCon:
		return msg(11, msg(1, e.tycon(x.ID), 2, e.Str(x.Con)))
	case *lf.EStructCon:
		return msg(12, msg(e.fields(1, x.Fields)...))
	case *lf.EStructProj:
		return msg(13, msg(1, e.Str(x.Field), 2, e.expr(x.Struct)))
	case *lf.EStructUpd:
		return msg(14, msg(1, e.Str(x.Field), 2, e.expr(x.Struct), 3, e.expr(x.Update)))
	case *lf.EApp:
		kv := []any{1, e.expr(x.Fun)}
		for _, a := range x.Args {
			kv = append(kv, 2, e.expr(a))
		}
		return msg(15, msg(kv...))
	case *lf.ETyApp:
		if e.Flat && len(x.Types) > 1 {
			n := len(x.Types) - 1
			inner := &lf.ETyApp{Expr: x.Expr, Types: x.Types[:n]}
			return msg(16, msg(1, e.expr(inner), 2, e.typ(x.Types[n])))
		}
		kv := []any{1, e.expr(x.Expr)}
		for _, t := range x.Types {
			kv = append(kv, 2, e.typ(t))
		}
		return msg(16, msg(kv...))
	case *lf.EAbs:
		return abstraction(e, 17, x.Params, x.Body, e.varWithType)
	case *lf.ETyAbs:
		return abstraction(e, 18, x.Params, x.Body, e.typeVar)
	case *lf.ECase:
		kv := []any{1, e.expr(x.Scrut)}
		for _, a := range x.Alts {
			kv = append(kv, 2, e.alt(a))
		}
		return msg(19, msg(kv...))
	case *lf.ELet:
		return msg(20, e.block(x.Bindings, x.Body))
	case *lf.ENil:
		return msg(21, msg(1, e.typ(x.Type)))
	case *lf.ECons:
		kv := []any{1, e.typ(x.Type)}
		for _, f := range x.Front {
			kv = append(kv, 2, e.expr(f))
		}
		return msg(22, msg(append(kv, 3, e.expr(x.Tail))...))
	case *lf.EUpdate:
		return msg(23, e.update(x.Update))
	case *lf.EOptionalNone:
		return msg(25, msg(1, e.typ(x.Type)))
	case *lf.EOptionalSome:
		return msg(26, msg(1, e.typ(x.Type), 2, e.expr(x.Value)))
	case *lf.EToAny:
		return msg(27, msg(1, e.typ(x.Type), 2, e.expr(x.Expr)))
	case *lf.EFromAny:
		return msg(28, msg(1, e.typ(x.Type), 2, e.expr(x.Expr)))
	case *lf.ETypeRep:
		return msg(29, e.typ(x.Type))
	case *lf.EToAnyException:
		return msg(30, msg(1, e.typ(x.Type), 2, e.expr(x.Expr)))
	case *lf.EFromAnyException:
		return msg(31, msg(1, e.typ(x.Type), 2, e.expr(x.Expr)))
	case *lf.EThrow:
		return msg(32, msg(1, e.typ(x.ReturnType), 2, e.typ(x.ExceptionType), 3, e.expr(x.Exception)))
	case *lf.EToInterface:
		return msg(33, msg(1, e.tycon(x.Interface), 2, e.tycon(x.Template), 3, e.expr(x.Expr)))
	case *lf.EFromInterface:
		return msg(34, msg(1, e.tycon(x.Interface), 2, e.tycon(x.Template), 3, e.expr(x.Expr)))
	case *lf.ECallInterface:
		return msg(35, msg(1, e.tycon(x.Interface), 2, e.Str(x.Method), 3, e.expr(x.Expr)))
	case *lf.ESignatoryInterface:
		return msg(36, msg(1, e.tycon(x.Interface), 2, e.expr(x.Expr)))
	case *lf.EObserverInterface:
		return msg(37, msg(1, e.tycon(x.Interface), 2, e.expr(x.Expr)))
	case *lf.EViewInterface:
		return msg(38, msg(1, e.tycon(x.Interface), 2, e.expr(x.Expr)))
	case *lf.EUnsafeFromInterface:
		return msg(39, msg(1, e.tycon(x.Interface), 2, e.tycon(x.Template), 3, e.expr(x.ContractID), 4, e.expr(x.Expr)))
	case *lf.EInterfaceTemplateTypeRep:
		return msg(40, msg(1, e.tycon(x.Interface), 2, e.expr(x.Expr)))
	case *lf.EToRequiredInterface:
		return msg(41, msg(1, e.tycon(x.Required), 2, e.tycon(x.Requiring), 3, e.expr(x.Expr)))
	case *lf.EFromRequiredInterface:
		return msg(42, msg(1, e.tycon(x.Required), 2, e.tycon(x.Requiring), 3, e.expr(x.Expr)))
	case *lf.EUnsafeFromRequiredInterface:
		return msg(43, msg(1, e.tycon(x.Required), 2, e.tycon(x.Requiring), 3, e.expr(x.ContractID), 4, e.expr(x.Expr)))
	case *lf.EExperimental:
		return msg(9999, msg(1, x.Name, 2, e.typ(x.Type)))
	}
	panic(fmt.Sprintf("lftest: cannot encode expression %T", x))
}

func (e *exprEnc) alt(a lf.CaseAlt) []byte {
	var pat []any
	switch p := a.Pattern.(type) {
	case *lf.PDefault:
		pat = []any{2, []byte{}}
	case *lf.PVariant:
		pat = []any{3, msg(1, e.tycon(p.ID), 2, e.Str(p.Con), 3, e.Str(p.Binder))}
	case *lf.PBuiltinCon:
		pat = []any{4, int(p.Con)}
	case *lf.PNil:
		pat = []any{5, []byte{}}
	case *lf.PCons:
		pat = []any{6, msg(1, e.Str(p.Head), 2, e.Str(p.Tail))}
	case *lf.POptionalNone:
		pat = []any{7, []byte{}}
	case *lf.POptionalSome:
		pat = []any{8, msg(1, e.Str(p.Binder))}
	case *lf.PEnum:
		pat = []any{9, msg(1, e.tycon(p.ID), 2, e.Str(p.Con))}
	default:
		panic(fmt.Sprintf("lftest: cannot encode pattern %T", p))
	}
	return msg(append(pat, 1, e.expr(a.Body))...)
}

// update returns the Update message of u.
func (e *exprEnc) update(u lf.Update) []byte {
	switch u := u.(type) {
	case *lf.UPure:
		return msg(1, msg(1, e.typ(u.Type), 2, e.expr(u.Expr)))
	case *lf.UBlock:
		return msg(2, e.block(u.Bindings, u.Body))
	case *lf.UCreate:
		return msg(3, msg(1, e.tycon(u.Template), 2, e.expr(u.Expr)))
	case *lf.UExercise:
		return msg(4, msg(1, e.tycon(u.Template), 6, e.Str(u.Choice), 3, e.expr(u.ContractID), 5, e.expr(u.Arg)))
	case *lf.UFetch:
		return msg(5, msg(1, e.tycon(u.Template), 2, e.expr(u.ContractID)))
	case *lf.UGetTime:
		return msg(6, []byte{})
	case *lf.UEmbedExpr:
		return msg(7, msg(1, e.typ(u.Type), 2, e.expr(u.Expr)))
	case *lf.ULookupByKey:
		return msg(8, msg(1, e.tycon(u.Template)))
	case *lf.UFetchByKey:
		return msg(9, msg(1, e.tycon(u.Template)))
	case *lf.UExerciseByKey:
		return msg(10, msg(1, e.tycon(u.Template), 2, e.Str(u.Choice), 3, e.expr(u.Key), 4, e.expr(u.Arg)))
	case *lf.UTryCatch:
		return msg(11, msg(1, e.typ(u.ReturnType), 2, e.expr(u.Try), 3, e.Str(u.Var), 4, e.expr(u.Catch)))
	case *lf.UCreateInterface:
		return msg(12, msg(1, e.tycon(u.Interface), 2, e.expr(u.Expr)))
	case *lf.UExerciseInterface:
		kv := []any{1, e.tycon(u.Interface), 2, e.Str(u.Choice), 3, e.expr(u.ContractID), 4, e.expr(u.Arg)}
		if u.Guard != nil {
			kv = append(kv, 5, e.expr(u.Guard))
		}
		return msg(13, msg(kv...))
	case *lf.UFetchInterface:
		return msg(14, msg(1, e.tycon(u.Interface), 2, e.expr(u.ContractID)))
	case *lf.ULedgerTimeLT:
		return msg(15, e.expr(u.Expr))
	case *lf.UQueryNByKey:
		return msg(16, msg(1, e.tycon(u.Template)))
	}
	panic(fmt.Sprintf("lftest: cannot encode update %T", u))
}
