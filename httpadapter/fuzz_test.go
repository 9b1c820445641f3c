package httpadapter

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
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
		"\v{ \"userId\" : \"u\" } ", "{}\u00a0", // not JSON whitespace (found by the fuzzer)
	} {
		f.Add([]byte(seed))
	}
	a := New(nil, Options{Logger: discardLogger()}).(*handler).a
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := decodeJSON[jsonapi.AllocatePartyRequest](data)
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

// FuzzDecodeJsCommands feeds arbitrary bodies to the submit-and-wait route
// of an adapter over an in-memory node: it never answers 500; a body that
// is not JSON of the JsCommands shape, or whose commands do not each hold
// one variant with a three-part template id, is a 400 text/plain "Invalid
// value for: body (…)" (the shape rules are the Node's, the answer the
// adapter's).
func FuzzDecodeJsCommands(f *testing.F) {
	for _, seed := range []string{
		``, `{}`, `null`, `[]`, `"x"`, `{"commands":null}`, `{"commands":[null]}`, `{"commands":[{}]}`,
		`{"commandId":"c","actAs":["alice::1220ab"],"commands":[{"CreateCommand":{"templateId":"p:M:T","createArguments":{"owner":"alice::1220ab"}}}]}`,
		`{"commands":[{"ExerciseCommand":{"templateId":"#pkg:M:T","contractId":"00ab","choice":"Go","choiceArgument":{}}}]}`,
		`{"commands":[{"CreateAndExerciseCommand":{"templateId":"a:b:c:d"}}]}`,
		`{"commands":[{"ExerciseByKeyCommand":{"templateId":"M:T"}}]}`,
		`{"commands":[{"CreateCommand":{"templateId":"a:b:c"},"ExerciseCommand":{}}]}`,
		`{"commands":[{"CreateCommand":{"templateId":"a:b:"}}]}`,
		`{"deduplicationPeriod":{"DeduplicationDuration":{"value":{"seconds":30,"nanos":0}}}}`,
		`{"deduplicationPeriod":{"DeduplicationOffset":{"value":"1"}}}`,
		`{"deduplicationPeriod":{"DeduplicationOffset":{"value":1},"Empty":{}}}`,
		`{"minLedgerTimeAbs":"2025-01-28T14:49:33.525551Z"}`, `{"minLedgerTimeAbs":"now"}`,
		`{"minLedgerTimeRel":{"seconds":1,"nanos":-1,"unknownFields":{"fields":{}}}}`,
		`{"disclosedContracts":[{"createdEventBlob":"AA=="}],"readAs":["x"],"packageIdSelectionPreference":[]}`,
		`{"actAs":"alice"}`, `{"commandId":1}`, `{"commands":[{"CreateCommand":5}]}`, `{"a":1} {}`,
		"{\"commandId\":\"\xff\"}", ` { "workflowId" : "w" } `,
	} {
		f.Add([]byte(seed))
	}
	node, err := ledger.Open(ledger.Options{InMemory: true, Logger: discardLogger()})
	if err != nil {
		f.Fatalf("ledger.Open: %v", err)
	}
	f.Cleanup(func() { _ = node.Close() })
	h := New(node, Options{Logger: discardLogger()})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := httptest.NewRequest("POST", "/v2/commands/submit-and-wait", bytes.NewReader(data))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if rec.Code >= 500 {
			t.Fatalf("%q: answered %d %s", data, rec.Code, rec.Body)
		}
		var c jsonapi.JsCommands
		malformed := json.Unmarshal(data, &c) != nil || !bytes.HasPrefix(bytes.TrimSpace(data), []byte("{"))
		for _, cmd := range c.Commands {
			n := 0
			for _, set := range []bool{cmd.CreateCommand != nil, cmd.ExerciseCommand != nil, cmd.CreateAndExerciseCommand != nil, cmd.ExerciseByKeyCommand != nil} {
				if set {
					n++
				}
			}
			if n != 1 {
				malformed = true
			}
		}
		text := rec.Code == http.StatusBadRequest && rec.Header().Get("Content-Type") == "text/plain; charset=UTF-8"
		if text && !strings.HasPrefix(rec.Body.String(), "Invalid value for: body (") {
			t.Fatalf("%q: text answer %q", data, rec.Body)
		}
		if malformed && !text {
			t.Fatalf("%q: malformed, answered %d %q %s", data, rec.Code, rec.Header().Get("Content-Type"), rec.Body)
		}
	})
}
