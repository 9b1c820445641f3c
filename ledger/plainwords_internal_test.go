package ledger

import "testing"

// TestPlainWords compares plainWords with a byte loop: every byte at every
// position of strings of length 0 to 40.
func TestPlainWords(t *testing.T) {
	want := func(b []byte) int {
		n := 0
		for ; n+8 <= len(b); n += 8 {
			for _, c := range b[n : n+8] {
				if c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
					return n
				}
			}
		}
		return n
	}
	for n := 0; n <= 40; n++ {
		b := make([]byte, n)
		for i := range b {
			b[i] = "a1:-Z ~!"[i%8]
		}
		for p := 0; p < n; p++ {
			orig := b[p]
			for c := range 256 {
				b[p] = byte(c)
				if got, w := plainWords(b), want(b); got != w {
					t.Fatalf("plainWords(%q) = %d, want %d", b, got, w)
				}
			}
			b[p] = orig
		}
		if got, w := plainWords(b), want(b); got != w {
			t.Fatalf("plainWords(%q) = %d, want %d", b, got, w)
		}
	}
}
