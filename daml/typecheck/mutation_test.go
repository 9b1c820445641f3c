package typecheck

import (
	"reflect"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// amuletMain decodes splice-amulet-0.1.8.dar afresh (its packages may be
// mutated) and returns its main package and the DAR.
func amuletMain(t *testing.T) (*lf.Package, *lf.DAR) {
	t.Helper()
	dar := realDAR(t, "splice-amulet-0.1.8.dar", lf.ReadOptions{})
	return dar.Main, dar
}

// findExpr returns the first node of the package's values (in archive
// order, depth first) for which match is true, with the value it is in.
func findExpr(p *lf.Package, match func(any) bool) (any, *lf.DefValue) {
	for _, m := range p.Modules {
		for _, v := range m.Values {
			var found any
			lf.Inspect(v.Body(), func(n any) bool {
				if found == nil && match(n) {
					found = n
				}
				return found == nil
			})
			if found != nil {
				return found, v
			}
		}
	}
	return nil, nil
}

// TestMutationsOfARealPackage: small faults injected into a real package
// (splice-amulet) are refused, a neutral change (renaming a lambda's
// parameter consistently) is accepted. The unmutated package is accepted
// (TestRealDARsAccepted).
func TestMutationsOfARealPackage(t *testing.T) {
	t.Parallel()
	t.Run("builtin swapped for one of another type", func(t *testing.T) {
		t.Parallel()
		p, dar := amuletMain(t)
		n, v := findExpr(p, func(n any) bool {
			b, ok := n.(*lf.EBuiltinFun)
			return ok && b.Fun == lf.BuiltinAppendText
		})
		if n == nil {
			t.Fatal("no APPEND_TEXT in the package")
		}
		n.(*lf.EBuiltinFun).Fun = lf.BuiltinAddInt64 // Int64 -> Int64 -> Int64 for Text -> Text -> Text
		e := checkErr(t, p, dar)
		if e == nil || (e.Kind != ETypeMismatch && e.Kind != EFieldTypeMismatch && e.Kind != EMethodTypeMismatch) {
			t.Fatalf("APPEND_TEXT -> ADD_INT64 in %s: got %v, want a type mismatch", v.Name, e)
		}
	})
	t.Run("field type changed", func(t *testing.T) {
		t.Parallel()
		p, dar := amuletMain(t)
		var changed bool
		for _, m := range p.Modules {
			for _, tmpl := range m.Templates {
				dt := m.DataType(tmpl.Name)
				for i, f := range dt.Fields {
					if b, ok := f.Type.(*lf.TBuiltin); ok && b.Builtin == lf.BuiltinParty && !changed {
						dt.Fields[i].Type = &lf.TBuiltin{Builtin: lf.BuiltinInt64}
						changed = true
					}
				}
			}
		}
		if !changed {
			t.Fatal("no template with a Party field")
		}
		if e := checkErr(t, p, dar); e == nil || e.Kind == ETooComplex {
			t.Fatalf("Party field made Int64: got %v, want a type error", e)
		}
	})
	t.Run("case pattern of another variant", func(t *testing.T) {
		t.Parallel()
		p, dar := amuletMain(t)
		n, v := findExpr(p, func(n any) bool {
			pv, ok := n.(*lf.PVariant)
			return ok && pv.ID.PackageID == p.ID
		})
		if n == nil {
			t.Fatal("no variant pattern in the package")
		}
		pv := n.(*lf.PVariant)
		var other lf.TypeConID
		for _, m := range p.Modules {
			for _, dt := range m.DataTypes {
				if dt.Variety == lf.VariantVariety && dt.Name != pv.ID.Name && other.Name == "" {
					other = lf.TypeConID{PackageID: p.ID, Module: m.Name, Name: dt.Name}
				}
			}
		}
		pv.ID = other
		if e := checkErr(t, p, dar); e == nil || e.Kind != EPatternTypeMismatch {
			t.Fatalf("pattern of %s in %s: got %v, want EPatternTypeMismatch", other, v.Name, e)
		}
	})
	t.Run("case pattern of an unknown constructor", func(t *testing.T) {
		t.Parallel()
		p, dar := amuletMain(t)
		n, _ := findExpr(p, func(n any) bool {
			pv, ok := n.(*lf.PVariant)
			return ok && pv.ID.PackageID == p.ID
		})
		n.(*lf.PVariant).Con = "NoSuchConstructor"
		if e := checkErr(t, p, dar); e == nil || e.Kind != EUnknownVariantCon {
			t.Fatalf("got %v, want EUnknownVariantCon", e)
		}
	})
	for _, consistent := range []bool{true, false} {
		name := "lambda parameter renamed consistently"
		if !consistent {
			name = "lambda parameter renamed, uses not"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p, dar := amuletMain(t)
			renamed := 0
			for _, m := range p.Modules {
				for _, v := range m.Values {
					abs, ok := v.Body().(*lf.EAbs)
					if !ok || !usesVar(abs.Body, abs.Params[0].Name) {
						continue
					}
					old, fresh := abs.Params[0].Name, abs.Params[0].Name+"_renamed"
					params := append([]lf.VarWithType(nil), abs.Params...)
					params[0].Name = fresh
					body := abs.Body
					if len(params) > 1 && containsName(params[1:], old) {
						continue // a later parameter shadows it
					}
					if consistent {
						body = renameVar(body, old, fresh)
					}
					v.SetBody(&lf.EAbs{Params: params, Body: body})
					renamed++
				}
			}
			if renamed < 10 {
				t.Fatalf("only %d lambdas renamed", renamed)
			}
			e := checkErr(t, p, dar)
			switch {
			case consistent && e != nil:
				t.Fatalf("%d lambdas renamed consistently: refused: %v", renamed, e)
			case !consistent && (e == nil || e.Kind != EUnknownExprVar):
				t.Fatalf("renamed binders only: got %v, want EUnknownExprVar", e)
			}
		})
	}
}

func containsName(vs []lf.VarWithType, name string) bool {
	for _, v := range vs {
		if v.Name == name {
			return true
		}
	}
	return false
}

// usesVar reports whether the variable occurs in e (free or not).
func usesVar(e lf.Expr, name string) bool {
	found := false
	lf.Inspect(e, func(n any) bool {
		if v, ok := n.(*lf.EVar); ok && v.Name == name {
			found = true
		}
		return !found
	})
	return found
}

// renameVar returns e with the free occurrences of the variable old
// renamed to fresh (not otherwise used in e). It copies the nodes it
// changes and leaves shared nodes intact.
func renameVar(e lf.Expr, old, fresh string) lf.Expr {
	r := renamer{old: old, fresh: fresh}
	return r.value(reflect.ValueOf(e)).Interface().(lf.Expr)
}

type renamer struct{ old, fresh string }

var (
	exprType   = reflect.TypeFor[lf.Expr]()
	updateType = reflect.TypeFor[lf.Update]()
)

// value renames in an Expr or Update (as a reflect.Value of interface or
// pointer kind).
func (r renamer) value(v reflect.Value) reflect.Value {
	if v.Kind() == reflect.Interface {
		if v.IsNil() {
			return v
		}
		v = v.Elem()
	}
	switch n := v.Interface().(type) {
	case *lf.EVar:
		if n.Name == r.old {
			return reflect.ValueOf(&lf.EVar{Name: r.fresh})
		}
		return v
	case *lf.EAbs:
		c := *n
		c.Params = append([]lf.VarWithType(nil), n.Params...)
		if !containsName(n.Params, r.old) {
			c.Body = r.expr(n.Body)
		}
		return reflect.ValueOf(&c)
	case *lf.ELet:
		c := *n
		c.Bindings, c.Body = r.bindings(n.Bindings, n.Body)
		return reflect.ValueOf(&c)
	case *lf.UBlock:
		c := *n
		c.Bindings, c.Body = r.bindings(n.Bindings, n.Body)
		return reflect.ValueOf(&c)
	case *lf.UTryCatch:
		c := *n
		c.Try = r.expr(n.Try)
		if n.Var != r.old {
			c.Catch = r.expr(n.Catch)
		}
		return reflect.ValueOf(&c)
	case *lf.ECase:
		c := *n
		c.Scrut = r.expr(n.Scrut)
		c.Alts = make([]lf.CaseAlt, len(n.Alts))
		for i, a := range n.Alts {
			c.Alts[i] = a
			if !patternBinds(a.Pattern, r.old) {
				c.Alts[i].Body = r.expr(a.Body)
			}
		}
		return reflect.ValueOf(&c)
	}
	// Any other node: copy it, renaming in its Expr, []Expr, []FieldExpr
	// and Update fields.
	c := reflect.New(v.Elem().Type())
	c.Elem().Set(v.Elem())
	s := c.Elem()
	for i := range s.NumField() {
		f := s.Field(i)
		switch {
		case f.Type() == exprType || f.Type() == updateType:
			f.Set(r.value(f))
		case f.Type() == reflect.TypeFor[[]lf.Expr]():
			xs := make([]lf.Expr, f.Len())
			for j := range xs {
				xs[j] = r.expr(f.Index(j).Interface().(lf.Expr))
			}
			f.Set(reflect.ValueOf(xs))
		case f.Type() == reflect.TypeFor[[]lf.FieldExpr]():
			xs := make([]lf.FieldExpr, f.Len())
			for j := range xs {
				x := f.Index(j).Interface().(lf.FieldExpr)
				xs[j] = lf.FieldExpr{Name: x.Name, Expr: r.expr(x.Expr)}
			}
			f.Set(reflect.ValueOf(xs))
		}
	}
	return c
}

func (r renamer) expr(e lf.Expr) lf.Expr {
	if e == nil {
		return nil
	}
	return r.value(reflect.ValueOf(e)).Interface().(lf.Expr)
}

// bindings renames in sequential bindings and the body they scope over,
// up to a binding that shadows the variable.
func (r renamer) bindings(bs []lf.Binding, body lf.Expr) ([]lf.Binding, lf.Expr) {
	out := append([]lf.Binding(nil), bs...)
	for i := range out {
		out[i].Bound = r.expr(bs[i].Bound)
		if bs[i].Var.Name == r.old {
			return out, body
		}
	}
	return out, r.expr(body)
}

func patternBinds(p lf.Pattern, name string) bool {
	switch p := p.(type) {
	case *lf.PVariant:
		return p.Binder == name
	case *lf.PCons:
		return p.Head == name || p.Tail == name
	case *lf.POptionalSome:
		return p.Binder == name
	}
	return false
}
