package typecheck

import (
	"github.com/ledgernode/ledgernode/daml/lf"
)

// Serializability requirements (Canton's SerializabilityRequirement), as
// printed in the "problem" line.
const (
	srTemplateArg  = "template argument"
	srChoiceArg    = "choice argument"
	srChoiceRes    = "choice result"
	srExceptionArg = "exception argument"
	srView         = "view"
	srKey          = "contract key"
	srDataType     = "serializable data type"
)

// checkModuleSerializability is Serializability.checkModule: the data
// types flagged serializable, then templates, exceptions and interfaces.
func (c *checker) checkModuleSerializability(m *lf.Module) {
	for _, dt := range m.DataTypes {
		if dt.Serializable {
			c.checkSerializableDataType(m, dt)
		}
	}
	for _, t := range m.Templates {
		id := c.id(m, t.Name)
		c.ctx = Context{Sort: ContextTemplate, ID: id}
		c.serializable(srTemplateArg, tCon(id), nil)
		for _, ch := range t.Choices {
			c.serializable(srChoiceArg, ch.ArgType, nil)
			c.serializable(srChoiceRes, ch.ReturnType, nil)
		}
		if t.Key != nil {
			c.serializable(srKey, t.Key.Type, nil)
		}
	}
	for _, name := range m.Exceptions {
		id := c.id(m, name)
		c.ctx = Context{Sort: ContextException, ID: id}
		c.serializable(srExceptionArg, tCon(id), nil)
	}
	for _, i := range m.Interfaces {
		id := c.id(m, i.Name)
		c.ctx = Context{Sort: ContextInterface, ID: id}
		for _, ch := range i.Choices {
			c.serializable(srChoiceArg, ch.ArgType, nil)
			c.serializable(srChoiceRes, ch.ReturnType, nil)
		}
		c.serializable(srView, i.View, nil)
	}
}

func (c *checker) checkSerializableDataType(m *lf.Module, dt *lf.DataType) {
	id := c.id(m, dt.Name)
	c.ctx = Context{Sort: ContextDataType, ID: id}
	self := tCon(id)
	vars := map[string]bool{}
	for _, p := range dt.Params {
		if p.Kind == nil || p.Kind.Sort != lf.KindStar {
			c.unserializable(srDataType, self, "higher-kinded type variable "+p.Name+" : "+prettyKind(p.Kind))
		}
		vars[p.Name] = true
	}
	switch dt.Variety {
	case lf.VariantVariety:
		if len(dt.Fields) == 0 {
			c.unserializable(srDataType, self, "variant type without constructors")
		}
	case lf.EnumVariety:
		if len(dt.Constructors) == 0 {
			c.unserializable(srDataType, self, "variant type without constructors")
		}
		return
	case lf.InterfaceVariety:
		c.unserializable(srDataType, self, "Interface")
	}
	for _, f := range dt.Fields {
		if r := c.serialReason(f.Type, vars); r != "" {
			c.unserializable(srDataType, self, r)
		}
	}
}

// serializable raises EExpectedSerializableType when t is not
// serializable with the type variables vars in scope.
func (c *checker) serializable(requirement string, t lf.Type, vars map[string]bool) {
	if r := c.serialReason(t, vars); r != "" {
		c.unserializable(requirement, t, r)
	}
}

func (c *checker) unserializable(requirement string, t lf.Type, reason string) {
	c.throw(EExpectedSerializableType, Error{Found: t, Reason: reason, Requirement: requirement},
		"expected serializable type:\n * reason: %s\n * found: %s\n * problem: %s\n     ", reason, prettyType(t), requirement)
}

// serialReason is Serializability.Env.checkType: "" when t is
// serializable, else the first reason it is not.
func (c *checker) serialReason(t lf.Type, vars map[string]bool) string {
	c.enter()
	r := c.serialReason1(t, vars)
	c.leave()
	return r
}

func (c *checker) serialReason1(t lf.Type, vars map[string]bool) string {
	switch t := t.(type) {
	case *lf.TVar:
		if !vars[t.Name] {
			return "free type variable " + t.Name
		}
		return ""
	case *lf.TNat:
		return "Nat"
	case *lf.TSyn:
		return "type synonym " + qualified(t.ID)
	case *lf.TCon:
		m := c.moduleOf(t.ID, Reference{Sort: RefDefinition, ID: t.ID})
		if dt := m.DataType(t.ID.Name); dt != nil && dt.Serializable {
			return ""
		}
		if !isDefinition(m, t.ID.Name) {
			ref := Reference{Sort: RefDefinition, ID: t.ID}
			c.fail(c.lookupErr(ref, ref))
		}
		return "unserializable data type " + qualified(t.ID)
	case *lf.TApp:
		if b, ok := t.Fun.(*lf.TBuiltin); ok {
			switch b.Builtin {
			case lf.BuiltinContractID:
				return ""
			case lf.BuiltinNumeric:
				if _, ok := t.Arg.(*lf.TNat); ok {
					return ""
				}
			case lf.BuiltinList, lf.BuiltinOptional, lf.BuiltinTextMap:
				return c.serialReason(t.Arg, vars)
			}
		}
		if f, ok := t.Fun.(*lf.TApp); ok {
			if b, ok := f.Fun.(*lf.TBuiltin); ok && b.Builtin == lf.BuiltinGenMap {
				if r := c.serialReason(f.Arg, vars); r != "" {
					return r
				}
				return c.serialReason(t.Arg, vars)
			}
		}
		if r := c.serialReason(t.Fun, vars); r != "" {
			return r
		}
		return c.serialReason(t.Arg, vars)
	case *lf.TBuiltin:
		switch t.Builtin {
		case lf.BuiltinInt64, lf.BuiltinText, lf.BuiltinTimestamp, lf.BuiltinDate, lf.BuiltinParty,
			lf.BuiltinBool, lf.BuiltinUnit, lf.BuiltinAnyException:
			return ""
		case lf.BuiltinNumeric:
			return "unapplied Numeric"
		case lf.BuiltinList:
			return "unapplied List"
		case lf.BuiltinOptional:
			return "unapplied Option"
		case lf.BuiltinTextMap:
			return "unapplied TextMap"
		case lf.BuiltinGenMap:
			return "unapplied GenMap"
		case lf.BuiltinUpdate:
			return "Update"
		case lf.BuiltinContractID:
			return "ContractId not applied to a template type"
		case lf.BuiltinArrow:
			return "function type"
		case lf.BuiltinAny:
			return "Any"
		case lf.BuiltinTypeRep:
			return "TypeRep"
		case lf.BuiltinRoundingMode:
			return "RoundingMode"
		case lf.BuiltinBigNumeric:
			return "BigNumeric"
		case lf.BuiltinFailureCategory:
			return "FailureCategory"
		}
		return "Scenario"
	case *lf.TForall:
		return "higher-ranked type"
	case *lf.TStruct:
		return "structural record"
	}
	return "structural record"
}
