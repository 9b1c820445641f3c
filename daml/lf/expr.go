package lf

import "fmt"

// Expr is a decoded Daml-LF expression. Its dynamic type is one of the E*
// node types of this file (EVar, EVal, EApp, ECase, EUpdate, ...).
//
// Decoded expressions are immutable and may be shared: an interned
// expression (LF ≥ 2.2) is decoded once and every reference to it points
// at the same node, so an expression is a DAG, not a tree. Locations are
// dropped (Canton's engine ignores them by default). Type abstractions
// and applications are kept (ETyAbs, ETyApp); an evaluator erases them.
// Variables are names: an evaluator does its own index resolution.
type Expr interface {
	isExpr()
}

// Update is a decoded Daml-LF update expression (the payload of EUpdate):
// one of the U* node types of this file.
type Update interface {
	isUpdate()
}

// Pattern is the pattern of a case alternative: one of *PDefault,
// *PVariant, *PEnum, *PBuiltinCon, *PNil, *PCons, *POptionalNone and
// *POptionalSome.
type Pattern interface {
	isPattern()
}

// TypeConApp is a data type constructor applied to type arguments, as used
// by record and variant expressions.
type TypeConApp struct {
	// ID identifies the data type.
	ID TypeConID
	// Args are its type arguments (erased at runtime).
	Args []Type
}

// VarWithType is a variable binder with its type.
type VarWithType struct {
	// Name is the variable's name.
	Name string
	// Type is its declared type.
	Type Type
}

// FieldExpr is a named field with its expression (record and struct
// construction).
type FieldExpr struct {
	// Name is the field name.
	Name string
	// Expr is the field's value.
	Expr Expr
}

// Binding is one binding of a let block or an update block: Var is bound
// to the value of Bound (in an update block, to the result of running the
// update Bound).
type Binding struct {
	// Var is the bound variable and its type.
	Var VarWithType
	// Bound is the bound expression.
	Bound Expr
}

// CaseAlt is one alternative of a case expression.
type CaseAlt struct {
	// Pattern is the alternative's pattern.
	Pattern Pattern
	// Body is evaluated when Pattern matches, with its binders in scope.
	Body Expr
}

// BuiltinCon is a builtin constructor: (), False or True.
type BuiltinCon int

// The builtin constructors (values of daml_lf2.proto's BuiltinCon).
const (
	// ConUnit is ().
	ConUnit BuiltinCon = 0
	// ConFalse is False.
	ConFalse BuiltinCon = 1
	// ConTrue is True.
	ConTrue BuiltinCon = 2
)

// String returns "()", "False" or "True".
func (c BuiltinCon) String() string {
	switch c {
	case ConUnit:
		return "()"
	case ConFalse:
		return "False"
	case ConTrue:
		return "True"
	}
	return fmt.Sprintf("BuiltinCon(%d)", int(c))
}

// FailureCategory is a failure-category literal (an argument of
// FAIL_WITH_STATUS); the values are daml_lf2.proto's.
type FailureCategory int

// The failure categories.
const (
	// InvalidIndependentOfSystemState is proto value 0; Canton category 8.
	InvalidIndependentOfSystemState FailureCategory = 0
	// InvalidGivenCurrentSystemStateOther is proto value 1; Canton
	// category 9.
	InvalidGivenCurrentSystemStateOther FailureCategory = 1
)

// CantonCategory returns the Int64 Canton error category id the literal
// evaluates to: 8 or 9.
func (c FailureCategory) CantonCategory() int64 {
	if c == InvalidIndependentOfSystemState {
		return 8
	}
	return 9
}

// RoundingMode is a rounding-mode literal (LF 2.dev); the values are
// daml_lf2.proto's (UP = 0 ... UNNECESSARY = 7).
type RoundingMode int

// The rounding modes.
const (
	RoundingUp RoundingMode = iota
	RoundingDown
	RoundingCeiling
	RoundingFloor
	RoundingHalfUp
	RoundingHalfDown
	RoundingHalfEven
	RoundingUnnecessary
)

// --- Expression nodes ---

// EVar is a reference to a variable bound by an enclosing binder (lambda,
// let, case alternative, update block, try handler, or a template's or
// choice's binders).
type EVar struct {
	// Name is the variable's name.
	Name string
}

// ValueRef identifies a top-level value: package id (resolved: self
// references carry the package's own id), module and value name. It is
// the same type as TypeConID.
type ValueRef = TypeConID

// EVal is a reference to a top-level value (DefValue); look it up with
// Package.Module(Ref.Module).Value(Ref.Name) in package Ref.PackageID.
type EVal struct {
	// Ref identifies the value.
	Ref ValueRef
}

// EBuiltinFun is a builtin function (a function value of the builtin's
// arity; TEXTMAP_EMPTY and GENMAP_EMPTY are values). In an LF 2.dev
// package Fun may be a development builtin unknown to this version
// (Fun.Known() is false).
type EBuiltinFun struct {
	// Fun is the builtin.
	Fun BuiltinFunction
}

// EBuiltinCon is (), False or True.
type EBuiltinCon struct {
	// Con is the constructor.
	Con BuiltinCon
}

// EInt64 is an Int64 literal.
type EInt64 struct {
	// Value is the literal.
	Value int64
}

// ENumeric is a Numeric literal, "-?digits.digits"; its scale is the
// number of decimals.
type ENumeric struct {
	// Text is the literal as written in the archive.
	Text string
	// Scale is the number of decimals (0..37).
	Scale int
}

// EText is a Text literal.
type EText struct {
	// Value is the literal.
	Value string
}

// ETimestamp is a Timestamp literal.
type ETimestamp struct {
	// Micros is the number of microseconds since the epoch (UTC).
	Micros int64
}

// EDate is a Date literal.
type EDate struct {
	// Days is the number of days since the epoch.
	Days int32
}

// EFailureCategory is a FailureCategory literal.
type EFailureCategory struct {
	// Category is the literal.
	Category FailureCategory
}

// ERoundingMode is a RoundingMode literal (LF 2.dev).
type ERoundingMode struct {
	// Mode is the literal.
	Mode RoundingMode
}

// ERecCon builds a record.
type ERecCon struct {
	// Type is the record type.
	Type TypeConApp
	// Fields are the fields in the order of the archive (the definition
	// order, for well-typed code).
	Fields []FieldExpr
}

// ERecProj projects a field of a record.
type ERecProj struct {
	// Type is the record type.
	Type TypeConApp
	// Field is the projected field.
	Field string
	// Record is the record.
	Record Expr
}

// ERecUpd copies a record with one field replaced.
type ERecUpd struct {
	// Type is the record type.
	Type TypeConApp
	// Field is the replaced field.
	Field string
	// Record is the record; Update the field's new value.
	Record, Update Expr
}

// EVariantCon builds a variant value.
type EVariantCon struct {
	// Type is the variant type.
	Type TypeConApp
	// Con is the constructor.
	Con string
	// Arg is the constructor's argument.
	Arg Expr
}

// EEnumCon is an enum constructor.
type EEnumCon struct {
	// ID identifies the enum type.
	ID TypeConID
	// Con is the constructor.
	Con string
}

// EStructCon builds a struct.
type EStructCon struct {
	// Fields are the fields in archive order.
	Fields []FieldExpr
}

// EStructProj projects a field of a struct.
type EStructProj struct {
	// Field is the projected field.
	Field string
	// Struct is the struct.
	Struct Expr
}

// EStructUpd copies a struct with one field replaced.
type EStructUpd struct {
	// Field is the replaced field.
	Field string
	// Struct is the struct; Update the field's new value.
	Struct, Update Expr
}

// EApp applies Fun to Args (at least one; curried, left to right).
type EApp struct {
	// Fun is the applied function.
	Fun Expr
	// Args are its arguments.
	Args []Expr
}

// ETyApp applies a type abstraction to types (erased at runtime).
type ETyApp struct {
	// Expr is the type abstraction.
	Expr Expr
	// Types are the type arguments (at least one).
	Types []Type
}

// EAbs is a lambda over one or more parameters.
type EAbs struct {
	// Params are the parameters (at least one).
	Params []VarWithType
	// Body is the lambda's body.
	Body Expr
}

// ETyAbs is a type abstraction (erased at runtime: it evaluates to its
// body).
type ETyAbs struct {
	// Params are the type parameters (at least one).
	Params []TypeParam
	// Body is the body.
	Body Expr
}

// ECase is a pattern match: the first alternative whose pattern matches
// the scrutinee is taken.
type ECase struct {
	// Scrut is the scrutinee.
	Scrut Expr
	// Alts are the alternatives, in order.
	Alts []CaseAlt
}

// ELet is a non-recursive let block: the bindings are evaluated in order,
// each in the scope of the previous ones, then the body.
type ELet struct {
	// Bindings are the bindings (at least one).
	Bindings []Binding
	// Body is the body.
	Body Expr
}

// ENil is the empty list.
type ENil struct {
	// Type is the element type.
	Type Type
}

// ECons is Front[0] : Front[1] : ... : Tail.
type ECons struct {
	// Type is the element type.
	Type Type
	// Front are the prepended elements (at least one).
	Front []Expr
	// Tail is the list they are prepended to.
	Tail Expr
}

// EUpdate is an update expression.
type EUpdate struct {
	// Update is the update.
	Update Update
}

// EOptionalNone is None.
type EOptionalNone struct {
	// Type is the payload type.
	Type Type
}

// EOptionalSome is Some Value.
type EOptionalSome struct {
	// Type is the payload type.
	Type Type
	// Value is the payload.
	Value Expr
}

// EToAny wraps a value as Any.
type EToAny struct {
	// Type is the value's type.
	Type Type
	// Expr is the value.
	Expr Expr
}

// EFromAny unwraps an Any: Some v if its type is Type, else None.
type EFromAny struct {
	// Type is the expected type.
	Type Type
	// Expr is the Any.
	Expr Expr
}

// ETypeRep is the TypeRep of a type.
type ETypeRep struct {
	// Type is the represented type.
	Type Type
}

// EToAnyException wraps an exception value as AnyException.
type EToAnyException struct {
	// Type is the exception type.
	Type Type
	// Expr is the exception value.
	Expr Expr
}

// EFromAnyException unwraps an AnyException: Some v if it holds Type.
type EFromAnyException struct {
	// Type is the expected exception type.
	Type Type
	// Expr is the AnyException.
	Expr Expr
}

// EThrow raises an exception.
type EThrow struct {
	// ReturnType is the type of the throw expression.
	ReturnType Type
	// ExceptionType is the exception's type.
	ExceptionType Type
	// Exception is the exception value.
	Exception Expr
}

// EToInterface converts a template value to an interface value.
type EToInterface struct {
	// Interface and Template identify the interface and the template.
	Interface, Template TypeConID
	// Expr is the template value.
	Expr Expr
}

// EFromInterface converts an interface value to Optional of a template
// value.
type EFromInterface struct {
	// Interface and Template identify the interface and the template.
	Interface, Template TypeConID
	// Expr is the interface value.
	Expr Expr
}

// EUnsafeFromInterface converts an interface value to a template value,
// failing with WronglyTypedContract (LF 2.1 only).
type EUnsafeFromInterface struct {
	// Interface and Template identify the interface and the template.
	Interface, Template TypeConID
	// ContractID is the contract id (for the error).
	ContractID Expr
	// Expr is the interface value.
	Expr Expr
}

// ECallInterface calls an interface method on an interface value.
type ECallInterface struct {
	// Interface identifies the interface.
	Interface TypeConID
	// Method is the method's name.
	Method string
	// Expr is the interface value.
	Expr Expr
}

// ESignatoryInterface gives the signatories of an interface value.
type ESignatoryInterface struct {
	// Interface identifies the interface.
	Interface TypeConID
	// Expr is the interface value.
	Expr Expr
}

// EObserverInterface gives the observers of an interface value.
type EObserverInterface struct {
	// Interface identifies the interface.
	Interface TypeConID
	// Expr is the interface value.
	Expr Expr
}

// EViewInterface gives the view of an interface value.
type EViewInterface struct {
	// Interface identifies the interface.
	Interface TypeConID
	// Expr is the interface value.
	Expr Expr
}

// EInterfaceTemplateTypeRep gives the TypeRep of the template behind an
// interface value.
type EInterfaceTemplateTypeRep struct {
	// Interface identifies the interface.
	Interface TypeConID
	// Expr is the interface value.
	Expr Expr
}

// EToRequiredInterface converts an interface value to a required
// interface (the identity at runtime).
type EToRequiredInterface struct {
	// Required and Requiring identify the two interfaces.
	Required, Requiring TypeConID
	// Expr is the interface value.
	Expr Expr
}

// EFromRequiredInterface converts a required-interface value to Optional
// of the requiring interface.
type EFromRequiredInterface struct {
	// Required and Requiring identify the two interfaces.
	Required, Requiring TypeConID
	// Expr is the interface value.
	Expr Expr
}

// EUnsafeFromRequiredInterface is EFromRequiredInterface failing with
// ContractDoesNotImplementRequiringInterface instead of giving None.
type EUnsafeFromRequiredInterface struct {
	// Required and Requiring identify the two interfaces.
	Required, Requiring TypeConID
	// ContractID is the contract id (for the error).
	ContractID Expr
	// Expr is the interface value.
	Expr Expr
}

// EExperimental is an experimental builtin (LF 2.dev).
type EExperimental struct {
	// Name is the experiment's name, e.g. "ANSWER".
	Name string
	// Type is its type.
	Type Type
}

// --- Update nodes ---

// UPure returns the value of Expr.
type UPure struct {
	// Type is the value's type.
	Type Type
	// Expr is the value.
	Expr Expr
}

// UBlock runs the bindings' updates in order, binding their results, then
// runs Body.
type UBlock struct {
	// Bindings are the bindings (at least one); each Bound is an update.
	Bindings []Binding
	// Body is the final update.
	Body Expr
}

// UCreate creates a contract of Template with the argument Expr.
type UCreate struct {
	// Template identifies the template.
	Template TypeConID
	// Expr is the contract argument.
	Expr Expr
}

// UCreateInterface creates the contract behind an interface value.
type UCreateInterface struct {
	// Interface identifies the interface.
	Interface TypeConID
	// Expr is the interface value.
	Expr Expr
}

// UExercise exercises a template choice.
type UExercise struct {
	// Template identifies the template.
	Template TypeConID
	// Choice is the choice name.
	Choice string
	// ContractID is the contract id; Arg the choice argument.
	ContractID, Arg Expr
}

// UExerciseInterface exercises an interface choice.
type UExerciseInterface struct {
	// Interface identifies the interface.
	Interface TypeConID
	// Choice is the choice name.
	Choice string
	// ContractID is the contract id; Arg the choice argument.
	ContractID, Arg Expr
	// Guard is the guard (LF 2.dev), or nil for "always true".
	Guard Expr
}

// UExerciseByKey exercises a template choice on the contract with a key
// (LF ≥ 2.3).
type UExerciseByKey struct {
	// Template identifies the template.
	Template TypeConID
	// Choice is the choice name.
	Choice string
	// Key is the key; Arg the choice argument.
	Key, Arg Expr
}

// UFetch fetches a contract of a template.
type UFetch struct {
	// Template identifies the template.
	Template TypeConID
	// ContractID is the contract id.
	ContractID Expr
}

// UFetchInterface fetches a contract as an interface value.
type UFetchInterface struct {
	// Interface identifies the interface.
	Interface TypeConID
	// ContractID is the contract id.
	ContractID Expr
}

// UGetTime returns the ledger effective time.
type UGetTime struct{}

// ULedgerTimeLT returns whether the ledger time is before Expr.
type ULedgerTimeLT struct {
	// Expr is the Timestamp to compare with.
	Expr Expr
}

// UEmbedExpr evaluates Expr to an update and runs it.
type UEmbedExpr struct {
	// Type is the update's result type.
	Type Type
	// Expr is the update expression.
	Expr Expr
}

// UFetchByKey fetches by key (LF ≥ 2.3); the key is applied as an
// argument of the resulting update function.
type UFetchByKey struct {
	// Template identifies the template.
	Template TypeConID
}

// ULookupByKey looks up by key (LF 2.dev).
type ULookupByKey struct {
	// Template identifies the template.
	Template TypeConID
}

// UQueryNByKey queries contracts by key (LF ≥ 2.3).
type UQueryNByKey struct {
	// Template identifies the template.
	Template TypeConID
}

// UTryCatch runs Try; on an exception, evaluates Catch with Var bound to
// the AnyException (Catch : Optional (Update ReturnType)).
type UTryCatch struct {
	// ReturnType is the result type.
	ReturnType Type
	// Try is the protected update.
	Try Expr
	// Var is bound to the exception in Catch.
	Var string
	// Catch is the handler.
	Catch Expr
}

// --- Patterns ---

// PDefault matches anything.
type PDefault struct{}

// PVariant matches a variant constructor and binds its argument.
type PVariant struct {
	// ID identifies the variant type.
	ID TypeConID
	// Con is the constructor.
	Con string
	// Binder is bound to the argument.
	Binder string
}

// PEnum matches an enum constructor.
type PEnum struct {
	// ID identifies the enum type.
	ID TypeConID
	// Con is the constructor.
	Con string
}

// PBuiltinCon matches (), False or True.
type PBuiltinCon struct {
	// Con is the constructor.
	Con BuiltinCon
}

// PNil matches the empty list.
type PNil struct{}

// PCons matches a non-empty list.
type PCons struct {
	// Head and Tail are bound to the head and the tail.
	Head, Tail string
}

// POptionalNone matches None.
type POptionalNone struct{}

// POptionalSome matches Some and binds the payload.
type POptionalSome struct {
	// Binder is bound to the payload.
	Binder string
}

func (*EVar) isExpr()                         {}
func (*EVal) isExpr()                         {}
func (*EBuiltinFun) isExpr()                  {}
func (*EBuiltinCon) isExpr()                  {}
func (*EInt64) isExpr()                       {}
func (*ENumeric) isExpr()                     {}
func (*EText) isExpr()                        {}
func (*ETimestamp) isExpr()                   {}
func (*EDate) isExpr()                        {}
func (*EFailureCategory) isExpr()             {}
func (*ERoundingMode) isExpr()                {}
func (*ERecCon) isExpr()                      {}
func (*ERecProj) isExpr()                     {}
func (*ERecUpd) isExpr()                      {}
func (*EVariantCon) isExpr()                  {}
func (*EEnumCon) isExpr()                     {}
func (*EStructCon) isExpr()                   {}
func (*EStructProj) isExpr()                  {}
func (*EStructUpd) isExpr()                   {}
func (*EApp) isExpr()                         {}
func (*ETyApp) isExpr()                       {}
func (*EAbs) isExpr()                         {}
func (*ETyAbs) isExpr()                       {}
func (*ECase) isExpr()                        {}
func (*ELet) isExpr()                         {}
func (*ENil) isExpr()                         {}
func (*ECons) isExpr()                        {}
func (*EUpdate) isExpr()                      {}
func (*EOptionalNone) isExpr()                {}
func (*EOptionalSome) isExpr()                {}
func (*EToAny) isExpr()                       {}
func (*EFromAny) isExpr()                     {}
func (*ETypeRep) isExpr()                     {}
func (*EToAnyException) isExpr()              {}
func (*EFromAnyException) isExpr()            {}
func (*EThrow) isExpr()                       {}
func (*EToInterface) isExpr()                 {}
func (*EFromInterface) isExpr()               {}
func (*EUnsafeFromInterface) isExpr()         {}
func (*ECallInterface) isExpr()               {}
func (*ESignatoryInterface) isExpr()          {}
func (*EObserverInterface) isExpr()           {}
func (*EViewInterface) isExpr()               {}
func (*EInterfaceTemplateTypeRep) isExpr()    {}
func (*EToRequiredInterface) isExpr()         {}
func (*EFromRequiredInterface) isExpr()       {}
func (*EUnsafeFromRequiredInterface) isExpr() {}
func (*EExperimental) isExpr()                {}

func (*UPure) isUpdate()              {}
func (*UBlock) isUpdate()             {}
func (*UCreate) isUpdate()            {}
func (*UCreateInterface) isUpdate()   {}
func (*UExercise) isUpdate()          {}
func (*UExerciseInterface) isUpdate() {}
func (*UExerciseByKey) isUpdate()     {}
func (*UFetch) isUpdate()             {}
func (*UFetchInterface) isUpdate()    {}
func (*UGetTime) isUpdate()           {}
func (*ULedgerTimeLT) isUpdate()      {}
func (*UEmbedExpr) isUpdate()         {}
func (*UFetchByKey) isUpdate()        {}
func (*ULookupByKey) isUpdate()       {}
func (*UQueryNByKey) isUpdate()       {}
func (*UTryCatch) isUpdate()          {}

func (*PDefault) isPattern()      {}
func (*PVariant) isPattern()      {}
func (*PEnum) isPattern()         {}
func (*PBuiltinCon) isPattern()   {}
func (*PNil) isPattern()          {}
func (*PCons) isPattern()         {}
func (*POptionalNone) isPattern() {}
func (*POptionalSome) isPattern() {}
