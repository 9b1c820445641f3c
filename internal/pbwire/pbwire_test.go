package pbwire

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/encoding/protowire"
)

func msg() []byte {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, 150)
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendString(b, "hé")
	b = protowire.AppendTag(b, 3, protowire.Fixed64Type)
	b = protowire.AppendFixed64(b, uint64(1<<63|5))
	b = protowire.AppendTag(b, 4, protowire.Fixed32Type)
	b = protowire.AppendFixed32(b, 7)
	b = protowire.AppendTag(b, 5, protowire.VarintType)
	b = protowire.AppendVarint(b, protowire.EncodeZigZag(-3))
	b = protowire.AppendTag(b, 6, protowire.BytesType)
	b = protowire.AppendBytes(b, []byte{1, 0x96, 0x01, 3})
	return b
}

func TestReaderFields(t *testing.T) {
	var got []Field
	if err := Walk(msg(), func(f Field) error { got = append(got, f); return nil }); err != nil {
		t.Fatal(err)
	}
	want := []Field{
		{Num: 1, Type: protowire.VarintType, Uint: 150},
		{Num: 2, Type: protowire.BytesType, Bytes: []byte("hé")},
		{Num: 3, Type: protowire.Fixed64Type, Uint: 1<<63 | 5},
		{Num: 4, Type: protowire.Fixed32Type, Uint: 7},
		{Num: 5, Type: protowire.VarintType, Uint: protowire.EncodeZigZag(-3)},
		{Num: 6, Type: protowire.BytesType, Bytes: []byte{1, 0x96, 0x01, 3}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("fields (-want +got):\n%s", d)
	}
	if v, err := got[0].Int32(); err != nil || v != 150 {
		t.Errorf("Int32 = %d, %v", v, err)
	}
	if s, err := got[1].Text(); err != nil || s != "hé" {
		t.Errorf("Text = %q, %v", s, err)
	}
	if v, err := got[2].SFixed64(); err != nil || v != -(1<<63)+5 {
		t.Errorf("SFixed64 = %d, %v", v, err)
	}
	if v, err := got[4].SInt64(); err != nil || v != -3 {
		t.Errorf("SInt64 = %d, %v", v, err)
	}
	if vs, err := got[5].AppendInt32s(nil); err != nil || !cmp.Equal(vs, []int32{1, 150, 3}) {
		t.Errorf("packed AppendInt32s = %v, %v", vs, err)
	}
	if vs, err := got[0].AppendInt32s([]int32{9}); err != nil || !cmp.Equal(vs, []int32{9, 150}) {
		t.Errorf("unpacked AppendInt32s = %v, %v", vs, err)
	}
	if b, _ := got[0].Bool(); !b {
		t.Error("Bool(150) = false")
	}
	if !Has(msg(), 4) || Has(msg(), 7) {
		t.Error("Has gives wrong answers")
	}
}

func TestAccessorWireTypes(t *testing.T) {
	v := Field{Num: 1, Type: protowire.VarintType, Uint: 1}
	b := Field{Num: 2, Type: protowire.BytesType, Bytes: []byte{0xff}}
	for name, err := range map[string]error{
		"Message(varint)":   second(v.Message()),
		"Text(varint)":      second(v.Text()),
		"Text(bad utf8)":    second(b.Text()),
		"Int32(bytes)":      second(b.Int32()),
		"SFixed64(varint)":  second(v.SFixed64()),
		"AppendInt32s(f32)": second(Field{Num: 3, Type: protowire.Fixed32Type}.AppendInt32s(nil)),
		"packed truncated":  second(Field{Num: 3, Type: protowire.BytesType, Bytes: []byte{0x80}}.AppendInt32s(nil)),
	} {
		var we *Error
		if !errors.As(err, &we) {
			t.Errorf("%s: error %v is not an *Error", name, err)
		}
	}
}

func second[T any](_ T, err error) error { return err }

func TestMalformed(t *testing.T) {
	group := protowire.AppendTag(nil, 1, protowire.StartGroupType)
	group = protowire.AppendTag(group, 1, protowire.EndGroupType)
	group = protowire.AppendTag(group, 2, protowire.VarintType)
	group = protowire.AppendVarint(group, 4)
	for name, b := range map[string][]byte{
		"truncated tag":    {0x80},
		"truncated varint": {0x08, 0x80},
		"long length":      {0x12, 0x05, 'a'},
		"field number 0":   {0x00, 0x01},
		"group":            group,
	} {
		err := Walk(b, func(Field) error { return nil })
		var we *Error
		if !errors.As(err, &we) {
			t.Errorf("%s: Walk = %v, want an *Error", name, err)
		}
	}
	// SkipGroups skips a well-formed group and reads on.
	r := NewReader(group)
	r.SkipGroups = true
	f, ok := r.Next()
	if !ok || f.Num != 2 || f.Uint != 4 {
		t.Errorf("SkipGroups: Next = %+v, %v (err %v)", f, ok, r.Err())
	}
	if _, ok := r.Next(); ok || r.Err() != nil {
		t.Errorf("SkipGroups: second Next = %v, err %v", ok, r.Err())
	}
	stop := errors.New("stop")
	if err := Walk(msg(), func(Field) error { return stop }); err != stop {
		t.Errorf("Walk does not return fn's error: %v", err)
	}
}

// TestReaderShortFields: fields with a one-byte tag and a one-byte varint
// or length (Next's fast path) and their neighbours with longer ones read
// the same, up to the message's last byte.
func TestReaderShortFields(t *testing.T) {
	var b []byte
	var want []Field
	for _, num := range []protowire.Number{1, 15, 16} {
		for _, v := range []uint64{0, 127, 128} {
			b = protowire.AppendTag(b, num, protowire.VarintType)
			b = protowire.AppendVarint(b, v)
			want = append(want, Field{Num: num, Type: protowire.VarintType, Uint: v})
			p := make([]byte, v)
			b = protowire.AppendTag(b, num, protowire.BytesType)
			b = protowire.AppendBytes(b, p)
			want = append(want, Field{Num: num, Type: protowire.BytesType, Bytes: p})
		}
	}
	var got []Field
	if err := Walk(b, func(f Field) error { got = append(got, f); return nil }); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("fields (-want +got):\n%s", d)
	}
	// A one-byte length one beyond the message is malformed.
	if err := Walk([]byte{0x0a, 0x02, 'a'}, func(Field) error { return nil }); err == nil {
		t.Error("a length beyond the message was read")
	}
}
