package typecheck

import (
	"slices"
	"strings"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// checkTopExpr checks a definition-level expression against typ in the
// current context (Env.checkTopExpr): a mismatch is always ETypeMismatch.
func (c *checker) checkTopExpr(e lf.Expr, typ lf.Type) {
	if t := c.mismatch(e, typ); t != nil {
		c.fail(c.typeMismatch(t, typ))
	}
}

// checkExpr checks that e has type typ (Env.checkExpr): a mismatch is
// EFieldTypeMismatch when e is a record projection, else ETypeMismatch.
func (c *checker) checkExpr(e lf.Expr, typ lf.Type) {
	if t := c.mismatch(e, typ); t != nil {
		c.exprMismatch(e, t, typ)
	}
}

// checkExprType is checkExpr returning e's type.
func (c *checker) checkExprType(e lf.Expr, typ lf.Type) lf.Type {
	t := c.typeOf(e)
	if !c.equal(t, typ) {
		c.exprMismatch(e, t, typ)
	}
	return t
}

// exprMismatch fails for e, of type t where typ was expected, with the
// error Canton reports for e's form.
func (c *checker) exprMismatch(e lf.Expr, t, typ lf.Type) {
	if p, ok := e.(*lf.ERecProj); ok {
		rec := typeConAppToType(p.Type)
		c.throw(EFieldTypeMismatch, Error{Found: t, Expected: typ, Name: p.Field},
			"Tried to use field %s with type %s on value of type %s, but that field has type %s",
			p.Field, prettyType(t), prettyType(rec), prettyType(typ))
	}
	c.fail(c.typeMismatch(t, typ))
}

// mismatch returns nil when e has type typ (equal(typeOf(e), typ)), else
// e's type. The type of a lambda or type abstraction is not built: its
// body is typed under its binders as typeOf does, then its binders are
// compared with typ's arrows and foralls (expanding typ's synonyms where
// equal would, in the same order) and the body's type with what
// remains. A struct's fields are typed so too, then compared with typ's
// fields. The whole type is built for the error message only.
func (c *checker) mismatch(e lf.Expr, typ lf.Type) lf.Type {
	switch e := e.(type) {
	case *lf.EAbs, *lf.ETyAbs:
		t := c.bodyType(e)
		if c.layersMatch(e, t, typ) {
			return nil
		}
		return withLayers(e, t)
	case *lf.EStructCon:
		return c.structMismatch(e, typ)
	}
	t := c.typeOf(e)
	if c.equal(t, typ) {
		return nil
	}
	return t
}

// bodyType types e as typeOf does and returns the type of its body
// under the lambdas and type abstractions around it: e's type is
// withLayers(e, bodyType(e)).
func (c *checker) bodyType(e lf.Expr) lf.Type {
	eBase, tBase := len(c.eStack), len(c.tStack)
	n := 0
peel:
	for {
		switch x := e.(type) {
		case *lf.EAbs:
			c.enter()
			for _, p := range x.Params {
				c.checkType(p.Type, kStar)
				c.pushE(p.Name, p.Type)
			}
			e, n = x.Body, n+1
		case *lf.ETyAbs:
			c.enter()
			for _, p := range x.Params {
				c.checkKind(p.Kind)
				c.pushT(p.Name, p.Kind)
			}
			e, n = x.Body, n+1
		default:
			break peel
		}
	}
	t := c.typeOf(e)
	c.popE(eBase)
	c.popT(tBase)
	for range n {
		c.leave()
	}
	return t
}

// withLayers is the type of e whose body has type t: the arrows and
// foralls of the lambdas and type abstractions around the body.
func withLayers(e lf.Expr, t lf.Type) lf.Type {
	switch x := e.(type) {
	case *lf.EAbs:
		t = withLayers(x.Body, t)
		for j := len(x.Params) - 1; j >= 0; j-- {
			t = fn(x.Params[j].Type, t)
		}
	case *lf.ETyAbs:
		t = withLayers(x.Body, t)
		for j := len(x.Params) - 1; j >= 0; j-- {
			t = forall(x.Params[j].Name, x.Params[j].Kind, t)
		}
	}
	return t
}

// layersMatch is equal(withLayers(e, t), typ), comparing the arrows and
// foralls of e's lambdas and type abstractions as alpha would.
func (c *checker) layersMatch(e lf.Expr, t, typ lf.Type) bool {
	return c.layersMatchSub(e, t, typ, nil)
}

// layersMatchSub is layersMatch(e, t, s.apply(typ)) (alphaSub).
func (c *checker) layersMatchSub(e lf.Expr, t, typ lf.Type, s *substituter) bool {
	base := len(c.alphaL)
	eq := c.layersMatch1(e, t, typ, s)
	c.alphaL, c.alphaR = c.alphaL[:base], c.alphaR[:base]
	return eq
}

func (c *checker) layersMatch1(e lf.Expr, t, typ lf.Type, s *substituter) bool {
	same := s == nil
	for {
		switch x := e.(type) {
		case *lf.EAbs:
			for _, p := range x.Params {
				h, hs := c.resolve(typ, s)
				a, ok := h.(*lf.TApp)
				if !ok {
					return false
				}
				h, fs := c.resolve(a.Fun, hs)
				f, ok := h.(*lf.TApp)
				if !ok || !c.alphaSub(tArrow, f.Fun, same, fs) || !c.alphaSub(p.Type, f.Arg, same, fs) {
					return false
				}
				typ, s = a.Arg, hs
			}
			e = x.Body
		case *lf.ETyAbs:
			for _, p := range x.Params {
				h, hs := c.resolve(typ, s)
				f, ok := h.(*lf.TForall)
				if !ok || !p.Kind.Equal(f.Param.Kind) {
					return false
				}
				v := f.Param.Name
				if hs != nil {
					hs, v = hs.under(v)
				}
				c.alphaL, c.alphaR = append(c.alphaL, p.Name), append(c.alphaR, v)
				same = same && p.Name == v
				typ, s = f.Body, hs
			}
			e = x.Body
		default:
			return c.alphaSub(t, typ, same, s)
		}
	}
}

// structMismatch is mismatch for a struct: its fields are typed (their
// body types, on c.typeStack) and checked unique as typeOf does, then
// compared with typ's as equal compares struct types.
func (c *checker) structMismatch(e *lf.EStructCon, typ lf.Type) lf.Type {
	base := len(c.typeStack)
	c.enter()
	for _, f := range e.Fields {
		c.typeStack = append(c.typeStack, c.bodyType(f.Expr))
	}
	c.checkUniq(len(e.Fields), func(i int) string { return e.Fields[i].Name }, func(n string) {
		c.throw(EDuplicateField, Error{Name: n}, "duplicate field: %s", n)
	})
	c.leave()
	types := c.typeStack[base:]
	if c.structMatch(e, types, typ) {
		c.typeStack = c.typeStack[:base]
		return nil
	}
	fs := make([]lf.Field, len(e.Fields))
	for i, f := range e.Fields {
		fs[i] = lf.Field{Name: f.Name, Type: withLayers(f.Expr, types[i])}
	}
	c.typeStack = c.typeStack[:base]
	return &lf.TStruct{Fields: sortedFields(&lf.TStruct{Fields: fs})}
}

func (c *checker) structMatch(e *lf.EStructCon, types []lf.Type, typ lf.Type) bool {
	// A synonym of a struct type (a type class's dictionary) is compared
	// with its definition under the substitution of its parameters, not
	// expanded (expandHead) into a struct built to be compared once.
	var s *substituter
	if syn, ok := typ.(*lf.TSyn); ok && len(syn.Args) > 0 {
		if _, expanded := c.expansions[syn]; !expanded {
			c.enter()
			c.leave()
			def := c.lookupTypeSyn(syn.ID, Reference{Sort: RefTypeSyn, ID: syn.ID})
			if len(def.Params) != len(syn.Args) {
				c.synArity(syn.ID, syn.Args)
			}
			if _, ok := def.Type.(*lf.TStruct); ok {
				m := make(tsubst, 0, len(syn.Args))
				for i, a := range syn.Args {
					m = m.set(def.Params[i].Name, a)
				}
				s, typ = &substituter{c: c, m: m}, def.Type
			}
		}
	}
	if s == nil {
		typ = c.whnf(typ)
	}
	x, ok := typ.(*lf.TStruct)
	if !ok || len(x.Fields) != len(e.Fields) {
		return false
	}
	fb := sortedFields(x)
	// The fields' indices in the order of their (unique) names.
	order := c.fieldOrder[:0]
	for i := range e.Fields {
		order = append(order, i)
	}
	slices.SortFunc(order, func(i, j int) int { return strings.Compare(e.Fields[i].Name, e.Fields[j].Name) })
	c.fieldOrder = order
	for i, k := range order {
		if e.Fields[k].Name != fb[i].Name {
			return false
		}
	}
	for i, k := range order {
		if !c.layersMatchSub(e.Fields[k].Expr, types[k], fb[i].Type, s) {
			return false
		}
	}
	return true
}

// checkTypeConApp checks a data type applied to type arguments in an
// expression (Env.checkTypConApp) and returns the data type and the
// substitution of its parameters.
func (c *checker) checkTypeConApp(a lf.TypeConApp) (*lf.DataType, tsubst) {
	dt := c.lookupDataType(a.ID, Reference{Sort: RefDataType, ID: a.ID})
	if len(dt.Params) != len(a.Args) {
		c.throw(ETypeConAppWrongArity, Error{Found: typeConAppToType(a)},
			"wrong arity in typecon application: %s", tyConApp(a))
	}
	for i, t := range a.Args {
		c.checkType(t, dt.Params[i].Kind)
	}
	if len(a.Args) == 0 {
		return dt, nil
	}
	m := make(tsubst, 0, len(a.Args))
	for i, t := range a.Args {
		m = m.set(dt.Params[i].Name, t)
	}
	return dt, m
}

func (c *checker) expectRecord(a lf.TypeConApp, dt *lf.DataType) {
	if dt.Variety != lf.RecordVariety {
		c.throw(EExpectedRecordType, Error{Found: typeConAppToType(a)},
			"expected record type: * found: %s", tyConApp(a))
	}
}

func (c *checker) typeOfBuiltinLit(e lf.Expr) lf.Type {
	switch e := e.(type) {
	case *lf.EInt64:
		return tInt64
	case *lf.ENumeric:
		return tNumeric(natType(e.Scale))
	case *lf.EText:
		return tText
	case *lf.ETimestamp:
		return tTimestamp
	case *lf.EDate:
		return tDate
	case *lf.EFailureCategory:
		return tFailureCat
	case *lf.ERoundingMode:
		return tRoundingMode
	}
	return nil
}

// typeOf infers the type of e (Env.typeOfExpr); sub-checks run in
// Canton's order.
func (c *checker) typeOf(e lf.Expr) lf.Type {
	c.enter()
	r := c.typeOf1(e)
	c.leave()
	return r
}

func (c *checker) typeOf1(e lf.Expr) lf.Type {
	switch e := e.(type) {
	case *lf.EVar:
		t, ok := c.evars[e.Name]
		if !ok {
			c.throw(EUnknownExprVar, Error{Name: e.Name}, "unknown expr variable: %s", e.Name)
		}
		return t
	case *lf.EVal:
		return c.lookupValue(e.Ref, Reference{Sort: RefValue, ID: e.Ref}).Type
	case *lf.EBuiltinFun:
		t, ok := builtinFunctionTypes[e.Fun]
		if !ok {
			c.throw(EUnknownDefinition, Error{Name: e.Fun.String()}, "unknown builtin function %s", e.Fun)
		}
		return t
	case *lf.EBuiltinCon:
		if e.Con == lf.ConUnit {
			return tUnit
		}
		return tBool
	case *lf.EInt64, *lf.ENumeric, *lf.EText, *lf.ETimestamp, *lf.EDate, *lf.EFailureCategory, *lf.ERoundingMode:
		return c.typeOfBuiltinLit(e)
	case *lf.EEnumCon:
		dt := c.lookupDataType(e.ID, Reference{Sort: RefDataType, ID: e.ID})
		if dt.Variety != lf.EnumVariety {
			c.throw(EExpectedEnumType, Error{Found: tCon(e.ID)}, "expected enum type: %s", qualified(e.ID))
		}
		if c.constructor(dt, e.Con) < 0 {
			c.throw(EUnknownEnumCon, Error{Name: e.Con}, "unknown enum constructor: %s", e.Con)
		}
		return tCon(e.ID)
	case *lf.ENil:
		c.checkType(e.Type, kStar)
		return tList(e.Type)
	case *lf.EOptionalNone:
		c.checkType(e.Type, kStar)
		return tOptional(e.Type)
	case *lf.ERecCon:
		dt, m := c.checkTypeConApp(e.Type)
		c.expectRecord(e.Type, dt)
		if !sameFieldNames(e.Fields, dt.Fields) {
			c.throw(EFieldMismatch, Error{Found: typeConAppToType(e.Type)},
				"field mismatch: * expected: %s * record expression: %s", tyConApp(e.Type), fieldExprNames(e.Fields))
		}
		for i, f := range e.Fields {
			c.checkExpr(f.Expr, c.subst(m, dt.Fields[i].Type))
		}
		return c.conAppType(dt, e.Type)
	case *lf.ERecProj:
		dt, m := c.checkTypeConApp(e.Type)
		c.expectRecord(e.Type, dt)
		rec := c.conAppType(dt, e.Type)
		f, ok := c.field(dt, e.Field)
		if !ok {
			c.unknownField(e.Field, rec)
		}
		ft := c.subst(m, f.Type)
		c.checkExpr(e.Record, rec)
		return ft
	case *lf.ERecUpd:
		dt, m := c.checkTypeConApp(e.Type)
		c.expectRecord(e.Type, dt)
		rec := c.conAppType(dt, e.Type)
		c.checkExpr(e.Record, rec)
		f, ok := c.field(dt, e.Field)
		if !ok {
			c.unknownField(e.Field, rec)
		}
		c.checkExpr(e.Update, c.subst(m, f.Type))
		return rec
	case *lf.EVariantCon:
		dt, m := c.checkTypeConApp(e.Type)
		if dt.Variety != lf.VariantVariety {
			c.throw(EExpectedVariantType, Error{Found: tCon(e.Type.ID)}, "expected variant type: %s", qualified(e.Type.ID))
		}
		f, ok := c.field(dt, e.Con)
		if !ok {
			c.throw(EUnknownVariantCon, Error{Name: e.Con}, "unknown variant constructor: %s", e.Con)
		}
		c.checkExpr(e.Arg, c.subst(m, f.Type))
		return c.conAppType(dt, e.Type)
	case *lf.EStructCon:
		fs := make([]lf.Field, len(e.Fields))
		for i, f := range e.Fields {
			fs[i] = lf.Field{Name: f.Name, Type: c.typeOf(f.Expr)}
		}
		c.checkUniq(len(fs), func(i int) string { return fs[i].Name }, func(n string) {
			c.throw(EDuplicateField, Error{Name: n}, "duplicate field: %s", n)
		})
		return &lf.TStruct{Fields: sortedFields(&lf.TStruct{Fields: fs})}
	case *lf.EStructProj:
		t := c.typeOf(e.Struct)
		ft, ok := structField(c.toStruct(t), e.Field)
		if !ok {
			c.unknownField(e.Field, t)
		}
		return ft
	case *lf.EStructUpd:
		t := c.typeOf(e.Struct)
		st := c.toStruct(t)
		ft, ok := structField(st, e.Field)
		if !ok {
			c.unknownField(e.Field, t)
		}
		c.checkExpr(e.Update, ft)
		return st
	case *lf.EApp:
		t := c.typeOf(e.Fun)
		for _, a := range e.Args {
			arg, res := c.toFunction(t)
			c.checkExpr(a, arg)
			t = res
		}
		return t
	case *lf.ETyApp:
		return c.typeOfTyApp(e)
	case *lf.EAbs:
		base := len(c.eStack)
		for _, p := range e.Params {
			c.checkType(p.Type, kStar)
			c.pushE(p.Name, p.Type)
		}
		t := c.typeOf(e.Body)
		c.popE(base)
		for i := len(e.Params) - 1; i >= 0; i-- {
			t = fn(e.Params[i].Type, t)
		}
		return t
	case *lf.ETyAbs:
		base := len(c.tStack)
		for _, p := range e.Params {
			c.checkKind(p.Kind)
			c.pushT(p.Name, p.Kind)
		}
		t := c.typeOf(e.Body)
		c.popT(base)
		for i := len(e.Params) - 1; i >= 0; i-- {
			t = forall(e.Params[i].Name, e.Params[i].Kind, t)
		}
		return t
	case *lf.ECase:
		return c.typeOfCase(e)
	case *lf.ELet:
		base := len(c.eStack)
		for _, b := range e.Bindings {
			c.checkType(b.Var.Type, kStar)
			t := c.checkExprType(b.Bound, b.Var.Type)
			if b.Var.Name != "" {
				c.pushE(b.Var.Name, t)
			}
		}
		t := c.typeOf(e.Body)
		c.popE(base)
		return t
	case *lf.ECons:
		c.checkType(e.Type, kStar)
		if len(e.Front) == 0 {
			c.throw(EEmptyConsFront, Error{}, "empty Cons front")
		}
		for _, x := range e.Front {
			c.checkExpr(x, e.Type)
		}
		lt := tList(e.Type)
		c.checkExpr(e.Tail, lt)
		return lt
	case *lf.EUpdate:
		return c.typeOfUpdate(e.Update)
	case *lf.EOptionalSome:
		c.checkType(e.Type, kStar)
		c.checkExpr(e.Value, e.Type)
		return tOptional(e.Type)
	case *lf.EToAny:
		c.checkAnyType(e.Type)
		c.checkExpr(e.Expr, e.Type)
		return tAny
	case *lf.EFromAny:
		c.checkAnyType(e.Type)
		c.checkExpr(e.Expr, tAny)
		return tOptional(e.Type)
	case *lf.ETypeRep:
		c.checkAnyType(e.Type)
		return tTypeRep
	case *lf.EThrow:
		c.checkType(e.ReturnType, kStar)
		c.checkExceptionType(e.ExceptionType)
		c.checkExpr(e.Exception, e.ExceptionType)
		return e.ReturnType
	case *lf.EToAnyException:
		c.checkExceptionType(e.Type)
		c.checkExpr(e.Expr, e.Type)
		return tAnyException
	case *lf.EFromAnyException:
		c.checkExceptionType(e.Type)
		c.checkExpr(e.Expr, tAnyException)
		return tOptional(e.Type)
	case *lf.EToInterface:
		c.checkInterfaceInstanceRef(e.Interface, e.Template)
		c.checkExpr(e.Expr, tCon(e.Template))
		return tCon(e.Interface)
	case *lf.EFromInterface:
		c.checkInterfaceInstanceRef(e.Interface, e.Template)
		c.checkExpr(e.Expr, tCon(e.Interface))
		return tOptional(tCon(e.Template))
	case *lf.EUnsafeFromInterface:
		c.checkInterfaceInstanceRef(e.Interface, e.Template)
		c.checkExpr(e.ContractID, tContractID(tCon(e.Interface)))
		c.checkExpr(e.Expr, tCon(e.Interface))
		return tCon(e.Template)
	case *lf.EToRequiredInterface:
		c.checkRequires(e.Requiring, e.Required)
		c.checkExpr(e.Expr, tCon(e.Requiring))
		return tCon(e.Required)
	case *lf.EFromRequiredInterface:
		c.checkRequires(e.Requiring, e.Required)
		c.checkExpr(e.Expr, tCon(e.Required))
		return tOptional(tCon(e.Requiring))
	case *lf.EUnsafeFromRequiredInterface:
		c.checkRequires(e.Requiring, e.Required)
		c.checkExpr(e.ContractID, tContractID(tCon(e.Required)))
		c.checkExpr(e.Expr, tCon(e.Required))
		return tCon(e.Requiring)
	case *lf.ECallInterface:
		m := c.lookupMethod(e.Interface, e.Method)
		c.checkExpr(e.Expr, tCon(e.Interface))
		return m.Type
	case *lf.EInterfaceTemplateTypeRep:
		c.lookupInterface(e.Interface, Reference{Sort: RefInterface, ID: e.Interface})
		c.checkExpr(e.Expr, tCon(e.Interface))
		return tTypeRep
	case *lf.ESignatoryInterface:
		c.lookupInterface(e.Interface, Reference{Sort: RefInterface, ID: e.Interface})
		c.checkExpr(e.Expr, tCon(e.Interface))
		return tParties
	case *lf.EObserverInterface:
		c.lookupInterface(e.Interface, Reference{Sort: RefInterface, ID: e.Interface})
		c.checkExpr(e.Expr, tCon(e.Interface))
		return tParties
	case *lf.EViewInterface:
		i := c.lookupInterface(e.Interface, Reference{Sort: RefInterface, ID: e.Interface})
		c.checkExpr(e.Expr, tCon(e.Interface))
		return i.View
	case *lf.EExperimental:
		return e.Type
	}
	c.throw(ETypeMismatch, Error{}, "unsupported expression %T", e)
	return nil
}

func sameFieldNames(es []lf.FieldExpr, fs []lf.Field) bool {
	if len(es) != len(fs) {
		return false
	}
	for i := range es {
		if es[i].Name != fs[i].Name {
			return false
		}
	}
	return true
}

func fieldExprNames(fs []lf.FieldExpr) string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.Name
	}
	return "ImmArray(" + strings.Join(names, ",") + ")"
}

func (c *checker) unknownField(field string, t lf.Type) {
	c.throw(EUnknownField, Error{Name: field, Found: t},
		"Tried to access nonexistent field %s on value of type %s", field, prettyType(t))
}

// typeOfTyApp types a chain of type applications at once
// (Env.typeOfTyApp): each argument must have its binder's kind, then all
// are substituted into the body together.
func (c *checker) typeOfTyApp(e *lf.ETyApp) lf.Type {
	// Collect the chain: e @t1 ... @tn where e may itself be a ty_app.
	var buf [8][]lf.Type // most chains are short: no allocation
	chain := buf[:0]
	head := lf.Expr(e)
	for {
		ta, ok := head.(*lf.ETyApp)
		if !ok {
			break
		}
		chain = append(chain, ta.Types)
		head = ta.Expr
	}
	body := c.typeOf(head)
	key := tyAppKey{head: body}
	var binders [len(key.args)]string // of key.args
	n := 0
	for _, ts := range chain {
		n += len(ts)
	}
	var m tsubst // past len(key.args) arguments
	for i := len(chain) - 1; i >= 0; i-- {
		for _, t := range chain[i] {
			f := c.toForall(body)
			c.checkType(t, f.Param.Kind)
			body = f.Body
			if n <= len(key.args) {
				key.args[key.n], binders[key.n] = t, f.Param.Name
			} else {
				if m == nil {
					m = make(tsubst, 0, n)
				}
				m = m.set(f.Param.Name, t)
			}
			key.n++
		}
	}
	if n > len(key.args) {
		return c.subst(m, body)
	}
	// The instance is a function of the head's type and the arguments
	// (the binders peeled are the head's): a function applied to the same
	// (interned) types again reuses it.
	if r, ok := c.tyApps[key]; ok {
		return r
	}
	if n > 0 {
		m = make(tsubst, 0, n)
		for i := range n {
			m = m.set(binders[i], key.args[i])
		}
	}
	r := c.subst(m, body)
	c.tyApps[key] = r
	return r
}

// tyAppKey identifies an instance of a polymorphic type: its type and
// its first (up to four) type arguments, n in all.
type tyAppKey struct {
	head lf.Type
	n    int
	args [4]lf.Type
}

func (c *checker) checkInterfaceInstanceRef(iface, tmpl lf.TypeConID) {
	c.lookupInterface(iface, Reference{Sort: RefInterface, ID: iface})
	ref := Reference{Sort: RefInterfaceInstance, ID: tmpl, Interface: iface}
	c.lookupInterfaceInstance(iface, tmpl, ref)
}

func (c *checker) checkRequires(requiring, required lf.TypeConID) {
	i := c.lookupInterface(requiring, Reference{Sort: RefInterface, ID: requiring})
	for _, r := range i.Requires {
		if r == required {
			return
		}
	}
	c.throw(EWrongInterfaceRequirement, Error{Found: tCon(required)},
		"Interface %s does not require %s", requiring, required)
}

// checkAnyType: in LF 2.1-2.3 the type of to_any, from_any and type_rep
// must be a bare data type; in 2.dev any type without variables,
// foralls and synonyms. Then it must have kind *.
func (c *checker) checkAnyType(t lf.Type) {
	if c.pkg.LanguageVersion.IsDev() {
		c.checkComplexAnyType(t, t)
	} else if _, ok := t.(*lf.TCon); !ok {
		c.throw(EExpectedAnyType, Error{Found: t}, "expected a any type but found: %s", prettyType(t))
	}
	c.checkType(t, kStar)
}

func (c *checker) checkComplexAnyType(t, sub lf.Type) {
	c.enter()
	c.checkComplexAnyType1(t, sub)
	c.leave()
}

func (c *checker) checkComplexAnyType1(t, sub lf.Type) {
	switch s := sub.(type) {
	case *lf.TVar, *lf.TForall, *lf.TSyn:
		c.throw(EExpectedAnyType, Error{Found: sub}, "expected a any type but found: %s", prettyType(sub))
	case *lf.TApp:
		c.checkComplexAnyType(t, s.Fun)
		c.checkComplexAnyType(t, s.Arg)
	case *lf.TStruct:
		for _, f := range s.Fields {
			c.checkComplexAnyType(t, f.Type)
		}
	}
}

// checkExceptionType: the type must be syntactically a data type that
// names an exception.
func (c *checker) checkExceptionType(t lf.Type) {
	tc, ok := t.(*lf.TCon)
	if !ok {
		c.throw(EExpectedExceptionType, Error{Found: t}, "expected an exception type, but found: %s", prettyType(t))
	}
	c.lookupException(tc.ID, Reference{Sort: RefException, ID: tc.ID})
}

// --- case ---

// patternFamily is how a case's scrutinee type admits patterns.
type patternFamily int

const (
	famDefault patternFamily = iota
	famVariant
	famEnum
	famUnit
	famBool
	famList
	famOptional
)

// typeOfCase is Env.typeOfCase: the pattern family is chosen from the
// syntactic shape of the scrutinee's type.
func (c *checker) typeOfCase(e *lf.ECase) lf.Type {
	scrut := c.typeOf(e.Scrut)
	fam := famDefault
	var (
		dt    *lf.DataType
		tcID  lf.TypeConID
		targs []lf.Type
		elem  lf.Type
	)
	head, args := lf.SplitApp(scrut)
	switch h := head.(type) {
	case *lf.TCon:
		tcID, targs = h.ID, args
		dt = c.lookupDataType(h.ID, Reference{Sort: RefDataType, ID: h.ID})
		switch dt.Variety {
		case lf.VariantVariety:
			fam = famVariant
		case lf.EnumVariety:
			fam = famEnum
		}
	case *lf.TBuiltin:
		switch {
		case h.Builtin == lf.BuiltinUnit && len(args) == 0:
			fam = famUnit
		case h.Builtin == lf.BuiltinBool && len(args) == 0:
			fam = famBool
		case h.Builtin == lf.BuiltinList && len(args) == 1:
			fam, elem = famList, args[0]
		case h.Builtin == lf.BuiltinOptional && len(args) == 1:
			fam, elem = famOptional, args[0]
		}
	}
	// Canton introduces every alternative's pattern (raising pattern
	// errors) before it types any alternative's body.
	binders := make([][]lf.VarWithType, len(e.Alts))
	for i, alt := range e.Alts {
		bind := func(x string, t lf.Type) { binders[i] = append(binders[i], lf.VarWithType{Name: x, Type: t}) }
		mismatch := func() {
			c.throw(EPatternTypeMismatch, Error{Found: scrut, Name: prettyPattern(alt.Pattern)},
				"pattern type mismatch:\n * pattern: %s\n * scrutinee type: %s", prettyPattern(alt.Pattern), prettyType(scrut))
		}
		switch p := alt.Pattern.(type) {
		case *lf.PDefault:
		case *lf.PVariant:
			if fam != famVariant || p.ID != tcID {
				mismatch()
			}
			f, ok := c.field(dt, p.Con)
			if !ok {
				c.throw(EUnknownVariantCon, Error{Name: p.Con}, "unknown variant constructor: %s", p.Con)
			}
			var m tsubst
			if len(targs) > 0 {
				m = make(tsubst, 0, len(targs))
				for j, a := range targs {
					if j < len(dt.Params) {
						m = m.set(dt.Params[j].Name, a)
					}
				}
			}
			bind(p.Binder, c.subst(m, f.Type))
		case *lf.PEnum:
			if fam != famEnum || p.ID != tcID {
				mismatch()
			}
			if c.constructor(dt, p.Con) < 0 {
				c.throw(EUnknownEnumCon, Error{Name: p.Con}, "unknown enum constructor: %s", p.Con)
			}
		case *lf.PBuiltinCon:
			if p.Con == lf.ConUnit {
				if fam != famUnit {
					mismatch()
				}
			} else if fam != famBool {
				mismatch()
			}
		case *lf.PNil:
			if fam != famList {
				mismatch()
			}
		case *lf.PCons:
			if fam != famList {
				mismatch()
			}
			if p.Head == p.Tail {
				c.throw(EClashingPatternVariables, Error{Name: p.Head}, "%s is used more than one in pattern", p.Head)
			}
			bind(p.Head, elem)
			bind(p.Tail, tList(elem))
		case *lf.POptionalNone:
			if fam != famOptional {
				mismatch()
			}
		case *lf.POptionalSome:
			if fam != famOptional {
				mismatch()
			}
			bind(p.Binder, elem)
		default:
			mismatch()
		}
	}
	types := make([]lf.Type, len(e.Alts))
	for i, alt := range e.Alts {
		base := len(c.eStack)
		for _, b := range binders[i] {
			c.pushE(b.Name, b.Type)
		}
		types[i] = c.typeOf(alt.Body)
		c.popE(base)
	}
	if len(e.Alts) == 0 {
		c.throw(EEmptyCase, Error{}, "empty case")
	}
	first := types[0]
	for _, t := range types[1:] {
		if !c.equal(first, t) {
			c.fail(c.typeMismatch(t, first))
		}
	}
	c.checkExhaustive(e.Alts, fam, dt, tcID, scrut)
	return first
}

// checkExhaustive is Env.checkPatternExhaustiveness, with its ranks:
// True has rank 0 and False rank 1, while the expected Bool patterns are
// listed [False, True] — so the missing pattern reported is the one
// present (Canton's quirk, mirrored).
func (c *checker) checkExhaustive(alts []lf.CaseAlt, fam patternFamily, dt *lf.DataType, tcID lf.TypeConID, scrut lf.Type) {
	// A default alternative makes any case exhaustive: return before
	// the ranks' set-up, whose cost is the data type's constructors (a
	// package of many trivial cases over a large variant would
	// otherwise pay them at every case).
	for _, a := range alts {
		if _, ok := a.Pattern.(*lf.PDefault); ok {
			return
		}
	}
	// The ranks seen (typeOfCase checked the patterns: each rank is
	// below the number expected, or 2), and how many.
	n := expectedPatterns(fam, dt)
	ranks := c.ranks[:0]
	for range max(n, 2) {
		ranks = append(ranks, false)
	}
	c.ranks = ranks
	distinct := 0
	see := func(r int) {
		if !ranks[r] {
			ranks[r] = true
			distinct++
		}
	}
	for _, a := range alts {
		switch p := a.Pattern.(type) {
		case *lf.PVariant:
			see(c.fieldIndex(dt, p.Con))
		case *lf.PEnum:
			see(c.constructor(dt, p.Con))
		case *lf.PBuiltinCon:
			if p.Con == lf.ConTrue {
				see(0)
			} else {
				see(1)
			}
		case *lf.PCons, *lf.POptionalSome:
			see(1)
		case *lf.PNil, *lf.POptionalNone:
			see(0)
		}
	}
	if distinct >= n {
		return
	}
	var expected []string
	switch fam {
	case famVariant:
		for _, f := range dt.Fields {
			expected = append(expected, "CPVariant("+tcID.String()+","+f.Name+",_)")
		}
	case famEnum:
		for _, k := range dt.Constructors {
			expected = append(expected, "CPEnum("+tcID.String()+","+k+")")
		}
	case famUnit:
		expected = []string{"CPBuiltinCon(BCUnit)"}
	case famBool:
		expected = []string{"CPBuiltinCon(BCFalse)", "CPBuiltinCon(BCTrue)"}
	case famList:
		expected = []string{"CPNil", "CPCons(_,_)"}
	case famOptional:
		expected = []string{"CPNone", "CPSome(_)"}
	default:
		expected = []string{"CPDefault"}
	}
	var missing []string
	for i, p := range expected {
		if !ranks[i] {
			missing = append(missing, p)
		}
	}
	c.throw(ENonExhaustivePatterns, Error{Found: scrut, Names: missing},
		"non-exhaustive pattern match:\n * missing patterns: %s\n * scrutinee type: %s",
		strings.Join(missing, ", "), prettyType(scrut))
}

// expectedPatterns is the number of patterns checkExhaustive expects
// (without building their names, which only an error shows).
func expectedPatterns(fam patternFamily, dt *lf.DataType) int {
	switch fam {
	case famVariant:
		return len(dt.Fields)
	case famEnum:
		return len(dt.Constructors)
	case famBool, famList, famOptional:
		return 2
	}
	return 1
}

// linearNames is the number of fields or constructors up to which a
// data type's are searched by a scan; the positions of larger ones are
// kept in a map per checker (positions): a hostile package's variant of
// many constructors, matched in many cases, made each lookup a scan not
// counted in the checker's work.
var linearNames = 32

// namePositions are the positions of a large data type's fields and of
// its constructors, by name (the first of a repeated name, as a scan
// finds it).
type namePositions struct{ fields, cons map[string]int }

// positionsOf returns dt's name positions, built at its first lookup.
func (c *checker) positionsOf(dt *lf.DataType) namePositions {
	p, ok := c.positions[dt]
	if !ok {
		p = namePositions{fields: make(map[string]int, len(dt.Fields)), cons: make(map[string]int, len(dt.Constructors))}
		for i, f := range dt.Fields {
			if _, dup := p.fields[f.Name]; !dup {
				p.fields[f.Name] = i
			}
		}
		for i, k := range dt.Constructors {
			if _, dup := p.cons[k]; !dup {
				p.cons[k] = i
			}
		}
		c.positions[dt] = p
	}
	return p
}

// fieldIndex is the position of dt's field (or variant constructor)
// name, or -1.
func (c *checker) fieldIndex(dt *lf.DataType, name string) int {
	if len(dt.Fields) <= linearNames {
		return indexOfField(dt.Fields, name)
	}
	if i, ok := c.positionsOf(dt).fields[name]; ok {
		return i
	}
	return -1
}

// field is dt.Field(name) through fieldIndex.
func (c *checker) field(dt *lf.DataType, name string) (lf.Field, bool) {
	if i := c.fieldIndex(dt, name); i >= 0 {
		return dt.Fields[i], true
	}
	return lf.Field{}, false
}

// constructor is the position of dt's enum constructor name, or -1.
func (c *checker) constructor(dt *lf.DataType, name string) int {
	if len(dt.Constructors) <= linearNames {
		return indexOf(dt.Constructors, name)
	}
	if i, ok := c.positionsOf(dt).cons[name]; ok {
		return i
	}
	return -1
}

func indexOfField(fs []lf.Field, name string) int {
	for i, f := range fs {
		if f.Name == name {
			return i
		}
	}
	return -1
}

func indexOf(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}
