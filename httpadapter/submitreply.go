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
	for i := range len(r.UpdateID) {
		c := r.UpdateID[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') {
			return b, false
		}
	}
	b = append(b, `{"updateId":"`...)
	b = append(b, r.UpdateID...)
	b = append(b, `","completionOffset":`...)
	b = strconv.AppendInt(b, r.CompletionOffset, 10)
	return append(b, "}\n"...), true
}
