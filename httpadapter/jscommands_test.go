package httpadapter

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// jsCommandsBodies are submission bodies: the shapes the fast path takes
// and ones it leaves to encoding/json.
var jsCommandsBodies = []struct {
	name string
	body string
	fast bool
}{
	{"ping create", `{"commandId":"c1","actAs":["alice::1220ab"],"userId":"participant_admin","commands":[{"CreateCommand":{"templateId":"pkg:Canton.Internal.Ping:Ping","createArguments":{"id":"p1","initiator":"alice::1220ab","responder":"bob::1220cd"}}}]}`, true},
	{"every field, whitespace", " {\n\t\"commands\" : [ { \"ExerciseCommand\" : { \"templateId\" : \"#pkg:M:T\" , \"contractId\" : \"00ab\" , \"choice\" : \"Go\" , \"choiceArgument\" : { \"a\" : [ 1 , \"}\\\"]\" , { } ] } } } , {\"CreateCommand\":{\"createArguments\":[],\"templateId\":\"p:M:T\"}} ] , \"commandId\" : \"c\" , \"actAs\" : [ ] , \"userId\" : \"u\" , \"readAs\" : [\"r1\",\"r2\"] , \"workflowId\" : \"w\" , \"submissionId\" : \"s\" , \"synchronizerId\" : \"x::1220\" , \"packageIdSelectionPreference\" : [\"p1\"] }\r\n", true},
	{"empty object", `{}`, true},
	{"empty command", `{"commands":[{}]}`, true},
	{"both variants", `{"commands":[{"CreateCommand":{},"ExerciseCommand":{}}]}`, true},
	{"non-ASCII", `{"commandId":"é€😀","actAs":["ü"]}`, true},
	{"unknown field", `{"commandId":"c","deduplicationPeriod":{"Empty":{}}}`, false},
	{"other case", `{"CommandID":"c"}`, false},
	{"escape", `{"commandId":"c\"1"}`, false},
	{"escaped key", `{"command\u0049d":"c"}`, false},
	{"null", `{"actAs":null}`, false},
	{"null element", `{"actAs":[null]}`, false},
	{"duplicate key", `{"commandId":"a","commandId":"b"}`, false},
	{"duplicate command key", `{"commands":[{"CreateCommand":{"templateId":"a","templateId":"b"}}]}`, false},
	{"string argument", `{"commands":[{"CreateCommand":{"createArguments":"x"}}]}`, false},
	{"number", `{"commandId":1}`, false},
	{"invalid", `{"commandId":"c",}`, false},
	{"trailing data", `{"commandId":"c"} {}`, false},
	{"other variant", `{"commands":[{"CreateAndExerciseCommand":{}}]}`, false},
	{"taps", `{"tapsMaxPasses":3}`, false},
}

// TestFastJsCommandsIsUnmarshal: where the fast path decodes a body, it
// decodes what json.Unmarshal does; it leaves the other bodies alone.
func TestFastJsCommandsIsUnmarshal(t *testing.T) {
	t.Parallel()
	for _, tc := range jsCommandsBodies {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var got jsonapi.JsCommands
			ok := fastJsCommands([]byte(tc.body), &got)
			if ok != tc.fast {
				t.Fatalf("fastJsCommands took the body: %v, want %v", ok, tc.fast)
			}
			if !ok {
				if diff := cmp.Diff(jsonapi.JsCommands{}, got); diff != "" {
					t.Errorf("a body left to encoding/json changed the target (-want +got):\n%s", diff)
				}
				return
			}
			var want jsonapi.JsCommands
			if err := json.Unmarshal([]byte(tc.body), &want); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("fastJsCommands differs from json.Unmarshal (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDecodeJSONJsCommands: decodeJSON answers the same through the fast
// path and encoding/json, errors included.
func TestDecodeJSONJsCommands(t *testing.T) {
	t.Parallel()
	for _, tc := range jsCommandsBodies {
		got, gotErr := decodeJSON[jsonapi.JsCommands]([]byte(tc.body))
		var want jsonapi.JsCommands
		wantErr := json.Unmarshal([]byte(tc.body), &want)
		if (gotErr != nil) != (wantErr != nil) {
			t.Errorf("%s: decodeJSON error %v, json.Unmarshal's %v", tc.name, gotErr, wantErr)
			continue
		}
		if diff := cmp.Diff(want, got); wantErr == nil && diff != "" {
			t.Errorf("%s: decodeJSON differs from json.Unmarshal (-want +got):\n%s", tc.name, diff)
		}
	}
}

// FuzzFastJsCommands: on any body, the fast path decodes what
// json.Unmarshal does or leaves the body to it.
func FuzzFastJsCommands(f *testing.F) {
	for _, tc := range jsCommandsBodies {
		f.Add(tc.body)
	}
	f.Fuzz(func(t *testing.T, body string) {
		if !utf8.ValidString(body) {
			return // decodeJSON refuses it before
		}
		var got jsonapi.JsCommands
		if !fastJsCommands([]byte(body), &got) {
			return
		}
		var want jsonapi.JsCommands
		if err := json.Unmarshal([]byte(body), &want); err != nil {
			t.Fatalf("fastJsCommands took %q, which json.Unmarshal refuses: %v", body, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("fastJsCommands(%q) differs from json.Unmarshal (-want +got):\n%s", body, diff)
		}
	})
}

// BenchmarkDecodeJsCommands decodes a Ping create's body through
// decodeJSON (the fast path) and through json.Unmarshal.
func BenchmarkDecodeJsCommands(b *testing.B) {
	body := []byte(jsCommandsBodies[0].body)
	b.Run("decodeJSON", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := decodeJSON[jsonapi.JsCommands](body); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json.Unmarshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var c jsonapi.JsCommands
			if err := json.Unmarshal(body, &c); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// FuzzPlainEnd: where plainEnd takes a value, json.Valid takes the same
// bytes and the bracket scan of raw ends where plainEnd does.
func FuzzPlainEnd(f *testing.F) {
	for _, s := range []string{
		`{"id":"p1","initiator":"alice::1220ab","responder":"bob::1220cd"}`,
		`{ "a" : [ 1 , -0.5e+3 , 2E7, true , false , null , { } , [ ] , "x\u00e9" ] }`,
		`[[[[]]]]`, `{"a":01}`, `{"a":1.}`, `{"a":-}`, `{"a":"\n"}`, `{"a":"b\"c"}`,
		`{"a":tru}`, `{"a":1,}`, `[1 2]`, `{"a" 1}`, `{"a":1}}`, `[` + "\x7f" + `"]`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if s == "" || (s[0] != '{' && s[0] != '[') {
			return // raw calls plainEnd at an object or array only
		}
		b := []byte(s)
		end, ok := plainEnd(b, 0)
		if !ok {
			return
		}
		if !json.Valid(b[:end]) {
			t.Fatalf("plainEnd took %q of %q, which json.Valid refuses", b[:end], s)
		}
		p := jsonCursor{b: b, s: s}
		p.i = 0
		if v, ok := bracketRaw(&p); !ok || len(v) != end {
			t.Fatalf("plainEnd ends %q at %d, the bracket scan at %d (%v)", s, end, len(v), ok)
		}
	})
}

func TestPlainEnd(t *testing.T) {
	for _, tc := range []struct {
		s  string
		ok bool
	}{
		{`{"id":"p1","initiator":"alice::1220ab","responder":"bob::1220cd"} tail`, true},
		{`{ "a" : [ 1 , -0.5e+3 , 2E7, true , false , null , { } , [ ] , "xé" ] }`, true},
		{`{"a":"b\"c"}`, false}, // an escape: json.Valid's
		{`{"a":01}`, false},
		{`{"a":1.}`, false},
		{`{"a":1,}`, false},
		{`[1 2]`, false},
		{`{"a":"b"`, false},
		{`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`, false}, // 33 deep
	} {
		end, ok := plainEnd([]byte(tc.s), 0)
		if ok != tc.ok {
			t.Errorf("plainEnd(%q) = %v, want %v", tc.s, ok, tc.ok)
		}
		if ok && tc.s[:end] != strings.TrimSuffix(tc.s, " tail") {
			t.Errorf("plainEnd(%q) ends at %d", tc.s, end)
		}
	}
}
