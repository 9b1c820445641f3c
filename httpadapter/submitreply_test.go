package httpadapter

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
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
		{jsonapi.SubmitAndWaitResponse{UpdateID: "a-b:c", CompletionOffset: 1}, false},
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

// TestAlphanumeric: alphanumeric, sixteen bytes at a time, agrees with a
// byte-at-a-time test for every byte at every place of strings of 1 to
// 20 bytes, and for random ones.
func TestAlphanumeric(t *testing.T) {
	t.Parallel()
	byByte := func(s string) bool {
		for i := range len(s) {
			if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') {
				return false
			}
		}
		return true
	}
	for n := 1; n <= 20; n++ {
		for at := range n {
			for c := range 256 {
				b := bytes.Repeat([]byte{"aZ09"[at%4]}, n)
				b[at] = byte(c)
				if got, want := alphanumeric(string(b)), byByte(string(b)); got != want {
					t.Fatalf("alphanumeric(%q) = %v, want %v", b, got, want)
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 50000 {
		b := make([]byte, r.IntN(80))
		for i := range b {
			if r.IntN(10) == 0 {
				b[i] = byte(r.IntN(256))
			} else {
				b[i] = "0123456789abcdefABCXYZxyz"[r.IntN(25)]
			}
		}
		if got, want := alphanumeric(string(b)), byByte(string(b)); got != want {
			t.Fatalf("alphanumeric(%q) = %v, want %v", b, got, want)
		}
	}
}
