package pbwire

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/encoding/protowire"
)

func TestCheckDepth(t *testing.T) {
	if err := CheckDepth(MaxDepth); err != nil {
		t.Errorf("CheckDepth(%d) = %v, want nil", MaxDepth, err)
	}
	if err := CheckDepth(MaxDepth + 1); !errors.Is(err, ErrTooDeep) {
		t.Errorf("CheckDepth(%d) = %v, want ErrTooDeep", MaxDepth+1, err)
	}
}

func TestWalkSkippingGroups(t *testing.T) {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, 5)
	b = protowire.AppendTag(b, 2, protowire.StartGroupType)
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, 6)
	b = protowire.AppendTag(b, 2, protowire.EndGroupType)
	b = protowire.AppendTag(b, 3, protowire.BytesType)
	b = protowire.AppendString(b, "x")

	var got []Field
	if err := WalkSkippingGroups(b, func(f Field) error { got = append(got, f); return nil }); err != nil {
		t.Fatal(err)
	}
	want := []Field{
		{Num: 1, Type: protowire.VarintType, Uint: 5},
		{Num: 3, Type: protowire.BytesType, Bytes: []byte("x")},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("fields (-want +got):\n%s", diff)
	}
	if err := Walk(b, func(Field) error { return nil }); err == nil {
		t.Error("Walk accepted a group")
	}

	stop := errors.New("stop")
	if err := WalkSkippingGroups(b, func(Field) error { return stop }); err != stop {
		t.Errorf("callback error: got %v", err)
	}
	for _, bad := range [][]byte{
		b[:len(b)-1], // truncated string
		protowire.AppendTag(nil, 2, protowire.EndGroupType),   // stray end group
		protowire.AppendTag(nil, 2, protowire.StartGroupType), // unterminated group
	} {
		var pe *Error
		if err := WalkSkippingGroups(bad, func(Field) error { return nil }); !errors.As(err, &pe) {
			t.Errorf("WalkSkippingGroups(%x) = %v, want *Error", bad, err)
		}
	}
}

func TestAcc(t *testing.T) {
	var a Acc
	if a.Set || a.B != nil {
		t.Fatalf("zero Acc = %+v, want absent", a)
	}
	a.Add(nil)
	if !a.Set || len(a.B) != 0 {
		t.Errorf("after empty occurrence: %+v, want set and empty", a)
	}
	a.Add([]byte{1, 2})
	a.Add([]byte{3})
	if diff := cmp.Diff([]byte{1, 2, 3}, a.B); diff != "" {
		t.Errorf("concatenation (-want +got):\n%s", diff)
	}
}

func TestNamedTextAndInt32s(t *testing.T) {
	s, err := Field{Num: 1, Type: protowire.BytesType, Bytes: []byte("hé")}.NamedText("label")
	if s != "hé" || err != nil {
		t.Errorf("NamedText = %q, %v", s, err)
	}
	_, err = Field{Num: 1, Type: protowire.BytesType, Bytes: []byte{0xff}}.NamedText("label")
	if err == nil || err.Error() != "label is not valid UTF-8" {
		t.Errorf("NamedText of invalid UTF-8: %v", err)
	}

	packed := Field{Num: 4, Type: protowire.BytesType, Bytes: []byte{1, 0xac, 0x02}}
	vs, err := packed.Int32s()
	if diff := cmp.Diff([]int32{1, 300}, vs); diff != "" || err != nil {
		t.Errorf("packed Int32s (-want +got):\n%s %v", diff, err)
	}
	vs, err = Field{Num: 4, Type: protowire.VarintType, Uint: 7}.Int32s()
	if diff := cmp.Diff([]int32{7}, vs); diff != "" || err != nil {
		t.Errorf("unpacked Int32s (-want +got):\n%s %v", diff, err)
	}
	if _, err := (Field{Num: 4, Type: protowire.BytesType, Bytes: []byte{0x80}}).Int32s(); err == nil {
		t.Error("truncated packed varint accepted")
	}
}
