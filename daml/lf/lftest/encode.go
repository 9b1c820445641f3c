// Package lftest is a small Daml-LF 2 encoder for tests and examples: it
// builds Package, ArchivePayload and Archive bytes with
// protowire (no generated code) and zips them into DARs. It covers the
// type-level part of LF (data types, templates, choices, interfaces) and
// emits trivial expressions; it is not a compiler.
package lftest

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
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

// Choice is a template or interface choice.
type Choice struct {
	Name      string
	Consuming bool
	Arg       Type
	Ret       Type
}

// TyCon names a data type (for template implements clauses).
type TyCon struct {
	Ref          Ref
	Module, Name string
}

// Template is a template; its payload is the record data type Name.
type Template struct {
	Name       string
	Choices    []Choice
	Key        Type // nil: no key
	Implements []TyCon
}

// Interface is an interface definition (its data type is emitted too).
type Interface struct {
	Name    string
	Choices []Choice
	View    Type
}

// ValueRef is a reference to a value of some package, used as the body of
// an encoded value so that references hidden in expressions can be tested.
type ValueRef struct {
	Ref          Ref
	Module, Name string
}

// Value is a top-level value: name : Type = Body (a value reference, or
// ()), or the raw Expr message RawBody when it is set.
type Value struct {
	Name    string
	Type    Type
	Body    *ValueRef
	RawBody []byte
}

// Module is a module.
type Module struct {
	Name       string
	DataTypes  []DataType
	Templates  []Template
	Interfaces []Interface
	Exceptions []string // exception names; their record data types must be given
	Values     []Value
	// BadFlags emits feature flags that are not all true.
	BadFlags bool
}

// Package is a package to encode.
type Package struct {
	Minor      string // "1", "2", "3", "dev"; "" means "2"
	Patch      int32
	Name       string
	Version    string
	UpgradedID string
	// Imports is the declared package_imports table; nil declares none
	// (generated imports).
	Imports []string
	Modules []Module
}

func (p *Package) minor() string {
	if p.Minor == "" {
		return "2"
	}
	return p.Minor
}

// flat: LF ≥ 2.2 encodes type applications with tapp.
func (p *Package) flat() bool { return p.minor() != "1" }

type enc struct {
	p       *Package
	strs    []string
	strIdx  map[string]int
	dnames  [][]int
	dnIdx   map[string]int
	types   [][]byte
	typeIdx map[string]int
}

func (e *enc) str(s string) int {
	if i, ok := e.strIdx[s]; ok {
		return i
	}
	e.strs = append(e.strs, s)
	e.strIdx[s] = len(e.strs) - 1
	return len(e.strs) - 1
}

func (e *enc) dname(s string) int {
	if i, ok := e.dnIdx[s]; ok {
		return i
	}
	var segs []int
	for _, seg := range strings.Split(s, ".") {
		segs = append(segs, e.str(seg))
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

// Msg builds raw protobuf: (field number, value) pairs as in msg. Tests use
// it for hand-made malformed messages.
func Msg(kv ...any) []byte { return msg(kv...) }

var unitMsg = []byte{}

func (e *enc) pkgRef(r Ref) []byte {
	switch r.kind {
	case 1:
		return msg(3, e.str(r.id))
	case 2:
		return msg(4, r.idx)
	}
	return msg(1, unitMsg)
}

func (e *enc) tyConID(r Ref, module, name string) []byte {
	return msg(1, msg(1, e.pkgRef(r), 2, e.dname(module)), 2, e.dname(name))
}

// rawType encodes a type structurally (inside the interning table).
func (e *enc) rawType(t Type) []byte {
	if !e.p.flat() {
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
			kv = []any{1, e.tyConID(h.ref, h.module, h.name)}
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
			kv = []any{3, e.str(h.name)}
			for _, a := range enc {
				kv = append(kv, 2, a)
			}
			return msg(1, msg(kv...))
		case tNat:
			return natType(h.n)
		}
		panic("lfenc: bad type")
	}
	switch t := t.(type) {
	case tCon:
		return msg(2, msg(1, e.tyConID(t.ref, t.module, t.name)))
	case tBuiltin:
		return msg(3, msg(1, t.b))
	case tVar:
		return msg(1, msg(3, e.str(t.name)))
	case tNat:
		return natType(t.n)
	case tApp:
		return msg(9, msg(1, e.typeRef(t.f), 2, e.typeRef(t.a)))
	}
	panic("lfenc: bad type")
}

func natType(n int) []byte {
	b := protowire.AppendTag(nil, 6, protowire.VarintType)
	return protowire.AppendVarint(b, protowire.EncodeZigZag(int64(n)))
}

// typeRef interns t and returns an interned_type reference to it.
func (e *enc) typeRef(t Type) []byte {
	raw := e.rawType(t)
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

func (e *enc) kind(k string) []byte {
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

// unitExpr is the expression () (builtin_con CON_UNIT).
var unitExpr = msg(5, 0)

func (e *enc) choice(c Choice) []byte {
	return msg(2, e.str(c.Name), 3, c.Consuming, 4, unitExpr, 5, unitExpr,
		6, msg(3, e.str("arg"), 2, e.typeRef(c.Arg)), 8, e.typeRef(c.Ret), 9, unitExpr,
		10, e.str("self"))
}

func (e *enc) module(m Module) []byte {
	flags := msg(1, true, 2, true, 3, true)
	if m.BadFlags {
		flags = msg(1, true, 2, false, 3, true)
	}
	kv := []any{1, e.dname(m.Name), 2, flags}
	for _, d := range m.DataTypes {
		dkv := []any{2, e.dname(d.Name)}
		for _, p := range d.Params {
			dkv = append(dkv, 3, msg(3, e.str(p.Name), 2, e.kind(p.Kind)))
		}
		if d.Serializable {
			dkv = append(dkv, 4, true)
		}
		var fields []any
		for _, f := range d.Fields {
			fields = append(fields, 1, msg(3, e.str(f.Name), 2, e.typeRef(f.Type)))
		}
		switch d.Kind {
		case "", "record":
			dkv = append(dkv, 5, msg(fields...))
		case "variant":
			dkv = append(dkv, 6, msg(fields...))
		case "enum":
			var cs []int
			for _, c := range d.Enum {
				cs = append(cs, e.str(c))
			}
			dkv = append(dkv, 7, msg(2, cs))
		case "interface":
			dkv = append(dkv, 8, unitMsg)
		}
		kv = append(kv, 4, msg(dkv...))
	}
	for _, v := range m.Values {
		body := unitExpr
		if v.Body != nil {
			body = msg(3, e.tyConID(v.Body.Ref, v.Body.Module, v.Body.Name))
		}
		if v.RawBody != nil {
			body = v.RawBody
		}
		kv = append(kv, 5, msg(2, msg(1, e.dname(v.Name), 2, e.typeRef(v.Type)), 3, body))
	}
	for _, t := range m.Templates {
		tkv := []any{1, e.dname(t.Name), 2, e.str("this"), 4, unitExpr, 7, unitExpr}
		for _, c := range t.Choices {
			tkv = append(tkv, 6, e.choice(c))
		}
		if t.Key != nil {
			tkv = append(tkv, 9, msg(1, e.typeRef(t.Key), 3, unitExpr, 4, unitExpr))
		}
		for _, i := range t.Implements {
			tkv = append(tkv, 10, msg(1, e.tyConID(i.Ref, i.Module, i.Name), 2, msg(2, unitExpr)))
		}
		kv = append(kv, 6, msg(tkv...))
	}
	for _, x := range m.Exceptions {
		kv = append(kv, 7, msg(1, e.dname(x), 3, unitExpr))
	}
	for _, i := range m.Interfaces {
		ikv := []any{2, e.dname(i.Name), 4, e.str("this"), 6, e.typeRef(i.View)}
		for _, c := range i.Choices {
			ikv = append(ikv, 5, e.choice(c))
		}
		kv = append(kv, 8, msg(ikv...))
	}
	return msg(kv...)
}

// EncodePackage returns the daml_lf_2 Package bytes of p.
func EncodePackage(p Package) []byte {
	e := &enc{p: &p, strIdx: map[string]int{}, dnIdx: map[string]int{}, typeIdx: map[string]int{}}
	var mods [][]byte
	for _, m := range p.Modules {
		mods = append(mods, e.module(m))
	}
	meta := []any{1, e.str(p.Name), 2, e.str(p.Version)}
	if p.UpgradedID != "" {
		meta = append(meta, 3, msg(1, e.str(p.UpgradedID)))
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
func Dalf(p Package) (id string, dalf []byte) {
	payload := Payload(p.minor(), p.Patch, EncodePackage(p))
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
	return buf.Bytes()
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
	mainID, mainDalf := Dalf(main)
	dir := fmt.Sprintf("%s-%s-%s", main.Name, main.Version, mainID)
	files := []File{}
	ids := []string{mainID}
	mainPath := fmt.Sprintf("%s/%s-%s.dalf", dir, main.Name, mainID)
	files = append(files, File{Name: mainPath, Data: mainDalf})
	var paths []string
	for _, d := range deps {
		id, dalf := Dalf(d)
		p := fmt.Sprintf("%s/%s-%s.dalf", dir, d.Name, id)
		files = append(files, File{Name: p, Data: dalf})
		paths = append(paths, p)
		ids = append(ids, id)
	}
	files = append([]File{{Name: "META-INF/MANIFEST.MF", Data: []byte(ManifestText(mainPath, paths, "Name: "+main.Name+"-"+main.Version))}}, files...)
	return Zip(files...), ids
}
