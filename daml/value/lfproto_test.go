package value

import (
	"encoding/hex"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/encoding/protowire"
)

// lfSample holds one value of every kind, untyped as DecodeLFProto
// returns them.
func lfSample() Value {
	return Record{Fields: []RecordField{
		{Value: Unit{}},
		{Value: Bool(false)},
		{Value: Bool(true)},
		{Value: Int64(-42)},
		{Value: Int64(0)},
		{Value: Date(-719162)},
		{Value: Timestamp(1_700_000_000_123_456)},
		{Value: Numeric("999.9900000000")},
		{Value: Numeric("-42.")},
		{Value: Party("Alice::1220abcd")},
		{Value: Text("")},
		{Value: Text("héllo 𝄞")},
		{Value: ContractID(cidV1)},
		{Value: ContractID(cidV2)},
		{Value: Optional{}},
		{Value: Optional{Value: Optional{Value: Int64(1)}}},
		{Value: List{}},
		{Value: List{Int64(1), Text("x")}},
		{Value: TextMap{{Key: "", Value: Unit{}}, {Key: "a", Value: Int64(1)}, {Key: "\uffff", Value: Int64(2)}, {Key: "𝄞", Value: Int64(3)}}},
		{Value: TextMap{}},
		{Value: GenMap{{Key: Int64(2), Value: Text("b")}, {Key: Int64(1), Value: Text("a")}}},
		{Value: GenMap{}},
		{Value: Record{Fields: []RecordField{}}},
		{Value: Variant{Constructor: "Some_1", Value: Unit{}}},
		{Value: Enum{Constructor: "Red"}},
	}}
}

func TestLFProtoRoundTrip(t *testing.T) {
	deep := Value(Int64(7))
	for range MaxLFNesting {
		deep = List{deep}
	}
	for _, tc := range []struct {
		name string
		v    Value
	}{
		{"all kinds", lfSample()},
		{"deepest", deep},
		{"unit", Unit{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := EncodeLFProto(tc.v)
			if err != nil {
				t.Fatal(err)
			}
			got, err := DecodeLFProto(b)
			if err != nil {
				t.Fatal(err)
			}
			// reflect.DeepEqual: go-cmp's slice diff is exponential
			// in the nesting of one-element lists.
			if !reflect.DeepEqual(tc.v, got) {
				t.Errorf("round trip = %.2000v, want %.2000v", got, tc.v)
			}
		})
	}
}

// TestLFProtoBytes pins the wire form against hand-assembled messages of
// the Daml-LF schema (field numbers of value.proto).
func TestLFProtoBytes(t *testing.T) {
	msg := func(num protowire.Number, body []byte) []byte {
		return protowire.AppendBytes(protowire.AppendTag(nil, num, protowire.BytesType), body)
	}
	cat := slices.Concat[[]byte]
	for _, tc := range []struct {
		name string
		v    Value
		want []byte
	}{
		{"unit", Unit{}, msg(1, nil)},
		{"false", Bool(false), []byte{0x10, 0}},
		{"int64 -1 zigzag", Int64(-1), []byte{0x18, 1}},
		{"timestamp sfixed64", Timestamp(1), []byte{0x29, 1, 0, 0, 0, 0, 0, 0, 0}},
		{"text", Text("USD"), msg(8, []byte("USD"))},
		{"none", Optional{}, msg(10, nil)},
		{"empty list", List{}, msg(11, nil)},
		// A record drops its id and labels: Record{fields=1: Field{value=1}}.
		{"labelled record", Record{RecordID: nil, Fields: []RecordField{{Label: "x", Value: Text("a")}}},
			msg(13, msg(1, msg(1, msg(8, []byte("a")))))},
		{"variant", Variant{Constructor: "C", Value: Unit{}}, msg(14, cat(msg(1, []byte("C")), msg(2, msg(1, nil))))},
		{"enum", Enum{Constructor: "Red"}, msg(15, msg(1, []byte("Red")))},
		{"text map is field 16", TextMap{{Key: "k", Value: Unit{}}}, msg(16, msg(1, cat(msg(1, []byte("k")), msg(2, msg(1, nil)))))},
		{"gen map is field 12", GenMap{{Key: Unit{}, Value: Unit{}}}, msg(12, msg(1, cat(msg(1, msg(1, nil)), msg(2, msg(1, nil)))))},
		{"contract id as bytes", ContractID(cidV1), msg(9, mustHex(cidV1))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := EncodeLFProto(tc.v)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("bytes (-want +got):\n%s", d)
			}
		})
	}
}

func mustHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

func TestLFProtoErrors(t *testing.T) {
	enc := func(v Value) []byte {
		b, err := EncodeLFProto(v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tooDeep := Value(Int64(7))
	for range MaxLFNesting + 1 {
		tooDeep = List{tooDeep}
	}
	// A too-deep message built by hand (the encoder refuses it).
	deepBytes := enc(Int64(7))
	for range MaxLFNesting + 1 {
		deepBytes = protowire.AppendBytes(protowire.AppendTag(nil, 10, protowire.BytesType),
			protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), deepBytes))
	}
	field := func(num protowire.Number, body []byte) []byte {
		return protowire.AppendBytes(protowire.AppendTag(nil, num, protowire.BytesType), body)
	}
	entry := func(key string) []byte {
		return field(1, slices.Concat(field(1, []byte(key)), field(2, enc(Unit{}))))
	}
	t.Run("encode", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			v    Value
			kind LFErrorKind
			path string
		}{
			{"too deep", tooDeep, LFTooDeep, "$" + strings.Repeat("[0]", MaxLFNesting+1)},
			{"nul", Record{Fields: []RecordField{{Value: Text("a\x00")}}}, LFInvalid, "$.fields[0]"},
			{"unsorted text map", TextMap{{Key: "b", Value: Unit{}}, {Key: "a", Value: Unit{}}}, LFInvalid, "$.entries[1].key"},
			{"text map in utf-16 order", TextMap{{Key: "𝄞", Value: Unit{}}, {Key: "\uffff", Value: Unit{}}}, LFInvalid, "$.entries[1].key"},
			{"text map dup", TextMap{{Key: "k", Value: Unit{}}, {Key: "k", Value: Unit{}}}, LFInvalid, "$.entries[1].key"},
			{"bad cid", List{ContractID("zz")}, LFInvalid, "$[0]"},
			{"nil", nil, LFInvalid, "$"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				_, err := EncodeLFProto(tc.v)
				var le *LFProtoError
				if !errors.As(err, &le) {
					t.Fatalf("err = %v, want *LFProtoError", err)
				}
				if le.Kind != tc.kind || le.Path != tc.path {
					t.Errorf("err = %v (%v at %s), want %v at %s", err, le.Kind, le.Path, tc.kind, tc.path)
				}
			})
		}
	})
	t.Run("decode", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			b    []byte
			kind LFErrorKind
			path string
		}{
			{"empty", nil, LFMalformed, "$"},
			{"truncated", []byte{0x42, 5, 'a'}, LFMalformed, "$"},
			{"unknown field", []byte{0x88, 0x01, 1}, LFMalformed, "$"},
			{"wrong wire type", []byte{0x15, 0, 0, 0, 0}, LFMalformed, "$"},
			{"too deep", deepBytes, LFTooDeep, "$" + strings.Repeat(".some", MaxLFNesting+1)},
			{"bad party", field(7, []byte("a b!")), LFInvalid, "$"},
			{"bad numeric", field(6, []byte("1e5")), LFInvalid, "$"},
			{"bad cid", field(9, []byte{2, 3}), LFInvalid, "$"},
			{"date out of range", protowire.AppendVarint([]byte{0x20}, 3_000_000), LFInvalid, "$"},
			{"timestamp out of range", []byte{0x29, 0, 0, 0, 0, 0, 0, 0, 0x80}, LFInvalid, "$"},
			{"bad constructor", field(15, field(1, []byte("1x"))), LFInvalid, "$"},
			{"variant without value", field(14, field(1, []byte("C"))), LFMalformed, "$.variant(C)"},
			{"record field without value", field(13, field(1, nil)), LFMalformed, "$.fields[0]"},
			{"unsorted text map dup", field(16, slices.Concat(entry("k"), entry("a"), entry("k"))), LFInvalid, "$.entries[2].key"},
			{"text map dup", field(16, slices.Concat(field(1, slices.Concat(field(1, []byte("k")), field(2, enc(Unit{})))), field(1, slices.Concat(field(1, []byte("k")), field(2, enc(Unit{})))))), LFInvalid, "$.entries[1].key"},
			{"nul text", field(8, []byte{'a', 0}), LFInvalid, "$"},
			{"bad utf8", field(8, []byte{0xff}), LFMalformed, "$"},
			{"list element", field(11, field(1, field(7, nil))), LFInvalid, "$[0]"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				_, err := DecodeLFProto(tc.b)
				var le *LFProtoError
				if !errors.As(err, &le) {
					t.Fatalf("err = %v, want *LFProtoError", err)
				}
				if le.Kind != tc.kind || le.Path != tc.path {
					t.Errorf("err = %v (%v at %s), want %v at %s", err, le.Kind, le.Path, tc.kind, tc.path)
				}
			})
		}
	})
}

// TestLFProtoMerge: protobuf-java merges a repeated singular message and
// lets a later oneof member replace an earlier one.
func TestLFProtoMerge(t *testing.T) {
	field := func(num protowire.Number, body []byte) []byte {
		return protowire.AppendBytes(protowire.AppendTag(nil, num, protowire.BytesType), body)
	}
	list := field(11, field(1, []byte{0x18, 2}))
	two := append(append([]byte(nil), list...), list...)
	got, err := DecodeLFProto(two)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(Value(List{Int64(1), Int64(1)}), got); d != "" {
		t.Errorf("merged list (-want +got):\n%s", d)
	}
	replaced, err := DecodeLFProto(append(append([]byte(nil), list...), 0x18, 4))
	if err != nil {
		t.Fatal(err)
	}
	if replaced != Int64(2) {
		t.Errorf("later member = %v, want Int64(2)", replaced)
	}
}

// TestTypeValue: a typed value survives EncodeLFProto, DecodeLFProto and
// TypeValue unchanged (ids, labels, ranks, nested optionals restored).
func TestTypeValue(t *testing.T) {
	pkg := valuesPackage(t)
	fz := TypeOf(pkg.ID, "Main", "Fz")
	lookup := PackageLookup(pkg)
	for _, js := range []string{
		`{"i": "-12", "n": 3.25, "t": "x\u00e9\n", "p": "alice::1220", "d": "2020-02-29", "ts": "2020-02-29T12:00:00.000001+01:00", "oo": [[]]}`,
		`{"i": "1", "n": "1.5", "oo": [["7"]], "l": [{"tag": "Circle", "value": "1"}, {"tag": "Rect", "value": {"w": "1", "h": "2"}}, {"tag": "Maybe", "value": null}]}`,
		`{"i": "1", "n": "1", "oo": [], "tm": {"z": "Red", "a": "Blue", "": "Green"}}`,
		`{"i": "1", "n": "1", "oo": [], "tr": {"tag": "Node", "value": {"l": {"tag": "Leaf", "value": {}}, "v": "2", "r": {"tag": "Leaf", "value": {}}}}}`,
		`{"i": "1", "n": "1", "oo": [], "bx": {"x": "3"}, "sc": {"v": "7"}, "u": [1, {}], "bo": true, "c": "` + cidV1 + `"}`,
	} {
		want, err := FromJSON([]byte(js), fz, lookup)
		if err != nil {
			t.Fatalf("FromJSON(%s): %v", js, err)
		}
		b, err := EncodeLFProto(want)
		if err != nil {
			t.Fatal(err)
		}
		untyped, err := DecodeLFProto(b)
		if err != nil {
			t.Fatal(err)
		}
		got, err := TypeValue(untyped, fz, lookup)
		if err != nil {
			t.Fatalf("TypeValue: %v", err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("TypeValue of %s (-want +got):\n%s", js, d)
		}
	}
	if _, err := TypeValue(Int64(1), fz, lookup); err == nil {
		t.Error("TypeValue of an Int64 against a record succeeded")
	}
}

// TestLFProtoTextMapOrder: TextMap keys are in code-point order, the
// order FromJSON sorts them in and Canton's SortedLookupList keeps, not
// UTF-16 order ("\uffff" before "😀"); DecodeLFProto sorts the entries
// of a message as Canton's decoder does.
func TestLFProtoTextMapOrder(t *testing.T) {
	v, err := FromJSON([]byte(`{"😀": "1", "\uffff": "2", "z": "3"}`), tTextMap(tInt64), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := EncodeLFProto(v)
	if err != nil {
		t.Fatalf("EncodeLFProto of a FromJSON text map: %v", err)
	}
	got, err := DecodeLFProto(b)
	if err != nil {
		t.Fatal(err)
	}
	want := TextMap{{Key: "z", Value: Int64(3)}, {Key: "\uffff", Value: Int64(2)}, {Key: "😀", Value: Int64(1)}}
	if d := cmp.Diff(Value(want), got); d != "" {
		t.Errorf("round trip (-want +got):\n%s", d)
	}

	field := func(num protowire.Number, body []byte) []byte {
		return protowire.AppendBytes(protowire.AppendTag(nil, num, protowire.BytesType), body)
	}
	var entries []byte
	for _, k := range []string{"😀", "z", "\uffff"} { // UTF-16 order would put 😀 between z and \uffff
		entries = append(entries, field(1, slices.Concat(field(1, []byte(k)), field(2, []byte{0x18, 0})))...)
	}
	got, err = DecodeLFProto(field(16, entries))
	if err != nil {
		t.Fatalf("DecodeLFProto of an unsorted text map: %v", err)
	}
	want = TextMap{{Key: "z", Value: Int64(0)}, {Key: "\uffff", Value: Int64(0)}, {Key: "😀", Value: Int64(0)}}
	if d := cmp.Diff(Value(want), got); d != "" {
		t.Errorf("decoded unsorted text map (-want +got):\n%s", d)
	}
}

// FuzzDecodeLFProto: DecodeLFProto never panics, fails only with an
// *LFProtoError, and what it accepts re-encodes to bytes that decode to
// the same value.
func FuzzDecodeLFProto(f *testing.F) {
	for _, v := range []Value{lfSample(), Unit{}, List{Optional{Value: Int64(1)}}} {
		b, err := EncodeLFProto(v)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := DecodeLFProto(b)
		if err != nil {
			var le *LFProtoError
			if !errors.As(err, &le) {
				t.Fatalf("err %T %v", err, err)
			}
			return
		}
		b2, err := EncodeLFProto(v)
		if err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		v2, err := DecodeLFProto(b2)
		if err != nil {
			t.Fatalf("re-decode: %v", err)
		}
		if !reflect.DeepEqual(v, v2) {
			t.Fatalf("re-decode = %.2000v, want %.2000v", v2, v)
		}
	})
}
