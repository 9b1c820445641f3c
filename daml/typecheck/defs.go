package typecheck

import (
	"github.com/ledgernode/ledgernode/daml/lf"
)

// checkPackage is Validation.unsafeCheckPackage.
func (c *checker) checkPackage() {
	c.checkCollisions()
	c.checkRecursion()
	c.checkDependencyVersions()
	for _, m := range c.pkg.Modules {
		c.checkModuleTypes(m)
		c.checkModuleSerializability(m)
	}
}

func (c *checker) id(m *lf.Module, name string) lf.TypeConID {
	return lf.TypeConID{PackageID: c.pkg.ID, Module: m.Name, Name: name}
}

// checkModuleTypes is Typing.checkModule: data types, synonyms and values
// (Canton's definitions map), then templates, exceptions and interfaces.
func (c *checker) checkModuleTypes(m *lf.Module) {
	for _, dt := range m.DataTypes {
		c.checkDataType(m, dt)
	}
	for _, s := range m.Synonyms {
		c.checkSynonym(m, s)
	}
	for _, v := range m.Values {
		c.reset(Context{Sort: ContextValue, ID: c.id(m, v.Name)})
		c.checkType(v.Type, kStar)
		c.checkTopExpr(c.bodies.Body(v), v.Type)
	}
	for _, t := range m.Templates {
		c.checkTemplate(m, t)
	}
	for _, name := range m.Exceptions {
		c.checkException(m, name)
	}
	for _, i := range m.Interfaces {
		c.checkInterface(m, i)
	}
}

// bindParams checks the kinds of type parameters and their uniqueness and
// brings them in scope (the later of two equal names wins, as in Canton's
// params.toMap).
func (c *checker) bindParams(ps []lf.TypeParam) {
	for _, p := range ps {
		c.tvars[p.Name] = p.Kind
	}
	for _, p := range ps {
		c.checkKind(p.Kind)
	}
	c.checkUniq(len(ps), func(i int) string { return ps[i].Name }, func(n string) {
		c.throw(EDuplicateTypeParam, Error{Name: n}, "duplicate type parameter: %s", n)
	})
}

func (c *checker) checkDataType(m *lf.Module, dt *lf.DataType) {
	id := c.id(m, dt.Name)
	c.reset(Context{Sort: ContextDataType, ID: id})
	c.bindParams(dt.Params)
	switch dt.Variety {
	case lf.RecordVariety:
		c.checkRecordType(dt.Fields)
	case lf.VariantVariety:
		c.checkUniq(len(dt.Fields), func(i int) string { return dt.Fields[i].Name }, func(n string) {
			c.throw(EDuplicateVariantCon, Error{Name: n}, "duplicate variant constructor: %s", n)
		})
		for _, f := range dt.Fields {
			c.checkType(f.Type, kStar)
		}
	case lf.EnumVariety:
		if len(dt.Params) > 0 {
			c.throw(EIllegalHigherEnumType, Error{Found: tCon(id)}, "illegal higher order enum type")
		}
		c.checkUniq(len(dt.Constructors), func(i int) string { return dt.Constructors[i] }, func(n string) {
			c.throw(EDuplicateEnumCon, Error{Name: n}, "duplicate enum constructor: %s", n)
		})
	case lf.InterfaceVariety:
		if len(dt.Params) > 0 {
			c.throw(EIllegalHigherInterfaceType, Error{Found: tCon(id)}, "illegal higher interface type")
		}
		c.lookupInterface(id, Reference{Sort: RefInterface, ID: id})
	}
}

func (c *checker) checkSynonym(m *lf.Module, s *lf.TypeSynonym) {
	// Canton builds a synonym's context with the template reference
	// builder: messages read "in template pkg:M:S".
	c.reset(Context{Sort: ContextTemplate, ID: c.id(m, s.Name)})
	c.bindParams(s.Params)
	c.checkType(s.Type, kStar)
}

// monoRecord reports whether the module's data type name is a record
// without parameters; it raises EUnknownDefinition when there is no such
// data type.
func (c *checker) monoRecord(id lf.TypeConID) bool {
	dt := c.lookupDataType(id, Reference{Sort: RefDataType, ID: id})
	return dt.Variety == lf.RecordVariety && len(dt.Params) == 0
}

func (c *checker) checkTemplate(m *lf.Module, t *lf.Template) {
	id := c.id(m, t.Name)
	c.reset(Context{Sort: ContextTemplate, ID: id})
	if !c.monoRecord(id) {
		c.throw(EExpectedTemplatableType, Error{Found: tCon(id)},
			"expected monomorphic record type in template definition, but found: %s", qualified(id))
	}
	self := tCon(id)
	c.bindE(t.Param, self)
	if t.Precond != nil {
		c.checkTopExpr(t.Precond, tBool)
	}
	c.checkTopExpr(t.Signatories, tParties)
	c.checkTopExpr(t.Observers, tParties)
	for _, ch := range t.Choices {
		c.checkChoice(id, ch)
	}
	for _, in := range t.Instances {
		c.checkInterfaceInstance(t, id, in)
		c.reset(Context{Sort: ContextTemplate, ID: id})
		c.bindE(t.Param, self)
	}
	if k := t.Key; k != nil {
		clear(c.evars)
		c.checkType(k.Type, kStar)
		c.bindE(t.Param, self)
		c.checkTopExpr(k.Body, k.Type)
		clear(c.evars)
		c.checkTopExpr(k.Maintainers, fn(k.Type, tParties))
	}
}

// checkChoice checks a template or interface choice in an environment
// where the template or interface parameter is bound.
func (c *checker) checkChoice(owner lf.TypeConID, ch *lf.Choice) {
	c.checkType(ch.ArgType, kStar)
	c.checkType(ch.ReturnType, kStar)
	s := c.bindE(ch.ArgBinder, ch.ArgType)
	c.checkTopExpr(ch.Controllers, tParties)
	if ch.Observers != nil {
		c.checkTopExpr(ch.Observers, tParties)
	}
	if ch.Authorizers != nil {
		c.checkTopExpr(ch.Authorizers, tParties)
	}
	c.unbindE(s)
	s1 := c.bindE(ch.SelfBinder, tContractID(tCon(owner)))
	s2 := c.bindE(ch.ArgBinder, ch.ArgType)
	c.checkTopExpr(ch.Update, tUpdate(ch.ReturnType))
	c.unbindE(s2)
	c.unbindE(s1)
}

// checkInterfaceInstance checks the instance of an interface in a
// template, in an environment with only the template parameter bound.
func (c *checker) checkInterfaceInstance(t *lf.Template, tmpl lf.TypeConID, in *lf.InterfaceInstance) {
	ifaceID := in.Interface
	c.reset(Context{Sort: ContextInterfaceInstance, ID: tmpl, Interface: ifaceID})
	iface := c.lookupInterface(ifaceID, Reference{Sort: RefInterface, ID: ifaceID})
	c.bindE(t.Param, tCon(tmpl))
	for _, r := range iface.Requires {
		if !c.hasInterfaceInstance(r, tmpl) {
			missing := Reference{Sort: RefInterfaceInstance, ID: tmpl, Interface: r}
			c.throw(EMissingRequiredInterfaceInstance, Error{Lookup: LookupError{NotFound: missing, Context: missing}},
				"Missing required %s, required by interface %s", missing, ifaceID)
		}
	}
	for _, meth := range iface.Methods {
		if in.Method(meth.Name) == nil {
			c.throw(EMissingMethodInInterfaceInstance, Error{Name: meth.Name},
				"Interface instance lacks an implementation for method '%s'.", meth.Name)
		}
	}
	for _, mb := range in.Methods {
		var decl *lf.InterfaceMethod
		for k := range iface.Methods {
			if iface.Methods[k].Name == mb.Name {
				decl = &iface.Methods[k]
			}
		}
		if decl == nil {
			c.throw(EUnknownMethodInInterfaceInstance, Error{Name: mb.Name},
				"Tried to implement method %s but interface %s does not have a method with that name.", mb.Name, ifaceID)
		}
		c.convertTypeMismatch(func() { c.checkTopExpr(mb.Expr, decl.Type) }, func(e *Error) {
			c.ctx = e.Context
			c.throw(EMethodTypeMismatch, Error{Found: e.Found, Expected: e.Expected, Name: mb.Name},
				"Implementation of method %s on interface %s should return %s but instead returns %s",
				mb.Name, ifaceID, prettyType(e.Expected), prettyType(e.Found))
		})
	}
	c.convertTypeMismatch(func() { c.checkTopExpr(in.View, iface.View) }, func(e *Error) {
		c.ctx = e.Context
		c.throw(EViewTypeMismatch, Error{Found: e.Found, Expected: e.Expected},
			"Tried to implement a view of type %s on interface %s for template %s, but the definition of interface %s requires a view of type %s",
			prettyType(e.Found), qualified(ifaceID), qualified(tmpl), qualified(ifaceID), prettyType(e.Expected))
	})
}

// convertTypeMismatch runs f; an ETypeMismatch raised anywhere inside it
// is handed to convert (which raises the converted error), any other
// error passes through.
func (c *checker) convertTypeMismatch(f func(), convert func(*Error)) {
	var mismatch *Error
	func() {
		defer func() {
			if r := recover(); r != nil {
				if e, ok := r.(*Error); ok && e.Kind == ETypeMismatch {
					mismatch = e
					return
				}
				panic(r)
			}
		}()
		f()
	}()
	if mismatch != nil {
		convert(mismatch)
	}
}

func (c *checker) checkException(m *lf.Module, name string) {
	id := c.id(m, name)
	c.reset(Context{Sort: ContextException, ID: id})
	if !c.monoRecord(id) {
		c.throw(EExpectedExceptionableType, Error{Found: tCon(id)},
			"expected monomorphic record type in exception definition, but found: %s", qualified(id))
	}
	ex := m.Exception(name)
	if ex == nil || ex.Message == nil {
		c.throw(ETypeMismatch, Error{Expected: fn(tCon(id), tText)}, "type mismatch:\n * expected type: %s\n * found type: <none>", prettyType(fn(tCon(id), tText)))
	}
	c.checkTopExpr(ex.Message, fn(tCon(id), tText))
}

func (c *checker) checkInterface(m *lf.Module, i *lf.Interface) {
	id := c.id(m, i.Name)
	c.reset(Context{Sort: ContextInterface, ID: id})
	requires := map[lf.TypeConID]bool{}
	for _, r := range i.Requires {
		requires[r] = true
	}
	if requires[id] {
		c.throw(ECircularInterfaceRequires, Error{Found: tCon(id)},
			"Circular interface requirement is not allowed: interface %s requires itself.", id)
	}
	for _, r := range i.Requires {
		ri := c.lookupInterface(r, Reference{Sort: RefInterface, ID: r})
		for _, rr := range ri.Requires {
			if !requires[rr] {
				c.throw(ENotClosedInterfaceRequires, Error{Found: tCon(rr)},
					"Interface %s is missing requirements %s required by %s", id, rr, r)
			}
		}
	}
	for _, meth := range i.Methods {
		c.checkType(meth.Type, kStar)
	}
	c.bindE(i.Param, tCon(id))
	for _, ch := range i.Choices {
		c.checkChoice(id, ch)
	}
	c.checkViewType(i.View)
}

// checkViewType checks the shape of an interface's view type: a record
// without parameters, named syntactically.
func (c *checker) checkViewType(view lf.Type) {
	switch v := view.(type) {
	case *lf.TCon:
		dt := c.lookupDataType(v.ID, Reference{Sort: RefDataType, ID: v.ID})
		if len(dt.Params) > 0 {
			c.throw(EViewTypeHasVars, Error{Found: view},
				"expected monomorphic record type in view type, but found a type constructor with type variables: %s", prettyType(view))
		}
		if dt.Variety != lf.RecordVariety {
			what := map[lf.Variety]string{lf.VariantVariety: "a variant type", lf.EnumVariety: "an enum type", lf.InterfaceVariety: "a interface type"}[dt.Variety]
			c.throw(EViewTypeConNotRecord, Error{Found: view},
				"expected monomorphic record type in view type, but found %s instead: %s", what, prettyType(view))
		}
	case *lf.TApp:
		c.throw(EViewTypeHasVars, Error{Found: view},
			"expected monomorphic record type in view type, but found a type constructor with type variables: %s", prettyType(view))
	default:
		what := "a type-level natural number"
		switch view.(type) {
		case *lf.TVar:
			what = "a type variable"
		case *lf.TSyn:
			what = "a type synonym"
		case *lf.TBuiltin:
			what = "a built-in type"
		case *lf.TForall:
			what = "a forall-quantified type"
		case *lf.TStruct:
			what = "a structural record"
		}
		c.throw(EViewTypeHeadNotCon, Error{Found: view},
			"expected monomorphic record type in view type, but found %s instead: %s", what, prettyType(view))
	}
}
