// Package quote is the one implementation of how error messages quote
// outside input (ids, tokens, paths, manifest lines, …): short input
// whole, longer input cut to its first Head bytes (at a UTF-8 boundary)
// and marked with its length, so that an error never grows with its
// input. It is a leaf package: apierr (whose Quote is Bare) and
// daml/lf (which cannot import apierr) both use it.
package quote

import (
	"strconv"
	"unicode/utf8"
)

const (
	// Limit is the length in bytes of the longest string Bare keeps whole.
	// Every valid identifier of the Ledger API (party, user, contract,
	// update, command and synchronizer ids) fits.
	Limit = 256
	// Head is how many bytes of a longer string the forms keep, at most;
	// it is also the longest string Go and Truncate keep whole.
	Head = 100
)

// Cut returns s itself and false when s is at most limit bytes long, and
// otherwise its longest prefix of at most head bytes that does not split
// a UTF-8 sequence, and true.
func Cut[T string | []byte](s T, limit, head int) (T, bool) {
	if len(s) <= limit {
		return s, false
	}
	cut := min(head, len(s))
	for cut > 0 && cut < len(s) && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut], true
}

// Bare returns s unquoted when it is at most Limit bytes long, and
// otherwise its first Head bytes followed by "…(<n> bytes)". It is
// apierr's Quote.
func Bare(s string) string {
	h, cut := Cut(s, Limit, Head)
	if !cut {
		return s
	}
	return h + "…(" + strconv.Itoa(len(s)) + " bytes)"
}

// Go returns s as a Go string literal (strconv.Quote) when it is at most
// Head bytes long, and otherwise the literal of its first Head bytes
// followed by "… (<n> bytes)".
func Go[T string | []byte](s T) string {
	h, cut := Cut(s, Head, Head)
	q := strconv.Quote(string(h))
	if !cut {
		return q
	}
	return q + "… (" + strconv.Itoa(len(s)) + " bytes)"
}

// Truncate returns s when it is at most Head bytes long, and otherwise
// its first Head bytes followed by "…" (for a context value, where the
// length is not shown).
func Truncate(s string) string {
	h, cut := Cut(s, Head, Head)
	if !cut {
		return s
	}
	return h + "…"
}
