package httpadapter

import (
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// plainStringByByte is plainString as it was written first, a byte at a
// time, and then checked as UTF-8: the reference of
// TestPlainStringIsBytewise.
func plainStringByByte(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return 0, false
	}
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			if !utf8.Valid(b[i+1 : j]) {
				return 0, false
			}
			return j + 1, true
		case c == '\\' || c < 0x20:
			return 0, false
		}
	}
	return 0, false
}

// TestPlainStringIsBytewise: plainString, sixteen bytes at a time,
// reads what a byte-at-a-time reader (and a UTF-8 check) reads, for
// strings of every length up to 40 with a byte of every kind (quote,
// backslash, control, DEL, high bytes, plain) at every place, with UTF-8
// sequences valid and not at every place, and for random ones.
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
	special := []byte{'"', '\\', 0, 0x1f, 0x20, 0x7f, 0x80, 0x9f, 0xa0, 0xdc, 0xff, 0xc3, 0xe2, 'a', '\n'}
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
	// UTF-8 sequences, valid and not, at every place.
	for _, seq := range []string{"é", "€", "😀", "\u2028", "\xc3", "\xe2\x82", "\xed\xa0\x80", "\xc0\xaf", "\xf4\x90\x80\x80"} {
		for n := range 30 {
			for at := 0; at <= n; at++ {
				body := make([]byte, n)
				for k := range body {
					body[k] = 'x'
				}
				b := append([]byte{'"'}, body[:at]...)
				b = append(b, seq...)
				b = append(b, body[at:]...)
				check(append(b, '"'), 0)
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
