// Package lowerhex encodes 32-byte hashes in lowercase hex as
// encoding/hex does, with no bounds check per digit: every create prints
// several (its update id, contract id, deduplication key, the seed it
// hashes), which hex.Encode's loop over single digits made a visible part
// of the node's per-create work.
package lowerhex

import "encoding/binary"

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
