package httpadapter

import (
	"strconv"

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
// looking at eight bytes at a time (an update id has 68).
func alphanumeric(s string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		b := s[i : i+8]
		w := uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
			uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
		if w&highs != 0 {
			return false // not ASCII
		}
		// For bytes below 0x80, x+(0x80-lo) has its high bit set when
		// x >= lo, and x+(0x7f-hi) when x > hi, without a carry into the
		// next byte. A letter is in 'a'..'z' with bit 0x20 set.
		l := w | 0x20*ones
		digit := (w + (0x80-'0')*ones) &^ (w + (0x7f-'9')*ones)
		letter := (l + (0x80-'a')*ones) &^ (l + (0x7f-'z')*ones)
		if (digit|letter)&highs != highs {
			return false
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') {
			return false
		}
	}
	return true
}
