// Package lowerhex encodes 32-byte hashes in lowercase hex as
// encoding/hex does, with no bounds check per digit, and checks hashes in
// hex eight digits at a time: every create prints several (its update id,
// contract id, deduplication key, the seed it hashes) and checks its
// contract id, which loops over single digits made a visible part of the
// node's per-create work.
package lowerhex

import (
	"encoding/binary"

	"github.com/ledgernode/ledgernode/internal/word"
)

// digits are the lowercase hex digits.
const digits = "0123456789abcdef"

// Encode32 writes src in lowercase hex to dst: hex.Encode(dst[:], src[:]).
// A table gives both digits of a byte at once, and the digits of four
// bytes are stored at once; the arrays' sizes spare the bounds checks.
func Encode32(dst *[64]byte, src *[32]byte) {
	t := &pairs
	for i := 0; i < len(src); i += 4 {
		w := uint64(t[src[i]]) | uint64(t[src[i+1]])<<16 | uint64(t[src[i+2]])<<32 | uint64(t[src[i+3]])<<48
		binary.LittleEndian.PutUint64(dst[2*i:], w)
	}
}

// pairs holds the two hex digits of every byte value, the first in the
// low byte.
var pairs = func() (t [256]uint16) {
	for i := range t {
		t[i] = uint16(digits[i>>4]) | uint16(digits[i&15])<<8
	}
	return t
}()

// Valid64 reports whether s is 64 lowercase hex digits (a 32-byte hash
// in hex), eight a step: for a byte b below 0x80, b + 0x80 - lo has its
// top bit set iff b >= lo, and no sum carries into the next byte.
func Valid64(s string) bool {
	if len(s) != 64 {
		return false
	}
	const ones, tops = 0x0101010101010101, 0x8080808080808080
	ok := uint64(tops)
	for i := 0; i < 64; i += 8 {
		b := s[i : i+8] // a slice of eight: one load, no bounds checks
		w := word.Load64(b)
		// The digits' and the letters' ranges, each as >= lo and not >=
		// hi+1; a byte from 0x80 up fails on its own top bit.
		digit := (w + ones*(0x80-'0')) &^ (w + ones*(0x80-'9'-1))
		letter := (w + ones*(0x80-'a')) &^ (w + ones*(0x80-'f'-1))
		ok &= (digit | letter) &^ w
	}
	return ok&tops == tops
}
