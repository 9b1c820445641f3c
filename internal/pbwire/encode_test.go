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
