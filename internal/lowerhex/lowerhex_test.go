package lowerhex

import (
	"bytes"
	"encoding/hex"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestEncode32IsHex checks Encode32 against hex.Encode on random hashes
// and on every byte value.
func TestEncode32IsHex(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var inputs [][32]byte
	for i := 0; i < 256; i += 32 {
		var h [32]byte
		for j := range h {
			h[j] = byte(i + j)
		}
		inputs = append(inputs, h)
	}
	for range 1000 {
		var h [32]byte
		for j := range h {
			h[j] = byte(r.Uint32())
		}
		inputs = append(inputs, h)
	}
	for _, src := range inputs {
		var dst [64]byte
		Encode32(&dst, &src)
		if want := hex.EncodeToString(src[:]); string(dst[:]) != want {
			t.Fatalf("Encode32(% x) = %q, want %q", src, dst, want)
		}
	}
}

// TestValid64 checks Valid64 against a plain check of each byte: every
// byte value at every position of a valid id, other lengths, random text.
func TestValid64(t *testing.T) {
	plain := func(s string) bool {
		if len(s) != 64 {
			return false
		}
		for i := 0; i < len(s); i++ {
			if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
				return false
			}
		}
		return true
	}
	base := []byte(strings.Repeat("0123456789abcdef", 4))
	for pos := range base {
		for c := range 256 {
			b := bytes.Clone(base)
			b[pos] = byte(c)
			if got, want := Valid64(string(b)), plain(string(b)); got != want {
				t.Fatalf("Valid64(%q) = %v, want %v", b, got, want)
			}
		}
	}
	for _, s := range []string{"", "0", string(base[:63]), string(base) + "0"} {
		if Valid64(s) {
			t.Errorf("Valid64(%q) = true", s)
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	const alphabet = "0123456789abcdefABCDEFgz/:`G\x00\x80\xff"
	for range 20000 {
		b := bytes.Clone(base)
		for range 1 + r.IntN(3) {
			b[r.IntN(len(b))] = alphabet[r.IntN(len(alphabet))]
		}
		if got, want := Valid64(string(b)), plain(string(b)); got != want {
			t.Fatalf("Valid64(%q) = %v, want %v", b, got, want)
		}
	}
}
