package httpadapter

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// TestAppendSubmitAndWaitIsTheEncoders: the hand-written submit-and-wait
// reply is byte for byte what respond's encoder writes, and ids the fast
// path does not take are left to the encoder.
func TestAppendSubmitAndWaitIsTheEncoders(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		r    jsonapi.SubmitAndWaitResponse
		fast bool
	}{
		{jsonapi.SubmitAndWaitResponse{UpdateID: "1220" + "ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12", CompletionOffset: 42}, true},
		{jsonapi.SubmitAndWaitResponse{}, true},
		{jsonapi.SubmitAndWaitResponse{UpdateID: "AZaz09", CompletionOffset: math.MaxInt64}, true},
		{jsonapi.SubmitAndWaitResponse{UpdateID: "x", CompletionOffset: -1}, true},
		{jsonapi.SubmitAndWaitResponse{UpdateID: `a"b<c>&\` + "\u2028é", CompletionOffset: 1}, false},
		{jsonapi.SubmitAndWaitResponse{UpdateID: "a-b:c", CompletionOffset: 1}, true},
		{jsonapi.SubmitAndWaitResponse{UpdateID: "a<b>&c", CompletionOffset: 1}, true},
		{jsonapi.SubmitAndWaitResponse{UpdateID: "a\tb", CompletionOffset: 1}, false},
	} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(tc.r); err != nil {
			t.Fatal(err)
		}
		got, ok := appendSubmitAndWait(nil, tc.r)
		if ok != tc.fast {
			t.Errorf("appendSubmitAndWait(%+v) took the fast path: %v, want %v", tc.r, ok, tc.fast)
		}
		if ok && string(got) != want.String() {
			t.Errorf("appendSubmitAndWait(%+v) = %q, the encoder writes %q", tc.r, got, want.String())
		}
	}
}
