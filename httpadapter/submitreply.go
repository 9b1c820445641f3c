package httpadapter

import (
	"strconv"

	"github.com/ledgernode/ledgernode/internal/jsontext"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// appendSubmitAndWait appends the JSON reply of submit-and-wait as respond's
// encoder writes it ({"updateId":…,"completionOffset":…} and a newline),
// without reflection: every Ping create answers one. It reports false for
// an update id the encoder (which escapes no HTML) would not write as it
// is (every id the node makes is letters and digits), which the encoder
// then writes.
func appendSubmitAndWait(b []byte, r jsonapi.SubmitAndWaitResponse) ([]byte, bool) {
	if !jsontext.Plain(r.UpdateID) {
		return b, false
	}
	b = append(b, `{"updateId":"`...)
	b = append(b, r.UpdateID...)
	b = append(b, `","completionOffset":`...)
	b = strconv.AppendInt(b, r.CompletionOffset, 10)
	return append(b, "}\n"...), true
}
