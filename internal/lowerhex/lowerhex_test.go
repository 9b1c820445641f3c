package lowerhex

import (
	"encoding/hex"
	"math/rand/v2"
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
