package prim

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// AppendText implements APPEND_TEXT: a followed by b.
func AppendText(a, b string) string { return a + b }

// ImplodeText implements IMPLODE_TEXT: the concatenation of parts.
func ImplodeText(parts []string) string { return strings.Join(parts, "") }

// ExplodeText implements EXPLODE_TEXT: one text per Unicode code point
// (not per UTF-16 unit or byte). s must be valid UTF-8, as every Daml text
// is.
func ExplodeText(s string) []string {
	out := make([]string, 0, utf8.RuneCountInString(s))
	for len(s) > 0 {
		_, n := utf8.DecodeRuneInString(s)
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

// TextToCodePoints implements TEXT_TO_CODE_POINTS: the code points of s.
func TextToCodePoints(s string) []int64 {
	out := make([]int64, 0, utf8.RuneCountInString(s))
	for _, r := range s {
		out = append(out, int64(r))
	}
	return out
}

// InvalidCodePointError is CODE_POINTS_TO_TEXT's failure: Speedy crashes
// ("invalid code point 0x…"), a fatal internal error that is not an LF
// error and reaches clients as LEDGER_API_INTERNAL_ERROR.
type InvalidCodePointError struct {
	CodePoint int64
}

// Error returns Speedy's crash message, e.g. "invalid code point 0xd800.".
func (e *InvalidCodePointError) Error() string {
	return fmt.Sprintf("invalid code point 0x%x.", uint64(e.CodePoint))
}

// CodePointsToText implements CODE_POINTS_TO_TEXT: every value must be in
// 0…0xD7FF or 0xE000…0x10FFFF (0 is accepted: the text then holds NUL,
// which fails later if serialized, see CheckText); the first invalid one
// gives an *InvalidCodePointError.
func CodePointsToText(cps []int64) (string, error) {
	var b strings.Builder
	b.Grow(len(cps))
	for _, cp := range cps {
		if cp < 0 || cp > utf8.MaxRune || 0xD800 <= cp && cp <= 0xDFFF {
			return "", &InvalidCodePointError{CodePoint: cp}
		}
		b.WriteRune(rune(cp))
	}
	return b.String(), nil
}

// CompareText is the order of Text in EQUAL/LESS/…, GenMap and TextMap
// keys: by Unicode code point, a proper prefix first. On valid UTF-8 this
// is Go's byte-wise string order (not UTF-16 order).
func CompareText(a, b string) int { return strings.Compare(a, b) }

// CheckText reports whether s may be serialized as an LF value (create and
// choice arguments and results, keys, views): an error with the message of
// Speedy's MalformedText otherwise — "Text contains null character" for NUL,
// "Text contains unpaired high surrogate" / "… low surrogate" for an
// encoded surrogate (the Go analogue of Java's unpaired ones), and "Text
// contains invalid UTF-8" for other invalid bytes (which Java strings
// cannot hold).
func CheckText(s string) error {
	for i := 0; i < len(s); {
		c := s[i]
		if c == 0 {
			return errMalformedText("Text contains null character")
		}
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			if c == 0xED && i+2 < len(s) && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2]&0xC0 == 0x80 {
				if s[i+1] < 0xB0 {
					return errMalformedText("Text contains unpaired high surrogate")
				}
				return errMalformedText("Text contains unpaired low surrogate")
			}
			return errMalformedText("Text contains invalid UTF-8")
		}
		i += n
	}
	return nil
}

// MalformedTextError is the fatal MalformedText interpretation error.
type MalformedTextError struct{ Msg string }

func errMalformedText(msg string) error { return &MalformedTextError{Msg: msg} }

// Error returns the message, e.g. "Text contains null character".
func (e *MalformedTextError) Error() string { return e.Msg }

// PartyToText implements PARTY_TO_TEXT: the party string itself.
func PartyToText(p string) string { return p }

// TextToParty implements TEXT_TO_PARTY: ok iff s is a syntactically valid
// party by daml/lf's party syntax (lf.IsParty: 1 to 255 characters from
// [a-zA-Z0-9:-_ ]), with no check that the party exists.
func TextToParty(s string) (string, bool) {
	if !lf.IsParty(s) {
		return "", false
	}
	return s, true
}

// ContractIDToText implements CONTRACT_ID_TO_TEXT: on-ledger (in a
// transaction) it is always None (ok false); only off-ledger (pure)
// evaluation returns the contract id's string.
func ContractIDToText(coid string, onLedger bool) (string, bool) {
	if onLedger {
		return "", false
	}
	return coid, true
}

// SHA256Text implements SHA256_TEXT: SHA-256 of the UTF-8 bytes of s, as 64
// lowercase hex digits.
func SHA256Text(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// TextToHex implements TEXT_TO_HEX: the UTF-8 bytes of s as lowercase hex
// ("" gives "").
func TextToHex(s string) string { return hex.EncodeToString([]byte(s)) }

// HexToText implements HEX_TO_TEXT: h must be lowercase, even-length hex
// (else a MalformedByteEncoding *CryptoError, cause "can not parse hex
// string argument"); the bytes are decoded as UTF-8, each maximal invalid
// subsequence becoming U+FFFD (as Java's UTF-8 decoder does).
func HexToText(h string) (string, error) {
	b, ok := decodeLowerHex(h)
	if !ok {
		return "", malformedBytes(h, "can not parse hex string argument")
	}
	return decodeUTF8Lossy(b), nil
}

// decodeUTF8Lossy decodes b as UTF-8, replacing each maximal subpart of an
// ill-formed sequence (the Unicode Standard's "substitution of maximal
// subparts") with U+FFFD.
func decodeUTF8Lossy(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var sb strings.Builder
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || n > 1 {
			sb.Write(b[i : i+n])
			i += n
			continue
		}
		sb.WriteRune(utf8.RuneError)
		i += maximalSubpart(b[i:])
	}
	return sb.String()
}

// maximalSubpart returns the length (>= 1) of the maximal prefix of b that
// starts a well-formed UTF-8 sequence; b[0] starts an ill-formed one.
func maximalSubpart(b []byte) int {
	c := b[0]
	var need int
	lo, hi := byte(0x80), byte(0xBF) // range of the second byte
	switch {
	case 0xC2 <= c && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c == 0xED:
		need, hi = 2, 0x9F
	case 0xE1 <= c && c <= 0xEF:
		need = 2
	case c == 0xF0:
		need, lo = 3, 0x90
	case c == 0xF4:
		need, hi = 3, 0x8F
	case 0xF1 <= c && c <= 0xF3:
		need = 3
	default:
		return 1
	}
	n := 1
	for k := 0; k < need && n < len(b); k++ {
		x := b[n]
		if k == 0 && (x < lo || x > hi) || k > 0 && x&0xC0 != 0x80 {
			break
		}
		n++
	}
	return n
}
