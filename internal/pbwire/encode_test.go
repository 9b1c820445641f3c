package pbwire

import (
	"encoding/hex"
	"testing"
)

func TestEncoder(t *testing.T) {
	var e Encoder
	e.String(1, "")       // default: skipped
	e.StringAlways(2, "") // written
	e.String(3, "a")
	e.VarintAlways(4, 0)
	e.Fixed64Always(5, 1)
	e.BytesAlways(6, nil)
	e.Message(7, func(e *Encoder) { e.VarintAlways(1, 300) })
	e.Message(8, func(*Encoder) {})
	want := "1200" + "1a0161" + "2000" + "290100000000000000" + "3200" + "3a03" + "08ac02" + "4200"
	if got := hex.EncodeToString(e.B); got != want || e.Err != nil {
		t.Errorf("got %s (%v), want %s", got, e.Err, want)
	}
	var bad Encoder
	bad.Message(1, func(e *Encoder) { e.StringAlways(1, "\xff") })
	bad.StringAlways(2, "\xfe")
	if bad.Err == nil || bad.Err.Error() != `field 1: string "\xff" is not valid UTF-8` {
		t.Errorf("first error kept: %v", bad.Err)
	}
}

func TestEncoderDefaultsAndRepeated(t *testing.T) {
	zero, seven := uint64(0), uint64(7)
	tests := []struct {
		name  string
		write func(e *Encoder)
		want  string
	}{
		{"empty bytes skipped", func(e *Encoder) { e.Bytes(1, nil) }, ""},
		{"bytes", func(e *Encoder) { e.Bytes(1, []byte{9}) }, "0a0109"},
		{"zero varint skipped", func(e *Encoder) { e.Varint(1, 0) }, ""},
		{"varint", func(e *Encoder) { e.Varint(1, 300) }, "08ac02"},
		{"nil optional skipped", func(e *Encoder) { e.OptVarint(1, nil) }, ""},
		{"optional zero written", func(e *Encoder) { e.OptVarint(1, &zero) }, "0800"},
		{"optional", func(e *Encoder) { e.OptVarint(1, &seven) }, "0807"},
		{"false skipped", func(e *Encoder) { e.Bool(1, false) }, ""},
		{"true", func(e *Encoder) { e.Bool(1, true) }, "0801"},
		{"zero int32 skipped", func(e *Encoder) { e.Int32(1, 0) }, ""},
		{"negative int32 sign-extended", func(e *Encoder) { e.Int32(1, -1) }, "08ffffffffffffffffff01"},
		{"strings keep empties", func(e *Encoder) { e.Strings(2, []string{"a", ""}) }, "120161" + "1200"},
		{"no packed values", func(e *Encoder) { e.PackedInt32s(3, nil) }, ""},
		{"packed", func(e *Encoder) { e.PackedInt32s(3, []int32{1, 300, -1}) }, "1a0d" + "01" + "ac02" + "ffffffffffffffffff01"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var e Encoder
			tc.write(&e)
			if got := hex.EncodeToString(e.B); got != tc.want || e.Err != nil {
				t.Errorf("got %s (%v), want %s", got, e.Err, tc.want)
			}
		})
	}
}
