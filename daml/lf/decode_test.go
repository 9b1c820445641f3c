package lf

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	e "github.com/ledgernode/ledgernode/daml/lf/internal/lfenc"
)

// samplePackage exercises every type-level construct the decoder keeps.
func samplePackage(minor string) e.Package {
	t := e.Con(e.Self(), "Main", "T")
	mods := []e.Module{{
		Name: "Main",
		DataTypes: []e.DataType{
			{Name: "T", Serializable: true, Fields: []e.Field{
				{"owner", e.B(e.Party)},
				{"amount", e.Num(10)},
				{"tags", e.ListOf(e.B(e.Text))},
				{"note", e.Opt(e.B(e.Text))},
				{"next", e.Opt(e.CID(t))},
				{"attrs", e.App(e.B(e.GenMap), e.B(e.Text), e.B(e.Int64))},
				{"meta", e.App(e.B(e.TextMap), e.B(e.Date))},
				{"when", e.B(e.Timestamp)},
				{"flag", e.B(e.Bool)},
			}},
			{Name: "Transfer", Serializable: true, Fields: []e.Field{{"newOwner", e.B(e.Party)}}},
			{Name: "V", Kind: "variant", Serializable: true, Params: []e.Param{{Name: "a"}},
				Fields: []e.Field{{"A", e.B(e.Int64)}, {"B", e.Var("a")}, {"C", e.App(e.Con(e.Self(), "Main", "V"), e.Var("a"))}}},
			{Name: "Color", Kind: "enum", Serializable: true, Enum: []string{"Red", "Green"}},
			{Name: "Box", Serializable: true, Params: []e.Param{{Name: "f", Kind: "* -> *"}, {Name: "n", Kind: "nat"}},
				Fields: []e.Field{{"x", e.App(e.Var("f"), e.App(e.B(e.Numeric), e.Var("n")))}}},
			{Name: "Local", Fields: []e.Field{{"u", e.B(e.Unit)}}},
			{Name: "I", Kind: "interface"},
			{Name: "IView", Serializable: true, Fields: []e.Field{{"owner", e.B(e.Party)}}},
		},
		Templates: []e.Template{{
			Name:       "T",
			Choices:    []e.Choice{{Name: "Transfer", Consuming: true, Arg: e.Con(e.Self(), "Main", "Transfer"), Ret: e.CID(t)}},
			Implements: []e.TyCon{{Ref: e.Self(), Module: "Main", Name: "I"}},
		}},
		Interfaces: []e.Interface{{
			Name:    "I",
			View:    e.Con(e.Self(), "Main", "IView"),
			Choices: []e.Choice{{Name: "Poke", Arg: e.B(e.Unit), Ret: e.B(e.Unit)}},
		}},
	}, {Name: "Other.Sub"}}
	if minor == "3" || minor == "dev" {
		mods[0].Templates[0].Key = e.B(e.Party)
	}
	return e.Package{Minor: minor, Name: "sample", Version: "1.2.3", Modules: mods}
}

func TestDecodeSample(t *testing.T) {
	for _, minor := range []string{"1", "2", "3", "dev"} {
		t.Run("2."+minor, func(t *testing.T) {
			p := decode(t, samplePackage(minor))
			self := func(n string) Type { return tcon(p.ID, "Main", n) }
			unit := &EBuiltinCon{Con: ConUnit} // lfenc's expressions are all ()
			want := &Module{
				Name: "Main",
				DataTypes: []*DataType{
					{Name: "T", Serializable: true, Variety: RecordVariety, Fields: []Field{
						{"owner", tb(BuiltinParty)},
						{"amount", tapp(tb(BuiltinNumeric), tnat(10))},
						{"tags", tapp(tb(BuiltinList), tb(BuiltinText))},
						{"note", tapp(tb(BuiltinOptional), tb(BuiltinText))},
						{"next", tapp(tb(BuiltinOptional), tapp(tb(BuiltinContractID), self("T")))},
						{"attrs", tapp(tb(BuiltinGenMap), tb(BuiltinText), tb(BuiltinInt64))},
						{"meta", tapp(tb(BuiltinTextMap), tb(BuiltinDate))},
						{"when", tb(BuiltinTimestamp)},
						{"flag", tb(BuiltinBool)},
					}},
					{Name: "Transfer", Serializable: true, Variety: RecordVariety, Fields: []Field{{"newOwner", tb(BuiltinParty)}}},
					{Name: "V", Serializable: true, Variety: VariantVariety, Params: []TypeParam{{"a", star}},
						Fields: []Field{{"A", tb(BuiltinInt64)}, {"B", tvar("a")}, {"C", tapp(self("V"), tvar("a"))}}},
					{Name: "Color", Serializable: true, Variety: EnumVariety, Constructors: []string{"Red", "Green"}},
					{Name: "Box", Serializable: true, Variety: RecordVariety,
						Params: []TypeParam{{"f", &Kind{Sort: KindArrow, Param: star, Result: star}}, {"n", &Kind{Sort: KindNat}}},
						Fields: []Field{{"x", tapp(tvar("f"), tapp(tb(BuiltinNumeric), tvar("n")))}}},
					{Name: "Local", Variety: RecordVariety, Fields: []Field{{"u", tb(BuiltinUnit)}}},
					{Name: "I", Variety: InterfaceVariety},
					{Name: "IView", Serializable: true, Variety: RecordVariety, Fields: []Field{{"owner", tb(BuiltinParty)}}},
				},
				Templates: []*Template{{
					Name:  "T",
					Param: "this",
					Choices: []*Choice{{Name: "Transfer", Consuming: true, ArgBinder: "arg", ArgType: self("Transfer"),
						ReturnType: tapp(tb(BuiltinContractID), self("T")), SelfBinder: "self",
						Controllers: unit, Observers: unit, Update: unit}},
					Implements:  []TypeConID{{p.ID, "Main", "I"}},
					Instances:   []*InterfaceInstance{{Interface: TypeConID{p.ID, "Main", "I"}, View: unit}},
					Signatories: unit,
					Observers:   unit,
				}},
				Interfaces: []*Interface{{
					Name:  "I",
					Param: "this",
					View:  self("IView"),
					Choices: []*Choice{{Name: "Poke", ArgBinder: "arg", ArgType: tb(BuiltinUnit), ReturnType: tb(BuiltinUnit), SelfBinder: "self",
						Controllers: unit, Observers: unit, Update: unit}},
				}},
			}
			if minor == "3" || minor == "dev" {
				want.Templates[0].Key = &TemplateKey{Type: tb(BuiltinParty), Body: unit, Maintainers: unit}
			}
			if diff := cmp.Diff(want, p.Module("Main"), ignoreIndexes, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("module Main (-want +got):\n%s", diff)
			}
			if p.Module("Other.Sub") == nil || len(p.Modules) != 2 {
				t.Errorf("modules: %v", p.Modules)
			}
			// Lookups.
			if p.Template("Main", "T") == nil || p.DataType("Main", "Color") == nil || p.Interface("Main", "I") == nil ||
				p.Choice("Main", "T", "Transfer") == nil || p.Choice("Main", "I", "Poke") == nil ||
				p.Choice("Main", "T", "Nope") != nil || p.DataType("Nope", "T") != nil || p.Template("Main", "Color") != nil {
				t.Error("lookups do not find what they should")
			}
			if p.Name != "sample" || p.Version != "1.2.3" || p.LanguageVersion != (LFVersion{2, minor}) || p.IsUtility() {
				t.Errorf("metadata: %s %s %s utility=%v", p.Name, p.Version, p.LanguageVersion, p.IsUtility())
			}
		})
	}
}

func TestTypeString(t *testing.T) {
	tests := []struct {
		typ  Type
		want string
	}{
		{tapp(tb(BuiltinNumeric), tnat(10)), "Numeric 10"},
		{tapp(tb(BuiltinList), tapp(tb(BuiltinContractID), tcon("p", "M", "T"))), "List (ContractId p:M:T)"},
		{tapp(tb(BuiltinArrow), tb(BuiltinInt64), tapp(tb(BuiltinArrow), tb(BuiltinText), tb(BuiltinBool))), "Int64 -> Text -> Bool"},
		{tapp(tb(BuiltinArrow), tapp(tb(BuiltinArrow), tb(BuiltinInt64), tb(BuiltinText)), tb(BuiltinBool)), "(Int64 -> Text) -> Bool"},
		{&TForall{Param: TypeParam{"a", star}, Body: tvar("a")}, "forall (a : *). a"},
		{&TStruct{Fields: []Field{{"x", tb(BuiltinUnit)}}}, "<x : Unit>"},
		{&TSyn{ID: TypeConID{"p", "M", "S"}, Args: []Type{tapp(tb(BuiltinList), tvar("a"))}}, "p:M:S (List a)"},
	}
	for _, tt := range tests {
		if got := tt.typ.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
}

func TestLFVersionCompare(t *testing.T) {
	order := []LFVersion{{1, "15"}, {1, "dev"}, LF21, LF22, LF23, {2, "10"}, LF2Dev}
	for i, a := range order {
		for j, b := range order {
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got := a.Compare(b); got != want {
				t.Errorf("%s.Compare(%s) = %d, want %d", a, b, got, want)
			}
		}
	}
}

func TestCompareVersions(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"1.0.0", "1.0.0", 0},
		{"1.9.0", "1.10.0", -1},
		{"2.0", "1.99.99", 1},
		{"1.0", "1.0.0", -1},
		{"3.4.0.20251020.14338.0", "3.5.0.20251016.14332.0", -1},
		{"x", "1.0", -1},
	}
	for _, tt := range tests {
		if got := CompareVersions(tt.a, tt.b); got != tt.want {
			t.Errorf("CompareVersions(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestDirectDeps: declared imports, stable packages named directly, and
// references found only inside expressions of packages without an imports
// table all count.
func TestDirectDeps(t *testing.T) {
	dep := strings.Repeat("a", 64)
	other := strings.Repeat("b", 64)
	tests := []struct {
		name     string
		pkg      e.Package
		declared bool
		want     []string
	}{
		{
			name: "declared imports, used or not, plus a stable package",
			pkg: e.Package{Name: "p", Version: "1.0.0", Imports: []string{dep, other}, Modules: []e.Module{{
				Name:      "M",
				DataTypes: []e.DataType{{Name: "R", Fields: []e.Field{{"e", e.Con(e.ByID(daTypes), "DA.Types", "Either")}, {"x", e.Con(e.Import(0), "X", "Y")}}}},
			}}},
			declared: true,
			want:     []string{daTypes, dep, other},
		},
		{
			name: "LF 2.1: a package named only in an expression",
			pkg: e.Package{Minor: "1", Name: "p", Version: "1.0.0", Modules: []e.Module{{
				Name:   "M",
				Values: []e.Value{{Name: "v", Type: e.B(e.Int64), Body: &e.ValueRef{Ref: e.ByID(dep), Module: "Lib", Name: "f"}}},
			}}},
			want: []string{dep},
		},
		{
			name: "LF 2.1: types and expressions",
			pkg: e.Package{Minor: "1", Name: "p", Version: "1.0.0", Modules: []e.Module{{
				Name:      "M",
				DataTypes: []e.DataType{{Name: "R", Fields: []e.Field{{"x", e.Con(e.ByID(other), "X", "Y")}}}},
				Values:    []e.Value{{Name: "v", Type: e.B(e.Int64), Body: &e.ValueRef{Ref: e.ByID(dep), Module: "Lib", Name: "f"}}},
			}}},
			want: []string{dep, other},
		},
		{
			name: "self references do not count",
			pkg: e.Package{Minor: "1", Name: "p", Version: "1.0.0", Modules: []e.Module{{
				Name:   "M",
				Values: []e.Value{{Name: "v", Type: e.B(e.Int64), Body: &e.ValueRef{Ref: e.Self(), Module: "M", Name: "v"}}},
			}}},
			want: []string{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := decode(t, tt.pkg)
			if diff := cmp.Diff(tt.want, p.DirectDeps, cmpopts.EquateEmpty()); diff != "" || p.ImportsDeclared != tt.declared {
				t.Errorf("declared %v; DirectDeps (-want +got):\n%s", p.ImportsDeclared, diff)
			}
		})
	}
}

// rawDalf wraps hand-made Package bytes into a dalf of the given minor.
func rawDalf(minor string, pkg []byte) []byte { return e.Archive(e.Payload(minor, 0, pkg)) }

// minimalPackage: metadata name "p" version "1.0.0" and the given extra
// fields, with interned strings s0.. appended after "p", "1.0.0".
func minimalPackage(strs []string, kv ...any) []byte {
	all := []any{}
	for _, s := range append([]string{"p", "1.0.0"}, strs...) {
		all = append(all, 2, s)
	}
	all = append(all, 4, e.Msg(1, 0, 2, 1))
	return e.Msg(append(all, kv...)...)
}

var goodFlags = e.Msg(1, true, 2, true, 3, true)

func TestDecodeErrors(t *testing.T) {
	sample := samplePackage("2")
	flat := e.EncodePackage(sample)
	argsStyle := e.EncodePackage(samplePackage("1"))
	keyed := samplePackage("2")
	keyed.Modules[0].Templates[0].Key = e.B(e.Party)
	withImports := samplePackage("1")
	withImports.Imports = []string{strings.Repeat("c", 64)}
	nonStable := e.Package{Name: "p", Version: "1.0.0", Imports: []string{}, Modules: []e.Module{{Name: "M",
		DataTypes: []e.DataType{{Name: "R", Fields: []e.Field{{"x", e.Con(e.ByID(strings.Repeat("d", 64)), "X", "Y")}}}}}}}
	badImport := e.Package{Name: "p", Version: "1.0.0", Imports: []string{}, Modules: []e.Module{{Name: "M",
		DataTypes: []e.DataType{{Name: "R", Fields: []e.Field{{"x", e.Con(e.Import(3), "X", "Y")}}}}}}}
	noImportTable := e.Package{Name: "p", Version: "1.0.0", Modules: []e.Module{{Name: "M",
		DataTypes: []e.DataType{{Name: "R", Fields: []e.Field{{"x", e.Con(e.Import(0), "X", "Y")}}}}}}}
	badFlags := e.Package{Name: "p", Version: "1.0.0", Modules: []e.Module{{Name: "M", BadFlags: true}}}
	badVersion := e.Package{Name: "p", Version: "1.0.x"}

	tests := []struct {
		name     string
		dalf     []byte
		opts     ReadOptions
		wantCode string
		want     string // substring of the cause
	}{
		{"garbage", []byte{0xff, 0xff, 0xff, 0xff}, ReadOptions{}, "DAR_PARSE_ERROR", "malformed protobuf"},
		{"truncated", rawDalf("2", flat)[:40], ReadOptions{}, "DAR_PARSE_ERROR", "malformed protobuf"},
		{"unknown archive field", e.Msg(3, e.Payload("2", 0, flat), 4, e.ID(e.Payload("2", 0, flat)), 7, 1), ReadOptions{}, "DAR_PARSE_ERROR", "Message Archive has unknown field 7"},
		{"hash mismatch", e.ArchiveWithHash(e.Payload("2", 0, flat), strings.Repeat("0", 64)), ReadOptions{}, "DAR_PARSE_ERROR", "Mismatching hashes"},
		{"hash function", e.Msg(1, 1, 3, e.Payload("2", 0, flat), 4, e.ID(e.Payload("2", 0, flat))), ReadOptions{}, "DAR_PARSE_ERROR", "hash_function"},
		{"no LF sum", e.Archive(e.Msg(3, "2")), ReadOptions{}, "DAR_PARSE_ERROR", "Unrecognized or Unsupported LF version"},
		{"unknown minor", rawDalf("4", flat), ReadOptions{}, "DAR_PARSE_ERROR", "Unsupported LF version 2.4"},
		{"discontinued minor", rawDalf("3-rc1", flat), ReadOptions{}, "DAR_PARSE_ERROR", "discontinued"},
		{"patch", e.Archive(e.Payload("2", 1, flat)), ReadOptions{}, "DAR_PARSE_ERROR", "patch 1"},
		{"unknown payload field", e.Archive(e.Msg(3, "2", 4, flat, 9999, 1)), ReadOptions{}, "DAR_PARSE_ERROR", "ArchivePayload has unknown field 9999"},
		{"LF 1.15", e.Archive(e.PayloadLF1("15", []byte{})), ReadOptions{AllowDevLF: true}, "ALLOWED_LANGUAGE_VERSIONS", "got 1.15"},
		{"LF 1.99", e.Archive(e.PayloadLF1("99", []byte{})), ReadOptions{}, "DAR_PARSE_ERROR", "1.99"},
		{"LF 2.dev without AllowDevLF", rawDalf("dev", flat), ReadOptions{}, "ALLOWED_LANGUAGE_VERSIONS", "Expected version between 2.1 and 2.3 but got 2.dev"},
		{"LF 2.dev with AllowDevLF", rawDalf("dev", flat), ReadOptions{AllowDevLF: true}, "", ""},
		{"tapp in LF 2.1", rawDalf("1", flat), ReadOptions{}, "DAR_PARSE_ERROR", "TApp not supported"},
		{"argument lists in LF 2.2", rawDalf("2", argsStyle), ReadOptions{}, "DAR_PARSE_ERROR", "args must be empty"},
		{"key before LF 2.3", rawDalf("2", e.EncodePackage(keyed)), ReadOptions{}, "DAR_PARSE_ERROR", "Contract Keys is not supported"},
		{"imports in LF 2.1", rawDalf("1", e.EncodePackage(withImports)), ReadOptions{}, "DAR_PARSE_ERROR", "package imports are not supported"},
		{"non-stable package named directly", rawDalf("2", e.EncodePackage(nonStable)), ReadOptions{}, "DAR_PARSE_ERROR", "explicit non-stable package id"},
		{"import index out of range", rawDalf("2", e.EncodePackage(badImport)), ReadOptions{}, "DAR_PARSE_ERROR", "invalid package imports table index 3"},
		{"import index without table", rawDalf("2", e.EncodePackage(noImportTable)), ReadOptions{}, "DAR_PARSE_ERROR", "declares no imports table"},
		{"feature flags", rawDalf("2", e.EncodePackage(badFlags)), ReadOptions{}, "DAR_PARSE_ERROR", "Deprecated feature flag settings"},
		{"bad version", rawDalf("2", e.EncodePackage(badVersion)), ReadOptions{}, "DAR_PARSE_ERROR", "invalid package version"},
		{"no metadata", rawDalf("2", e.Msg(2, "p")), ReadOptions{}, "DAR_PARSE_ERROR", "Package.metadata is required"},
		{"unknown package field", rawDalf("2", minimalPackage(nil, 77, 1)), ReadOptions{}, "DAR_PARSE_ERROR", "Message Package has unknown field 77"},
		{"string index out of range", rawDalf("2", e.Msg(2, "p", 4, e.Msg(1, 0, 2, 5))), ReadOptions{}, "DAR_PARSE_ERROR", "invalid internedString table index 5"},
		{"invalid UTF-8", rawDalf("2", e.Msg(2, "\xff", 4, e.Msg(1, 0, 2, 0))), ReadOptions{}, "DAR_PARSE_ERROR", "UTF-8"},
		{"bad dotted name segment", rawDalf("2", minimalPackage([]string{"not a name"}, 3, e.Msg(1, []int{2}))), ReadOptions{}, "DAR_PARSE_ERROR", `invalid name "not a name"`},
		{"interned type out of range", rawDalf("2", minimalPackage([]string{"M", "R", "x"},
			3, e.Msg(1, []int{2}), 3, e.Msg(1, []int{3}),
			1, e.Msg(1, 0, 2, goodFlags, 4, e.Msg(2, 1, 5, e.Msg(1, e.Msg(3, 4, 2, e.Msg(8, 7))))))), ReadOptions{}, "DAR_PARSE_ERROR", "invalid internedTypes table index 7"},
		{"non-interned type outside the table", rawDalf("2", minimalPackage([]string{"M", "R", "x"},
			3, e.Msg(1, []int{2}), 3, e.Msg(1, []int{3}),
			1, e.Msg(1, 0, 2, goodFlags, 4, e.Msg(2, 1, 5, e.Msg(1, e.Msg(3, 4, 2, e.Msg(3, e.Msg(1, 2)))))))), ReadOptions{}, "DAR_PARSE_ERROR", "BUILTIN is not supported outside type interning table"},
		{"bare interned type in the table", rawDalf("2", minimalPackage(nil, 5, e.Msg(8, 0))), ReadOptions{}, "DAR_PARSE_ERROR", "Immediate Interned type"},
		{"numeric scale", rawDalf("2", minimalPackage(nil, 5, []byte{0x30, 0x80, 0x01})), ReadOptions{}, "DAR_PARSE_ERROR", "TNat must be between 0 and 37"},
		{"data type without constructors", rawDalf("2", minimalPackage([]string{"M", "R"},
			3, e.Msg(1, []int{2}), 3, e.Msg(1, []int{3}),
			1, e.Msg(1, 0, 2, goodFlags, 4, e.Msg(2, 1)))), ReadOptions{}, "DAR_PARSE_ERROR", "DATACONS_NOT_SET"},
		{"duplicate data type", rawDalf("2", minimalPackage([]string{"M", "R"},
			3, e.Msg(1, []int{2}), 3, e.Msg(1, []int{3}),
			1, e.Msg(1, 0, 2, goodFlags, 4, e.Msg(2, 1, 5, []byte{}), 4, e.Msg(2, 1, 5, []byte{})))), ReadOptions{}, "DAR_PARSE_ERROR", "duplicate definition R"},
		{"wrong wire type", rawDalf("2", e.Msg(1, 5)), ReadOptions{}, "DAR_PARSE_ERROR", "wire type"},
		{"type of exponential size", rawDalf("2", doublingTypes(40)), ReadOptions{}, "DAR_PARSE_ERROR", "too large"},
		{"type nested too deeply", rawDalf("2", minimalPackage(nil, 5, nestedType(maxTypeDepth+5))), ReadOptions{}, "DAR_PARSE_ERROR", "nested too deeply"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeArchive(tt.dalf, tt.opts)
			if got := code(err); got != tt.wantCode {
				t.Fatalf("code %q (%v), want %q", got, err, tt.wantCode)
			}
			if !strings.Contains(cause(err), tt.want) {
				t.Errorf("cause %q does not contain %q", cause(err), tt.want)
			}
		})
	}
}

// doublingTypes: interned type i is (i-1) applied to (i-1), a type of 2^n
// nodes in n table entries.
func doublingTypes(n int) []byte {
	kv := []any{5, e.Msg(3, e.Msg(1, 2))}
	for i := 1; i < n; i++ {
		kv = append(kv, 5, e.Msg(9, e.Msg(1, e.Msg(8, i-1), 2, e.Msg(8, i-1))))
	}
	return minimalPackage(nil, kv...)
}

// nestedType: List (List (... Int64)) nested depth times in one entry.
func nestedType(depth int) []byte {
	t := e.Msg(3, e.Msg(1, 2))
	for range depth {
		t = e.Msg(9, e.Msg(1, e.Msg(3, e.Msg(1, 10)), 2, t))
	}
	return t
}

func TestDecodePayload(t *testing.T) {
	payload := e.Payload("2", 0, e.EncodePackage(samplePackage("2")))
	p, err := DecodePayload(payload, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p.ID != e.ID(payload) || PackageID(p.Payload) != p.ID {
		t.Errorf("id %s, want %s", p.ID, e.ID(payload))
	}
	if _, err := DecodePayload([]byte{1, 2, 3}, ReadOptions{}); code(err) != "DAR_PARSE_ERROR" {
		t.Errorf("garbage payload: %v", err)
	}
}

// TestDecoderAtLeast checks the decoder's version comparison against
// LFVersion's, minors it ranks without parsing and others alike (an LF
// 2.4 package compared with the known minors, and the known ones with
// 2.4): it fell back to itself once, which would overflow the stack for
// the first minor added to the decoder's tables but not to minorRank.
func TestDecoderAtLeast(t *testing.T) {
	versions := []LFVersion{{2, "1"}, {2, "2"}, {2, "3"}, {2, "4"}, {2, "dev"}, {1, "17"}}
	for _, v := range versions {
		d := newDecoder("p", v)
		for _, w := range versions {
			if got, want := d.atLeast(w), v.atLeast(w); got != want {
				t.Errorf("decoder of LF %s: atLeast(%s) = %v, want %v", v, w, got, want)
			}
		}
	}
}
