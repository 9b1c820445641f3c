package ledger

import (
	"encoding/json"
	"math"
	"testing"
)

// TestACSPageTokenJSON checks the hand-written encoding of page tokens
// against json.Marshal's, which tokens were written with before (a token
// a client holds across an upgrade reads back the same).
func TestACSPageTokenJSON(t *testing.T) {
	t.Parallel()
	for _, tok := range []acsPageToken{
		{},
		{At: 42, After: "00" + "ab12cd", Request: "fp"},
		{At: -1, After: `quote " backslash \ slash /`, Request: "<html> & </html>"},
		{At: math.MaxInt64, After: "tab\tnewline\ncontrol\x01", Request: "é ü \u2028 \u2029"},
		{At: math.MinInt64, After: "bad utf-8 \xff\xfe", Request: "\x00"},
	} {
		want, err := json.Marshal(tok)
		if err != nil {
			t.Fatal(err)
		}
		if got := tok.appendJSON([]byte("prefix")); string(got) != "prefix"+string(want) {
			t.Errorf("appendJSON(%+v) = %s, want prefix%s", tok, got, want)
		}
	}
}
