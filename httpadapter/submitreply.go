package httpadapter

import (
	"strconv"

	"github.com/ledgernode/ledgernode/internal/word"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// appendSubmitAndWait appends the JSON reply of submit-and-wait as respond's
// encoder writes it ({"updateId":…,"completionOffset":…} and a newline),
// without reflection: every Ping create answers one. It reports false for
// an update id with bytes other than letters and digits (every id the node
// makes has none), which the encoder then writes.
func appendSubmitAndWait(b []byte, r jsonapi.SubmitAndWaitResponse) ([]byte, bool) {
	if !alphanumeric(r.UpdateID) {
		return b, false
	}
	b = append(b, `{"updateId":"`...)
	b = append(b, r.UpdateID...)
	b = append(b, `","completionOffset":`...)
	b = strconv.AppendInt(b, r.CompletionOffset, 10)
	return append(b, "}\n"...), true
}

// alphanumeric reports whether s holds ASCII letters and digits only,
// looking at sixteen bytes at a time (an update id has 68), the last
// bytes with the eight that end s.
func alphanumeric(s string) bool {
	if len(s) < 8 {
		for i := range len(s) {
			if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') {
				return false
			}
		}
		return true
	}
	i := 0
	for ; i+16 <= len(s); i += 16 {
		b := s[i : i+16]
		lo := word.Load64(b)
		hi := word.Load64(b[8:])
		if alnumBytes(lo)&alnumBytes(hi) != alnumHighs {
			return false
		}
	}
	if i+8 <= len(s) {
		b := s[i : i+8]
		w := word.Load64(b)
		if alnumBytes(w) != alnumHighs {
			return false
		}
		i += 8
	}
	if i < len(s) {
		// The bytes before i, seen already, are seen again.
		b := s[len(s)-8:]
		w := word.Load64(b)
		if alnumBytes(w) != alnumHighs {
			return false
		}
	}
	return true
}

// alnumHighs has the high bit of every byte set.
const alnumHighs = 0x8080808080808080

// alnumBytes has the high bit set of each of w's bytes (eight bytes
// loaded little-endian) that is an ASCII letter or digit. For bytes below
// 0x80, x+(0x80-lo) has its high bit set when x >= lo, and x+(0x7f-hi)
// when x > hi, without a carry into the next byte; a letter is in 'a'..'z'
// with bit 0x20 set. A byte above 0x7f (whose sums may carry into the next
// byte) has its own bit cleared: the word is refused all the same.
func alnumBytes(w uint64) uint64 {
	const ones = 0x0101010101010101
	l := w | 0x20*ones
	digit := (w + (0x80-'0')*ones) &^ (w + (0x7f-'9')*ones)
	letter := (l + (0x80-'a')*ones) &^ (l + (0x7f-'z')*ones)
	return (digit | letter) &^ w & alnumHighs
}
