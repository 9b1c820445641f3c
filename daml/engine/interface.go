package engine

import (
	"github.com/ledgernode/ledgernode/daml/lf"
)

// interfaceValue splits an interface value into its template id and
// record.
func interfaceValue(m *Machine, v Value) (lf.TypeConID, Value, bool) {
	a, ok := v.(*Any)
	if !ok {
		m.fail(crash("interface value expected, got %T", v))
		return lf.TypeConID{}, nil, false
	}
	tc, ok := a.Type.(*lf.TCon)
	if !ok {
		m.fail(crash("interface value of type %s", a.Type))
		return lf.TypeConID{}, nil, false
	}
	return tc.ID, a.Value, true
}

// templateFn is the definition λthis. <part of template t>, where part
// is selected by key.
func (e *Engine) templateFn(k defKey) *topDef {
	if d := e.cachedDef(k); d != nil {
		return d
	}
	return e.newTemplateFn(k)
}

// newTemplateFn is templateFn's cache miss (apart, so that a hit does not
// move k, which the closure captures, to the heap).
//
//go:noinline
func (e *Engine) newTemplateFn(k defKey) *topDef {
	return e.def(k, func(e *Engine) (lf.Expr, *Error) {
		t, err := e.template(k.id)
		if err != nil {
			return nil, err
		}
		var body lf.Expr
		switch k.kind {
		case defTemplatePart:
			switch k.a {
			case "precond":
				body = t.Precond
				if body == nil {
					body = &lf.EBuiltinCon{Con: lf.ConTrue}
				}
			case "signatories":
				body = t.Signatories
			case "observers":
				body = t.Observers
			}
		case defMethod, defView:
			in := t.Instance(k.iface)
			if in == nil {
				return nil, crash("template %s has no instance of %s", k.id, k.iface)
			}
			if k.kind == defView {
				body = in.View
			} else {
				body = in.Method(k.a)
			}
		}
		if body == nil {
			return nil, errorf(ErrPackage, "template %s: no %s %s", k.id, k.a, k.iface)
		}
		return &lf.EAbs{Params: []lf.VarWithType{{Name: t.Param}}, Body: body}, nil
	})
}

func (c *compiler) interfaceExpr(s *scope, x lf.Expr) node {
	switch x := x.(type) {
	case *lf.EToInterface:
		t := &lf.TCon{ID: x.Template}
		return op([]node{c.expr(s, x.Expr)}, func(m *Machine, v []Value) { m.ret(&Any{Type: t, Value: v[0]}) })
	case *lf.EFromInterface:
		t := x.Template
		return op([]node{c.expr(s, x.Expr)}, func(m *Machine, v []Value) {
			id, r, ok := interfaceValue(m, v[0])
			if !ok {
				return
			}
			if id == t {
				m.ret(Some(r))
				return
			}
			if id.Module == t.Module && id.Name == t.Name && m.e.packageName(id) == m.e.packageName(t) && m.e.packageName(t) != "" {
				tr, err := m.e.translate(r, id.PackageID, t.PackageID)
				if err != nil {
					m.fail(err)
					return
				}
				m.ret(Some(tr))
				return
			}
			m.ret(None)
		})
	case *lf.EUnsafeFromInterface:
		t := x.Template
		return op([]node{c.expr(s, x.ContractID), c.expr(s, x.Expr)}, func(m *Machine, v []Value) {
			id, r, ok := interfaceValue(m, v[1])
			if !ok {
				return
			}
			if id != t {
				m.fail(errorf(ErrWronglyTypedContract, "Update failed due to wrongly typed contract id %v\nExpected contract of type %s but got %s", v[0], pretty(t), pretty(id)))
				return
			}
			m.ret(r)
		})
	case *lf.ECallInterface:
		iface, meth := x.Interface, x.Method
		return op([]node{c.expr(s, x.Expr)}, func(m *Machine, v []Value) {
			id, r, ok := interfaceValue(m, v[0])
			if ok {
				m.callDef(m.e.templateFn(defKey{kind: defMethod, id: id, iface: iface, a: meth}), r)
			}
		})
	case *lf.EViewInterface:
		iface := x.Interface
		return op([]node{c.expr(s, x.Expr)}, func(m *Machine, v []Value) {
			id, r, ok := interfaceValue(m, v[0])
			if ok {
				m.then(func(m *Machine, v Value) {
					if err := CheckSerializable(v); err != nil {
						m.fail(err)
						return
					}
					m.ret(v)
				})
				m.callDef(m.e.templateFn(defKey{kind: defView, id: id, iface: iface}), r)
			}
		})
	case *lf.ESignatoryInterface, *lf.EObserverInterface:
		part, e := "signatories", lf.Expr(nil)
		if y, ok := x.(*lf.ESignatoryInterface); ok {
			e = y.Expr
		} else {
			part, e = "observers", x.(*lf.EObserverInterface).Expr
		}
		return op([]node{c.expr(s, e)}, func(m *Machine, v []Value) {
			id, r, ok := interfaceValue(m, v[0])
			if ok {
				m.callDef(m.e.templateFn(defKey{kind: defTemplatePart, id: id, a: part}), r)
			}
		})
	case *lf.EInterfaceTemplateTypeRep:
		return op([]node{c.expr(s, x.Expr)}, func(m *Machine, v []Value) {
			id, _, ok := interfaceValue(m, v[0])
			if ok {
				m.ret(TypeRep{Type: &lf.TCon{ID: id}})
			}
		})
	case *lf.EToRequiredInterface:
		return c.expr(s, x.Expr)
	case *lf.EFromRequiredInterface:
		req := x.Requiring
		return op([]node{c.expr(s, x.Expr)}, func(m *Machine, v []Value) {
			id, _, ok := interfaceValue(m, v[0])
			if !ok {
				return
			}
			if m.e.Implements(id, req) {
				m.ret(Some(v[0]))
				return
			}
			m.ret(None)
		})
	case *lf.EUnsafeFromRequiredInterface:
		req, reqd := x.Requiring, x.Required
		return op([]node{c.expr(s, x.ContractID), c.expr(s, x.Expr)}, func(m *Machine, v []Value) {
			id, _, ok := interfaceValue(m, v[1])
			if !ok {
				return
			}
			if m.e.Implements(id, req) {
				m.ret(v[1])
				return
			}
			// Speedy's text, its spelling ("requirring") included.
			m.fail(errorf(ErrContractDoesNotImplementRequiringInterface,
				"Update failed due to contract %v not implementing the requiring interface\nExpected contract to implement interface %s requirring the interface %s but contract has type %s",
				v[0], pretty(req), pretty(reqd), pretty(id)))
		})
	}
	return c.fail(errorf(ErrPackage, "unknown expression %T", x))
}
