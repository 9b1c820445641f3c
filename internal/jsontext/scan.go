package jsontext

// The tokens of JSON's grammar that every one-pass reader of JSON text in
// the node (the ledger's decoder of its stored records, the JSON API's
// decoder of submissions) reads alike: whitespace, numbers and literals.
// Their strings differ (with or without escapes, UTF-8 checked or not);
// they share PlainPrefix for those.

// SkipSpace returns the index of the first byte from b[i] on that is not
// JSON whitespace (space, tab, newline, carriage return), len(b) when
// there is none. A byte above ' ' ends it at one test (compact JSON has
// no whitespace).
func SkipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// TrimSpace returns b without its leading and trailing JSON whitespace
// (bytes.TrimSpace would also drop \v, \f and Unicode spaces, which no
// JSON parser accepts).
func TrimSpace(b []byte) []byte {
	i, j := SkipSpace(b, 0), len(b)
	for j > i && isSpace(b[j-1]) {
		j--
	}
	return b[i:j]
}

// isSpace reports whether c is JSON whitespace; a byte above ' ' fails
// at the first test.
func isSpace(c byte) bool { return c <= ' ' && (c == ' ' || c == '\t' || c == '\n' || c == '\r') }

// NumberEnd returns the index after the JSON number at b[i] (RFC 8259:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?), false when b[i] starts
// none. What follows the number is the caller's to check ("01" is the
// number 0, then a 1).
func NumberEnd(b []byte, i int) (int, bool) {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		i = digitsEnd(b, i)
	default:
		return 0, false
	}
	if i < len(b) && b[i] == '.' {
		j := digitsEnd(b, i+1)
		if j == i+1 {
			return 0, false
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digitsEnd(b, i)
		if j == i {
			return 0, false
		}
		i = j
	}
	return i, true
}

// digitsEnd returns the index after the decimal digits from b[i].
func digitsEnd(b []byte, i int) int {
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	return i
}

// LiteralEnd returns the index after lit (true, false or null) when b
// holds it at i.
func LiteralEnd(b []byte, i int, lit string) (int, bool) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return 0, false
	}
	return i + len(lit), true
}
