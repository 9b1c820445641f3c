package typecheck

import (
	"fmt"
	"strings"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// ErrorKind is the kind of a validation error: one value per case class of
// Canton's com.digitalasset.daml.lf.validation.ValidationError that the
// validator raises (ValidationError.scala), plus ETooComplex, ledgernode's
// own refusal of a package whose checking would exceed the work bound.
// String returns the Scala case-class name ("ETypeMismatch").
type ErrorKind int

// The error kinds, named as Canton's ValidationError case classes.
const (
	// ENatKindRightOfArrow: a kind k -> nat.
	ENatKindRightOfArrow ErrorKind = iota + 1
	// EUnknownTypeVar: a type variable not in scope.
	EUnknownTypeVar
	// EUnknownExprVar: an expression variable not in scope.
	EUnknownExprVar
	// EUnknownDefinition: a failed lookup (Error.Lookup says which).
	EUnknownDefinition
	// ETypeSynAppWrongArity: a synonym applied to the wrong number of
	// arguments.
	ETypeSynAppWrongArity
	// ETypeConAppWrongArity: a data type applied to the wrong number of
	// arguments in an expression.
	ETypeConAppWrongArity
	// EDuplicateTypeParam: two parameters of a data type or synonym with
	// the same name.
	EDuplicateTypeParam
	// EDuplicateField: two fields with the same name.
	EDuplicateField
	// EDuplicateVariantCon: two variant constructors with the same name.
	EDuplicateVariantCon
	// EDuplicateEnumCon: two enum constructors with the same name.
	EDuplicateEnumCon
	// EEmptyConsFront: a cons without elements.
	EEmptyConsFront
	// EExpectedRecordType: a record expression over a non-record type.
	EExpectedRecordType
	// EFieldMismatch: a record construction whose fields differ from the
	// record's (names, order or count).
	EFieldMismatch
	// EExpectedVariantType: a variant construction over a non-variant.
	EExpectedVariantType
	// EExpectedEnumType: an enum constructor of a non-enum.
	EExpectedEnumType
	// EUnknownVariantCon: no such variant constructor.
	EUnknownVariantCon
	// EUnknownEnumCon: no such enum constructor.
	EUnknownEnumCon
	// EUnknownField: no such record or struct field.
	EUnknownField
	// EExpectedStructType: a struct operation on a non-struct.
	EExpectedStructType
	// EKindMismatch: a type of the wrong kind.
	EKindMismatch
	// ETypeMismatch: an expression of the wrong type.
	ETypeMismatch
	// EFieldTypeMismatch: a record projection of the wrong type.
	EFieldTypeMismatch
	// EPatternTypeMismatch: a case pattern that does not fit the
	// scrutinee's type.
	EPatternTypeMismatch
	// ENonExhaustivePatterns: a case that does not cover every value.
	ENonExhaustivePatterns
	// EExpectedAnyType: a type that cannot be wrapped in Any.
	EExpectedAnyType
	// EExpectedExceptionType: a type that is not an exception.
	EExpectedExceptionType
	// EExpectedHigherKind: a type of kind * applied to an argument.
	EExpectedHigherKind
	// EExpectedFunctionType: a non-function applied to an argument.
	EExpectedFunctionType
	// EExpectedUniversalType: a non-forall applied to a type.
	EExpectedUniversalType
	// EExpectedUpdateType: an update block whose body is not an update.
	EExpectedUpdateType
	// EExpectedSerializableType: an unserializable type where a
	// serializable one is required (Error.Reason says why).
	EExpectedSerializableType
	// EEmptyCase: a case without alternatives.
	EEmptyCase
	// EClashingPatternVariables: a cons pattern binding one name twice.
	EClashingPatternVariables
	// EExpectedTemplatableType: a template whose data type is not a
	// monomorphic record.
	EExpectedTemplatableType
	// EExpectedExceptionableType: an exception whose data type is not a
	// monomorphic record.
	EExpectedExceptionableType
	// EViewTypeHeadNotCon: an interface view type not headed by a data
	// type.
	EViewTypeHeadNotCon
	// EViewTypeHasVars: an interface view type with type arguments or
	// parameters.
	EViewTypeHasVars
	// EViewTypeConNotRecord: an interface view type that is not a record.
	EViewTypeConNotRecord
	// EViewTypeMismatch: an interface instance view of the wrong type.
	EViewTypeMismatch
	// EMethodTypeMismatch: an interface instance method of the wrong type.
	EMethodTypeMismatch
	// EImportCycle: a cycle among the modules of the package.
	EImportCycle
	// ETypeSynCycle: a cycle among the type synonyms of a module.
	ETypeSynCycle
	// EIllegalHigherEnumType: an enum with type parameters.
	EIllegalHigherEnumType
	// EIllegalHigherInterfaceType: an interface data type with type
	// parameters.
	EIllegalHigherInterfaceType
	// ECollision: two entities whose names are equal ignoring case.
	ECollision
	// EModuleVersionDependencies: a dependency with a newer LF version.
	EModuleVersionDependencies
	// EMissingMethodInInterfaceInstance: an interface method without an
	// implementation.
	EMissingMethodInInterfaceInstance
	// EUnknownMethodInInterfaceInstance: an implementation of a method
	// the interface does not have.
	EUnknownMethodInInterfaceInstance
	// EMissingRequiredInterfaceInstance: a template implementing I but
	// not an interface I requires.
	EMissingRequiredInterfaceInstance
	// EWrongInterfaceRequirement: a required-interface conversion to an
	// interface that is not required.
	EWrongInterfaceRequirement
	// ENotClosedInterfaceRequires: an interface whose requires are not
	// transitively closed.
	ENotClosedInterfaceRequires
	// ECircularInterfaceRequires: an interface that requires itself.
	ECircularInterfaceRequires
	// ETooComplex is not a Canton kind: the package would take more than
	// the checker's work bound (hostile input: exponentially shared
	// expressions or types), so it is refused without finishing.
	ETooComplex
)

var kindNames = [...]string{
	ENatKindRightOfArrow: "ENatKindRightOfArrow", EUnknownTypeVar: "EUnknownTypeVar",
	EUnknownExprVar: "EUnknownExprVar", EUnknownDefinition: "EUnknownDefinition",
	ETypeSynAppWrongArity: "ETypeSynAppWrongArity", ETypeConAppWrongArity: "ETypeConAppWrongArity",
	EDuplicateTypeParam: "EDuplicateTypeParam", EDuplicateField: "EDuplicateField",
	EDuplicateVariantCon: "EDuplicateVariantCon", EDuplicateEnumCon: "EDuplicateEnumCon",
	EEmptyConsFront: "EEmptyConsFront", EExpectedRecordType: "EExpectedRecordType",
	EFieldMismatch: "EFieldMismatch", EExpectedVariantType: "EExpectedVariantType",
	EExpectedEnumType: "EExpectedEnumType", EUnknownVariantCon: "EUnknownVariantCon",
	EUnknownEnumCon: "EUnknownEnumCon", EUnknownField: "EUnknownField",
	EExpectedStructType: "EExpectedStructType", EKindMismatch: "EKindMismatch",
	ETypeMismatch: "ETypeMismatch", EFieldTypeMismatch: "EFieldTypeMismatch",
	EPatternTypeMismatch: "EPatternTypeMismatch", ENonExhaustivePatterns: "ENonExhaustivePatterns",
	EExpectedAnyType: "EExpectedAnyType", EExpectedExceptionType: "EExpectedExceptionType",
	EExpectedHigherKind: "EExpectedHigherKind", EExpectedFunctionType: "EExpectedFunctionType",
	EExpectedUniversalType: "EExpectedUniversalType", EExpectedUpdateType: "EExpectedUpdateType",
	EExpectedSerializableType: "EExpectedSerializableType", EEmptyCase: "EEmptyCase",
	EClashingPatternVariables: "EClashingPatternVariables", EExpectedTemplatableType: "EExpectedTemplatableType",
	EExpectedExceptionableType: "EExpectedExceptionableType", EViewTypeHeadNotCon: "EViewTypeHeadNotCon",
	EViewTypeHasVars: "EViewTypeHasVars", EViewTypeConNotRecord: "EViewTypeConNotRecord",
	EViewTypeMismatch: "EViewTypeMismatch", EMethodTypeMismatch: "EMethodTypeMismatch",
	EImportCycle: "EImportCycle", ETypeSynCycle: "ETypeSynCycle",
	EIllegalHigherEnumType: "EIllegalHigherEnumType", EIllegalHigherInterfaceType: "EIllegalHigherInterfaceType",
	ECollision: "ECollision", EModuleVersionDependencies: "EModuleVersionDependencies",
	EMissingMethodInInterfaceInstance: "EMissingMethodInInterfaceInstance",
	EUnknownMethodInInterfaceInstance: "EUnknownMethodInInterfaceInstance",
	EMissingRequiredInterfaceInstance: "EMissingRequiredInterfaceInstance",
	EWrongInterfaceRequirement:        "EWrongInterfaceRequirement",
	ENotClosedInterfaceRequires:       "ENotClosedInterfaceRequires",
	ECircularInterfaceRequires:        "ECircularInterfaceRequires",
	ETooComplex:                       "ETooComplex",
}

// String returns the Scala case-class name of the kind, e.g.
// "ETypeMismatch".
func (k ErrorKind) String() string {
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("ErrorKind(%d)", int(k))
}

// ContextSort says what definition an error occurred in.
type ContextSort int

// The context sorts (Canton's validation Context).
const (
	// ContextNone: a package-level check (collision, recursion,
	// dependency versions).
	ContextNone ContextSort = iota
	// ContextDataType: a data type definition.
	ContextDataType
	// ContextValue: a top-level value.
	ContextValue
	// ContextTemplate: a template with its choices and key, and (a Canton
	// quirk) a type synonym.
	ContextTemplate
	// ContextInterfaceInstance: an interface instance of a template.
	ContextInterfaceInstance
	// ContextException: an exception definition.
	ContextException
	// ContextInterface: an interface with its choices.
	ContextInterface
)

// Context is where an error occurred: the definition (ID) being checked.
// For an interface instance, ID is the template and Interface the
// interface. Canton reports the innermost source location instead when the
// expression carries one; ledgernode's decoder drops locations, so the
// definition is the finest context here.
type Context struct {
	// Sort is the kind of definition.
	Sort ContextSort
	// ID identifies the definition (the template, for an instance).
	ID lf.TypeConID
	// Interface is the implemented interface of an interface instance.
	Interface lf.TypeConID
}

// String renders the context as Canton does: "" for none, else " in "
// followed by the definition, e.g. " in value pkg:Mod:x".
func (c Context) String() string {
	switch c.Sort {
	case ContextDataType:
		return " in data type " + c.ID.String()
	case ContextValue:
		return " in value " + c.ID.String()
	case ContextTemplate:
		return " in template " + c.ID.String()
	case ContextInterfaceInstance:
		return " in interface instance " + c.Interface.String() + " for " + c.ID.String()
	case ContextException:
		return " in exception " + c.ID.String()
	case ContextInterface:
		return " in interface " + c.ID.String()
	}
	return ""
}

// RefSort is the sort of a Reference: what a lookup was looking for.
type RefSort int

// The reference sorts (Canton's language.Reference).
const (
	RefPackage RefSort = iota + 1
	RefModule
	RefDefinition
	RefTypeSyn
	RefDataType
	RefDataRecord
	RefDataVariant
	RefDataEnum
	RefValue
	RefTemplate
	RefInterface
	RefTemplateKey
	RefInterfaceInstance
	RefTemplateChoice
	RefInterfaceChoice
	RefTemplateOrInterface
	RefMethod
	RefException
)

// Reference names what a lookup looked for (Canton's language.Reference):
// a package, module, definition, template, choice, ...
type Reference struct {
	// Sort is the kind of entity.
	Sort RefSort
	// ID identifies the entity (its PackageID alone for a package, its
	// PackageID and Module for a module). For an interface instance ID
	// is the template.
	ID lf.TypeConID
	// Interface is the interface of an interface instance.
	Interface lf.TypeConID
	// Name is the choice or method name.
	Name string
}

// String renders the reference as Canton does, e.g. "template pkg:M:T",
// "choice Ch in template pkg:M:T".
func (r Reference) String() string {
	id := r.ID.String()
	switch r.Sort {
	case RefPackage:
		return "package " + r.ID.PackageID
	case RefModule:
		return "module " + r.ID.PackageID + ":" + r.ID.Module
	case RefDefinition:
		return "definition " + id
	case RefTypeSyn:
		return "type synonym " + id
	case RefDataType:
		return "data type " + id
	case RefDataRecord:
		return "record " + id
	case RefDataVariant:
		return "variant " + id
	case RefDataEnum:
		return "enumeration " + id
	case RefValue:
		return "value " + id
	case RefTemplate:
		return "template " + id
	case RefInterface:
		return "interface " + id
	case RefTemplateKey:
		return "template without contract key " + id + "."
	case RefInterfaceInstance:
		return "interface instance " + r.Interface.String() + " for " + id
	case RefTemplateChoice:
		return "choice " + r.Name + " in template " + id
	case RefInterfaceChoice:
		return "choice " + r.Name + " in interface " + id
	case RefTemplateOrInterface:
		return "template or interface " + id
	case RefMethod:
		return "method " + r.Name + " in interface " + id
	case RefException:
		return "exception " + id
	}
	return "reference " + id
}

// LookupError is a failed lookup (Canton's LookupError.NotFound): NotFound
// was not found while looking for Context.
type LookupError struct {
	// NotFound is the missing entity.
	NotFound Reference
	// Context is what was being looked up.
	Context Reference
}

// String renders the lookup error as Canton does: "unknown definition
// pkg:M:g while looking for value pkg:M:g".
func (l LookupError) String() string {
	s := "unknown " + l.NotFound.String()
	if l.Context != l.NotFound && l.Context.Sort != RefPackage {
		s += " while looking for " + l.Context.String()
	}
	return s
}

// Error is a package validation error: the first rule of Canton's
// Validation.checkPackage the package breaks. Canton reports it as
// DAR_VALIDATION_ERROR with the context entry validationError =
// CantonString(). The fields that apply to the Kind are set.
type Error struct {
	// Kind is the rule broken.
	Kind ErrorKind
	// PackageID is the package being checked.
	PackageID string
	// Context is the definition being checked.
	Context Context
	// Found and Expected are the types involved: the inferred and the
	// expected type of a mismatch; Found alone is the offending type of
	// the other kinds (the scrutinee type of a pattern error, the type to
	// serialize, the view type, ...).
	Found, Expected lf.Type
	// FoundKind and ExpectedKind are the kinds of a kind error.
	FoundKind, ExpectedKind *lf.Kind
	// Name is the variable, field, constructor, method or choice named by
	// the error.
	Name string
	// Lookup is the failed lookup of EUnknownDefinition (and of a missing
	// required interface instance).
	Lookup LookupError
	// Reason is the unserializability reason of EExpectedSerializableType
	// ("function type", ...) and the requirement in Requirement
	// ("choice argument", ...).
	Reason, Requirement string
	// Names lists the modules or synonyms of a cycle, the two colliding
	// entities of ECollision, the missing patterns of
	// ENonExhaustivePatterns.
	Names []string

	msg string
}

// Error renders the error as Canton's ValidationError.pretty: "validation
// error" + context + ": " + the rule's message.
func (e *Error) Error() string { return "validation error" + e.Context.String() + ": " + e.msg }

// CantonString is the text Canton puts in the validationError context
// entry of DAR_VALIDATION_ERROR: the exception's class name, ": ", then
// Error().
func (e *Error) CantonString() string {
	return "com.digitalasset.daml.lf.validation." + e.Kind.String() + ": " + e.Error()
}

// maxPrinted bounds the length of a type rendered in a message: a hostile
// package can build types whose printed form is exponentially long.
const maxPrinted = 4096

// prettyType renders a type as Canton's Type.prettyType.
func prettyType(t lf.Type) string {
	var b strings.Builder
	writeType(&b, t, 0, 0)
	if b.Len() > maxPrinted {
		return b.String()[:maxPrinted] + "…"
	}
	return b.String()
}

// prettyKind renders a kind as Canton's Kind.prettyKind: "*->*", "(*->*)->*".
func prettyKind(k *lf.Kind) string { return writeKind(k, false) }

func writeKind(k *lf.Kind, parens bool) string {
	switch {
	case k == nil:
		return "?"
	case k.Sort == lf.KindStar:
		return "*"
	case k.Sort == lf.KindNat:
		return "nat"
	}
	s := writeKind(k.Param, true) + "->" + writeKind(k.Result, false)
	if parens {
		return "(" + s + ")"
	}
	return s
}

const (
	precForall = 0
	precFun    = 1
	precApp    = 2
)

func writeType(b *strings.Builder, t lf.Type, prec, depth int) {
	if b.Len() > maxPrinted || depth > maxPrinted {
		b.WriteString("…")
		return
	}
	depth++
	open := func(need bool) func() {
		if need {
			b.WriteByte('(')
			return func() { b.WriteByte(')') }
		}
		return func() {}
	}
	switch t := t.(type) {
	case *lf.TVar:
		b.WriteString(t.Name)
	case *lf.TNat:
		fmt.Fprint(b, t.N)
	case *lf.TSyn:
		closeP := open(prec > precApp)
		b.WriteString(t.ID.Module + ":" + t.ID.Name + " ")
		for i, a := range t.Args {
			if i > 0 {
				b.WriteByte(' ')
			}
			writeType(b, a, precApp+1, depth)
		}
		closeP()
	case *lf.TCon:
		b.WriteString(t.ID.Module + ":" + t.ID.Name)
	case *lf.TBuiltin:
		if t.Builtin == lf.BuiltinArrow {
			b.WriteString("(->)")
		} else {
			b.WriteString(t.Builtin.String())
		}
	case *lf.TApp:
		if f, ok := t.Fun.(*lf.TApp); ok {
			if h, ok := f.Fun.(*lf.TBuiltin); ok && h.Builtin == lf.BuiltinArrow {
				closeP := open(prec > precFun)
				writeType(b, f.Arg, precFun+1, depth)
				b.WriteString(" → ")
				writeType(b, t.Arg, precFun, depth)
				closeP()
				return
			}
		}
		closeP := open(prec > precApp)
		writeType(b, t.Fun, precApp, depth)
		b.WriteByte(' ')
		writeType(b, t.Arg, precApp+1, depth)
		closeP()
	case *lf.TForall:
		closeP := open(prec > precForall)
		b.WriteString("∀" + t.Param.Name)
		body := t.Body
		for {
			f, ok := body.(*lf.TForall)
			if !ok {
				break
			}
			b.WriteString(" " + f.Param.Name)
			body = f.Body
		}
		b.WriteString(". ")
		writeType(b, body, precForall, depth)
		closeP()
	case *lf.TStruct:
		b.WriteByte('(')
		for i, f := range sortedFields(t) {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(f.Name + ": ")
			writeType(b, f.Type, precForall, depth)
		}
		b.WriteByte(')')
	default:
		b.WriteString("<nil>")
	}
}

// prettyPattern renders a case pattern as the Scala case class Canton
// prints in ENonExhaustivePatterns and EPatternTypeMismatch.
func prettyPattern(p lf.Pattern) string {
	switch p := p.(type) {
	case *lf.PDefault:
		return "CPDefault"
	case *lf.PVariant:
		return "CPVariant(" + p.ID.String() + "," + p.Con + "," + p.Binder + ")"
	case *lf.PEnum:
		return "CPEnum(" + p.ID.String() + "," + p.Con + ")"
	case *lf.PBuiltinCon:
		switch p.Con {
		case lf.ConTrue:
			return "CPBuiltinCon(BCTrue)"
		case lf.ConFalse:
			return "CPBuiltinCon(BCFalse)"
		}
		return "CPBuiltinCon(BCUnit)"
	case *lf.PNil:
		return "CPNil"
	case *lf.PCons:
		return "CPCons(" + p.Head + "," + p.Tail + ")"
	case *lf.POptionalNone:
		return "CPNone"
	case *lf.POptionalSome:
		return "CPSome(" + p.Binder + ")"
	}
	return "<nil>"
}

func qualified(id lf.TypeConID) string { return id.Module + ":" + id.Name }

// tyConApp renders a type constructor application as Canton's
// TypeConApp.pretty (the applied type).
func tyConApp(app lf.TypeConApp) string { return prettyType(typeConAppToType(app)) }

// newError builds an error; the message is rendered from the fields.
func (c *checker) errorf(kind ErrorKind, e Error, format string, args ...any) *Error {
	e.Kind = kind
	e.PackageID = c.pkg.ID
	e.Context = c.ctx
	e.msg = fmt.Sprintf(format, args...)
	return &e
}

func (c *checker) lookupErr(notFound, context Reference) *Error {
	l := LookupError{NotFound: notFound, Context: context}
	return c.errorf(EUnknownDefinition, Error{Lookup: l}, "%s", l.String())
}

func (c *checker) typeMismatch(found, expected lf.Type) *Error {
	return c.errorf(ETypeMismatch, Error{Found: found, Expected: expected},
		"type mismatch:\n * expected type: %s\n * found type: %s", prettyType(expected), prettyType(found))
}

func (c *checker) kindMismatch(found, expected *lf.Kind) *Error {
	return c.errorf(EKindMismatch, Error{FoundKind: found, ExpectedKind: expected},
		"kind mismatch:\n * expected kind: %s\n * found Kind: %s", prettyKind(expected), prettyKind(found))
}
