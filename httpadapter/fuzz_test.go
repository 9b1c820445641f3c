package httpadapter

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/ledger"
)

// FuzzDecodeAllocateParty feeds arbitrary bodies to the JSON body decoder
// of POST /v2/parties: it never panics, and either decodes (the input was
// one valid JSON object) or yields a 400 text/plain "Invalid value for:
// body (…)".
func FuzzDecodeAllocateParty(f *testing.F) {
	for _, seed := range []string{
		``, `{}`, `null`, `[]`, `"x"`, `5`, `{"partyIdHint":"alice"}`,
		`{"partyIdHint":5}`, `{"partyIdHint":`, `{"localMetadata":{"annotations":{"k":"v"}}}`,
		`{"localMetadata":{"annotations":{"k":1}}}`, `{"localMetadata":null}`, `{"a":1} {}`,
		"{\"partyIdHint\":\"\xff\"}", `{"PARTYIDHINT":"x"}`, ` { "userId" : "u" } `,
	} {
		f.Add([]byte(seed))
	}
	a := New(nil, Options{Logger: discardLogger()}).(*handler).a
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := decodeJSON[ledger.AllocatePartyRequest](data)
		if err == nil {
			if !json.Valid(data) {
				t.Fatalf("decoded invalid JSON %q", data)
			}
			return
		}
		var de *decodeError
		if !errors.As(err, &de) {
			t.Fatalf("decoding %q: %T %v, want a decodeError", data, err, err)
		}
		rec := httptest.NewRecorder()
		a.fail(rec, httptest.NewRequest("POST", "/v2/parties", nil), err)
		if rec.Code != http.StatusBadRequest ||
			rec.Header().Get("Content-Type") != "text/plain; charset=UTF-8" ||
			!strings.HasPrefix(rec.Body.String(), "Invalid value for: body (") {
			t.Fatalf("decoding %q: answered %d %q %q", data, rec.Code, rec.Header().Get("Content-Type"), rec.Body)
		}
	})
}
