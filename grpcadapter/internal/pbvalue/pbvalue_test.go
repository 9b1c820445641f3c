package pbvalue

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/value"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
)

// testPkg is a package with a record T whose fields cover every kind of
// value: numerics of two scales, nested optionals, maps with variant and
// record keys, a recursive variant, an enum, a generic record.
func testPkg() lftest.Package {
	self := lftest.Self()
	con := func(name string, args ...lftest.Type) lftest.Type {
		return lftest.App(lftest.Con(self, "Main", name), args...)
	}
	b := lftest.B
	i64, text, unit := b(lftest.Int64), b(lftest.Text), b(lftest.Unit)
	rec := func(name string, fields ...lftest.Field) lftest.DataType {
		return lftest.DataType{Name: name, Serializable: true, Fields: fields}
	}
	variant := func(name string, ctors ...lftest.Field) lftest.DataType {
		return lftest.DataType{Name: name, Kind: "variant", Serializable: true, Fields: ctors}
	}
	pair := rec("Pair", lftest.Field{Name: "fst", Type: lftest.Var("a")}, lftest.Field{Name: "snd", Type: lftest.Var("b")})
	pair.Params = []lftest.Param{{Name: "a", Kind: "*"}, {Name: "b", Kind: "*"}}
	return lftest.Package{Name: "pbvalue", Version: "1.0.0", Imports: []string{}, Modules: []lftest.Module{{
		Name: "Main",
		DataTypes: []lftest.DataType{
			rec("T",
				lftest.Field{Name: "unit", Type: unit},
				lftest.Field{Name: "flag", Type: b(lftest.Bool)},
				lftest.Field{Name: "i", Type: i64},
				lftest.Field{Name: "n10", Type: lftest.Num(10)},
				lftest.Field{Name: "n0", Type: lftest.Num(0)},
				lftest.Field{Name: "t", Type: text},
				lftest.Field{Name: "p", Type: b(lftest.Party)},
				lftest.Field{Name: "d", Type: b(lftest.Date)},
				lftest.Field{Name: "ts", Type: b(lftest.Timestamp)},
				lftest.Field{Name: "c", Type: lftest.CID(con("T"))},
				lftest.Field{Name: "oo", Type: lftest.Opt(lftest.Opt(i64))},
				lftest.Field{Name: "l", Type: lftest.ListOf(con("Shape"))},
				lftest.Field{Name: "tm", Type: lftest.App(b(lftest.TextMap), con("Color"))},
				lftest.Field{Name: "gm", Type: lftest.App(b(lftest.GenMap), con("Shape"), b(lftest.Timestamp))},
				lftest.Field{Name: "gp", Type: con("Pair", i64, lftest.Opt(text))},
				lftest.Field{Name: "tr", Type: con("Tree")}),
			variant("Shape",
				lftest.Field{Name: "Circle", Type: lftest.Num(10)},
				lftest.Field{Name: "Rect", Type: con("Shape.Rect")},
				lftest.Field{Name: "Empty", Type: unit}),
			rec("Shape.Rect", lftest.Field{Name: "w", Type: i64}, lftest.Field{Name: "h", Type: i64}),
			{Name: "Color", Kind: "enum", Serializable: true, Enum: []string{"Red", "Green", "Blue"}},
			pair,
			variant("Tree", lftest.Field{Name: "Leaf", Type: unit}, lftest.Field{Name: "Node", Type: con("Tree.Node")}),
			rec("Tree.Node",
				lftest.Field{Name: "l", Type: con("Tree")},
				lftest.Field{Name: "v", Type: i64},
				lftest.Field{Name: "r", Type: con("Tree")}),
		},
	}}}
}

var (
	pkgOnce sync.Once
	pkgDec  *lf.Package
	pkgErr  error
)

func pkg(t testing.TB) *lf.Package {
	t.Helper()
	pkgOnce.Do(func() {
		_, dalf := lftest.Dalf(testPkg())
		pkgDec, pkgErr = lf.DecodeArchive(dalf, lf.ReadOptions{})
	})
	if pkgErr != nil {
		t.Fatalf("decoding the test package: %v", pkgErr)
	}
	return pkgDec
}

const cid = "00" + "0102030405060708091011121314151617181920212223242526272829303132" + "ca11"

// tValues are values of Main:T in JSON, read with value.FromJSON into
// typed values (ids, labels, ranks).
var tValues = []string{
	`{"unit": {}, "flag": false, "i": "0", "n10": "0", "n0": "0", "t": "", "p": "alice::1220", "d": "1970-01-01", "ts": "1970-01-01T00:00:00Z",
	  "c": "` + cid + `", "oo": [], "l": [], "tm": {}, "gm": [], "gp": {"fst": "0", "snd": null}, "tr": {"tag": "Leaf", "value": {}}}`,
	`{"unit": {}, "flag": true, "i": "-9223372036854775808", "n10": "-12345678901234567890123456.0123456789", "n0": "99999999999999999999999999999999999999",
	  "t": "h\u00e9 \ud83d\ude00", "p": "bob::1220", "d": "0001-01-01", "ts": "9999-12-31T23:59:59.999999Z",
	  "c": "` + cid + `", "oo": [[]], "l": [{"tag": "Circle", "value": "1.5"}, {"tag": "Rect", "value": {"w": "1", "h": "2"}}, {"tag": "Empty", "value": {}}],
	  "tm": {"z": "Blue", "a": "Red", "": "Green"},
	  "gm": [[{"tag": "Rect", "value": {"w": "3", "h": "4"}}, "2020-02-29T12:00:00.000001Z"], [{"tag": "Empty", "value": {}}, "1969-12-31T23:59:59Z"]],
	  "gp": {"fst": "7", "snd": "x"},
	  "tr": {"tag": "Node", "value": {"l": {"tag": "Leaf", "value": {}}, "v": "2", "r": {"tag": "Node", "value": {"l": {"tag": "Leaf", "value": {}}, "v": "3", "r": {"tag": "Leaf", "value": {}}}}}}}`,
	`{"unit": {}, "flag": true, "i": "42", "n10": "1", "n0": "-5", "t": "x", "p": "p::1", "d": "2024-02-29", "ts": "2024-02-29T00:00:00.5Z",
	  "c": "` + cid + `", "oo": [["7"]], "l": [], "tm": {}, "gm": [], "gp": {"fst": "0", "snd": null}, "tr": {"tag": "Leaf", "value": {}}}`,
}

func typeT(p *lf.Package) lf.Type { return value.TypeOf(p.ID, "Main", "T") }

func typedValues(t testing.TB) []value.Value {
	t.Helper()
	p := pkg(t)
	var out []value.Value
	for _, js := range tValues {
		v, err := value.FromJSON([]byte(js), typeT(p), value.PackageLookup(p))
		if err != nil {
			t.Fatalf("FromJSON(%s): %v", js, err)
		}
		out = append(out, v)
	}
	return out
}

// wire marshals m and unmarshals it into a fresh Value, as a gRPC call
// carries it.
func wire(t testing.TB, m *ledgerv2.Value) *ledgerv2.Value {
	t.Helper()
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var out ledgerv2.Value
	if err := proto.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return &out
}

// ignoreDecoded ignores what the wire does not carry (ranks, and the
// JSON-only Nested flag of optionals).
var ignoreDecoded = cmp.Options{
	cmpopts.IgnoreFields(value.Variant{}, "Rank"),
	cmpopts.IgnoreFields(value.Enum{}, "Rank"),
	cmpopts.IgnoreFields(value.Optional{}, "Nested"),
}

// TestRoundTripTypedValues: a typed value written verbosely and read back
// is the same value (ids and labels included); written without verbose it
// carries no id or label, and typing it against Main:T gives the typed
// value back whole.
func TestRoundTripTypedValues(t *testing.T) {
	p := pkg(t)
	lookup := value.PackageLookup(p)
	for i, v := range typedValues(t) {
		verbose := wire(t, ToProto(v, true))
		got, err := FromProto(verbose)
		if err != nil {
			t.Fatalf("value %d: FromProto(verbose): %v", i, err)
		}
		if d := cmp.Diff(v, got, ignoreDecoded); d != "" {
			t.Errorf("value %d: verbose round trip (-want +got):\n%s", i, d)
		}
		if r := verbose.GetRecord(); r.GetRecordId().GetEntityName() != "T" || r.GetFields()[0].GetLabel() != "unit" {
			t.Errorf("value %d: verbose output lacks the record id or labels: %v", i, r)
		}

		plain := wire(t, ToProto(v, false))
		if s := plainLeak(plain); s != "" {
			t.Errorf("value %d: non-verbose output carries %s", i, s)
		}
		typed, err := FromProtoAs(plain, typeT(p), lookup)
		if err != nil {
			t.Fatalf("value %d: FromProtoAs: %v", i, err)
		}
		if d := cmp.Diff(v, typed); d != "" {
			t.Errorf("value %d: typed round trip (-want +got):\n%s", i, d)
		}

		// ToProtoAs makes the untyped value verbose with the type.
		untyped, err := FromProto(plain)
		if err != nil {
			t.Fatal(err)
		}
		enriched, err := ToProtoAs(untyped, typeT(p), lookup, true)
		if err != nil {
			t.Fatalf("value %d: ToProtoAs: %v", i, err)
		}
		if d := cmp.Diff(ToProto(v, true), enriched, protocmp.Transform()); d != "" {
			t.Errorf("value %d: ToProtoAs (-want +got):\n%s", i, d)
		}
	}
}

// plainLeak names the first type id or label found in m ("" when none).
func plainLeak(m proto.Message) string {
	found := ""
	var walk func(v *ledgerv2.Value)
	walk = func(v *ledgerv2.Value) {
		switch s := v.GetSum().(type) {
		case *ledgerv2.Value_Record:
			if s.Record.RecordId != nil {
				found = "a record id"
			}
			for _, f := range s.Record.Fields {
				if f.Label != "" {
					found = "label " + f.Label
				}
				walk(f.Value)
			}
		case *ledgerv2.Value_Variant:
			if s.Variant.VariantId != nil {
				found = "a variant id"
			}
			walk(s.Variant.Value)
		case *ledgerv2.Value_Enum:
			if s.Enum.EnumId != nil {
				found = "an enum id"
			}
		case *ledgerv2.Value_Optional:
			if s.Optional.Value != nil {
				walk(s.Optional.Value)
			}
		case *ledgerv2.Value_List:
			for _, e := range s.List.Elements {
				walk(e)
			}
		case *ledgerv2.Value_TextMap:
			for _, e := range s.TextMap.Entries {
				walk(e.Value)
			}
		case *ledgerv2.Value_GenMap:
			for _, e := range s.GenMap.Entries {
				walk(e.Key)
				walk(e.Value)
			}
		}
	}
	walk(m.(*ledgerv2.Value))
	return found
}

// TestToProtoMatchesValueCodec: ToProto(v, true) is, on the wire,
// the message daml/value's own codec (value.EncodeProto) writes.
func TestToProtoMatchesValueCodec(t *testing.T) {
	for i, v := range typedValues(t) {
		b, err := value.EncodeProto(v)
		if err != nil {
			t.Fatal(err)
		}
		var want ledgerv2.Value
		if err := proto.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(&want, ToProto(v, true), protocmp.Transform()); d != "" {
			t.Errorf("value %d (-EncodeProto +ToProto):\n%s", i, d)
		}
	}
}

func num(s string) *ledgerv2.Value { return &ledgerv2.Value{Sum: &ledgerv2.Value_Numeric{Numeric: s}} }
func i64(n int64) *ledgerv2.Value  { return &ledgerv2.Value{Sum: &ledgerv2.Value_Int64{Int64: n}} }
func opt(v *ledgerv2.Value) *ledgerv2.Value {
	return &ledgerv2.Value{Sum: &ledgerv2.Value_Optional{Optional: &ledgerv2.Optional{Value: v}}}
}
func record(fields ...*ledgerv2.RecordField) *ledgerv2.Value {
	return &ledgerv2.Value{Sum: &ledgerv2.Value_Record{Record: &ledgerv2.Record{Fields: fields}}}
}
func field(label string, v *ledgerv2.Value) *ledgerv2.RecordField {
	return &ledgerv2.RecordField{Label: label, Value: v}
}

// TestFromProtoAsCanonical: client input is given Canton's canonical form
// by its type: numerics at their scale, nested optionals, enums and
// variants by constructor with their rank, type ids and labels.
func TestFromProtoAsCanonical(t *testing.T) {
	p := pkg(t)
	lookup := value.PackageLookup(p)
	id := func(name string) *lf.TypeConID { return &lf.TypeConID{PackageID: p.ID, Module: "Main", Name: name} }
	enum := &ledgerv2.Value{Sum: &ledgerv2.Value_Enum{Enum: &ledgerv2.Enum{Constructor: "Blue"}}}
	circle := &ledgerv2.Value{Sum: &ledgerv2.Value_Variant{Variant: &ledgerv2.Variant{Constructor: "Empty", Value: &ledgerv2.Value{Sum: &ledgerv2.Value_Unit{Unit: &emptypb.Empty{}}}}}}
	for _, tc := range []struct {
		name string
		typ  lf.Type
		in   *ledgerv2.Value
		want value.Value
	}{
		{"numeric 10 padded", tNum(10), num("1.5"), value.Numeric("1.5000000000")},
		{"numeric 0", tNum(0), num("-42"), value.Numeric("-42.")},
		{"enum by constructor", value.TypeOf(p.ID, "Main", "Color"), enum, value.Enum{EnumID: id("Color"), Constructor: "Blue", Rank: 2}},
		{"variant by constructor", value.TypeOf(p.ID, "Main", "Shape"), circle, value.Variant{VariantID: id("Shape"), Constructor: "Empty", Rank: 2, Value: value.Unit{}}},
		{"pair with labels", value.TypeOf(p.ID, "Main", "Pair", &lf.TBuiltin{Builtin: lf.BuiltinInt64}, &lf.TApp{Fun: &lf.TBuiltin{Builtin: lf.BuiltinOptional}, Arg: &lf.TBuiltin{Builtin: lf.BuiltinText}}),
			record(field("fst", i64(1)), field("snd", opt(nil))),
			value.Record{RecordID: id("Pair"), Fields: []value.RecordField{{Label: "fst", Value: value.Int64(1)}, {Label: "snd", Value: value.Optional{}}}}},
		{"pair with labels reordered (matched by name, as Canton's ValueTranslator does)", value.TypeOf(p.ID, "Main", "Pair", &lf.TBuiltin{Builtin: lf.BuiltinInt64}, &lf.TApp{Fun: &lf.TBuiltin{Builtin: lf.BuiltinOptional}, Arg: &lf.TBuiltin{Builtin: lf.BuiltinText}}),
			record(field("snd", opt(nil)), field("fst", i64(1))),
			value.Record{RecordID: id("Pair"), Fields: []value.RecordField{{Label: "fst", Value: value.Int64(1)}, {Label: "snd", Value: value.Optional{}}}}},
		{"pair without its trailing optional field", value.TypeOf(p.ID, "Main", "Pair", &lf.TBuiltin{Builtin: lf.BuiltinInt64}, &lf.TApp{Fun: &lf.TBuiltin{Builtin: lf.BuiltinOptional}, Arg: &lf.TBuiltin{Builtin: lf.BuiltinText}}),
			record(field("", i64(1))),
			value.Record{RecordID: id("Pair"), Fields: []value.RecordField{{Label: "fst", Value: value.Int64(1)}, {Label: "snd", Value: value.Optional{}}}}},
		{"pair without labels", value.TypeOf(p.ID, "Main", "Pair", &lf.TBuiltin{Builtin: lf.BuiltinInt64}, &lf.TApp{Fun: &lf.TBuiltin{Builtin: lf.BuiltinOptional}, Arg: &lf.TBuiltin{Builtin: lf.BuiltinText}}),
			record(field("", i64(1)), field("", opt(nil))),
			value.Record{RecordID: id("Pair"), Fields: []value.RecordField{{Label: "fst", Value: value.Int64(1)}, {Label: "snd", Value: value.Optional{}}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FromProtoAs(wire(t, tc.in), tc.typ, lookup)
			if err != nil {
				t.Fatalf("FromProtoAs: %v", err)
			}
			if d := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func tNum(n int) lf.Type {
	return &lf.TApp{Fun: &lf.TBuiltin{Builtin: lf.BuiltinNumeric}, Arg: &lf.TNat{N: n}}
}

// nest returns a Value n optionals deep around a unit.
func nest(n int) *ledgerv2.Value {
	v := &ledgerv2.Value{Sum: &ledgerv2.Value_Unit{Unit: &emptypb.Empty{}}}
	for range n {
		v = opt(v)
	}
	return v
}

// TestFromProtoRefusals: what a client may not send, with the error
// daml/value's wire codec gives for the same bytes.
func TestFromProtoRefusals(t *testing.T) {
	p := pkg(t)
	for _, tc := range []struct {
		name string
		in   *ledgerv2.Value
		typ  lf.Type
		want string
	}{
		{"no sum", &ledgerv2.Value{}, nil, "value has no sum set"},
		{"record field without value", record(field("a", nil)), nil, "record field value is missing"},
		{"variant without value", &ledgerv2.Value{Sum: &ledgerv2.Value_Variant{Variant: &ledgerv2.Variant{Constructor: "C"}}}, nil, "variant value is missing"},
		{"gen map entry without key", &ledgerv2.Value{Sum: &ledgerv2.Value_GenMap{GenMap: &ledgerv2.GenMap{Entries: []*ledgerv2.GenMap_Entry{{Value: i64(1)}}}}}, nil, "gen map entry key is missing"},
		{"text map entry without value", &ledgerv2.Value{Sum: &ledgerv2.Value_TextMap{TextMap: &ledgerv2.TextMap{Entries: []*ledgerv2.TextMap_Entry{{Key: "k"}}}}}, nil, "text map entry value is missing"},
		{"nested too deep", nest(60), nil, value.ErrProtoTooDeep.Error()},
		{"numeric beyond its scale", num("1.00000000001"), tNum(10), "1.00000000001"},
		{"unknown enum constructor", &ledgerv2.Value{Sum: &ledgerv2.Value_Enum{Enum: &ledgerv2.Enum{Constructor: "Pink"}}}, value.TypeOf(p.ID, "Main", "Color"), "Pink"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			if tc.typ == nil {
				_, err = FromProto(wire(t, tc.in))
				b, _ := proto.Marshal(tc.in)
				if _, derr := value.DecodeProto(b); derr == nil || derr.Error() != err.Error() {
					t.Errorf("value.DecodeProto of the same bytes: %v, FromProto: %v", derr, err)
				}
			} else {
				_, err = FromProtoAs(wire(t, tc.in), tc.typ, value.PackageLookup(p))
				var ve *value.Error
				if !errors.As(err, &ve) {
					t.Errorf("error %v is not a *value.Error", err)
				}
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	if _, err := FromProto(nest(48)); err != nil {
		t.Errorf("48 optionals (97 levels) refused: %v", err)
	}
}
