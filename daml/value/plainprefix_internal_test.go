package value

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestPlainPrefix compares plainPrefix, which tests eight bytes at a
// time, with a byte loop: every byte value at every position of strings
// around the eight-byte steps.
func TestPlainPrefix(t *testing.T) {
	plain := func(c byte) bool { return c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf }
	for n := range 20 {
		for pos := range n {
			for c := range 256 {
				b := []byte(strings.Repeat("a", n))
				b[pos] = byte(c)
				want := n
				if !plain(byte(c)) {
					want = pos
				}
				if got := plainPrefix(b); got != want {
					t.Fatalf("plainPrefix(%q) = %d, want %d", b, got, want)
				}
				if got := plainPrefix(string(b)); got != want {
					t.Fatalf("plainPrefix(string %q) = %d, want %d", b, got, want)
				}
			}
		}
	}
}
