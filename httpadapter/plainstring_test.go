package httpadapter

import (
	"math/rand/v2"
	"testing"
)

// plainStringByByte is plainString as it was written first, a byte at a
// time: the reference of TestPlainStringIsBytewise.
func plainStringByByte(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return 0, false
	}
	for i++; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			return i + 1, true
		case c == '\\' || c < 0x20:
			return 0, false
		}
	}
	return 0, false
}

// TestPlainStringIsBytewise: plainString, eight bytes at a time, reads
// what a byte-at-a-time reader reads, for strings of every length up to
// 40 with a byte of every kind (quote, backslash, control, DEL, high
// bytes, plain) at every place, and for random ones.
func TestPlainStringIsBytewise(t *testing.T) {
	t.Parallel()
	check := func(b []byte, i int) {
		t.Helper()
		gotEnd, gotOK := plainString(b, i)
		wantEnd, wantOK := plainStringByByte(b, i)
		if gotEnd != wantEnd || gotOK != wantOK {
			t.Fatalf("plainString(%q, %d) = %d, %v; want %d, %v", b, i, gotEnd, gotOK, wantEnd, wantOK)
		}
	}
	special := []byte{'"', '\\', 0, 0x1f, 0x20, 0x7f, 0x80, 0x9f, 0xa0, 0xdc, 0xff, 'a', '\n'}
	for n := range 41 {
		base := make([]byte, n+2)
		base[0] = '"'
		for k := 1; k <= n; k++ {
			base[k] = 'x'
		}
		base[n+1] = '"'
		check(base, 0)
		check(base[:n+1], 0) // unterminated
		for at := 1; at <= n; at++ {
			for _, c := range special {
				b := append([]byte(nil), base...)
				b[at] = c
				check(b, 0)
				check(b[:n+1], 0)
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, 1+r.IntN(60))
		b[0] = '"'
		for k := 1; k < len(b); k++ {
			switch r.IntN(8) {
			case 0:
				b[k] = special[r.IntN(len(special))]
			default:
				b[k] = byte(0x20 + r.IntN(0x60))
			}
		}
		check(b, 0)
	}
	check(nil, 0)
	check([]byte("x"), 0)
}
