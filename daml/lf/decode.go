package lf

import (
	"bytes"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
)

// maxTypeDepth bounds the nesting of one type or kind message. Compilers
// intern types, so real entries are shallow; the bound keeps a hostile
// archive from recursing without end.
const maxTypeDepth = 1000

// maxTypeSize bounds the size of a type or kind as a tree (interned
// entries shared by reference are counted each time they occur). Interning
// lets a small archive describe a type of exponential size, which every
// walk over types (upgrade checks, value checks, printing) would pay for.
// The largest type of the real DARs has a few hundred nodes.
const maxTypeSize = 1 << 16

// decoder decodes one LF 2 Package message (daml_lf2.proto, as Canton's
// archive/DecodeV2.scala decodes it; both in community/daml-lf/archive).
type decoder struct {
	id string
	lf LFVersion
	// rank is minorRank(lf) and isFlat is lf ≥ 2.2, computed once.
	rank    int
	isFlat  bool
	strs    []string
	dnames  []string
	imports []string
	// importsDeclared is true when package_imports (9) was given.
	importsDeclared bool
	kinds           []*Kind
	types           []Type
	// typeSizes and kindSizes are the tree sizes of the interned types
	// and kinds (saturated above maxTypeSize); nodes counts the tree
	// nodes of the type or kind being decoded.
	typeSizes, kindSizes []int
	nodes                int
	// tyCons memoizes decoded TypeConId messages by their bytes;
	// shortTyCons those of the usual short ones, keyed without
	// allocating a string (see tyConKey).
	tyCons      map[string]TypeConID
	shortTyCons map[tyConKey]TypeConID
	// refs collects the package ids referenced through
	// SelfOrImportedPackageId (self excluded).
	refs map[string]bool
	exprState
	// While a package is decoded, check decodes its values' bodies, to
	// validate them, with its interned expressions decoded eagerly, and
	// the values keep their bodies' bytes for src, the package's lazy
	// decoder (bodySource); without src (decodePackageWith's keepBodies)
	// they keep what check decoded (tests compare the two).
	check *decoder
	src   *bodySource
	// pkg are the package's bytes, which the spans of a lazy decoder
	// locate messages in.
	pkg []byte
}

// A span locates a message in the package's bytes, pkg[start:end]: the
// lazy decoder keeps spans rather than slices, which are pointers that
// every garbage collection would visit, tens of thousands of them.
type span struct{ start, end uint32 }

// spanOf returns the span of msg, a slice of d.pkg (every message the
// decoder reads is one: slicing keeps the capacity to the end of pkg).
func (d *decoder) spanOf(msg []byte) span {
	start := cap(d.pkg) - cap(msg)
	return span{uint32(start), uint32(start + len(msg))}
}

// bytes returns the message at s.
func (d *decoder) bytes(s span) []byte { return d.pkg[s.start:s.end] }

func (d *decoder) flat() bool { return d.isFlat }

// atLeast is d.lf.atLeast(w) without parsing minor versions for the
// versions the decoders compare with: it runs for most nodes. A minor
// minorRank does not know falls back to the parsing comparison.
func (d *decoder) atLeast(w LFVersion) bool {
	if r := minorRank(w); r >= 0 && d.rank >= 0 && w.Major == d.lf.Major {
		return d.rank >= r
	}
	return d.lf.atLeast(w)
}

// minorRank orders the known LF 2 minors as LFVersion.Compare does, or
// returns -1 for another minor.
func minorRank(v LFVersion) int {
	switch v.Minor {
	case "1":
		return 1
	case "2":
		return 2
	case "3":
		return 3
	case "dev":
		return 1 << 30
	}
	return -1
}

// newDecoder returns a decoder of a package id of LF version lf, with
// empty tables.
func newDecoder(id string, lf LFVersion) *decoder {
	return &decoder{id: id, lf: lf, rank: minorRank(lf), isFlat: lf.atLeast(LF22), refs: map[string]bool{}, tyCons: map[string]TypeConID{}}
}

// decodePackage decodes the daml_lf_2 bytes of the package id.
func decodePackage(id string, lf LFVersion, b []byte) (*Package, error) {
	p, _, err := decodePackageWith(id, lf, b, false)
	return p, err
}

// decodePackageWith is decodePackage that also returns its decoder, whose
// tables tests reuse; with keepBodies the values keep the bodies decoded
// to validate them rather than decode them again on demand (tests).
func decodePackageWith(id string, lf LFVersion, b []byte, keepBodies bool) (*Package, *decoder, error) {
	d := newDecoder(id, lf)
	d.pkg = b
	// The tables are sized by a first pass over the fields (a malformed
	// message is reported by the second): a package has thousands of
	// interned strings, types and expressions.
	var count [fPackagePackageImports + 1]int
	strBytes := 0
	for r := newReader(b); ; {
		f, ok := r.next()
		if !ok {
			break
		}
		if int(f.num) < len(count) {
			count[f.num]++
		}
		if f.num == fPackageInternedStrings {
			strBytes += len(f.b)
		}
	}
	var (
		modules     = make([][]byte, 0, count[fPackageModules])
		dnames      = make([][]byte, 0, count[fPackageInternedDottedNames])
		types       = make([][]byte, 0, count[fPackageInternedTypes])
		kinds       = make([][]byte, 0, count[fPackageInternedKinds])
		exprs       = make([][]byte, 0, count[fPackageInternedExprs])
		metadata    [][]byte
		importsCase protowire.Number
		importsRaw  []byte
	)
	// The interned strings are copied into one string, which the table
	// slices (strEnds are their end offsets): one allocation for
	// thousands of short strings that live as long as the package.
	var strAll strings.Builder
	strAll.Grow(strBytes)
	strEnds := make([]int, 0, count[fPackageInternedStrings])
	d.dnames = make([]string, 0, count[fPackageInternedDottedNames])
	err := eachField(b, func(f field) error {
		var err error
		var m []byte
		switch f.num {
		case fPackageModules:
			m, err = f.message("Package.modules")
			modules = append(modules, m)
		case fPackageInternedStrings:
			var s []byte
			s, err = f.utf8("Package.interned_strings")
			strAll.Write(s)
			strEnds = append(strEnds, strAll.Len())
		case fPackageInternedDottedNames:
			m, err = f.message("Package.interned_dotted_names")
			dnames = append(dnames, m)
		case fPackageMetadata:
			m, err = f.message("Package.metadata")
			metadata = append(metadata, m) // repeated occurrences merge
		case fPackageInternedTypes:
			m, err = f.message("Package.interned_types")
			types = append(types, m)
		case fPackageInternedKinds:
			m, err = f.message("Package.interned_kinds")
			kinds = append(kinds, m)
		case fPackageInternedExprs:
			m, err = f.message("Package.interned_exprs")
			exprs = append(exprs, m)
		case fPackageNoImportedPackageReason:
			_, err = f.str("Package.no_imported_packages_reason")
			importsCase, importsRaw = fPackageNoImportedPackageReason, nil
		case fPackagePackageImports:
			importsRaw, err = f.message("Package.package_imports")
			importsCase = fPackagePackageImports
		default:
			return unknownField("Package", f)
		}
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	// One string for the whole table, which the names slice: a name
	// kept after its package (a field label in a value) keeps the
	// package's table with it, a few hundred KB at most.
	all, start := strAll.String(), 0
	d.strs = make([]string, len(strEnds))
	for i, end := range strEnds {
		d.strs[i], start = all[start:end], end
	}

	var segBuf [8]int // a dotted name's segments, without allocating for the usual few
	var partBuf [8]string
	for i, dn := range dnames {
		segs := segBuf[:0]
		if err := eachField(dn, func(f field) error {
			if f.num != fDottedNameSegments {
				return unknownField("InternedDottedName", f)
			}
			var err error
			segs, err = f.appendIndices(segs, "InternedDottedName.segments_interned_str")
			return err
		}); err != nil {
			return nil, nil, err
		}
		if len(segs) == 0 {
			return nil, nil, errorf("interned dotted name %d has no segments", i)
		}
		parts := partBuf[:0]
		if len(segs) > len(partBuf) {
			parts = make([]string, 0, len(segs))
		}
		parts = parts[:len(segs)]
		for j, s := range segs {
			if parts[j], err = d.vname(s); err != nil {
				return nil, nil, err
			}
		}
		d.dnames = append(d.dnames, strings.Join(parts, "."))
	}

	if len(metadata) == 0 {
		return nil, nil, errorf("Package.metadata is required in Daml-LF %s", lf)
	}
	p := &Package{ID: id, LanguageVersion: lf, modules: make(map[string]*Module, len(modules))}
	if len(modules) > 0 {
		p.Modules = make([]*Module, 0, len(modules))
	}
	if err := d.metadata(bytes.Join(metadata, nil), p); err != nil {
		return nil, nil, err
	}

	if importsCase != 0 && !d.flat() {
		return nil, nil, errorf("package imports are not supported by Daml-LF %s", lf)
	}
	if importsCase == fPackagePackageImports {
		d.importsDeclared = true
		d.imports = []string{}
		if err := eachField(importsRaw, func(f field) error {
			if f.num != fPackageImportsImportedPackage {
				return unknownField("PackageImports", f)
			}
			s, err := f.str("PackageImports.imported_packages")
			if err != nil {
				return err
			}
			if !validPackageID(s) {
				return errorf("invalid imported package id %q", s)
			}
			d.imports = append(d.imports, s)
			return nil
		}); err != nil {
			return nil, nil, err
		}
	}

	if len(kinds) > 0 && !d.flat() {
		return nil, nil, errorf("interned kinds are not supported by Daml-LF %s", lf)
	}
	d.kinds, d.kindSizes = make([]*Kind, 0, len(kinds)), make([]int, 0, len(kinds))
	for i, k := range kinds {
		c, ok, err := lastCase(k, "Kind", kindCase)
		if err != nil {
			return nil, nil, err
		}
		if ok && c.num == fKindInterned {
			return nil, nil, errorf("Immediate InternedKind in interning table (entry %d)", i)
		}
		d.nodes = 0
		kd, err := d.kind(k, 0)
		if err != nil {
			return nil, nil, err
		}
		if d.nodes > maxTypeSize {
			return nil, nil, errorf("interned kind %d is too large", i)
		}
		d.kinds = append(d.kinds, kd)
		d.kindSizes = append(d.kindSizes, d.nodes)
	}
	d.types, d.typeSizes = make([]Type, 0, len(types)), make([]int, 0, len(types))
	for i, t := range types {
		c, ok, err := lastCase(t, "Type", typeCase)
		if err != nil {
			return nil, nil, err
		}
		if ok && c.num == fTypeInterned {
			return nil, nil, errorf("Immediate Interned type in interning table (entry %d)", i)
		}
		d.nodes = 0
		ty, err := d.typ(t, 0)
		if err != nil {
			return nil, nil, err
		}
		if d.nodes > maxTypeSize {
			return nil, nil, errorf("interned type %d is too large (more than %d nodes)", i, maxTypeSize)
		}
		d.types = append(d.types, ty)
		d.typeSizes = append(d.typeSizes, d.nodes)
	}
	if len(exprs) > 0 && !d.flat() {
		return nil, nil, errorf("interned expressions are not supported by Daml-LF %s", lf)
	}
	// check shares the tables decoded so far and decodes, in order, the
	// interned expressions and the values' bodies, all of them, so that a
	// malformed package fails here as it always did. Only what the
	// package keeps (templates, interfaces, exceptions) is decoded by d,
	// whose interned expressions are decoded on first reference: the
	// rest of check's trees is garbage once the package is decoded.
	check := *d
	check.exprState = exprState{}
	if err := check.internExprs(exprs); err != nil {
		return nil, nil, err
	}
	d.heights, d.kept = check.heights, map[int]Expr{}
	d.rawExprs = make([]span, len(exprs))
	for i, x := range exprs {
		d.rawExprs[i] = d.spanOf(x)
	}
	d.check = &check
	if !keepBodies {
		d.src = &bodySource{d: d}
		p.bodies = d.src
	}

	for _, mb := range modules {
		m, err := d.module(mb)
		if err != nil {
			return nil, nil, err
		}
		if p.modules[m.Name] != nil {
			return nil, nil, errorf("duplicate module %s", m.Name)
		}
		p.modules[m.Name] = m
		p.Modules = append(p.Modules, m)
	}

	// Every package reference anywhere (expressions included; pkgRef
	// records them) gives the dependencies Canton computes when imports
	// are not declared.
	p.ImportsDeclared = d.importsDeclared
	p.Imports = d.imports
	deps := map[string]bool{}
	for _, id := range d.imports {
		deps[id] = true
	}
	for id := range d.refs {
		deps[id] = true
	}
	delete(deps, id)
	p.DirectDeps = sortedKeys(deps)
	// The decoder lives on as the package's bodySource: what served the
	// whole package's decoding goes (its memos fill again with what the
	// bodies decoded later need).
	d.check = nil
	d.refs, d.tyCons, d.shortTyCons = map[string]bool{}, map[string]TypeConID{}, nil
	return p, d, nil
}

func (d *decoder) metadata(b []byte, p *Package) error {
	var name, version, upgraded int
	hasUpgraded := false
	if err := eachField(b, func(f field) error {
		var err error
		switch f.num {
		case fMetadataName:
			name, err = f.index("PackageMetadata.name_interned_str")
		case fMetadataVersion:
			version, err = f.index("PackageMetadata.version_interned_str")
		case fMetadataUpgradedPackageID:
			var m []byte
			if m, err = f.message("PackageMetadata.upgraded_package_id"); err != nil {
				return err
			}
			hasUpgraded = true
			upgraded = 0
			return eachField(m, func(f field) error {
				if f.num != fUpgradedPackageIDInternedStr {
					return unknownField("UpgradedPackageId", f)
				}
				var err error
				upgraded, err = f.index("UpgradedPackageId.upgraded_package_id_interned_str")
				return err
			})
		default:
			return unknownField("PackageMetadata", f)
		}
		return err
	}); err != nil {
		return err
	}
	var err error
	if p.Name, err = d.str(name); err != nil {
		return err
	}
	if !validPackageName(p.Name) {
		return errorf("invalid package name %q", p.Name)
	}
	if p.Version, err = d.str(version); err != nil {
		return err
	}
	if _, ok := parseVersion(p.Version); !ok {
		return errorf("invalid package version %q", p.Version)
	}
	if hasUpgraded {
		if p.UpgradedPackageID, err = d.str(upgraded); err != nil {
			return err
		}
		if !validPackageID(p.UpgradedPackageID) {
			return errorf("invalid upgraded package id %q", p.UpgradedPackageID)
		}
	}
	return nil
}

// str returns interned string i.
func (d *decoder) str(i int) (string, error) {
	if i >= len(d.strs) {
		return "", errorf("invalid internedString table index %d", i)
	}
	return d.strs[i], nil
}

// dname returns interned dotted name i.
func (d *decoder) dname(i int) (string, error) {
	if i >= len(d.dnames) {
		return "", errorf("invalid dotted name table index %d", i)
	}
	return d.dnames[i], nil
}

// lastCase returns the oneof member of message b that is set: the last of
// the fields for which isCase is true. Other fields are unknown.
func lastCase(b []byte, msg string, isCase func(protowire.Number) bool) (field, bool, error) {
	// eachField's loop, written out: a closure call per field was a
	// tenth of decoding a package (lastCase reads every type and kind).
	var last field
	found := false
	r := newReader(b)
	for {
		f, ok := r.next()
		if !ok {
			break
		}
		if !isCase(f.num) {
			return last, found, unknownField(msg, f)
		}
		last, found = f, true
	}
	return last, found, r.err
}

func kindCase(n protowire.Number) bool { return n >= fKindStar && n <= fKindInterned }
func typeCase(n protowire.Number) bool { return n >= fTypeVar && n <= fTypeTApp }

// unit checks that b is an empty Unit message.
func unit(f field, msg string) error {
	b, err := f.message(msg)
	if err != nil {
		return err
	}
	return eachField(b, func(f field) error { return unknownField("Unit", f) })
}

func (d *decoder) kind(b []byte, depth int) (*Kind, error) {
	if depth > maxTypeDepth {
		return nil, errorf("Kind nested too deeply")
	}
	d.nodes++
	f, ok, err := lastCase(b, "Kind", kindCase)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errorf("Kind.SUM_NOT_SET")
	}
	switch f.num {
	case fKindStar:
		return d.a.kind.put(Kind{Sort: KindStar}), unit(f, "Kind.star")
	case fKindNat:
		return d.a.kind.put(Kind{Sort: KindNat}), unit(f, "Kind.nat")
	case fKindInterned:
		if !d.flat() {
			return nil, errorf("interned kinds are not supported by Daml-LF %s", d.lf)
		}
		i, err := f.index("Kind.interned_kind")
		if err != nil {
			return nil, err
		}
		if i >= len(d.kinds) {
			return nil, errorf("invalid internedKinds table index %d", i)
		}
		d.nodes += d.kindSizes[i] - 1
		return d.kinds[i], nil
	}
	m, err := f.message("Kind.arrow")
	if err != nil {
		return nil, err
	}
	var params [][]byte
	var result []byte
	if err := eachField(m, func(f field) error {
		var err error
		var x []byte
		switch f.num {
		case fKindArrowParams:
			x, err = f.message("Kind.Arrow.params")
			params = append(params, x)
		case fKindArrowResult:
			result, err = f.message("Kind.Arrow.result")
		default:
			return unknownField("Kind.Arrow", f)
		}
		return err
	}); err != nil {
		return nil, err
	}
	if len(params) == 0 {
		return nil, errorf("Unexpected empty Kind.Arrow.params")
	}
	if d.flat() && len(params) != 1 {
		return nil, errorf("Kind.Arrow.params must have exactly one element in Daml-LF %s", d.lf)
	}
	k, err := d.kind(result, depth+1)
	if err != nil {
		return nil, err
	}
	for i := len(params) - 1; i >= 0; i-- {
		pk, err := d.kind(params[i], depth+1)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			d.nodes++
		}
		k = d.a.kind.put(Kind{Sort: KindArrow, Param: pk, Result: k})
	}
	return k, nil
}

var typeCaseNames = map[protowire.Number]string{
	fTypeVar: "VAR", fTypeCon: "CON", fTypeBuiltin: "BUILTIN", fTypeForall: "FORALL", fTypeStruct: "STRUCT",
	fTypeNat: "NAT", fTypeSyn: "SYN", fTypeInterned: "INTERNED_TYPE", fTypeTApp: "TAPP",
}

// typeRef decodes a Type outside the interning table, where only the
// interned_type case is allowed.
func (d *decoder) typeRef(b []byte) (Type, error) {
	// Fast path: the message is exactly one interned_type field, of an
	// index below 1<<14.
	if len(b) == 2 && b[0] == byte(fTypeInterned<<3) && b[1] < 0x80 {
		if i := int(b[1]); i < len(d.types) {
			return d.types[i], nil
		}
	}
	if len(b) == 3 && b[0] == byte(fTypeInterned<<3) && b[1] >= 0x80 && b[2] < 0x80 {
		if i := int(b[1]&0x7f) | int(b[2])<<7; i < len(d.types) {
			return d.types[i], nil
		}
	}
	f, ok, err := lastCase(b, "Type", typeCase)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errorf("SUM_NOT_SET is not supported outside type interning table")
	}
	if f.num != fTypeInterned {
		return nil, errorf("%s is not supported outside type interning table", typeCaseNames[f.num])
	}
	i, err := f.index("Type.interned_type")
	if err != nil {
		return nil, err
	}
	if i >= len(d.types) {
		return nil, errorf("invalid internedTypes table index %d", i)
	}
	return d.types[i], nil
}

// typ decodes a Type inside the interning table (any case).
func (d *decoder) typ(b []byte, depth int) (Type, error) {
	if depth > maxTypeDepth {
		return nil, errorf("Type nested too deeply")
	}
	d.nodes++
	f, ok, err := lastCase(b, "Type", typeCase)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errorf("Type.SUM_NOT_SET")
	}
	if f.num == fTypeNat {
		n, err := f.sint64Of("Type.nat")
		if err != nil {
			return nil, err
		}
		if n < 0 || n > 37 {
			return nil, errorf("TNat must be between 0 and 37, found %d", n)
		}
		return &TNat{N: int(n)}, nil
	}
	if f.num == fTypeInterned {
		i, err := f.index("Type.interned_type")
		if err != nil {
			return nil, err
		}
		if i >= len(d.types) {
			return nil, errorf("invalid internedTypes table index %d", i)
		}
		d.nodes += d.typeSizes[i] - 1
		return d.types[i], nil
	}
	m, err := f.message("Type")
	if err != nil {
		return nil, err
	}
	switch f.num {
	case fTypeVar, fTypeCon, fTypeBuiltin, fTypeSyn: // a head and an argument list
		return d.headWithArgs(f.num, m, depth)
	case fTypeForall:
		var vars [][]byte
		var body []byte
		if err := eachField(m, func(f field) error {
			var err error
			var x []byte
			switch f.num {
			case fTypeForallVars:
				x, err = f.message("Type.Forall.vars")
				vars = append(vars, x)
			case fTypeForallBody:
				body, err = f.message("Type.Forall.body")
			default:
				return unknownField("Type.Forall", f)
			}
			return err
		}); err != nil {
			return nil, err
		}
		if len(vars) == 0 {
			return nil, errorf("Unexpected empty Type.Forall.vars")
		}
		if d.flat() && len(vars) != 1 {
			return nil, errorf("Type.Forall.vars must have exactly one element in Daml-LF %s", d.lf)
		}
		t, err := d.typ(body, depth+1)
		if err != nil {
			return nil, err
		}
		for i := len(vars) - 1; i >= 0; i-- {
			tp, err := d.typeVarWithKind(vars[i], depth+1)
			if err != nil {
				return nil, err
			}
			if i > 0 {
				d.nodes++
			}
			t = d.a.tforall.put(TForall{Param: tp, Body: t})
		}
		return t, nil
	case fTypeStruct:
		var buf [8]Field
		fields := buf[:0]
		seen := map[string]bool{}
		if err := eachField(m, func(f field) error {
			if f.num != fTypeStructFields {
				return unknownField("Type.Struct", f)
			}
			x, err := f.message("Type.Struct.fields")
			if err != nil {
				return err
			}
			fl, err := d.fieldWithType(x, func(b []byte) (Type, error) { return d.typ(b, depth+1) })
			if err != nil {
				return err
			}
			if seen[fl.Name] {
				return errorf("TStruct: duplicate field %s", fl.Name)
			}
			seen[fl.Name] = true
			fields = append(fields, fl)
			return nil
		}); err != nil {
			return nil, err
		}
		if len(fields) == 0 {
			return nil, errorf("Unexpected empty Type.Struct.fields")
		}
		return d.a.tstruct.put(TStruct{Fields: d.a.fields.clone(fields)}), nil
	default: // 9: tapp
		if !d.flat() {
			return nil, errorf("TApp not supported by Daml-LF %s (local flattening)", d.lf)
		}
		var lhs, rhs []byte
		if err := eachField(m, func(f field) error {
			var err error
			switch f.num {
			case fTypeTAppLhs:
				lhs, err = f.message("Type.TApp.lhs")
			case fTypeTAppRhs:
				rhs, err = f.message("Type.TApp.rhs")
			default:
				return unknownField("Type.TApp", f)
			}
			return err
		}); err != nil {
			return nil, err
		}
		fun, err := d.typ(lhs, depth+1)
		if err != nil {
			return nil, err
		}
		arg, err := d.typ(rhs, depth+1)
		if err != nil {
			return nil, err
		}
		return d.a.tapp.put(TApp{Fun: fun, Arg: arg}), nil
	}
}

var builtinMinVersion = map[BuiltinType]LFVersion{
	BuiltinUnit: LF21, BuiltinBool: LF21, BuiltinInt64: LF21, BuiltinDate: LF21,
	BuiltinTimestamp: LF21, BuiltinNumeric: LF21, BuiltinParty: LF21, BuiltinText: LF21,
	BuiltinContractID: LF21, BuiltinOptional: LF21, BuiltinList: LF21, BuiltinGenMap: LF21,
	BuiltinAny: LF21, BuiltinAnyException: LF21, BuiltinTypeRep: LF21, BuiltinArrow: LF21,
	BuiltinUpdate: LF21, BuiltinFailureCategory: LF21, BuiltinTextMap: LF21,
	BuiltinBigNumeric: LF2Dev, BuiltinRoundingMode: LF2Dev,
}

var headMsgNames = map[protowire.Number]string{fTypeVar: "Type.Var", fTypeCon: "Type.Con", fTypeBuiltin: "Type.Builtin", fTypeSyn: "Type.Syn"}

// headWithArgs decodes Type.Var, Type.Con, Type.Builtin and Type.Syn: a
// head and an argument list (which must be empty from LF 2.2, except for
// synonyms).
func (d *decoder) headWithArgs(c protowire.Number, m []byte, depth int) (Type, error) {
	msg := headMsgNames[c]
	var head []byte
	var headIdx int
	var hasHead bool
	var argBuf [4][]byte // no allocation for the usual few arguments
	args := argBuf[:0]
	r := newReader(m)
	for pf, ok := r.next(); ok; pf, ok = r.next() {
		f := pf
		var err error
		switch {
		case f.num == fTypeArgs:
			if f.typ != protowire.BytesType {
				return nil, f.wrongType(msg + ".args")
			}
			args = append(args, f.b)
		case c == fTypeVar && f.num == fTypeVarName:
			headIdx, err = f.index("Type.Var.var_interned_str")
		case c == fTypeBuiltin && f.num == fTypeBuiltinType:
			var v int32
			v, err = f.int32Of("Type.Builtin.builtin")
			headIdx = int(v)
		case (c == fTypeCon || c == fTypeSyn) && f.num == fTypeConTycon:
			if f.typ != protowire.BytesType {
				return nil, f.wrongType(msg + ".tycon")
			}
			head, hasHead = f.b, true
		default:
			return nil, unknownField(msg, f)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := r.err; err != nil {
		return nil, err
	}
	var t Type
	switch c {
	case fTypeVar:
		name, err := d.vname(headIdx)
		if err != nil {
			return nil, err
		}
		t = d.a.tvar.put(TVar{Name: name})
	case fTypeBuiltin:
		b := BuiltinType(headIdx)
		minV, ok := builtinMinVersion[b]
		if !ok {
			return nil, errorf("BuiltinType.UNRECOGNIZED (%d)", headIdx)
		}
		if !d.atLeast(minV) {
			return nil, errorf("%s is not supported by Daml-LF %s", b, d.lf)
		}
		t = d.a.tbuiltin.put(TBuiltin{Builtin: b})
	default:
		if !hasHead {
			return nil, errorf("PackageId.SUM_NOT_SET")
		}
		id, err := d.typeConID(head)
		if err != nil {
			return nil, err
		}
		if c == fTypeSyn {
			syn := d.a.tsyn.put(TSyn{ID: id, Args: d.a.types.make(len(args))})
			for i, a := range args {
				if syn.Args[i], err = d.typ(a, depth+1); err != nil {
					return nil, err
				}
			}
			return syn, nil
		}
		t = d.a.tcon.put(TCon{ID: id})
	}
	if d.flat() && len(args) > 0 {
		return nil, errorf("%s.args must be empty in Daml-LF %s", msg, d.lf)
	}
	for _, a := range args {
		at, err := d.typ(a, depth+1)
		if err != nil {
			return nil, err
		}
		d.nodes++
		t = d.a.tapp.put(TApp{Fun: t, Arg: at})
	}
	return t, nil
}

func (d *decoder) typeVarWithKind(b []byte, depth int) (TypeParam, error) {
	var nameIdx int
	var kind []byte
	hasKind := false
	if err := eachField(b, func(f field) error {
		var err error
		switch f.num {
		case fTypeVarWithKindName:
			nameIdx, err = f.index("TypeVarWithKind.var_interned_str")
		case fTypeVarWithKindKind:
			kind, err = f.message("TypeVarWithKind.kind")
			hasKind = true
		default:
			return unknownField("TypeVarWithKind", f)
		}
		return err
	}); err != nil {
		return TypeParam{}, err
	}
	name, err := d.vname(nameIdx)
	if err != nil {
		return TypeParam{}, err
	}
	if !hasKind {
		return TypeParam{}, errorf("Kind.SUM_NOT_SET")
	}
	k, err := d.kind(kind, depth+1)
	if err != nil {
		return TypeParam{}, err
	}
	return TypeParam{Name: name, Kind: k}, nil
}

// fieldWithType decodes a FieldWithType with decodeType for its type.
func (d *decoder) fieldWithType(b []byte, decodeType func([]byte) (Type, error)) (Field, error) {
	var nameIdx int
	var typ []byte
	if err := eachField(b, func(f field) error {
		var err error
		switch f.num {
		case fFieldWithTypeName:
			nameIdx, err = f.index("FieldWithType.field_interned_str")
		case fFieldWithTypeType:
			typ, err = f.message("FieldWithType.type")
		default:
			return unknownField("FieldWithType", f)
		}
		return err
	}); err != nil {
		return Field{}, err
	}
	name, err := d.vname(nameIdx)
	if err != nil {
		return Field{}, err
	}
	t, err := decodeType(typ)
	if err != nil {
		return Field{}, err
	}
	return Field{Name: name, Type: t}, nil
}

// typeConID decodes a TypeConId (also TypeSynId and ValueId, which have
// the same shape).
func (d *decoder) typeConID(b []byte) (TypeConID, error) {
	if len(b) < len(tyConKey{}) {
		var k tyConKey
		k[0] = byte(len(b))
		copy(k[1:], b)
		if id, ok := d.shortTyCons[k]; ok {
			return id, nil
		}
		id, err := d.decodeTypeConID(b)
		if err == nil {
			if d.shortTyCons == nil {
				// Sized for the usual count (about one per dotted
				// name): growing it was a twentieth of decoding.
				d.shortTyCons = make(map[tyConKey]TypeConID, len(d.dnames))
			}
			d.shortTyCons[k] = id
		}
		return id, err
	}
	if id, ok := d.tyCons[string(b)]; ok {
		return id, nil
	}
	id, err := d.decodeTypeConID(b)
	if err == nil {
		d.tyCons[string(b)] = id
	}
	return id, err
}

// tyConKey is a TypeConId message of fewer than 24 bytes (most are 8 to
// 16: a module id and two interned indexes) as a map key: its length,
// then its bytes, then zeros.
type tyConKey [24]byte

func (d *decoder) decodeTypeConID(b []byte) (TypeConID, error) {
	var mod []byte
	var nameIdx int
	if err := eachField(b, func(f field) error {
		var err error
		switch f.num {
		case fTypeConIDModule:
			mod, err = f.message("TypeConId.module")
		case fTypeConIDName:
			nameIdx, err = f.index("TypeConId.name_interned_dname")
		default:
			return unknownField("TypeConId", f)
		}
		return err
	}); err != nil {
		return TypeConID{}, err
	}
	pkg, module, err := d.moduleID(mod)
	if err != nil {
		return TypeConID{}, err
	}
	name, err := d.dname(nameIdx)
	if err != nil {
		return TypeConID{}, err
	}
	return TypeConID{PackageID: pkg, Module: module, Name: name}, nil
}

func (d *decoder) moduleID(b []byte) (pkg, module string, err error) {
	var ref []byte
	var nameIdx int
	if err := eachField(b, func(f field) error {
		var err error
		switch f.num {
		case fModuleIDPackage:
			ref, err = f.message("ModuleId.package_id")
		case fModuleIDName:
			nameIdx, err = f.index("ModuleId.module_name_interned_dname")
		default:
			return unknownField("ModuleId", f)
		}
		return err
	}); err != nil {
		return "", "", err
	}
	if pkg, err = d.pkgRef(ref); err != nil {
		return "", "", err
	}
	module, err = d.dname(nameIdx)
	return pkg, module, err
}

// pkgRef resolves a SelfOrImportedPackageId (daml_lf2.proto).
func (d *decoder) pkgRef(b []byte) (string, error) {
	f, ok, err := lastCase(b, "SelfOrImportedPackageId", func(n protowire.Number) bool {
		return n == fPkgRefSelf || n == fPkgRefImportedInterned || n == fPkgRefImportID
	})
	if err != nil {
		return "", err
	}
	if !ok {
		return "", errorf("PackageId.SUM_NOT_SET")
	}
	switch f.num {
	case fPkgRefSelf:
		return d.id, unit(f, "SelfOrImportedPackageId.self_package_id")
	case fPkgRefImportedInterned:
		i, err := f.index("SelfOrImportedPackageId.imported_package_id_interned_str")
		if err != nil {
			return "", err
		}
		id, err := d.str(i)
		if err != nil {
			return "", err
		}
		if !validPackageID(id) {
			return "", errorf("invalid package id %q", id)
		}
		// With a declared imports table, other packages are named through it;
		// only stable packages may still be named directly.
		if d.importsDeclared && !IsStablePackage(id) {
			return "", errorf("Got explicit non-stable package id %s", id)
		}
		if id != d.id {
			d.refs[id] = true
		}
		return id, nil
	default:
		if !d.flat() {
			return "", errorf("package_import_id is not supported by Daml-LF %s", d.lf)
		}
		i, err := f.index("SelfOrImportedPackageId.package_import_id")
		if err != nil {
			return "", err
		}
		if !d.importsDeclared {
			return "", errorf("package_import_id %d used but the package declares no imports table", i)
		}
		if i >= len(d.imports) {
			return "", errorf("invalid package imports table index %d", i)
		}
		if id := d.imports[i]; id != d.id {
			d.refs[id] = true
		}
		return d.imports[i], nil
	}
}

func (d *decoder) module(b []byte) (*Module, error) {
	var nameIdx int
	var flags, syns, dts, vals, tpls, excs, ifaces [][]byte
	if err := eachField(b, func(f field) error {
		var err error
		var x []byte
		switch f.num {
		case fModuleName:
			nameIdx, err = f.index("Module.name_interned_dname")
		case fModuleFlags:
			x, err = f.message("Module.flags")
			flags = append(flags, x) // repeated occurrences merge
		case fModuleSynonyms:
			x, err = f.message("Module.synonyms")
			syns = append(syns, x)
		case fModuleDataTypes:
			x, err = f.message("Module.data_types")
			dts = append(dts, x)
		case fModuleValues:
			x, err = f.message("Module.values")
			vals = append(vals, x)
		case fModuleTemplates:
			x, err = f.message("Module.templates")
			tpls = append(tpls, x)
		case fModuleExceptions:
			x, err = f.message("Module.exceptions")
			excs = append(excs, x)
		case fModuleInterfaces:
			x, err = f.message("Module.interfaces")
			ifaces = append(ifaces, x)
		default:
			return unknownField("Module", f)
		}
		return err
	}); err != nil {
		return nil, err
	}
	name, err := d.dname(nameIdx)
	if err != nil {
		return nil, err
	}
	m := &Module{
		Name: name,
		// Sized by the definitions' counts: growing them was a
		// twentieth of decoding.
		dataTypes:  make(map[string]*DataType, len(dts)),
		synonyms:   make(map[string]*TypeSynonym, len(syns)),
		templates:  make(map[string]*Template, len(tpls)),
		interfaces: make(map[string]*Interface, len(ifaces)),
		exceptions: make(map[string]bool, len(excs)),

		values:        make(map[string]*DefValue, len(vals)),
		exceptionDefs: make(map[string]*DefException, len(excs)),
	}
	if err := d.featureFlags(bytes.Join(flags, nil)); err != nil {
		return nil, err
	}
	wrap := func(err error) error {
		if pe, ok := err.(*parseError); ok {
			return errorf("module %s: %s", name, pe.msg)
		}
		return err
	}
	for _, x := range syns {
		s, err := d.synonym(x)
		if err != nil {
			return nil, wrap(err)
		}
		if m.synonyms[s.Name] != nil || m.dataTypes[s.Name] != nil {
			return nil, errorf("module %s: duplicate definition %s", name, s.Name)
		}
		m.synonyms[s.Name] = s
		m.Synonyms = append(m.Synonyms, s)
	}
	for _, x := range dts {
		dt, err := d.dataType(x)
		if err != nil {
			return nil, wrap(err)
		}
		if m.synonyms[dt.Name] != nil || m.dataTypes[dt.Name] != nil {
			return nil, errorf("module %s: duplicate definition %s", name, dt.Name)
		}
		m.dataTypes[dt.Name] = dt
		m.DataTypes = append(m.DataTypes, dt)
	}
	for _, x := range vals {
		v, err := d.value(x)
		if err != nil {
			return nil, wrap(err)
		}
		if m.values[v.Name] != nil {
			return nil, errorf("module %s: duplicate value %s", name, v.Name)
		}
		m.values[v.Name] = v
		m.Values = append(m.Values, v)
	}
	for _, x := range tpls {
		t, err := d.template(x)
		if err != nil {
			return nil, wrap(err)
		}
		if m.templates[t.Name] != nil {
			return nil, errorf("module %s: duplicate template %s", name, t.Name)
		}
		m.templates[t.Name] = t
		m.Templates = append(m.Templates, t)
	}
	for _, x := range excs {
		var nIdx int
		var message []byte
		if err := eachField(x, func(f field) error {
			var err error
			switch f.num {
			case fDefExceptionName:
				nIdx, err = f.index("DefException.name_interned_dname")
			case fDefExceptionLocation:
				_, err = f.message("DefException.location")
			case fDefExceptionMessage:
				message, err = f.message("DefException.message")
			default:
				return unknownField("DefException", f)
			}
			return err
		}); err != nil {
			return nil, wrap(err)
		}
		en, err := d.dname(nIdx)
		if err != nil {
			return nil, wrap(err)
		}
		if m.exceptions[en] {
			return nil, errorf("module %s: duplicate exception %s", name, en)
		}
		msgExpr, err := d.expr(message, 0)
		if err != nil {
			return nil, errorf("module %s: exception %s: message: %v", name, en, err)
		}
		ed := &DefException{Name: en, Message: msgExpr}
		m.exceptions[en] = true
		m.Exceptions = append(m.Exceptions, en)
		m.exceptionDefs[en] = ed
		m.ExceptionDefs = append(m.ExceptionDefs, ed)
	}
	for _, x := range ifaces {
		i, err := d.iface(x)
		if err != nil {
			return nil, wrap(err)
		}
		if m.interfaces[i.Name] != nil {
			return nil, errorf("module %s: duplicate interface %s", name, i.Name)
		}
		m.interfaces[i.Name] = i
		m.Interfaces = append(m.Interfaces, i)
	}
	return m, nil
}

func (d *decoder) featureFlags(b []byte) error {
	var set [4]bool
	if err := eachField(b, func(f field) error {
		if f.num < 1 || f.num > 3 {
			return unknownField("FeatureFlags", f)
		}
		v, err := f.boolOf("FeatureFlags")
		set[f.num] = v
		return err
	}); err != nil {
		return err
	}
	if !set[1] || !set[2] || !set[3] {
		return errorf("Deprecated feature flag settings detected, refusing to parse package")
	}
	return nil
}

func (d *decoder) synonym(b []byte) (*TypeSynonym, error) {
	var nameIdx int
	var params [][]byte
	var typ []byte
	if err := eachField(b, func(f field) error {
		var err error
		var x []byte
		switch f.num {
		case fDefTypeSynLocation:
			_, err = f.message("DefTypeSyn.location")
		case fDefTypeSynName:
			nameIdx, err = f.index("DefTypeSyn.name_interned_dname")
		case fDefTypeSynParams:
			x, err = f.message("DefTypeSyn.params")
			params = append(params, x)
		case fDefTypeSynType:
			typ, err = f.message("DefTypeSyn.type")
		default:
			return unknownField("DefTypeSyn", f)
		}
		return err
	}); err != nil {
		return nil, err
	}
	name, err := d.dname(nameIdx)
	if err != nil {
		return nil, err
	}
	s := &TypeSynonym{Name: name}
	if s.Params, err = d.params(params); err != nil {
		return nil, err
	}
	if s.Type, err = d.typeRef(typ); err != nil {
		return nil, err
	}
	return s, nil
}

func (d *decoder) params(raw [][]byte) ([]TypeParam, error) {
	var ps []TypeParam
	for _, x := range raw {
		p, err := d.typeVarWithKind(x, 0)
		if err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	return ps, nil
}

func (d *decoder) dataType(b []byte) (*DataType, error) {
	var nameIdx int
	var params [][]byte
	var serializable bool
	var cons field
	hasCons := false
	if err := eachField(b, func(f field) error {
		var err error
		var x []byte
		switch f.num {
		case fDefDataTypeLocation:
			_, err = f.message("DefDataType.location")
		case fDefDataTypeName:
			nameIdx, err = f.index("DefDataType.name_interned_dname")
		case fDefDataTypeParams:
			x, err = f.message("DefDataType.params")
			params = append(params, x)
		case fDefDataTypeSerial:
			serializable, err = f.boolOf("DefDataType.serializable")
		case fDefDataTypeRecord, fDefDataTypeVariant, fDefDataTypeEnum, fDefDataTypeInterface:
			_, err = f.message("DefDataType")
			cons, hasCons = f, true
		default:
			return unknownField("DefDataType", f)
		}
		return err
	}); err != nil {
		return nil, err
	}
	name, err := d.dname(nameIdx)
	if err != nil {
		return nil, err
	}
	dt := &DataType{Name: name, Serializable: serializable}
	if dt.Params, err = d.params(params); err != nil {
		return nil, err
	}
	if !hasCons {
		return nil, errorf("DefDataType.DATACONS_NOT_SET")
	}
	switch cons.num {
	case fDefDataTypeRecord, fDefDataTypeVariant:
		dt.Variety = RecordVariety
		msg := "DefDataType.record"
		if cons.num == fDefDataTypeVariant {
			dt.Variety = VariantVariety
			msg = "DefDataType.variant"
		}
		seen := map[string]bool{}
		if err := eachField(cons.b, func(f field) error {
			if f.num != fDataFieldsFields {
				return unknownField(msg, f)
			}
			x, err := f.message(msg + ".fields")
			if err != nil {
				return err
			}
			fl, err := d.fieldWithType(x, d.typeRef)
			if err != nil {
				return err
			}
			if seen[fl.Name] {
				return errorf("%s: duplicate field %s", name, fl.Name)
			}
			seen[fl.Name] = true
			dt.Fields = append(dt.Fields, fl)
			return nil
		}); err != nil {
			return nil, err
		}
	case fDefDataTypeEnum:
		dt.Variety = EnumVariety
		if len(dt.Params) > 0 {
			return nil, errorf("%s: an enum cannot have type parameters", name)
		}
		var idx []int
		if err := eachField(cons.b, func(f field) error {
			if f.num != fEnumConstructors {
				return unknownField("DefDataType.EnumConstructors", f)
			}
			var err error
			idx, err = f.appendIndices(idx, "EnumConstructors.constructors_interned_str")
			return err
		}); err != nil {
			return nil, err
		}
		seen := map[string]bool{}
		for _, i := range idx {
			c, err := d.vname(i)
			if err != nil {
				return nil, err
			}
			if seen[c] {
				return nil, errorf("%s: duplicate enum constructor %s", name, c)
			}
			seen[c] = true
			dt.Constructors = append(dt.Constructors, c)
		}
	default:
		dt.Variety = InterfaceVariety
		if err := unit(cons, "DefDataType.interface"); err != nil {
			return nil, err
		}
	}
	return dt, nil
}

// value decodes a DefValue.
func (d *decoder) value(b []byte) (*DefValue, error) {
	var nwt, body []byte
	if err := eachField(b, func(f field) error {
		var err error
		switch f.num {
		case fDefValueLocation:
			_, err = f.message("DefValue.location")
		case fDefValueNameWithType:
			nwt, err = f.message("DefValue.name_with_type")
		case fDefValueExpr:
			body, err = f.message("DefValue.expr")
		default:
			return unknownField("DefValue", f)
		}
		return err
	}); err != nil {
		return nil, err
	}
	var nameIdx int
	var typ []byte
	if err := eachField(nwt, func(f field) error {
		var err error
		switch f.num {
		case fNameWithTypeName:
			nameIdx, err = f.index("DefValue.NameWithType.name_interned_dname")
		case fNameWithTypeType:
			typ, err = f.message("DefValue.NameWithType.type")
		default:
			return unknownField("DefValue.NameWithType", f)
		}
		return err
	}); err != nil {
		return nil, err
	}
	name, err := d.dname(nameIdx)
	if err != nil {
		return nil, err
	}
	v := &d.a.value.make(1)[0]
	v.Name = name
	if v.Type, err = d.typeRef(typ); err != nil {
		return nil, errorf("value %s: type: %v", name, err)
	}
	// Decoded by the package's check decoder (decodePackageWith sets it
	// before any module): d keeps only the span.
	e, err := d.check.expr(body, 0)
	if err != nil {
		return nil, errorf("value %s: %v", name, err)
	}
	if d.src == nil {
		v.body.Store(&exprBox{e})
	} else {
		v.raw, v.src = d.spanOf(body), d.src
	}
	return v, nil
}

func (d *decoder) template(b []byte) (*Template, error) {
	var nameIdx, paramIdx int
	var choices [][]byte
	var key, impls [][]byte
	var precond, signatories, observers []byte
	hasPrecond := false
	if err := eachField(b, func(f field) error {
		var err error
		var x []byte
		switch f.num {
		case fDefTemplateTycon:
			nameIdx, err = f.index("DefTemplate.tycon_interned_dname")
		case fDefTemplateParam:
			paramIdx, err = f.index("DefTemplate.param_interned_str")
		case fDefTemplatePrecond:
			precond, err = f.message("DefTemplate.precond")
			hasPrecond = true
		case fDefTemplateSignatories:
			signatories, err = f.message("DefTemplate.signatories")
		case fDefTemplateObservers:
			observers, err = f.message("DefTemplate.observers")
		case fDefTemplateChoices:
			x, err = f.message("DefTemplate.choices")
			choices = append(choices, x)
		case fDefTemplateLocation:
			_, err = f.message("DefTemplate.location")
		case fDefTemplateKey:
			x, err = f.message("DefTemplate.key")
			key = append(key, x)
		case fDefTemplateImplements:
			x, err = f.message("DefTemplate.implements")
			impls = append(impls, x)
		default:
			return unknownField("DefTemplate", f)
		}
		return err
	}); err != nil {
		return nil, err
	}
	name, err := d.dname(nameIdx)
	if err != nil {
		return nil, err
	}
	t := &Template{Name: name}
	if t.Param, err = d.vname(paramIdx); err != nil {
		return nil, err
	}
	if t.Choices, err = d.choices(choices); err != nil {
		return nil, errorf("template %s: %v", name, err)
	}
	if hasPrecond {
		if t.Precond, err = d.expr(precond, 0); err != nil {
			return nil, errorf("template %s: precondition: %v", name, err)
		}
	}
	if t.Signatories, err = d.expr(signatories, 0); err != nil {
		return nil, errorf("template %s: signatories: %v", name, err)
	}
	if t.Observers, err = d.expr(observers, 0); err != nil {
		return nil, errorf("template %s: observers: %v", name, err)
	}
	if len(key) > 0 {
		if !d.atLeast(LF23) {
			return nil, errorf("template %s: Contract Keys is not supported by Daml-LF %s", name, d.lf)
		}
		var typ, maintainers, body []byte
		if err := eachField(key[len(key)-1], func(f field) error {
			var err error
			switch f.num {
			case fDefKeyType:
				typ, err = f.message("DefTemplate.DefKey.type")
			case fDefKeyMaintainers:
				maintainers, err = f.message("DefTemplate.DefKey.maintainers")
			case fDefKeyExpr:
				body, err = f.message("DefTemplate.DefKey.key_expr")
			default:
				return unknownField("DefTemplate.DefKey", f)
			}
			return err
		}); err != nil {
			return nil, err
		}
		kt, err := d.typeRef(typ)
		if err != nil {
			return nil, errorf("template %s key: %v", name, err)
		}
		t.Key = &TemplateKey{Type: kt}
		if t.Key.Body, err = d.expr(body, 0); err != nil {
			return nil, errorf("template %s key: %v", name, err)
		}
		if t.Key.Maintainers, err = d.expr(maintainers, 0); err != nil {
			return nil, errorf("template %s key maintainers: %v", name, err)
		}
	}
	for _, x := range impls {
		var iface, body []byte
		if err := eachField(x, func(f field) error {
			var err error
			switch f.num {
			case fImplementsInterface:
				iface, err = f.message("DefTemplate.Implements.interface")
			case fImplementsBody:
				body, err = f.message("DefTemplate.Implements.body")
			case fImplementsLocation:
				_, err = f.message("DefTemplate.Implements.location")
			default:
				return unknownField("DefTemplate.Implements", f)
			}
			return err
		}); err != nil {
			return nil, err
		}
		id, err := d.typeConID(iface)
		if err != nil {
			return nil, err
		}
		t.Implements = append(t.Implements, id)
		in, err := d.instanceBody(id, body)
		if err != nil {
			return nil, errorf("template %s: implements %s: %v", name, id, err)
		}
		t.Instances = append(t.Instances, in)
	}
	return t, nil
}

// instanceBody decodes an InterfaceInstanceBody.
func (d *decoder) instanceBody(id TypeConID, b []byte) (*InterfaceInstance, error) {
	in := &InterfaceInstance{Interface: id}
	var view []byte
	var methods [][]byte
	if err := eachField(b, func(f field) error {
		var err error
		var x []byte
		switch f.num {
		case fInstanceBodyMethods:
			x, err = f.message("InterfaceInstanceBody.methods")
			methods = append(methods, x)
		case fInstanceBodyView:
			view, err = f.message("InterfaceInstanceBody.view")
		default:
			return unknownField("InterfaceInstanceBody", f)
		}
		return err
	}); err != nil {
		return nil, err
	}
	for _, x := range methods {
		var nameIdx int
		var value []byte
		if err := eachField(x, func(f field) error {
			var err error
			switch f.num {
			case fInstanceMethodName:
				nameIdx, err = f.index("InterfaceInstanceMethod.method_interned_name")
			case fInstanceMethodValue:
				value, err = f.message("InterfaceInstanceMethod.value")
			default:
				return unknownField("InterfaceInstanceMethod", f)
			}
			return err
		}); err != nil {
			return nil, err
		}
		mn, err := d.vname(nameIdx)
		if err != nil {
			return nil, err
		}
		e, err := d.expr(value, 0)
		if err != nil {
			return nil, errorf("method %s: %v", mn, err)
		}
		in.Methods = append(in.Methods, MethodBody{Name: mn, Expr: e})
	}
	var err error
	if in.View, err = d.expr(view, 0); err != nil {
		return nil, errorf("view: %v", err)
	}
	return in, nil
}

func (d *decoder) choices(raw [][]byte) ([]*Choice, error) {
	var cs []*Choice
	seen := map[string]bool{}
	for _, x := range raw {
		c, err := d.choice(x)
		if err != nil {
			return nil, err
		}
		if seen[c.Name] {
			return nil, errorf("duplicate choice %s", c.Name)
		}
		seen[c.Name] = true
		cs = append(cs, c)
	}
	return cs, nil
}

func (d *decoder) choice(b []byte) (*Choice, error) {
	var nameIdx, selfIdx int
	var consuming bool
	var arg, ret []byte
	var controllers, observers, authorizers, update []byte
	hasAuthorizers := false
	if err := eachField(b, func(f field) error {
		var err error
		switch f.num {
		case fChoiceLocation:
			_, err = f.message("TemplateChoice.location")
		case fChoiceName:
			nameIdx, err = f.index("TemplateChoice.name_interned_str")
		case fChoiceConsuming:
			consuming, err = f.boolOf("TemplateChoice.consuming")
		case fChoiceControllers:
			controllers, err = f.message("TemplateChoice.controllers")
		case fChoiceObservers:
			observers, err = f.message("TemplateChoice.observers")
		case fChoiceUpdate:
			update, err = f.message("TemplateChoice.update")
		case fChoiceAuthorizers:
			authorizers, err = f.message("TemplateChoice.authorizers")
			hasAuthorizers = true
		case fChoiceArgBinder:
			arg, err = f.message("TemplateChoice.arg_binder")
		case fChoiceRetType:
			ret, err = f.message("TemplateChoice.ret_type")
		case fChoiceSelfBinder:
			selfIdx, err = f.index("TemplateChoice.self_binder_interned_str")
		default:
			return unknownField("TemplateChoice", f)
		}
		return err
	}); err != nil {
		return nil, err
	}
	name, err := d.vname(nameIdx)
	if err != nil {
		return nil, err
	}
	c := &Choice{Name: name, Consuming: consuming}
	if c.SelfBinder, err = d.vname(selfIdx); err != nil {
		return nil, err
	}
	var argVar int
	var argType []byte
	if err := eachField(arg, func(f field) error {
		var err error
		switch f.num {
		case fVarWithTypeName:
			argVar, err = f.index("VarWithType.var_interned_str")
		case fVarWithTypeType:
			argType, err = f.message("VarWithType.type")
		default:
			return unknownField("VarWithType", f)
		}
		return err
	}); err != nil {
		return nil, err
	}
	if c.ArgBinder, err = d.vname(argVar); err != nil {
		return nil, err
	}
	if c.ArgType, err = d.typeRef(argType); err != nil {
		return nil, errorf("choice %s argument: %v", name, err)
	}
	if c.ReturnType, err = d.typeRef(ret); err != nil {
		return nil, errorf("choice %s return type: %v", name, err)
	}
	if c.Controllers, err = d.expr(controllers, 0); err != nil {
		return nil, errorf("choice %s controllers: %v", name, err)
	}
	if c.Observers, err = d.expr(observers, 0); err != nil {
		return nil, errorf("choice %s observers: %v", name, err)
	}
	if hasAuthorizers {
		if c.Authorizers, err = d.expr(authorizers, 0); err != nil {
			return nil, errorf("choice %s authorizers: %v", name, err)
		}
	}
	if c.Update, err = d.expr(update, 0); err != nil {
		return nil, errorf("choice %s update: %v", name, err)
	}
	return c, nil
}

func (d *decoder) iface(b []byte) (*Interface, error) {
	var nameIdx, paramIdx int
	var methods, choices, requires [][]byte
	var view []byte
	if err := eachField(b, func(f field) error {
		var err error
		var x []byte
		switch f.num {
		case fDefInterfaceLocation:
			_, err = f.message("DefInterface.location")
		case fDefInterfaceTycon:
			nameIdx, err = f.index("DefInterface.tycon_interned_dname")
		case fDefInterfaceMethods:
			x, err = f.message("DefInterface.methods")
			methods = append(methods, x)
		case fDefInterfaceParam:
			paramIdx, err = f.index("DefInterface.param_interned_str")
		case fDefInterfaceChoices:
			x, err = f.message("DefInterface.choices")
			choices = append(choices, x)
		case fDefInterfaceView:
			view, err = f.message("DefInterface.view")
		case fDefInterfaceRequires:
			x, err = f.message("DefInterface.requires")
			requires = append(requires, x)
		default:
			return unknownField("DefInterface", f)
		}
		return err
	}); err != nil {
		return nil, err
	}
	name, err := d.dname(nameIdx)
	if err != nil {
		return nil, err
	}
	i := &Interface{Name: name}
	if i.Param, err = d.vname(paramIdx); err != nil {
		return nil, err
	}
	for _, x := range methods {
		var mIdx int
		var typ []byte
		if err := eachField(x, func(f field) error {
			var err error
			switch f.num {
			case fInterfaceMethodLoc:
				_, err = f.message("InterfaceMethod.location")
			case fInterfaceMethodName:
				mIdx, err = f.index("InterfaceMethod.method_interned_name")
			case fInterfaceMethodType:
				typ, err = f.message("InterfaceMethod.type")
			default:
				return unknownField("InterfaceMethod", f)
			}
			return err
		}); err != nil {
			return nil, err
		}
		mn, err := d.vname(mIdx)
		if err != nil {
			return nil, err
		}
		mt, err := d.typeRef(typ)
		if err != nil {
			return nil, errorf("interface %s method %s: %v", name, mn, err)
		}
		i.Methods = append(i.Methods, InterfaceMethod{Name: mn, Type: mt})
	}
	if i.Choices, err = d.choices(choices); err != nil {
		return nil, errorf("interface %s: %v", name, err)
	}
	if i.View, err = d.typeRef(view); err != nil {
		return nil, errorf("interface %s view: %v", name, err)
	}
	for _, x := range requires {
		id, err := d.typeConID(x)
		if err != nil {
			return nil, err
		}
		i.Requires = append(i.Requires, id)
	}
	return i, nil
}
