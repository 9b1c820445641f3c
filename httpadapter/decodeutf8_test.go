package httpadapter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// decodeJsCommandsByUnmarshal is decodeJSON[jsonapi.JsCommands] with the
// UTF-8 check first and encoding/json for every body: the reference of
// FuzzDecodeJSONUTF8.
func decodeJsCommandsByUnmarshal(data []byte) (jsonapi.JsCommands, error) {
	var v jsonapi.JsCommands
	trimmed := bytes.Trim(data, " \t\r\n")
	if len(trimmed) == 0 {
		return v, invalidBody("the body is empty, expected a JSON value")
	}
	if !utf8.Valid(trimmed) {
		return v, invalidBody("malformed JSON: the body is not valid UTF-8")
	}
	if trimmed[0] != '{' {
		if err := json.Unmarshal(trimmed, new(any)); err != nil {
			return v, invalidBody(describeJSONError(err))
		}
		return v, invalidBody(fmt.Sprintf("expected a JSON object, got %s", jsonKind(trimmed[0])))
	}
	if err := json.Unmarshal(trimmed, &v); err != nil {
		return jsonapi.JsCommands{}, invalidBody(describeJSONError(err))
	}
	return v, nil
}

// FuzzDecodeJSONUTF8: decodeJSON, which leaves a submission's UTF-8 to
// its fast path, answers a body as checking it first does: the same
// error for a body that is not UTF-8 (in a string, a key, the arguments
// or elsewhere), the same value otherwise.
func FuzzDecodeJSONUTF8(f *testing.F) {
	for _, tc := range jsCommandsBodies {
		f.Add([]byte(tc.body))
	}
	for _, s := range []string{
		"{\"commandId\":\"\xff\"}", "{\"commandId\":\"é\"}", "{\"comm\xe9ndId\":\"c\"}", "{\"actAs\":[\"a\xc3\"]}",
		"{\"commands\":[{\"CreateCommand\":{\"templateId\":\"p:M:T\",\"createArguments\":{\"a\":\"\xed\xa0\x80\"}}}]}",
		"{\"commands\":[{\"CreateCommand\":{\"templateId\":\"p:M:T\",\"createArguments\":{\"a\":\"\\n\xff\"}}}]}",
		"{\"commands\":[{\"CreateCommand\":{\"templateId\":\"p:M:T\",\"createArguments\":{\"a\":\"€\\n\"}}}]}",
		"{\"userId\":\"u\"}\xff", "\xff{}", "{\xff}", "[\"\xff\"]", "{\"workflowId\":\"\xf4\x90\x80\x80\"}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, gotErr := decodeJSON[jsonapi.JsCommands](data)
		want, wantErr := decodeJsCommandsByUnmarshal(data)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("%q: error %v, want %v", data, gotErr, wantErr)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%q (-want +got):\n%s", data, diff)
		}
	})
}
