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

// formWriter writes the parts of one parenthesised form of FormatExpr:
// its head and atoms, then its sub-expressions, rendered at depth.
type formWriter struct {
	sb    *strings.Builder
	depth int
}

// open starts the form: "(" head, then each of rest after a space.
func (w formWriter) open(head string, rest ...string) {
	w.sb.WriteByte('(')
	w.sb.WriteString(head)
	for _, r := range rest {
		w.sb.WriteByte(' ')
		w.sb.WriteString(r)
	}
}

// sub writes each of xs after a space.
func (w formWriter) sub(xs ...Expr) {
	for _, x := range xs {
		w.sb.WriteByte(' ')
		formatExpr(w.sb, x, w.depth)
	}
}

// labelled writes x after a space and label (e.g. "name=").
func (w formWriter) labelled(label string, x Expr) {
	w.sb.WriteByte(' ')
	w.sb.WriteString(label)
	formatExpr(w.sb, x, w.depth)
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
	w := formWriter{sb: sb, depth: depth - 1}
	switch e := e.(type) {
	case *EVar:
		w.open("var", e.Name)
	case *EVal:
		w.open("val", short(e.Ref))
	case *EBuiltinFun:
		w.open("builtin", e.Fun.String())
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
		w.open("timestamp", strconv.FormatInt(e.Micros, 10))
	case *EDate:
		w.open("date", strconv.Itoa(int(e.Days)))
	case *EFailureCategory:
		w.open("failure_category", strconv.Itoa(int(e.Category)))
	case *ERoundingMode:
		w.open("rounding_mode", strconv.Itoa(int(e.Mode)))
	case *ERecCon:
		w.open("rec_con", short(e.Type.ID))
		for _, f := range e.Fields {
			w.labelled(f.Name+"=", f.Expr)
		}
	case *ERecProj:
		w.open("rec_proj", short(e.Type.ID), e.Field)
		w.sub(e.Record)
	case *ERecUpd:
		w.open("rec_upd", short(e.Type.ID), e.Field)
		w.sub(e.Record, e.Update)
	case *EVariantCon:
		w.open("variant_con", short(e.Type.ID), e.Con)
		w.sub(e.Arg)
	case *EEnumCon:
		w.open("enum_con", short(e.ID), e.Con)
	case *EStructCon:
		w.open("struct_con")
		for _, f := range e.Fields {
			w.labelled(f.Name+"=", f.Expr)
		}
	case *EStructProj:
		w.open("struct_proj", e.Field)
		w.sub(e.Struct)
	case *EStructUpd:
		w.open("struct_upd", e.Field)
		w.sub(e.Struct, e.Update)
	case *EApp:
		w.open("app")
		w.sub(e.Fun)
		w.sub(e.Args...)
	case *ETyApp:
		w.open("@")
		w.sub(e.Expr)
	case *EAbs:
		names := make([]string, len(e.Params))
		for i, p := range e.Params {
			names[i] = p.Name
		}
		w.open("\\", names...)
		w.sub(e.Body)
	case *ETyAbs:
		w.open("/\\")
		w.sub(e.Body)
	case *ECase:
		w.open("case")
		w.sub(e.Scrut)
		for _, a := range e.Alts {
			sb.WriteString(" [" + formatPattern(a.Pattern) + " ->")
			w.sub(a.Body)
			sb.WriteByte(']')
		}
	case *ELet:
		w.open("let")
		for _, b := range e.Bindings {
			w.labelled(b.Var.Name+"=", b.Bound)
		}
		w.sub(e.Body)
	case *ENil:
		sb.WriteString("nil")
		return
	case *ECons:
		w.open("cons")
		w.sub(e.Front...)
		w.sub(e.Tail)
	case *EUpdate:
		formatUpdate(sb, e.Update, depth)
		return
	case *EOptionalNone:
		sb.WriteString("none")
		return
	case *EOptionalSome:
		w.open("some")
		w.sub(e.Value)
	case *EToAny:
		w.open("to_any", e.Type.String())
		w.sub(e.Expr)
	case *EFromAny:
		w.open("from_any", e.Type.String())
		w.sub(e.Expr)
	case *ETypeRep:
		w.open("type_rep", e.Type.String())
	case *EToAnyException:
		w.open("to_any_exception")
		w.sub(e.Expr)
	case *EFromAnyException:
		w.open("from_any_exception")
		w.sub(e.Expr)
	case *EThrow:
		w.open("throw")
		w.sub(e.Exception)
	case *EToInterface:
		w.open("to_interface", short(e.Interface), short(e.Template))
		w.sub(e.Expr)
	case *EFromInterface:
		w.open("from_interface", short(e.Interface), short(e.Template))
		w.sub(e.Expr)
	case *EUnsafeFromInterface:
		w.open("unsafe_from_interface", short(e.Interface), short(e.Template))
		w.sub(e.ContractID, e.Expr)
	case *ECallInterface:
		w.open("call_interface", short(e.Interface), e.Method)
		w.sub(e.Expr)
	case *ESignatoryInterface:
		w.open("signatory_interface", short(e.Interface))
		w.sub(e.Expr)
	case *EObserverInterface:
		w.open("observer_interface", short(e.Interface))
		w.sub(e.Expr)
	case *EViewInterface:
		w.open("view_interface", short(e.Interface))
		w.sub(e.Expr)
	case *EInterfaceTemplateTypeRep:
		w.open("interface_template_type_rep", short(e.Interface))
		w.sub(e.Expr)
	case *EToRequiredInterface:
		w.open("to_required_interface", short(e.Required), short(e.Requiring))
		w.sub(e.Expr)
	case *EFromRequiredInterface:
		w.open("from_required_interface", short(e.Required), short(e.Requiring))
		w.sub(e.Expr)
	case *EUnsafeFromRequiredInterface:
		w.open("unsafe_from_required_interface", short(e.Required), short(e.Requiring))
		w.sub(e.ContractID, e.Expr)
	case *EExperimental:
		w.open("experimental", e.Name)
	default:
		sb.WriteString("<unknown>")
		return
	}
	sb.WriteByte(')')
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
	w := formWriter{sb: sb, depth: depth - 1}
	switch u := u.(type) {
	case *UPure:
		w.open("pure")
		w.sub(u.Expr)
	case *UBlock:
		w.open("block")
		for _, b := range u.Bindings {
			w.labelled(b.Var.Name+"<-", b.Bound)
		}
		w.sub(u.Body)
	case *UCreate:
		w.open("create", short(u.Template))
		w.sub(u.Expr)
	case *UCreateInterface:
		w.open("create_interface", short(u.Interface))
		w.sub(u.Expr)
	case *UExercise:
		w.open("exercise", short(u.Template), u.Choice)
		w.sub(u.ContractID, u.Arg)
	case *UExerciseInterface:
		w.open("exercise_interface", short(u.Interface), u.Choice)
		w.sub(u.ContractID, u.Arg)
	case *UExerciseByKey:
		w.open("exercise_by_key", short(u.Template), u.Choice)
		w.sub(u.Key, u.Arg)
	case *UFetch:
		w.open("fetch", short(u.Template))
		w.sub(u.ContractID)
	case *UFetchInterface:
		w.open("fetch_interface", short(u.Interface))
		w.sub(u.ContractID)
	case *UGetTime:
		w.open("get_time")
	case *ULedgerTimeLT:
		w.open("ledger_time_lt")
		w.sub(u.Expr)
	case *UEmbedExpr:
		w.open("embed_expr")
		w.sub(u.Expr)
	case *UFetchByKey:
		w.open("fetch_by_key", short(u.Template))
	case *ULookupByKey:
		w.open("lookup_by_key", short(u.Template))
	case *UQueryNByKey:
		w.open("query_n_by_key", short(u.Template))
	case *UTryCatch:
		w.open("try", u.Var)
		w.sub(u.Try, u.Catch)
	default:
		sb.WriteString("<unknown update>")
		return
	}
	sb.WriteByte(')')
}
