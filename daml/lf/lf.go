package lf

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
)

// LFVersion is a Daml-LF language version such as 2.1 or 2.dev.
type LFVersion struct {
	// Major is the major version: 1 or 2.
	Major int
	// Minor is the minor version as written in the archive: "1", "2",
	// "3", "15", "dev", ...
	Minor string
}

// The Daml-LF 2 versions that ledgernode decodes.
var (
	// LF21 is Daml-LF 2.1.
	LF21 = LFVersion{2, "1"}
	// LF22 is Daml-LF 2.2, the first with flat archives and explicit
	// package imports.
	LF22 = LFVersion{2, "2"}
	// LF23 is Daml-LF 2.3, the first with contract keys.
	LF23 = LFVersion{2, "3"}
	// LF2Dev is Daml-LF 2.dev, accepted only with ReadOptions.AllowDevLF.
	LF2Dev = LFVersion{2, "dev"}
)

// String returns the version as "major.minor", e.g. "2.1".
func (v LFVersion) String() string { return strconv.Itoa(v.Major) + "." + v.Minor }

// IsDev reports whether v is a development version (minor "dev").
func (v LFVersion) IsDev() bool { return v.Minor == "dev" }

// Compare orders versions by major, then by minor: numbered minors
// numerically, "dev" above every numbered minor. It returns -1, 0 or +1.
func (v LFVersion) Compare(w LFVersion) int {
	if v.Major != w.Major {
		if v.Major < w.Major {
			return -1
		}
		return 1
	}
	rank := func(m string) (int, bool) {
		if m == "dev" {
			return 1 << 30, true
		}
		n, err := strconv.Atoi(m)
		return n, err == nil
	}
	a, aok := rank(v.Minor)
	b, bok := rank(w.Minor)
	switch {
	case aok && bok && a != b:
		if a < b {
			return -1
		}
		return 1
	case aok && bok:
		return 0
	default:
		return strings.Compare(v.Minor, w.Minor)
	}
}

// atLeast reports whether v ≥ w within the same major version.
func (v LFVersion) atLeast(w LFVersion) bool { return v.Major == w.Major && v.Compare(w) >= 0 }

// Package is a decoded Daml-LF 2 package: its metadata, dependencies and
// its modules: data types, top-level values, templates, choices,
// interfaces and exceptions, with every expression decoded (see Expr).
type Package struct {
	// ID is the package id: the lowercase hex SHA-256 of Payload.
	ID string
	// LanguageVersion is the package's Daml-LF version.
	LanguageVersion LFVersion
	// Name is the package name from the metadata.
	Name string
	// Version is the package version from the metadata ("1.0.0").
	Version string
	// UpgradedPackageID is the metadata's upgraded package id, if any.
	UpgradedPackageID string
	// ImportsDeclared reports whether the package declares its imports
	// (LF ≥ 2.2 package_imports); when false they are generated from the
	// package references found anywhere in the package.
	ImportsDeclared bool
	// Imports is the declared package_imports table, in order.
	Imports []string
	// DirectDeps are the ids of the packages this package depends on
	// directly, sorted: the declared imports plus every other package
	// referenced (stable packages, in LF ≥ 2.2), or every package
	// referenced anywhere in the package when imports are not declared.
	DirectDeps []string
	// Modules are the package's modules in archive order.
	Modules []*Module
	// Payload is the serialized ArchivePayload (Archive.payload), whose
	// SHA-256 is the package id; the Ledger API serves it as the package.
	Payload []byte

	modules map[string]*Module
	// bodies decodes the values' bodies on demand (nil for a package
	// built in Go).
	bodies *bodySource
}

// Module returns the module with the given dotted name, or nil.
func (p *Package) Module(name string) *Module { return p.modules[name] }

// DataType returns the data type module:name, or nil.
func (p *Package) DataType(module, name string) *DataType {
	if m := p.modules[module]; m != nil {
		return m.DataType(name)
	}
	return nil
}

// Template returns the template module:name, or nil.
func (p *Package) Template(module, name string) *Template {
	if m := p.modules[module]; m != nil {
		return m.Template(name)
	}
	return nil
}

// Value returns the top-level value module:name, or nil.
func (p *Package) Value(module, name string) *DefValue {
	if m := p.modules[module]; m != nil {
		return m.Value(name)
	}
	return nil
}

// Exception returns the exception module:name, or nil.
func (p *Package) Exception(module, name string) *DefException {
	if m := p.modules[module]; m != nil {
		return m.Exception(name)
	}
	return nil
}

// Interface returns the interface module:name, or nil.
func (p *Package) Interface(module, name string) *Interface {
	if m := p.modules[module]; m != nil {
		return m.Interface(name)
	}
	return nil
}

// Choice returns the choice named choice of the template, or else of the
// interface, module:entity; nil when there is none.
func (p *Package) Choice(module, entity, choice string) *Choice {
	if t := p.Template(module, entity); t != nil {
		return t.Choice(choice)
	}
	if i := p.Interface(module, entity); i != nil {
		return i.Choice(choice)
	}
	return nil
}

// IsStable reports whether the package is one of the 27 stable packages of
// daml-prim and daml-stdlib (see StablePackageIDs).
func (p *Package) IsStable() bool { return IsStablePackage(p.ID) }

// IsUtility reports whether the package is a utility package: no template,
// no interface, no exception and only non-serializable data types. Utility
// packages take no part in upgrade checks.
func (p *Package) IsUtility() bool {
	for _, m := range p.Modules {
		if len(m.Templates) > 0 || len(m.Interfaces) > 0 || len(m.Exceptions) > 0 {
			return false
		}
		for _, dt := range m.DataTypes {
			if dt.Serializable {
				return false
			}
		}
	}
	return true
}

// String returns "id (name vversion)", the form Canton uses in messages.
func (p *Package) String() string { return fmt.Sprintf("%s (%s v%s)", p.ID, p.Name, p.Version) }

// Module is one module of a package: its type-level definitions in
// archive order.
type Module struct {
	// Name is the module's dotted name, e.g. "Canton.Internal.Ping".
	Name string
	// Synonyms are the type synonyms (type-class dictionaries, mostly).
	Synonyms []*TypeSynonym
	// DataTypes are the data types, including template payload records,
	// choice argument records and the data types paired with interfaces
	// and exceptions.
	DataTypes []*DataType
	// Templates are the templates.
	Templates []*Template
	// Interfaces are the interfaces.
	Interfaces []*Interface
	// Exceptions are the names of the exceptions (their payload is the
	// record data type of the same name).
	Exceptions []string
	// ExceptionDefs are the exceptions with their message functions, in
	// the order of Exceptions.
	ExceptionDefs []*DefException
	// Values are the top-level values.
	Values []*DefValue

	values        map[string]*DefValue
	exceptionDefs map[string]*DefException
	dataTypes     map[string]*DataType
	synonyms      map[string]*TypeSynonym
	templates     map[string]*Template
	interfaces    map[string]*Interface
	exceptions    map[string]bool
}

// DataType returns the data type with the given dotted name, or nil.
func (m *Module) DataType(name string) *DataType { return m.dataTypes[name] }

// Synonym returns the type synonym with the given dotted name, or nil.
func (m *Module) Synonym(name string) *TypeSynonym { return m.synonyms[name] }

// Template returns the template with the given dotted name, or nil.
func (m *Module) Template(name string) *Template { return m.templates[name] }

// Interface returns the interface with the given dotted name, or nil.
func (m *Module) Interface(name string) *Interface { return m.interfaces[name] }

// Value returns the top-level value with the given dotted name, or nil.
func (m *Module) Value(name string) *DefValue { return m.values[name] }

// Exception returns the exception with the given dotted name, or nil.
func (m *Module) Exception(name string) *DefException { return m.exceptionDefs[name] }

// DefValue is a top-level value definition. A decoded package's values
// keep their bodies' bytes and decode a body when it is first asked for
// (Body): most of a package's expressions are the bodies of library
// functions that a ledger never calls, and the decoded trees, all
// pointers, cost the garbage collector on every cycle for as long as the
// package is loaded.
type DefValue struct {
	// Name is the value's dotted name within its module.
	Name string
	// Type is the value's type.
	Type Type

	// body is the decoded body, once decoded (or set: NewDefValue,
	// SetBody); raw its bytes and src its package's decoder, for a
	// decoded value.
	body atomic.Pointer[exprBox]
	raw  span
	src  *bodySource
}

// exprBox holds an expression behind an atomic pointer.
type exprBox struct{ e Expr }

// NewDefValue returns a value definition with its body, for packages built
// in Go (tests, tools).
func NewDefValue(name string, t Type, body Expr) *DefValue {
	v := &DefValue{Name: name, Type: t}
	v.body.Store(&exprBox{body})
	return v
}

// Body returns the value's body (evaluated lazily, at most once),
// decoding it on the first call for a value of a decoded package. It is
// safe for concurrent use. The package decoded the body once already, to
// validate it: decoding it again cannot fail, and Body panics if it does.
func (v *DefValue) Body() Expr {
	if b := v.body.Load(); b != nil {
		return b.e
	}
	if v.src == nil {
		return nil
	}
	return v.src.keep(v)
}

// SetBody replaces the value's body: for building or changing packages in
// tests and tools, before the package is shared.
func (v *DefValue) SetBody(e Expr) { v.body.Store(&exprBox{e}) }

// DefException is an exception definition: its payload is the record data
// type of the same name.
type DefException struct {
	// Name is the exception's dotted name within its module.
	Name string
	// Message is a function from the exception record to its Text message.
	Message Expr
}

// HasException reports whether the module declares the exception name.
func (m *Module) HasException(name string) bool { return m.exceptions[name] }

// Variety is the kind of a data type's constructors.
type Variety int

// The data type varieties.
const (
	// RecordVariety is a record: named, typed fields.
	RecordVariety Variety = iota + 1
	// VariantVariety is a variant: constructors with one argument each.
	VariantVariety
	// EnumVariety is an enum: constructors without argument.
	EnumVariety
	// InterfaceVariety marks the data type paired with an interface.
	InterfaceVariety
)

// String returns "record", "variant", "enum" or "interface".
func (v Variety) String() string {
	switch v {
	case RecordVariety:
		return "record"
	case VariantVariety:
		return "variant"
	case EnumVariety:
		return "enum"
	case InterfaceVariety:
		return "interface"
	}
	return fmt.Sprintf("Variety(%d)", int(v))
}

// DataType is a data type definition (DefDataType).
type DataType struct {
	// Name is the type's dotted name within its module.
	Name string
	// Params are the type parameters with their kinds.
	Params []TypeParam
	// Serializable reports whether values of the type may appear on the
	// ledger (and so in the JSON API).
	Serializable bool
	// Variety says which of Fields and Constructors is used.
	Variety Variety
	// Fields are a record's fields, or a variant's constructors each with
	// its argument type, in declaration order.
	Fields []Field
	// Constructors are an enum's constructors in declaration order.
	Constructors []string
}

// Field returns the record field or variant constructor name.
func (d *DataType) Field(name string) (Field, bool) {
	for _, f := range d.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}

// Field is a named type: a record field, a variant constructor with its
// argument type, or a struct field.
type Field struct {
	// Name is the field or constructor name.
	Name string
	// Type is its type.
	Type Type
}

// TypeParam is a type variable with its kind.
type TypeParam struct {
	// Name is the variable's name.
	Name string
	// Kind is its kind.
	Kind *Kind
}

// TypeSynonym is a type synonym definition (DefTypeSyn).
type TypeSynonym struct {
	// Name is the synonym's dotted name within its module.
	Name string
	// Params are its type parameters.
	Params []TypeParam
	// Type is the type it stands for.
	Type Type
}

// Template is a template definition (DefTemplate): its payload is the
// record data type of the same name in the same module.
type Template struct {
	// Name is the template's dotted name within its module.
	Name string
	// Param is the variable bound to the contract payload ("this").
	Param string
	// Choices are the template's choices in declaration order.
	Choices []*Choice
	// Key is the contract key, or nil (keys exist only from LF 2.3).
	Key *TemplateKey
	// Implements are the interfaces the template implements.
	Implements []TypeConID
	// Instances are the interface instances, in the order of Implements:
	// the method bodies and view of each implemented interface.
	Instances []*InterfaceInstance
	// Precond is the precondition (Bool, with Param free), or nil for
	// True.
	Precond Expr
	// Signatories is the signatories expression ([Party], Param free).
	Signatories Expr
	// Observers is the observers expression ([Party], Param free).
	Observers Expr
}

// Instance returns the template's instance of the interface id, or nil.
func (t *Template) Instance(id TypeConID) *InterfaceInstance {
	for _, in := range t.Instances {
		if in.Interface == id {
			return in
		}
	}
	return nil
}

// InterfaceInstance is a template's implementation of an interface
// (DefTemplate.Implements). In the method bodies and the view, the
// template's Param is bound to the contract payload.
type InterfaceInstance struct {
	// Interface identifies the implemented interface.
	Interface TypeConID
	// Methods are the method bodies in archive order.
	Methods []MethodBody
	// View is the view expression.
	View Expr
}

// Method returns the body of the named method, or nil.
func (in *InterfaceInstance) Method(name string) Expr {
	for _, m := range in.Methods {
		if m.Name == name {
			return m.Expr
		}
	}
	return nil
}

// MethodBody is an interface method's implementation.
type MethodBody struct {
	// Name is the method name.
	Name string
	// Expr is the method's body.
	Expr Expr
}

// Choice returns the template's choice with the given name, or nil.
func (t *Template) Choice(name string) *Choice { return findChoice(t.Choices, name) }

// TemplateKey is a template's contract key.
type TemplateKey struct {
	// Type is the key's type.
	Type Type
	// Body computes the key from the payload (Param free).
	Body Expr
	// Maintainers is a function from the key to [Party].
	Maintainers Expr
}

// Choice is a template or interface choice (TemplateChoice).
type Choice struct {
	// Name is the choice name.
	Name string
	// Consuming reports whether exercising the choice archives the
	// contract.
	Consuming bool
	// ArgBinder is the variable bound to the choice argument.
	ArgBinder string
	// ArgType is the choice argument's type.
	ArgType Type
	// ReturnType is the choice result's type.
	ReturnType Type
	// SelfBinder is the variable bound to the contract id.
	SelfBinder string
	// Controllers is the controllers expression ([Party]); the template
	// parameter and ArgBinder are free in it.
	Controllers Expr
	// Observers is the choice observers expression ([Party]), like
	// Controllers (the archive must have one; Nil when there are none).
	Observers Expr
	// Authorizers is the authorizers expression (LF 2.dev), or nil.
	Authorizers Expr
	// Update is the body, an expression of type Update ReturnType with
	// the template parameter, SelfBinder and ArgBinder free.
	Update Expr
}

// Interface is an interface definition (DefInterface).
type Interface struct {
	// Name is the interface's dotted name within its module.
	Name string
	// Param is the variable bound to the interface value.
	Param string
	// Choices are the interface's choices.
	Choices []*Choice
	// Methods are the interface's methods.
	Methods []InterfaceMethod
	// View is the interface view type (the payload the JSON API shows).
	View Type
	// Requires are the interfaces this interface requires.
	Requires []TypeConID
}

// Choice returns the interface's choice with the given name, or nil.
func (i *Interface) Choice(name string) *Choice { return findChoice(i.Choices, name) }

// InterfaceMethod is a method of an interface.
type InterfaceMethod struct {
	// Name is the method name.
	Name string
	// Type is the method's type.
	Type Type
}

func findChoice(cs []*Choice, name string) *Choice {
	for _, c := range cs {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// TypeConID identifies a data type, type synonym or value across packages:
// package id, module dotted name and entity dotted name.
type TypeConID struct {
	// PackageID is the id of the package that defines the entity (the
	// reference resolved: self references carry the package's own id).
	PackageID string
	// Module is the module's dotted name.
	Module string
	// Name is the entity's dotted name.
	Name string
}

// String returns "package:Module:Name".
func (id TypeConID) String() string { return id.PackageID + ":" + id.Module + ":" + id.Name }

// KindSort distinguishes the three forms of Kind.
type KindSort int

// The kind forms.
const (
	// KindStar is *, the kind of types of values.
	KindStar KindSort = iota
	// KindNat is the kind of type-level naturals (Numeric scales).
	KindNat
	// KindArrow is k1 -> k2.
	KindArrow
)

// Kind is the kind of a type variable.
type Kind struct {
	// Sort is the kind's form.
	Sort KindSort
	// Param and Result are set for KindArrow: Param -> Result.
	Param, Result *Kind
}

// Equal reports whether k and l are the same kind.
func (k *Kind) Equal(l *Kind) bool {
	if k == nil || l == nil {
		return k == l
	}
	if k.Sort != l.Sort {
		return false
	}
	if k.Sort == KindArrow {
		return k.Param.Equal(l.Param) && k.Result.Equal(l.Result)
	}
	return true
}

// String returns the kind in LF notation: "*", "nat", "* -> *".
func (k *Kind) String() string {
	switch {
	case k == nil:
		return "<nil>"
	case k.Sort == KindStar:
		return "*"
	case k.Sort == KindNat:
		return "nat"
	}
	p := k.Param.String()
	if k.Param != nil && k.Param.Sort == KindArrow {
		p = "(" + p + ")"
	}
	return p + " -> " + k.Result.String()
}

// BuiltinType is a Daml-LF builtin type; the values are those of the
// BuiltinType enum of daml_lf2.proto.
type BuiltinType int

// The builtin types.
const (
	// BuiltinUnit is (), whose only value is {} in JSON.
	BuiltinUnit BuiltinType = 0
	// BuiltinBool is Bool.
	BuiltinBool BuiltinType = 1
	// BuiltinInt64 is Int64.
	BuiltinInt64 BuiltinType = 2
	// BuiltinDate is Date.
	BuiltinDate BuiltinType = 3
	// BuiltinTimestamp is Timestamp (microseconds).
	BuiltinTimestamp BuiltinType = 4
	// BuiltinNumeric is Numeric, applied to a TNat scale.
	BuiltinNumeric BuiltinType = 5
	// BuiltinParty is Party.
	BuiltinParty BuiltinType = 6
	// BuiltinText is Text.
	BuiltinText BuiltinType = 7
	// BuiltinContractID is ContractId, applied to a template type.
	BuiltinContractID BuiltinType = 8
	// BuiltinOptional is Optional, applied to one type.
	BuiltinOptional BuiltinType = 9
	// BuiltinList is List, applied to one type.
	BuiltinList BuiltinType = 10
	// BuiltinGenMap is GenMap, applied to a key and a value type.
	BuiltinGenMap BuiltinType = 11
	// BuiltinAny is Any.
	BuiltinAny BuiltinType = 13
	// BuiltinAnyException is AnyException.
	BuiltinAnyException BuiltinType = 14
	// BuiltinTypeRep is TypeRep.
	BuiltinTypeRep BuiltinType = 15
	// BuiltinArrow is the function type constructor (a -> b).
	BuiltinArrow BuiltinType = 16
	// BuiltinUpdate is Update, applied to a result type.
	BuiltinUpdate BuiltinType = 17
	// BuiltinFailureCategory is FailureCategory.
	BuiltinFailureCategory BuiltinType = 18
	// BuiltinTextMap is TextMap, applied to a value type.
	BuiltinTextMap BuiltinType = 19
	// BuiltinBigNumeric is BigNumeric (LF 2.dev).
	BuiltinBigNumeric BuiltinType = 1002
	// BuiltinRoundingMode is RoundingMode (LF 2.dev).
	BuiltinRoundingMode BuiltinType = 1003
)

var builtinNames = map[BuiltinType]string{
	BuiltinUnit: "Unit", BuiltinBool: "Bool", BuiltinInt64: "Int64", BuiltinDate: "Date",
	BuiltinTimestamp: "Timestamp", BuiltinNumeric: "Numeric", BuiltinParty: "Party",
	BuiltinText: "Text", BuiltinContractID: "ContractId", BuiltinOptional: "Optional",
	BuiltinList: "List", BuiltinGenMap: "GenMap", BuiltinAny: "Any",
	BuiltinAnyException: "AnyException", BuiltinTypeRep: "TypeRep", BuiltinArrow: "Arrow",
	BuiltinUpdate: "Update", BuiltinFailureCategory: "FailureCategory",
	BuiltinTextMap: "TextMap", BuiltinBigNumeric: "BigNumeric", BuiltinRoundingMode: "RoundingMode",
}

// String returns the builtin's Daml-LF name, e.g. "Int64", "ContractId".
func (b BuiltinType) String() string {
	if s, ok := builtinNames[b]; ok {
		return s
	}
	return fmt.Sprintf("BuiltinType(%d)", int(b))
}

// Type is a Daml-LF type: one of *TVar, *TCon, *TBuiltin, *TApp, *TNat,
// *TForall, *TStruct and *TSyn. Applications are binary (TApp), whatever
// the archive's encoding; interned types are shared, not copied.
type Type interface {
	// String returns the type in a Daml-like notation.
	String() string
	isType()
}

// TVar is a type variable.
type TVar struct {
	// Name is the variable's name.
	Name string
}

// TCon is a reference to a data type.
type TCon struct {
	// ID identifies the data type.
	ID TypeConID
}

// TBuiltin is a builtin type constructor (applied with TApp when it takes
// arguments: List, Optional, ContractId, Numeric, ...).
type TBuiltin struct {
	// Builtin is the builtin type.
	Builtin BuiltinType
}

// TApp is a type application Fun Arg.
type TApp struct {
	// Fun is the applied type; Arg its argument.
	Fun, Arg Type
}

// TNat is a type-level natural: the scale of a Numeric (0..37).
type TNat struct {
	// N is the natural.
	N int
}

// TForall is a universally quantified type over one variable.
type TForall struct {
	// Param is the bound variable.
	Param TypeParam
	// Body is the quantified type.
	Body Type
}

// TStruct is a structural record type (type-class dictionaries).
type TStruct struct {
	// Fields are the struct's fields.
	Fields []Field
}

// TSyn is a fully applied type synonym.
type TSyn struct {
	// ID identifies the synonym.
	ID TypeConID
	// Args are its arguments.
	Args []Type
}

func (*TVar) isType()     {}
func (*TCon) isType()     {}
func (*TBuiltin) isType() {}
func (*TApp) isType()     {}
func (*TNat) isType()     {}
func (*TForall) isType()  {}
func (*TStruct) isType()  {}
func (*TSyn) isType()     {}

// String returns the variable's name.
func (t *TVar) String() string { return t.Name }

// String returns the data type's identifier.
func (t *TCon) String() string { return t.ID.String() }

// String returns the builtin's name.
func (t *TBuiltin) String() string { return t.Builtin.String() }

// String returns the application, e.g. "ContractId pkg:M:T", "a -> b".
func (t *TApp) String() string {
	head, args := SplitApp(t)
	if b, ok := head.(*TBuiltin); ok && b.Builtin == BuiltinArrow && len(args) == 2 {
		return atomString(args[0], true) + " -> " + args[1].String()
	}
	var sb strings.Builder
	sb.WriteString(atomString(head, false))
	for _, a := range args {
		sb.WriteByte(' ')
		sb.WriteString(atomString(a, false))
	}
	return sb.String()
}

// String returns the natural in decimal.
func (t *TNat) String() string { return strconv.Itoa(t.N) }

// String returns "forall (v : k). body".
func (t *TForall) String() string {
	return fmt.Sprintf("forall (%s : %s). %s", t.Param.Name, t.Param.Kind, t.Body)
}

// String returns "<f1 : t1, f2 : t2>".
func (t *TStruct) String() string {
	parts := make([]string, len(t.Fields))
	for i, f := range t.Fields {
		parts[i] = f.Name + " : " + f.Type.String()
	}
	return "<" + strings.Join(parts, ", ") + ">"
}

// String returns the synonym applied to its arguments.
func (t *TSyn) String() string {
	var sb strings.Builder
	sb.WriteString(t.ID.String())
	for _, a := range t.Args {
		sb.WriteByte(' ')
		sb.WriteString(atomString(a, false))
	}
	return sb.String()
}

// atomString parenthesizes compound types where an argument is expected.
func atomString(t Type, arrowOnly bool) string {
	switch t := t.(type) {
	case *TApp:
		h, args := SplitApp(t)
		if b, ok := h.(*TBuiltin); ok && b.Builtin == BuiltinArrow && len(args) == 2 {
			return "(" + t.String() + ")"
		}
		if arrowOnly {
			return t.String()
		}
		return "(" + t.String() + ")"
	case *TForall:
		return "(" + t.String() + ")"
	case *TSyn:
		if len(t.Args) > 0 && !arrowOnly {
			return "(" + t.String() + ")"
		}
	}
	return t.String()
}

// SplitApp splits a type application into its head and arguments, left to
// right: SplitApp(ContractId T) = (ContractId, [T]). A type that is not an
// application is its own head with no arguments.
func SplitApp(t Type) (head Type, args []Type) {
	for {
		a, ok := t.(*TApp)
		if !ok {
			break
		}
		args = append(args, a.Arg)
		t = a.Fun
	}
	for i, j := 0, len(args)-1; i < j; i, j = i+1, j-1 {
		args[i], args[j] = args[j], args[i]
	}
	return t, args
}

// Index builds the lookup tables behind Package.Module, Module.DataType and
// the other finders from the exported slices. Decoded packages are indexed
// already; a package built by hand (in a test) calls Index once before use.
// Later duplicates of a name do not replace the first.
func (p *Package) Index() {
	p.modules = make(map[string]*Module, len(p.Modules))
	for _, m := range p.Modules {
		if p.modules[m.Name] == nil {
			p.modules[m.Name] = m
		}
		m.index()
	}
}

func (m *Module) index() {
	m.dataTypes = map[string]*DataType{}
	m.synonyms = map[string]*TypeSynonym{}
	m.templates = map[string]*Template{}
	m.interfaces = map[string]*Interface{}
	m.exceptions = map[string]bool{}
	m.values = map[string]*DefValue{}
	m.exceptionDefs = map[string]*DefException{}
	for _, v := range m.Values {
		if m.values[v.Name] == nil {
			m.values[v.Name] = v
		}
	}
	for _, e := range m.ExceptionDefs {
		if m.exceptionDefs[e.Name] == nil {
			m.exceptionDefs[e.Name] = e
		}
	}
	for _, s := range m.Synonyms {
		if m.synonyms[s.Name] == nil {
			m.synonyms[s.Name] = s
		}
	}
	for _, d := range m.DataTypes {
		if m.dataTypes[d.Name] == nil {
			m.dataTypes[d.Name] = d
		}
	}
	for _, t := range m.Templates {
		if m.templates[t.Name] == nil {
			m.templates[t.Name] = t
		}
	}
	for _, i := range m.Interfaces {
		if m.interfaces[i.Name] == nil {
			m.interfaces[i.Name] = i
		}
	}
	for _, e := range m.Exceptions {
		m.exceptions[e] = true
	}
}
