// Package word reads eight bytes as one little-endian word, for the
// scanners that test eight bytes of text at a time (JSON strings, Daml-LF
// names, ids in hex).
package word

// Load64 returns the first eight bytes of s as a little-endian word. The
// compiler makes one load of it (the bounds check of s[7] covers the
// eight byte loads, which it then combines), and inlines it. s must hold
// eight bytes or more.
func Load64[S ~string | ~[]byte](s S) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
