package engine

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestASCIIWithoutNUL pins asciiWithoutNUL to its definition at every
// position of every word and tail, for the bytes around its bounds.
func TestASCIIWithoutNUL(t *testing.T) {
	for n := 0; n <= 20; n++ {
		for at := 0; at < n; at++ {
			for _, c := range []byte{0, 1, 'a', 0x7f, 0x80, 0xc3, 0xff} {
				b := []byte(strings.Repeat("x", n))
				b[at] = c
				s := string(b)
				want := strings.IndexByte(s, 0) < 0 && !strings.ContainsFunc(s, func(r rune) bool { return r >= utf8.RuneSelf })
				if got := asciiWithoutNUL(s); got != want {
					t.Errorf("asciiWithoutNUL(%q) = %v, want %v", s, got, want)
				}
			}
		}
		if s := strings.Repeat("\x01", n); !asciiWithoutNUL(s) {
			t.Errorf("asciiWithoutNUL(%q) = false", s)
		}
	}
}
