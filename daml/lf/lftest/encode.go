// Package lftest is a small Daml-LF 2 encoder for tests and examples: it
// builds Package, ArchivePayload and Archive bytes with protowire (no
// generated code) and zips them into DARs. It covers the type-level part
// of LF (data types, templates, choices, interfaces) and encodes any
// expression of the daml/lf model (lf.Expr) in the places that take one:
// template, choice, key, interface-instance and value bodies. It is not a
// compiler: expressions are written as lf.Expr trees.
//
// The type-level declarations use this package's Type (Con, B, App, ...);
// the expressions use lf.Type. In an expression, a TypeConID (or value
// reference) whose PackageID is SelfID ("") refers to the package being
// encoded; another id is named through the package's Imports table when
// it is there, else directly (an interned package id).
//
// Expressions left nil get defaults chosen so that a fixture that gives
// none is runnable in daml/engine (see Template and Choice).
package lftest

import (
	"fmt"
	"slices"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/internal/lfenc"
)

// Builtin type numbers (BuiltinType enum of daml_lf2.proto).
const (
	Unit       = lfenc.Unit
	Bool       = lfenc.Bool
	Int64      = lfenc.Int64
	Date       = lfenc.Date
	Timestamp  = lfenc.Timestamp
	Numeric    = lfenc.Numeric
	Party      = lfenc.Party
	Text       = lfenc.Text
	ContractID = lfenc.ContractID
	Optional   = lfenc.Optional
	List       = lfenc.List
	GenMap     = lfenc.GenMap
	Arrow      = 16
	TextMap    = lfenc.TextMap
)

// SelfID is the package id that, in an encoded expression, names the
// package being encoded (whose id is not known before it is encoded).
const SelfID = ""

// Ref is a package reference (SelfOrImportedPackageId).
type Ref = lfenc.Ref

// Self refers to the package being encoded.
func Self() Ref { return lfenc.Self() }

// ByID names a package by an interned package-id string (LF 2.1 style; in
// LF ≥ 2.2 with imports only stable packages may be named so).
func ByID(id string) Ref { return lfenc.ByID(id) }

// Import names the i-th entry of the package imports table.
func Import(i int) Ref { return lfenc.Import(i) }

// Type is a type of a declaration (data type field, choice argument and
// result, value type, key, view).
type Type = lfenc.Type

// Con is a data type reference.
func Con(ref Ref, module, name string) Type { return lfenc.Con(ref, module, name) }

// B is a builtin type.
func B(b int) Type { return lfenc.B(b) }

// Var is a type variable.
func Var(name string) Type { return lfenc.Var(name) }

// App applies f to args, left to right.
func App(f Type, args ...Type) Type { return lfenc.App(f, args...) }

// Nat is a type-level natural (Numeric scale).
func Nat(n int) Type { return lfenc.Nat(n) }

// Opt is Optional t.
func Opt(t Type) Type { return lfenc.Opt(t) }

// ListOf is List t.
func ListOf(t Type) Type { return lfenc.ListOf(t) }

// CID is ContractId t.
func CID(t Type) Type { return lfenc.CID(t) }

// Num is Numeric n.
func Num(n int) Type { return lfenc.Num(n) }

// Fn is the function type a1 -> a2 -> ... -> ret (Fn(ret) is ret).
func Fn(ret Type, args ...Type) Type {
	for i := len(args) - 1; i >= 0; i-- {
		ret = App(B(Arrow), args[i], ret)
	}
	return ret
}

// Field is a record field or variant constructor. It is an alias of an
// unnamed struct so that tests may write {"name", type} literals.
type Field = lfenc.Field

// Param is a type parameter; Kind is "*" (default), "nat" or "* -> *".
type Param = lfenc.Param

// DataType is a data type definition. Kind is "record" (default),
// "variant", "enum" or "interface".
type DataType = lfenc.DataType

// ValueRef is a reference to a value of some package, used as the body of
// an encoded value so that references hidden in expressions can be tested.
type ValueRef = lfenc.ValueRef

// Choice is a template or interface choice. Its fields (lfenc.ChoiceOf):
// Name, Consuming, Arg and Ret; ArgName and Self name the argument and
// self binders ("" means "arg" and "self"); and its expressions, where the
// template (or interface) parameter and the argument are free, and in
// Update also self:
//   - Controllers (List Party); nil: the template's signatories expression
//     (given or default); in an interface choice, signatory_interface of
//     the parameter.
//   - Observers (List Party); nil: no choice observers (Nil @Party: LF 2
//     always carries the field, and damlc writes Nil when a choice has
//     none).
//   - Update (Update Ret); nil: pure () when Ret is Unit; when Ret is not
//     Unit a nil Update makes the encoder panic.
type Choice = lfenc.ChoiceOf[lf.Expr]

// TyCon names a data type; in a template's Implements it is an interface
// instance: View is the view's body (nil: ()) and Methods the method
// bodies by name (emitted in name order), the template parameter free in
// both.
type TyCon = lfenc.TyConOf[lf.Expr]

// Template is a template; its payload is the record data type Name of
// the same module. Param names the template parameter ("" means "this"),
// free in every expression of the template. Its expressions:
//   - Precond (Bool); nil: True.
//   - Signatories (List Party); nil: the Party fields of the payload record
//     in field order, [this.f1, this.f2, ...] (Nil when there is none).
//   - Observers (List Party); nil: Nil.
//   - KeyBody (Key) and KeyMaintainers (Key -> List Party) when Key is set;
//     nil: () (a placeholder the engine cannot run: give both to use the
//     key).
type Template = lfenc.TemplateOf[lf.Expr]

// Interface is an interface definition (its data type is emitted too):
// Name, Param ("" means "this"), Choices, View and the declared Methods
// (name and type).
type Interface = lfenc.InterfaceOf[lf.Expr]

// Value is a top-level value: name : Type = body. The body is RawBody (a
// raw Expr message) when set, else Expr when not nil, else a reference to
// Body when set, else ().
type Value = lfenc.ValueOf[lf.Expr]

// Module is a module.
type Module = lfenc.ModuleOf[lf.Expr]

// Package is a package to encode: Minor ("1", "2", "3", "dev"; "" means
// "2"), Patch, Name, Version, UpgradedID, Imports (the declared
// package_imports table; nil declares none) and Modules.
type Package = lfenc.PackageOf[lf.Expr]

// File is a zip entry (Name, Data; Store writes it uncompressed).
type File = lfenc.File

// hook encodes the expression slots of a package: the given expression,
// or the documented default.
func hook(e *lfenc.Enc, s lfenc.Slot[lf.Expr], x lf.Expr) []byte {
	if x == nil {
		x = defaultExpr(s)
	}
	return (&exprEnc{e}).expr(x)
}

var (
	partyType = &lf.TBuiltin{Builtin: lf.BuiltinParty}
	unitType  = &lf.TBuiltin{Builtin: lf.BuiltinUnit}
	unitExpr  = &lf.EBuiltinCon{Con: lf.ConUnit}
)

// defaultExpr is the expression of an empty slot.
func defaultExpr(s lfenc.Slot[lf.Expr]) lf.Expr {
	switch s.Kind {
	case lfenc.SlotPrecond:
		return &lf.EBuiltinCon{Con: lf.ConTrue}
	case lfenc.SlotSignatories:
		return partyFields(s.Module, s.Template)
	case lfenc.SlotObservers, lfenc.SlotChoiceObservers:
		return &lf.ENil{Type: partyType}
	case lfenc.SlotControllers:
		if s.Template != nil {
			if s.Template.Signatories != nil {
				return s.Template.Signatories
			}
			return partyFields(s.Module, s.Template)
		}
		return &lf.ESignatoryInterface{Interface: lf.TypeConID{Module: s.Module.Name, Name: s.Interface.Name},
			Expr: &lf.EVar{Name: lfenc.Or(s.Interface.Param, "this")}}
	case lfenc.SlotUpdate:
		if s.Choice.Ret != B(Unit) {
			owner := ""
			if s.Template != nil {
				owner = s.Template.Name
			} else {
				owner = s.Interface.Name
			}
			panic(fmt.Sprintf("lftest: choice %s.%s:%s returns a non-Unit type and has no Update: give it a body", s.Module.Name, owner, s.Choice.Name))
		}
		return &lf.EUpdate{Update: &lf.UPure{Type: unitType, Expr: unitExpr}}
	}
	return unitExpr
}

// partyFields is [this.f1, this.f2, ...] for the Party fields f1, f2, ...
// of the template's record, Nil when there is none.
func partyFields(m *Module, t *Template) lf.Expr {
	var ps []lf.Expr
	tc := lf.TypeConApp{ID: lf.TypeConID{Module: m.Name, Name: t.Name}}
	for _, d := range m.DataTypes {
		if d.Name != t.Name {
			continue
		}
		for _, f := range d.Fields {
			if f.Type == B(Party) {
				ps = append(ps, &lf.ERecProj{Type: tc, Field: f.Name, Record: &lf.EVar{Name: lfenc.Or(t.Param, "this")}})
			}
		}
		break
	}
	if len(ps) == 0 {
		return &lf.ENil{Type: partyType}
	}
	return &lf.ECons{Type: partyType, Front: ps, Tail: &lf.ENil{Type: partyType}}
}

// EncodePackage returns the daml_lf_2 Package bytes of p. It panics on an
// expression that cannot be encoded (see exprEnc) and on a choice that
// returns a non-Unit type without an Update.
//
// As damlc does (and so do Dalf and DAR), every template gets a consuming Archive choice unless it
// declares one: controllers its signatories, body pure (); its argument
// is Unit here (damlc's is the empty record DA.Internal.Template:Archive
// of daml-stdlib, which these packages do not import), so both encode as
// {} in JSON.
func EncodePackage(p Package) []byte { return lfenc.EncodePackageWith(withArchive(p), hook) }

// withArchive returns p with an Archive choice on every template that has
// none (p itself is not modified).
func withArchive(p Package) Package {
	mods := make([]Module, len(p.Modules))
	for i, m := range p.Modules {
		tmpls := make([]Template, len(m.Templates))
		for j, t := range m.Templates {
			has := false
			for _, c := range t.Choices {
				has = has || c.Name == "Archive"
			}
			if !has {
				t.Choices = append(slices.Clone(t.Choices), Choice{Name: "Archive", Consuming: true, Arg: B(Unit), Ret: B(Unit)})
			}
			tmpls[j] = t
		}
		m.Templates = tmpls
		mods[i] = m
	}
	p.Modules = mods
	return p
}

// Dalf encodes p into an archive and returns its id and dalf bytes.
func Dalf(p Package) (id string, dalf []byte) { return lfenc.DalfWith(withArchive(p), hook) }

// Zip returns a zip of files, in order.
func Zip(files ...File) []byte { return lfenc.Zip(files...) }

// ManifestText returns a DAR manifest in Java manifest format (lines of at
// most 72 bytes, continuations starting with one space).
func ManifestText(mainDalf string, dalfs []string, extra ...string) string {
	return lfenc.ManifestText(mainDalf, dalfs, extra...)
}

// DAR encodes main and deps and zips them with a manifest into a DAR whose
// paths look like real ones (<name>-<version>-<id>/<name>-<id>.dalf). It
// returns the DAR and the package ids, main first.
func DAR(main Package, deps ...Package) ([]byte, []string) {
	ds := make([]Package, len(deps))
	for i, d := range deps {
		ds[i] = withArchive(d)
	}
	return lfenc.DARWith(hook, withArchive(main), ds...)
}

// ZeroBomb returns a zip whose first entry, name, is deflated and inflates
// to size NUL bytes while its header declares declared bytes (declared ==
// size for an honest header; a smaller value makes the header lie),
// followed by the extra files. It costs about 1 KB per MiB of size.
func ZeroBomb(name string, size, declared int64, extra ...File) []byte {
	return lfenc.ZeroBomb(name, size, declared, extra...)
}
