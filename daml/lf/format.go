package lf

import (
	"strconv"
	"strings"
)

// FormatExpr returns a compact, Lisp-like rendering of e for tests, logs
// and error messages, e.g. "(app (val pkg:M:f) (var x))". Types are
// omitted (type applications and abstractions print as their body with a
// "@"/"/\" marker); identifiers print as Module:Name without the package.
// Output deeper than maxDepth levels is elided as "…".
func FormatExpr(e Expr, maxDepth int) string {
	var sb strings.Builder
	formatExpr(&sb, e, maxDepth)
	return sb.String()
}

func short(id TypeConID) string { return id.Module + ":" + id.Name }

func formatExpr(sb *strings.Builder, e Expr, depth int) {
	if e == nil {
		sb.WriteString("<nil>")
		return
	}
	if depth <= 0 {
		sb.WriteString("…")
		return
	}
	d := depth - 1
	open := func(head string, rest ...string) {
		sb.WriteByte('(')
		sb.WriteString(head)
		for _, r := range rest {
			sb.WriteByte(' ')
			sb.WriteString(r)
		}
	}
	sub := func(xs ...Expr) {
		for _, x := range xs {
			sb.WriteByte(' ')
			formatExpr(sb, x, d)
		}
	}
	closeP := func() { sb.WriteByte(')') }
	switch e := e.(type) {
	case *EVar:
		open("var", e.Name)
	case *EVal:
		open("val", short(e.Ref))
	case *EBuiltinFun:
		open("builtin", e.Fun.String())
	case *EBuiltinCon:
		sb.WriteString(e.Con.String())
		return
	case *EInt64:
		sb.WriteString(strconv.FormatInt(e.Value, 10))
		return
	case *ENumeric:
		sb.WriteString(e.Text)
		return
	case *EText:
		sb.WriteString(strconv.Quote(e.Value))
		return
	case *ETimestamp:
		open("timestamp", strconv.FormatInt(e.Micros, 10))
	case *EDate:
		open("date", strconv.Itoa(int(e.Days)))
	case *EFailureCategory:
		open("failure_category", strconv.Itoa(int(e.Category)))
	case *ERoundingMode:
		open("rounding_mode", strconv.Itoa(int(e.Mode)))
	case *ERecCon:
		open("rec_con", short(e.Type.ID))
		for _, f := range e.Fields {
			sb.WriteString(" " + f.Name + "=")
			formatExpr(sb, f.Expr, d)
		}
	case *ERecProj:
		open("rec_proj", short(e.Type.ID), e.Field)
		sub(e.Record)
	case *ERecUpd:
		open("rec_upd", short(e.Type.ID), e.Field)
		sub(e.Record, e.Update)
	case *EVariantCon:
		open("variant_con", short(e.Type.ID), e.Con)
		sub(e.Arg)
	case *EEnumCon:
		open("enum_con", short(e.ID), e.Con)
	case *EStructCon:
		open("struct_con")
		for _, f := range e.Fields {
			sb.WriteString(" " + f.Name + "=")
			formatExpr(sb, f.Expr, d)
		}
	case *EStructProj:
		open("struct_proj", e.Field)
		sub(e.Struct)
	case *EStructUpd:
		open("struct_upd", e.Field)
		sub(e.Struct, e.Update)
	case *EApp:
		open("app")
		sub(e.Fun)
		sub(e.Args...)
	case *ETyApp:
		open("@")
		sub(e.Expr)
	case *EAbs:
		names := make([]string, len(e.Params))
		for i, p := range e.Params {
			names[i] = p.Name
		}
		open("\\", names...)
		sub(e.Body)
	case *ETyAbs:
		open("/\\")
		sub(e.Body)
	case *ECase:
		open("case")
		sub(e.Scrut)
		for _, a := range e.Alts {
			sb.WriteString(" [" + formatPattern(a.Pattern) + " ->")
			sub(a.Body)
			sb.WriteByte(']')
		}
	case *ELet:
		open("let")
		for _, b := range e.Bindings {
			sb.WriteString(" " + b.Var.Name + "=")
			formatExpr(sb, b.Bound, d)
		}
		sub(e.Body)
	case *ENil:
		sb.WriteString("nil")
		return
	case *ECons:
		open("cons")
		sub(e.Front...)
		sub(e.Tail)
	case *EUpdate:
		formatUpdate(sb, e.Update, depth)
		return
	case *EOptionalNone:
		sb.WriteString("none")
		return
	case *EOptionalSome:
		open("some")
		sub(e.Value)
	case *EToAny:
		open("to_any", e.Type.String())
		sub(e.Expr)
	case *EFromAny:
		open("from_any", e.Type.String())
		sub(e.Expr)
	case *ETypeRep:
		open("type_rep", e.Type.String())
	case *EToAnyException:
		open("to_any_exception")
		sub(e.Expr)
	case *EFromAnyException:
		open("from_any_exception")
		sub(e.Expr)
	case *EThrow:
		open("throw")
		sub(e.Exception)
	case *EToInterface:
		open("to_interface", short(e.Interface), short(e.Template))
		sub(e.Expr)
	case *EFromInterface:
		open("from_interface", short(e.Interface), short(e.Template))
		sub(e.Expr)
	case *EUnsafeFromInterface:
		open("unsafe_from_interface", short(e.Interface), short(e.Template))
		sub(e.ContractID, e.Expr)
	case *ECallInterface:
		open("call_interface", short(e.Interface), e.Method)
		sub(e.Expr)
	case *ESignatoryInterface:
		open("signatory_interface", short(e.Interface))
		sub(e.Expr)
	case *EObserverInterface:
		open("observer_interface", short(e.Interface))
		sub(e.Expr)
	case *EViewInterface:
		open("view_interface", short(e.Interface))
		sub(e.Expr)
	case *EInterfaceTemplateTypeRep:
		open("interface_template_type_rep", short(e.Interface))
		sub(e.Expr)
	case *EToRequiredInterface:
		open("to_required_interface", short(e.Required), short(e.Requiring))
		sub(e.Expr)
	case *EFromRequiredInterface:
		open("from_required_interface", short(e.Required), short(e.Requiring))
		sub(e.Expr)
	case *EUnsafeFromRequiredInterface:
		open("unsafe_from_required_interface", short(e.Required), short(e.Requiring))
		sub(e.ContractID, e.Expr)
	case *EExperimental:
		open("experimental", e.Name)
	default:
		sb.WriteString("<unknown>")
		return
	}
	closeP()
}

func formatPattern(p Pattern) string {
	switch p := p.(type) {
	case *PDefault:
		return "_"
	case *PVariant:
		return short(p.ID) + ":" + p.Con + " " + p.Binder
	case *PEnum:
		return short(p.ID) + ":" + p.Con
	case *PBuiltinCon:
		return p.Con.String()
	case *PNil:
		return "nil"
	case *PCons:
		return p.Head + " : " + p.Tail
	case *POptionalNone:
		return "none"
	case *POptionalSome:
		return "some " + p.Binder
	}
	return "<unknown>"
}

func formatUpdate(sb *strings.Builder, u Update, depth int) {
	d := depth - 1
	open := func(head string, rest ...string) {
		sb.WriteByte('(')
		sb.WriteString(head)
		for _, r := range rest {
			sb.WriteByte(' ')
			sb.WriteString(r)
		}
	}
	sub := func(xs ...Expr) {
		for _, x := range xs {
			sb.WriteByte(' ')
			formatExpr(sb, x, d)
		}
	}
	switch u := u.(type) {
	case *UPure:
		open("pure")
		sub(u.Expr)
	case *UBlock:
		open("block")
		for _, b := range u.Bindings {
			sb.WriteString(" " + b.Var.Name + "<-")
			formatExpr(sb, b.Bound, d)
		}
		sub(u.Body)
	case *UCreate:
		open("create", short(u.Template))
		sub(u.Expr)
	case *UCreateInterface:
		open("create_interface", short(u.Interface))
		sub(u.Expr)
	case *UExercise:
		open("exercise", short(u.Template), u.Choice)
		sub(u.ContractID, u.Arg)
	case *UExerciseInterface:
		open("exercise_interface", short(u.Interface), u.Choice)
		sub(u.ContractID, u.Arg)
	case *UExerciseByKey:
		open("exercise_by_key", short(u.Template), u.Choice)
		sub(u.Key, u.Arg)
	case *UFetch:
		open("fetch", short(u.Template))
		sub(u.ContractID)
	case *UFetchInterface:
		open("fetch_interface", short(u.Interface))
		sub(u.ContractID)
	case *UGetTime:
		open("get_time")
	case *ULedgerTimeLT:
		open("ledger_time_lt")
		sub(u.Expr)
	case *UEmbedExpr:
		open("embed_expr")
		sub(u.Expr)
	case *UFetchByKey:
		open("fetch_by_key", short(u.Template))
	case *ULookupByKey:
		open("lookup_by_key", short(u.Template))
	case *UQueryNByKey:
		open("query_n_by_key", short(u.Template))
	case *UTryCatch:
		open("try", u.Var)
		sub(u.Try, u.Catch)
	default:
		sb.WriteString("<unknown update>")
		return
	}
	sb.WriteByte(')')
}
