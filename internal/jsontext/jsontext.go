// Package jsontext writes JSON strings byte for byte as encoding/json
// does, with or without its HTML escaping, without reflection: the
// node's stored forms are json.Marshal's (HTML-safe), the JSON API's
// answers its encoder's with SetEscapeHTML(false), as Canton's are. It
// also holds what the node's one-pass JSON readers share (scan.go): the
// plain bytes of strings (PlainPrefix), whitespace, numbers, literals.
package jsontext

import (
	"math/bits"
	"unicode/utf8"

	"github.com/ledgernode/ledgernode/internal/word"
)

// hex is the digits of a \u escape.
const hex = "0123456789abcdef"

// AppendString appends s as a JSON string as encoding/json writes it: '"',
// '\' and control characters escaped (\b, \f, \n, \r, \t, else \u00XX),
// U+2028 and U+2029 escaped, invalid UTF-8 replaced by \ufffd; with html
// also <, > and & (as \u003c, \u003e, \u0026), json.Marshal's default.
func AppendString(dst []byte, s string, html bool) []byte {
	dst = append(dst, '"')
	dst = AppendStringBody(dst, s, html)
	return append(dst, '"')
}

// AppendStringBody is AppendString without the quotes.
func AppendStringBody(dst []byte, s string, html bool) []byte {
	safe := &plainSafe
	if html {
		safe = &htmlSafe
	}
	start := 0
	for i := 0; i < len(s); {
		i = skipPlain(s, i, html)
		if i >= len(s) {
			break
		}
		b := s[i]
		if b < utf8.RuneSelf {
			if safe[b] {
				i++
				continue
			}
			dst = AppendEscape(append(dst, s[start:i]...), b)
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case c == '\u2028' || c == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(dst, s[start:]...)
}

// AppendEscape appends the escape of an ASCII byte a JSON string escapes
// ('"', '\\' or a control byte, or an HTML character <, > or &) as
// encoding/json writes it: \", \\, \b, \f, \n, \r, \t, else \u00XX.
func AppendEscape(dst []byte, b byte) []byte {
	switch b {
	case '\\', '"':
		return append(dst, '\\', b)
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	return append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
}

// Plain reports whether AppendString(dst, s, false) writes s as it is
// between its quotes: every byte printable ASCII other than '"' and '\'.
// (A string with other UTF-8 may also be written as it is; Plain says
// false for it, as for any string it cannot tell at a glance.)
func Plain(s string) bool { return PlainPrefix(s) == len(s) }

// HTMLPlain reports whether s is Plain and holds none of <, > and &:
// AppendString writes it as it is, with html or without. Eight bytes are
// tested at a time.
func HTMLPlain(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if htmlEscapeMask(word.Load64(s[i:i+8])) != 0 {
			return false
		}
	}
	if i == len(s) {
		return true
	}
	if len(s) >= 8 {
		// The eight bytes that end s: those before i are plain, so a
		// flag (exact at the lowest) is one of the last bytes'.
		return htmlEscapeMask(word.Load64(s[len(s)-8:])) == 0
	}
	for ; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || !htmlSafe[c] {
			return false
		}
	}
	return true
}

// PlainPrefix returns the length of s's longest prefix of plain bytes:
// printable ASCII (and DEL) other than '"' and '\', which a JSON string
// holds as they are (a JSON reader or writer passes over them without a
// look at each; the Daml values' readers and writers and the JSON API's
// decoder of submissions use it too). The first eight bytes are tested
// alone, then sixteen at a time (two words, escapeMask), the first byte to
// stop at found from the flags; the last bytes of s, when it has eight or
// more, with the eight that end it.
func PlainPrefix[S ~string | ~[]byte](s S) int {
	if len(s) < 8 {
		for i := range len(s) {
			if c := s[i]; c >= utf8.RuneSelf || !plainSafe[c] {
				return i
			}
		}
		return len(s)
	}
	// The first eight bytes alone: most strings, keys and short values,
	// end in them (a reader's s runs on past the string to its quote).
	b := s[:8]
	w := word.Load64(b)
	if m := escapeMask(w); m != 0 {
		return bits.TrailingZeros64(m) >> 3
	}
	i := 8
	for ; i+16 <= len(s); i += 16 {
		// A slice of sixteen: its indexes need no bounds checks.
		b := s[i : i+16]
		lo := word.Load64(b)
		hi := word.Load64(b[8:])
		if m, n := escapeMask(lo), escapeMask(hi); m|n != 0 {
			if m != 0 {
				return i + bits.TrailingZeros64(m)>>3
			}
			return i + 8 + bits.TrailingZeros64(n)>>3
		}
	}
	if i == len(s) {
		return i
	}
	// The eight bytes that end s (at most fifteen are left: one or two
	// words). The bytes before i, plain, shift out: a plain byte neither
	// is flagged nor borrows from the next (escapeMask).
	if i+8 < len(s) {
		b := s[i : i+8]
		w := word.Load64(b)
		if m := escapeMask(w); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	b = s[len(s)-8:]
	w = word.Load64(b)
	if m := escapeMask(w) >> (8 * uint(8-(len(s)-i))); m != 0 {
		return i + bits.TrailingZeros64(m)>>3
	}
	return len(s)
}

// skipPlain is the index of the first byte from i on that AppendStringBody
// cannot copy as it is (len(s) when there is none), found eight bytes at
// a time: most of what the node writes (party and contract ids, names,
// numbers) has no such byte. The last bytes of a string of eight or more
// are checked with the eight that end it.
func skipPlain(s string, i int, html bool) int {
	if html {
		for ; i+8 <= len(s); i += 8 {
			if m := htmlEscapeMask(word.Load64(s[i : i+8])); m != 0 {
				return i + bits.TrailingZeros64(m)>>3
			}
		}
	} else {
		for ; i+8 <= len(s); i += 8 {
			if m := escapeMask(word.Load64(s[i : i+8])); m != 0 {
				return i + bits.TrailingZeros64(m)>>3
			}
		}
	}
	if i == len(s) || len(s) < 8 {
		return i
	}
	// The bytes before i, seen already and clean, shift out: a clean byte
	// neither is flagged nor borrows from the next (escapeMask).
	left := 8 * uint(8-(len(s)-i))
	if m := mask(word.Load64(s[len(s)-8:]), html) >> left; m != 0 {
		return i + bits.TrailingZeros64(m)>>3
	}
	return len(s)
}

// mask is htmlEscapeMask when html, else escapeMask.
func mask(w uint64, html bool) uint64 {
	if html {
		return htmlEscapeMask(w)
	}
	return escapeMask(w)
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// escapeMask flags (in its bytes' high bits) the bytes of w, eight bytes
// of a string loaded little-endian, that AppendStringBody cannot copy as
// they are without html (nor PlainPrefix pass over): control bytes, '"',
// '\\' and non-ASCII bytes (left to the rune decoder). It is zero when w
// has none, and its lowest flag is exact (a borrow of its subtractions,
// which only a flagged byte starts, may flag bytes above it), which is
// all the callers use: where the first such byte is. A byte below 0x80
// has the high bit of its xor with a quote or a backslash, less one, set
// only when the xor is zero, and of itself less 0x20 only when it is below
// 0x20; a byte above 0x7f has its own.
func escapeMask(w uint64) uint64 {
	q, b := w^'"'*ones, w^'\\'*ones
	return (w | (w - 0x20*ones) | (q - ones) | (b - ones)) & highs
}

// htmlEscapeMask is escapeMask with html: it flags the bytes <, > and &
// too. '"' (0x22) and '&' (0x26) differ in bit 2 alone, '<' (0x3c) and
// '>' (0x3e) in bit 1: with that bit set, one test finds either (the xor
// of a byte below 0x80 stays below 0x80).
func htmlEscapeMask(w uint64) uint64 {
	q, b, a := (w|0x04*ones)^'&'*ones, w^'\\'*ones, (w|0x02*ones)^'>'*ones
	return (w | (w - 0x20*ones) | (q - ones) | (b - ones) | (a - ones)) & highs
}

// plainSafe and htmlSafe mark the ASCII bytes encoding/json copies into a
// string as they are, without and with HTML escaping.
var plainSafe, htmlSafe = func() (plain, html [utf8.RuneSelf]bool) {
	for b := range utf8.RuneSelf {
		plain[b] = b >= 0x20 && b != '"' && b != '\\'
		html[b] = plain[b] && b != '<' && b != '>' && b != '&'
	}
	return plain, html
}()
