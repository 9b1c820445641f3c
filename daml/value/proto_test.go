package value

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/internal/pbwire"
)

// protoAll is a record with every value kind, type ids present and
// absent, and an unlabelled field.
func protoAll() Value {
	id := &lf.TypeConID{PackageID: "pkg", Module: "Main.Sub", Name: "T"}
	return Record{RecordID: id, Fields: []RecordField{
		{Label: "unit", Value: Unit{}},
		{Label: "no", Value: Bool(false)},
		{Label: "int", Value: Int64(-9007199254740991)},
		{Label: "zero", Value: Int64(0)},
		{Label: "amount", Value: Numeric("12.5000000000")},
		{Label: "when", Value: Timestamp(-1)},
		{Label: "day", Value: Date(-719162)},
		{Label: "who", Value: Party("alice::1220")},
		{Label: "text", Value: Text("héllo ✓")},
		{Label: "empty", Value: Text("")},
		{Label: "ref", Value: ContractID(cidV1)},
		{Label: "none", Value: Optional{}},
		{Label: "nested", Value: Optional{Value: Optional{Value: Unit{}}}},
		{Label: "list", Value: List{Text("a"), List{}}},
		{Label: "map", Value: TextMap{{Key: "b", Value: Int64(1)}, {Key: "a", Value: Int64(2)}}},
		{Label: "gmap", Value: GenMap{{Key: Int64(2), Value: Text("two")}, {Key: Int64(1), Value: Text("one")}}},
		{Label: "variant", Value: Variant{VariantID: id, Constructor: "C", Value: Numeric("1.")}},
		{Label: "enum", Value: Enum{Constructor: "Red"}},
		{Value: Record{Fields: []RecordField{{Label: "x", Value: Int64(1)}}}},
	}}
}

func TestProtoRoundTrip(t *testing.T) {
	v := protoAll()
	b, err := EncodeProto(v)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeProto(b)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(v, got, protoLosses); d != "" {
		t.Fatalf("round trip (-want +got):\n%s", d)
	}
	again, err := EncodeProto(got)
	if err != nil || string(again) != string(b) {
		t.Fatalf("re-encoding differs: %x vs %x (%v)", again, b, err)
	}
}

// TestProtoBytes pins the encoding of value.proto: oneof members are
// written even when they hold their default, message fields always.
func TestProtoBytes(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    Value
		want string
	}{
		{"unit", Unit{}, "0a00"},
		{"false", Bool(false), "1000"},
		{"int64 -1 zigzag", Int64(-1), "1801"},
		{"date", Date(-1), "20ffffffffffffffffff01"},
		{"timestamp", Timestamp(1), "290100000000000000"},
		{"numeric", Numeric("1."), "32023 12e"},
		{"party", Party("p"), "3a0170"},
		{"text empty", Text(""), "4200"},
		{"contract id", ContractID("00"), "4a023030"},
		{"none", Optional{}, "5200"},
		{"some unit", Optional{Value: Unit{}}, "5204" + "0a02" + "0a00"},
		{"list", List{Unit{}}, "5a04" + "0a020a00"},
		{"text map", TextMap{{Key: "k", Value: Unit{}}}, "6209" + "0a07" + "0a016b" + "1202" + "0a00"},
		{"gen map", GenMap{{Key: Unit{}, Value: Unit{}}}, "6a0a" + "0a08" + "0a020a00" + "1202" + "0a00"},
		{"record", Record{RecordID: &lf.TypeConID{PackageID: "p", Module: "M", Name: "T"},
			Fields: []RecordField{{Value: Unit{}}}}, "7211" + "0a09" + "0a0170" + "12014d" + "1a0154" + "1204" + "1202" + "0a00"},
		{"variant", Variant{Constructor: "C", Value: Unit{}}, "7a07" + "120143" + "1a02" + "0a00"},
		{"enum", Enum{Constructor: "C"}, "8201" + "03" + "120143"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := EncodeProto(tc.v)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := hex.EncodeToString(b), strings.ReplaceAll(tc.want, " ", ""); got != want {
				t.Errorf("EncodeProto = %s, want %s", got, want)
			}
		})
	}
	if _, err := EncodeProto(Text("\xff")); err == nil || !strings.Contains(err.Error(), "UTF-8") {
		t.Errorf("invalid UTF-8: %v", err)
	}
	if _, err := EncodeProto(nil); err == nil {
		t.Error("nil value encoded")
	}
}

func TestDecodeProtoErrors(t *testing.T) {
	msg := func(f func(e *pbwire.Encoder)) []byte {
		var e pbwire.Encoder
		f(&e)
		return e.B
	}
	deep := msg(func(e *pbwire.Encoder) { e.Message(1, func(*pbwire.Encoder) {}) })
	for range 120 {
		inner := deep
		deep = msg(func(e *pbwire.Encoder) { e.BytesAlways(10, msg(func(e *pbwire.Encoder) { e.BytesAlways(1, inner) })) })
	}
	for _, tc := range []struct {
		name string
		b    []byte
		want string
	}{
		{"no sum", nil, "value has no sum set"},
		{"unknown fields only", msg(func(e *pbwire.Encoder) { e.VarintAlways(99, 1) }), "value has no sum set"},
		{"malformed", []byte{0x0a}, "malformed protobuf"},
		{"invalid utf-8", msg(func(e *pbwire.Encoder) { e.BytesAlways(8, []byte{0xff}) }), "not valid UTF-8"},
		{"text map value missing", msg(func(e *pbwire.Encoder) {
			e.Message(12, func(e *pbwire.Encoder) { e.Message(1, func(e *pbwire.Encoder) { e.String(1, "k") }) })
		}), "text map entry value is missing"},
		{"gen map key missing", msg(func(e *pbwire.Encoder) {
			e.Message(13, func(e *pbwire.Encoder) { e.Message(1, func(*pbwire.Encoder) {}) })
		}), "gen map entry key is missing"},
		{"record field value missing", msg(func(e *pbwire.Encoder) {
			e.Message(14, func(e *pbwire.Encoder) { e.Message(2, func(e *pbwire.Encoder) { e.String(1, "x") }) })
		}), "record field value is missing"},
		{"variant value missing", msg(func(e *pbwire.Encoder) {
			e.Message(15, func(e *pbwire.Encoder) { e.String(2, "C") })
		}), "variant value is missing"},
		{"too deep", deep, "nesting exceeds 100"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeProto(tc.b)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
	// The last sum field wins; a wrong wire type is an unknown field.
	b := msg(func(e *pbwire.Encoder) {
		e.VarintAlways(3, 2)
		e.StringAlways(8, "x")
		e.StringAlways(2, "wrong wire type")
	})
	if v, err := DecodeProto(b); err != nil || v != Text("x") {
		t.Errorf("last sum wins: %#v, %v", v, err)
	}
}

// FuzzDecodeProto: DecodeProto never panics, and what it accepts encodes
// to bytes that decode to the same value and re-encode identically.
func FuzzDecodeProto(f *testing.F) {
	for _, v := range []Value{protoAll(), Unit{}, Optional{Value: Optional{}}, List{Int64(1), Int64(2)}} {
		b, err := EncodeProto(v)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte{0x0a})
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := DecodeProto(data)
		if err != nil {
			return
		}
		b, err := EncodeProto(v)
		if err != nil {
			t.Fatalf("decoded value %#v does not encode: %v", v, err)
		}
		w, err := DecodeProto(b)
		if err != nil {
			t.Fatalf("re-encoded value does not decode: %v", err)
		}
		if d := cmp.Diff(v, w); d != "" {
			t.Fatalf("round trip (-first +second):\n%s", d)
		}
		if again, _ := EncodeProto(w); string(again) != string(b) {
			t.Fatalf("encoding is not a fixed point")
		}
	})
}
