// Package lfenc is the type-level part of the Daml-LF 2 test encoder: it
// builds Package, ArchivePayload and Archive bytes with protowire (no
// generated code) and zips them into DARs. It does not import daml/lf, so
// that daml/lf's own tests can use it; the expression slots of templates,
// choices, interface instances and values are of a type parameter X, and
// the caller gives an ExprHook that encodes them. Package, Module, ... (X =
// NoExpr) encode every expression as () — what daml/lf's decoder tests
// expect. daml/lf/lftest instantiates X with lf.Expr.
package lfenc

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
)

// Builtin type numbers (BuiltinType enum of daml_lf2.proto).
const (
	Unit       = 0
	Bool       = 1
	Int64      = 2
	Date       = 3
	Timestamp  = 4
	Numeric    = 5
	Party      = 6
	Text       = 7
	ContractID = 8
	Optional   = 9
	List       = 10
	GenMap     = 11
	TextMap    = 19
)

// Ref is a package reference (SelfOrImportedPackageId).
type Ref struct {
	kind int // 0 self, 1 interned id, 2 import index
	id   string
	idx  int
}

// Self refers to the package being encoded.
func Self() Ref { return Ref{} }

// ByID names a package by an interned package-id string (LF 2.1 style; in
// LF ≥ 2.2 with imports only stable packages may be named so).
func ByID(id string) Ref { return Ref{kind: 1, id: id} }

// Import names the i-th entry of the package imports table.
func Import(i int) Ref { return Ref{kind: 2, idx: i} }

// Type is a type to encode.
type Type interface{ isType() }

type tCon struct {
	ref          Ref
	module, name string
}
type tBuiltin struct{ b int }
type tVar struct{ name string }
type tApp struct{ f, a Type }
type tNat struct{ n int }

func (tCon) isType()     {}
func (tBuiltin) isType() {}
func (tVar) isType()     {}
func (tApp) isType()     {}
func (tNat) isType()     {}

// Con is a data type reference.
func Con(ref Ref, module, name string) Type { return tCon{ref, module, name} }

// B is a builtin type.
func B(b int) Type { return tBuiltin{b} }

// Var is a type variable.
func Var(name string) Type { return tVar{name} }

// App applies f to args, left to right.
func App(f Type, args ...Type) Type {
	for _, a := range args {
		f = tApp{f, a}
	}
	return f
}

// Nat is a type-level natural (Numeric scale).
func Nat(n int) Type { return tNat{n} }

// Opt is Optional t.
func Opt(t Type) Type { return App(B(Optional), t) }

// ListOf is List t.
func ListOf(t Type) Type { return App(B(List), t) }

// CID is ContractId t.
func CID(t Type) Type { return App(B(ContractID), t) }

// Num is Numeric n.
func Num(n int) Type { return App(B(Numeric), Nat(n)) }

// Field is a record field or variant constructor. It is an alias of an
// unnamed struct so that tests may write {"name", type} literals.
type Field = struct {
	Name string
	Type Type
}

// Param is a type parameter; Kind is "*" (default), "nat" or "* -> *".
type Param struct {
	Name string
	Kind string
}

// DataType is a data type definition. Kind is "record" (default),
// "variant", "enum" or "interface".
type DataType struct {
	Name         string
	Kind         string
	Params       []Param
	Serializable bool
	Fields       []Field  // record fields or variant constructors
	Enum         []string // enum constructors
}

// ChoiceOf is a template or interface choice whose expressions are of type
// X (nil: the hook's default).
type ChoiceOf[X any] struct {
	Name      string
	Consuming bool
	Arg       Type
	Ret       Type
	// ArgName and Self name the argument and self binders ("" means "arg"
	// and "self").
	ArgName, Self string
	// Controllers, Observers and Update are the choice's expressions.
	Controllers, Observers, Update X
}

// TyConOf names a data type; in a template's Implements it is an interface
// instance, with its view and method bodies.
type TyConOf[X any] struct {
	Ref          Ref
	Module, Name string
	// View is the instance's view (nil: the hook's default).
	View X
	// Methods are the method bodies by name (emitted in name order).
	Methods map[string]X
}

// TemplateOf is a template; its payload is the record data type Name.
type TemplateOf[X any] struct {
	Name string
	// Param names the template parameter ("" means "this").
	Param      string
	Choices    []ChoiceOf[X]
	Key        Type // nil: no key
	Implements []TyConOf[X]
	// Precond, Signatories and Observers are the template's expressions.
	Precond, Signatories, Observers X
	// KeyBody and KeyMaintainers are the key's expressions (when Key is
	// set).
	KeyBody, KeyMaintainers X
}

// InterfaceOf is an interface definition (its data type is emitted too).
type InterfaceOf[X any] struct {
	Name string
	// Param names the interface parameter ("" means "this").
	Param   string
	Choices []ChoiceOf[X]
	View    Type
	// Methods are the declared methods and their types, in order.
	Methods []Field
}

// ValueRef is a reference to a value of some package, used as the body of
// an encoded value so that references hidden in expressions can be tested.
type ValueRef struct {
	Ref          Ref
	Module, Name string
}

// ValueOf is a top-level value: name : Type = body. The body is RawBody (a
// raw Expr message) when set, else Expr when not nil, else a reference to
// Body when set, else ().
type ValueOf[X any] struct {
	Name    string
	Type    Type
	Body    *ValueRef
	RawBody []byte
	Expr    X
}

// ModuleOf is a module.
type ModuleOf[X any] struct {
	Name       string
	DataTypes  []DataType
	Templates  []TemplateOf[X]
	Interfaces []InterfaceOf[X]
	Exceptions []string // exception names; their record data types must be given
	Values     []ValueOf[X]
	// BadFlags emits feature flags that are not all true.
	BadFlags bool
}

// PackageOf is a package to encode.
type PackageOf[X any] struct {
	Minor      string // "1", "2", "3", "dev"; "" means "2"
	Patch      int32
	Name       string
	Version    string
	UpgradedID string
	// Imports is the declared package_imports table; nil declares none
	// (generated imports).
	Imports []string
	Modules []ModuleOf[X]
}

// NoExpr is the expression type of the unit-only encoder: an interface
// no value implements, so every slot is nil and encodes as ().
type NoExpr interface{ noExpr() }

// The unit-only instantiations used by daml/lf's tests.
type (
	// Choice is a choice whose expressions are all ().
	Choice = ChoiceOf[NoExpr]
	// TyCon names a data type; as an interface instance its bodies are ().
	TyCon = TyConOf[NoExpr]
	// Template is a template whose expressions are all ().
	Template = TemplateOf[NoExpr]
	// Interface is an interface whose choices' expressions are all ().
	Interface = InterfaceOf[NoExpr]
	// Value is a value whose body is a reference, a raw body or ().
	Value = ValueOf[NoExpr]
	// Module is a module whose expressions are all ().
	Module = ModuleOf[NoExpr]
	// Package is a package whose expressions are all ().
	Package = PackageOf[NoExpr]
)

// MinorOf returns the LF minor of p ("" means "2").
func (p *PackageOf[X]) MinorOf() string {
	if p.Minor == "" {
		return "2"
	}
	return p.Minor
}

// Enc is the interning state of one package being encoded: strings,
// dotted names and types. Expression hooks use it to intern what they
// emit.
type Enc struct {
	// Flat is true from LF 2.2 on: type applications are tapp, and
	// lambdas, type abstractions and type applications have exactly one
	// parameter or argument.
	Flat bool
	// Imports is the declared imports table (nil: none declared).
	Imports []string
	strs    []string
	strIdx  map[string]int
	dnames  [][]int
	dnIdx   map[string]int
	types   [][]byte
	typeIdx map[string]int
}

// Str interns s and returns its index.
func (e *Enc) Str(s string) int {
	if i, ok := e.strIdx[s]; ok {
		return i
	}
	e.strs = append(e.strs, s)
	e.strIdx[s] = len(e.strs) - 1
	return len(e.strs) - 1
}

// DName interns the dotted name s ("A.B.C") and returns its index.
func (e *Enc) DName(s string) int {
	if i, ok := e.dnIdx[s]; ok {
		return i
	}
	var segs []int
	for _, seg := range strings.Split(s, ".") {
		segs = append(segs, e.Str(seg))
	}
	e.dnames = append(e.dnames, segs)
	e.dnIdx[s] = len(e.dnames) - 1
	return len(e.dnames) - 1
}

// msg builds a message from (field number, value) pairs; values are
// []byte (message or bytes), string, int (varint), bool, or packed []int.
func msg(kv ...any) []byte {
	var b []byte
	for i := 0; i < len(kv); i += 2 {
		n := protowire.Number(kv[i].(int))
		switch v := kv[i+1].(type) {
		case []byte:
			b = protowire.AppendTag(b, n, protowire.BytesType)
			b = protowire.AppendBytes(b, v)
		case string:
			b = protowire.AppendTag(b, n, protowire.BytesType)
			b = protowire.AppendString(b, v)
		case int:
			b = protowire.AppendTag(b, n, protowire.VarintType)
			b = protowire.AppendVarint(b, uint64(int64(v)))
		case bool:
			b = protowire.AppendTag(b, n, protowire.VarintType)
			b = protowire.AppendVarint(b, protowire.EncodeBool(v))
		case []int:
			var packed []byte
			for _, x := range v {
				packed = protowire.AppendVarint(packed, uint64(int64(x)))
			}
			b = protowire.AppendTag(b, n, protowire.BytesType)
			b = protowire.AppendBytes(b, packed)
		default:
			panic(fmt.Sprintf("lfenc: unsupported value %T", v))
		}
	}
	return b
}

// Msg builds raw protobuf: (field number, value) pairs, values being
// []byte (message or bytes), string, int (varint), bool or packed []int.
// Tests use it for hand-made malformed messages; expression hooks for the
// messages they emit.
func Msg(kv ...any) []byte { return msg(kv...) }

var unitMsg = []byte{}

// RefMsg returns the SelfOrImportedPackageId message of r.
func (e *Enc) RefMsg(r Ref) []byte {
	switch r.kind {
	case 1:
		return msg(3, e.Str(r.id))
	case 2:
		return msg(4, r.idx)
	}
	return msg(1, unitMsg)
}

// TyConID returns the TypeConId (also ValueId) message of module:name in
// the package r.
func (e *Enc) TyConID(r Ref, module, name string) []byte {
	return msg(1, msg(1, e.RefMsg(r), 2, e.DName(module)), 2, e.DName(name))
}

// rawType encodes a type structurally (inside the interning table).
func (e *Enc) rawType(t Type) []byte {
	if !e.Flat {
		// LF 2.1: applications are flattened into the head's args.
		head, args := t, []Type(nil)
		for {
			a, ok := head.(tApp)
			if !ok {
				break
			}
			args = append([]Type{a.a}, args...)
			head = a.f
		}
		var enc [][]byte
		for _, a := range args {
			enc = append(enc, e.rawType(a))
		}
		var kv []any
		switch h := head.(type) {
		case tCon:
			kv = []any{1, e.TyConID(h.ref, h.module, h.name)}
			for _, a := range enc {
				kv = append(kv, 2, a)
			}
			return msg(2, msg(kv...))
		case tBuiltin:
			kv = []any{1, h.b}
			for _, a := range enc {
				kv = append(kv, 2, a)
			}
			return msg(3, msg(kv...))
		case tVar:
			kv = []any{3, e.Str(h.name)}
			for _, a := range enc {
				kv = append(kv, 2, a)
			}
			return msg(1, msg(kv...))
		case tNat:
			return NatType(h.n)
		}
		panic("lfenc: bad type")
	}
	switch t := t.(type) {
	case tCon:
		return msg(2, msg(1, e.TyConID(t.ref, t.module, t.name)))
	case tBuiltin:
		return msg(3, msg(1, t.b))
	case tVar:
		return msg(1, msg(3, e.Str(t.name)))
	case tNat:
		return NatType(t.n)
	case tApp:
		return msg(9, msg(1, e.TypeRef(t.f), 2, e.TypeRef(t.a)))
	}
	panic("lfenc: bad type")
}

// NatType returns the Type message of the natural n (Type.nat).
func NatType(n int) []byte {
	b := protowire.AppendTag(nil, 6, protowire.VarintType)
	return protowire.AppendVarint(b, protowire.EncodeZigZag(int64(n)))
}

// TypeRef interns t and returns an interned_type reference to it.
func (e *Enc) TypeRef(t Type) []byte { return e.InternType(e.rawType(t)) }

// InternType adds the structural Type message raw to the interning table
// (once) and returns an interned_type reference to it. Types raw refers
// to must be interned before it.
func (e *Enc) InternType(raw []byte) []byte {
	key := string(raw)
	i, ok := e.typeIdx[key]
	if !ok {
		e.types = append(e.types, raw)
		i = len(e.types) - 1
		e.typeIdx[key] = i
	}
	b := protowire.AppendTag(nil, 8, protowire.VarintType)
	return protowire.AppendVarint(b, uint64(i))
}

func (e *Enc) kind(k string) []byte {
	switch k {
	case "", "*":
		return msg(1, unitMsg)
	case "nat":
		return msg(3, unitMsg)
	case "* -> *":
		return msg(2, msg(1, msg(1, unitMsg), 2, msg(1, unitMsg)))
	}
	panic("lfenc: bad kind " + k)
}

// UnitExpr is the expression () (builtin_con CON_UNIT).
var UnitExpr = msg(5, 0)

// SlotKind names an expression slot of a definition.
type SlotKind int

// The expression slots.
const (
	// SlotPrecond is a template's precondition.
	SlotPrecond SlotKind = iota
	// SlotSignatories is a template's signatories.
	SlotSignatories
	// SlotObservers is a template's observers.
	SlotObservers
	// SlotKeyBody is a template key's body.
	SlotKeyBody
	// SlotKeyMaintainers is a template key's maintainers function.
	SlotKeyMaintainers
	// SlotControllers is a choice's controllers.
	SlotControllers
	// SlotChoiceObservers is a choice's observers.
	SlotChoiceObservers
	// SlotUpdate is a choice's update.
	SlotUpdate
	// SlotView is an interface instance's view.
	SlotView
	// SlotMethod is an interface instance's method body.
	SlotMethod
	// SlotValue is a value's body.
	SlotValue
)

// Slot is the place of an expression being encoded, for hooks that
// compute defaults: its kind and the definitions around it (nil when not
// applicable; Template is nil for an interface choice).
type Slot[X any] struct {
	Kind      SlotKind
	Module    *ModuleOf[X]
	Template  *TemplateOf[X]
	Interface *InterfaceOf[X]
	Choice    *ChoiceOf[X]
	Instance  *TyConOf[X]
	// Method is the method's name (SlotMethod).
	Method string
	// Value is the value (SlotValue).
	Value *ValueOf[X]
}

// ExprHook returns the Expr message of slot s, whose expression is x (the
// zero X when not given). For SlotPrecond, nil omits the (optional)
// precondition.
type ExprHook[X any] func(e *Enc, s Slot[X], x X) []byte

// UnitHook encodes every slot as (), except the precondition, which it
// omits.
func UnitHook[X any](_ *Enc, s Slot[X], _ X) []byte {
	if s.Kind == SlotPrecond {
		return nil
	}
	return UnitExpr
}

type encoder[X any] struct {
	*Enc
	hook ExprHook[X]
}

// Or returns name, or def when name is "".
func Or(name, def string) string {
	if name == "" {
		return def
	}
	return name
}

func (e *encoder[X]) choice(s Slot[X]) []byte {
	c := s.Choice
	h := func(k SlotKind, x X) []byte {
		s.Kind = k
		return e.hook(e.Enc, s, x)
	}
	return msg(2, e.Str(c.Name), 3, c.Consuming, 4, h(SlotControllers, c.Controllers), 5, h(SlotChoiceObservers, c.Observers),
		6, msg(3, e.Str(Or(c.ArgName, "arg")), 2, e.TypeRef(c.Arg)), 8, e.TypeRef(c.Ret), 9, h(SlotUpdate, c.Update),
		10, e.Str(Or(c.Self, "self")))
}

func (e *encoder[X]) module(m *ModuleOf[X]) []byte {
	flags := msg(1, true, 2, true, 3, true)
	if m.BadFlags {
		flags = msg(1, true, 2, false, 3, true)
	}
	kv := []any{1, e.DName(m.Name), 2, flags}
	for _, d := range m.DataTypes {
		dkv := []any{2, e.DName(d.Name)}
		for _, p := range d.Params {
			dkv = append(dkv, 3, msg(3, e.Str(p.Name), 2, e.kind(p.Kind)))
		}
		if d.Serializable {
			dkv = append(dkv, 4, true)
		}
		var fields []any
		for _, f := range d.Fields {
			fields = append(fields, 1, msg(3, e.Str(f.Name), 2, e.TypeRef(f.Type)))
		}
		switch d.Kind {
		case "", "record":
			dkv = append(dkv, 5, msg(fields...))
		case "variant":
			dkv = append(dkv, 6, msg(fields...))
		case "enum":
			var cs []int
			for _, c := range d.Enum {
				cs = append(cs, e.Str(c))
			}
			dkv = append(dkv, 7, msg(2, cs))
		case "interface":
			dkv = append(dkv, 8, unitMsg)
		}
		kv = append(kv, 4, msg(dkv...))
	}
	for i := range m.Values {
		v := &m.Values[i]
		var body []byte
		switch {
		case v.RawBody != nil:
			body = v.RawBody
		case any(v.Expr) == nil && v.Body != nil:
			body = msg(3, e.TyConID(v.Body.Ref, v.Body.Module, v.Body.Name))
		default:
			body = e.hook(e.Enc, Slot[X]{Kind: SlotValue, Module: m, Value: v}, v.Expr)
		}
		kv = append(kv, 5, msg(2, msg(1, e.DName(v.Name), 2, e.TypeRef(v.Type)), 3, body))
	}
	for i := range m.Templates {
		t := &m.Templates[i]
		s := Slot[X]{Module: m, Template: t}
		h := func(k SlotKind, x X) []byte {
			s.Kind = k
			return e.hook(e.Enc, s, x)
		}
		tkv := []any{1, e.DName(t.Name), 2, e.Str(Or(t.Param, "this"))}
		if pre := h(SlotPrecond, t.Precond); pre != nil {
			tkv = append(tkv, 3, pre)
		}
		tkv = append(tkv, 4, h(SlotSignatories, t.Signatories), 7, h(SlotObservers, t.Observers))
		for j := range t.Choices {
			tkv = append(tkv, 6, e.choice(Slot[X]{Module: m, Template: t, Choice: &t.Choices[j]}))
		}
		if t.Key != nil {
			tkv = append(tkv, 9, msg(1, e.TypeRef(t.Key), 3, h(SlotKeyMaintainers, t.KeyMaintainers), 4, h(SlotKeyBody, t.KeyBody)))
		}
		for j := range t.Implements {
			in := &t.Implements[j]
			is := Slot[X]{Module: m, Template: t, Instance: in}
			var body []any
			names := make([]string, 0, len(in.Methods))
			for n := range in.Methods {
				names = append(names, n)
			}
			slices.Sort(names)
			for _, n := range names {
				is.Kind, is.Method = SlotMethod, n
				body = append(body, 1, msg(1, e.Str(n), 2, e.hook(e.Enc, is, in.Methods[n])))
			}
			is.Kind, is.Method = SlotView, ""
			body = append(body, 2, e.hook(e.Enc, is, in.View))
			tkv = append(tkv, 10, msg(1, e.TyConID(in.Ref, in.Module, in.Name), 2, msg(body...)))
		}
		kv = append(kv, 6, msg(tkv...))
	}
	for _, x := range m.Exceptions {
		kv = append(kv, 7, msg(1, e.DName(x), 3, UnitExpr))
	}
	for i := range m.Interfaces {
		in := &m.Interfaces[i]
		ikv := []any{2, e.DName(in.Name), 4, e.Str(Or(in.Param, "this")), 6, e.TypeRef(in.View)}
		for _, md := range in.Methods {
			ikv = append(ikv, 3, msg(2, e.Str(md.Name), 3, e.TypeRef(md.Type)))
		}
		for j := range in.Choices {
			ikv = append(ikv, 5, e.choice(Slot[X]{Module: m, Interface: in, Choice: &in.Choices[j]}))
		}
		kv = append(kv, 8, msg(ikv...))
	}
	return msg(kv...)
}

// EncodePackage returns the daml_lf_2 Package bytes of p, every
// expression ().
func EncodePackage(p Package) []byte { return EncodePackageWith(p, UnitHook[NoExpr]) }

// EncodePackageWith returns the daml_lf_2 Package bytes of p, its
// expressions encoded by hook. X must be an interface type (nil means
// "not given").
func EncodePackageWith[X any](p PackageOf[X], hook ExprHook[X]) []byte {
	e := &encoder[X]{Enc: &Enc{Flat: p.MinorOf() != "1", Imports: p.Imports, strIdx: map[string]int{}, dnIdx: map[string]int{}, typeIdx: map[string]int{}}, hook: hook}
	var mods [][]byte
	for i := range p.Modules {
		mods = append(mods, e.module(&p.Modules[i]))
	}
	meta := []any{1, e.Str(p.Name), 2, e.Str(p.Version)}
	if p.UpgradedID != "" {
		meta = append(meta, 3, msg(1, e.Str(p.UpgradedID)))
	}
	metaB := msg(meta...)
	var kv []any
	for _, m := range mods {
		kv = append(kv, 1, m)
	}
	for _, s := range e.strs {
		kv = append(kv, 2, s)
	}
	for _, d := range e.dnames {
		kv = append(kv, 3, msg(1, d))
	}
	kv = append(kv, 4, metaB)
	for _, t := range e.types {
		kv = append(kv, 5, t)
	}
	if p.Imports != nil {
		var ikv []any
		for _, id := range p.Imports {
			ikv = append(ikv, 1, id)
		}
		kv = append(kv, 9, msg(ikv...))
	}
	return msg(kv...)
}

// Payload returns ArchivePayload bytes carrying an LF 2 package.
func Payload(minor string, patch int32, lf2 []byte) []byte {
	kv := []any{3, minor}
	if patch != 0 {
		kv = append(kv, 5, int(patch))
	}
	return msg(append(kv, 4, lf2)...)
}

// PayloadLF1 returns ArchivePayload bytes carrying an LF 1 package body.
func PayloadLF1(minor string, body []byte) []byte { return msg(2, body, 3, minor) }

// ID returns the package id of a payload: hex SHA-256.
func ID(payload []byte) string {
	s := sha256.Sum256(payload)
	return hex.EncodeToString(s[:])
}

// Archive returns the Archive (dalf) bytes of payload with its true hash.
func Archive(payload []byte) []byte { return ArchiveWithHash(payload, ID(payload)) }

// ArchiveWithHash returns Archive bytes declaring hash as the hash.
func ArchiveWithHash(payload []byte, hash string) []byte { return msg(3, payload, 4, hash) }

// Dalf encodes p into an archive and returns its id and dalf bytes.
func Dalf(p Package) (id string, dalf []byte) { return DalfWith(p, UnitHook[NoExpr]) }

// DalfWith is Dalf with the expressions encoded by hook.
func DalfWith[X any](p PackageOf[X], hook ExprHook[X]) (id string, dalf []byte) {
	payload := Payload(p.MinorOf(), p.Patch, EncodePackageWith(p, hook))
	return ID(payload), Archive(payload)
}

// File is a zip entry.
type File struct {
	Name string
	Data []byte
	// Store writes the entry uncompressed (default: deflate).
	Store bool
}

// Zip returns a zip of files, in order.
func Zip(files ...File) []byte {
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	writeFiles(w, files)
	return buf.Bytes()
}

// writeFiles adds files to w, in order, and closes w.
func writeFiles(w *zip.Writer, files []File) {
	for _, f := range files {
		method := zip.Deflate
		if f.Store {
			method = zip.Store
		}
		fw, err := w.CreateHeader(&zip.FileHeader{Name: f.Name, Method: method})
		if err != nil {
			panic(err)
		}
		if _, err := fw.Write(f.Data); err != nil {
			panic(err)
		}
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
}

// ManifestText returns a DAR manifest in Java manifest format (lines of at
// most 72 bytes, continuations starting with one space).
func ManifestText(mainDalf string, dalfs []string, extra ...string) string {
	var sb strings.Builder
	put := func(line string) {
		n := 72
		for len(line) > n {
			sb.WriteString(line[:n])
			sb.WriteString("\n ")
			line = line[n:]
			n = 71
		}
		sb.WriteString(line)
		sb.WriteString("\n")
	}
	put("Manifest-Version: 1.0")
	put("Created-By: lfenc")
	for _, x := range extra {
		put(x)
	}
	put("Main-Dalf: " + mainDalf)
	put("Dalfs: " + strings.Join(append([]string{mainDalf}, dalfs...), ", "))
	put("Format: daml-lf")
	return sb.String()
}

// DAR encodes main and deps and zips them with a manifest into a DAR whose
// paths look like real ones (<name>-<version>-<id>/<name>-<id>.dalf). It
// returns the DAR and the package ids, main first.
func DAR(main Package, deps ...Package) ([]byte, []string) {
	return DARWith(UnitHook[NoExpr], main, deps...)
}

// DARWith is DAR with the expressions encoded by hook.
func DARWith[X any](hook ExprHook[X], main PackageOf[X], deps ...PackageOf[X]) ([]byte, []string) {
	mainID, mainDalf := DalfWith(main, hook)
	dir := fmt.Sprintf("%s-%s-%s", main.Name, main.Version, mainID)
	files := []File{}
	ids := []string{mainID}
	mainPath := fmt.Sprintf("%s/%s-%s.dalf", dir, main.Name, mainID)
	files = append(files, File{Name: mainPath, Data: mainDalf})
	var paths []string
	for _, d := range deps {
		id, dalf := DalfWith(d, hook)
		p := fmt.Sprintf("%s/%s-%s.dalf", dir, d.Name, id)
		files = append(files, File{Name: p, Data: dalf})
		paths = append(paths, p)
		ids = append(ids, id)
	}
	files = append([]File{{Name: "META-INF/MANIFEST.MF", Data: []byte(ManifestText(mainPath, paths, "Name: "+main.Name+"-"+main.Version))}}, files...)
	return Zip(files...), ids
}
