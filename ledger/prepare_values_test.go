package ledger_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/interactive"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// TestPrepareExecuteValues: a create argument with every kind of value
// goes JSON -> typed value -> prepared transaction -> JSON on execute, and
// the executed contract carries the canonical JSON of the argument.
// Nested Optionals, maps and timestamps keep their values both ways.
func TestPrepareExecuteValues(t *testing.T) {
	t.Parallel()
	f := newExternalFixture(t, ed25519Key)
	d, ids := lftest.DAR(lftest.TemplatePackage("rich", "1.0.0", nil,
		lftest.Field{Name: "owner", Type: lftest.B(lftest.Party)},
		lftest.Field{Name: "oo", Type: lftest.Opt(lftest.Opt(lftest.B(lftest.Int64)))},
		lftest.Field{Name: "gm", Type: lftest.App(lftest.B(lftest.GenMap), lftest.B(lftest.Text), lftest.Num(2))},
		lftest.Field{Name: "tm", Type: lftest.App(lftest.B(lftest.TextMap), lftest.Opt(lftest.B(lftest.Bool)))},
		lftest.Field{Name: "when", Type: lftest.B(lftest.Timestamp)},
		lftest.Field{Name: "day", Type: lftest.B(lftest.Date)},
		lftest.Field{Name: "l", Type: lftest.ListOf(lftest.Opt(lftest.B(lftest.Text)))},
		lftest.Field{Name: "u", Type: lftest.B(lftest.Unit)},
		lftest.Field{Name: "o", Type: lftest.Opt(lftest.B(lftest.Int64))},
	))
	ledgertest.MustUploadDAR(t, f.n, d)
	tid := ids[0] + ":Main:T"
	for _, tc := range []struct {
		name, args, canon string
		oo                value.Value
		// fields is the number of prepared record fields: the engine
		// drops trailing None fields (normalized values).
		fields int
	}{
		{"some none", `{"owner": "OWNER", "oo": [[]], "gm": [["b", "1.5"], ["a", 2], ["b", "3"]], "tm": {"z": true, "a": null},
			"when": "2024-02-29T23:30:00.1234567-01:00", "day": "2024-02-29", "l": [null, "x"], "u": 42}`,
			`{"owner":"OWNER","oo":[[]],"gm":[["a","2.00"],["b","3.00"]],"tm":{"a":null,"z":true},` +
				`"when":"2024-03-01T00:30:00.123456Z","day":"2024-02-29","l":[null,"x"],"u":{}}`,
			value.Optional{Value: value.Optional{Nested: true}, Nested: true}, 8},
		{"none", `{"owner": "OWNER", "oo": [], "gm": [], "tm": {}, "when": "1970-01-01T00:00:00Z", "day": "1970-01-01", "l": [], "u": {}, "o": "7"}`,
			`{"owner":"OWNER","oo":[],"gm":[],"tm":{},"when":"1970-01-01T00:00:00Z","day":"1970-01-01","l":[],"u":{},"o":"7"}`,
			value.Optional{Nested: true}, 9},
		{"some some", `{"owner": "OWNER", "oo": [["5"]], "gm": [], "tm": {}, "when": "0001-01-01T00:00:00Z", "day": "9999-12-31", "l": [], "u": {}}`,
			`{"owner":"OWNER","oo":[["5"]],"gm":[],"tm":{},"when":"0001-01-01T00:00:00Z","day":"9999-12-31","l":[],"u":{}}`,
			value.Optional{Value: value.Optional{Value: value.Int64(5), Nested: true}, Nested: true}, 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := json.RawMessage(replaceOwner(tc.args, f.ext))
			p := f.prepare(t, "rich-"+tc.name, "", jsonapi.JsCommand{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: tid, CreateArguments: args}})
			pt, err := interactive.DecodePreparedTransaction(p.PreparedTransaction)
			if err != nil {
				t.Fatal(err)
			}
			rec, ok := pt.Transaction.Nodes[0].Create.Argument.(value.Record)
			if !ok || len(rec.Fields) != tc.fields || rec.RecordID == nil || rec.RecordID.Name != "T" || rec.Fields[1].Label != "oo" {
				t.Fatalf("prepared argument: %#v", pt.Transaction.Nodes[0].Create.Argument)
			}
			// The protobuf form carries no nesting flags; the value does.
			if !value.Equal(rec.Fields[1].Value, tc.oo) {
				t.Errorf("oo = %#v, want %#v", rec.Fields[1].Value, tc.oo)
			}
			resp, err := jsonapi.DecodeAnswer[jsonapi.ExecuteSubmissionAndWaitForTransactionResponse](jsonapi.New(f.n).ExecuteSubmissionAndWaitForTransaction(f.ctx, jsonapi.ExecuteSubmissionAndWaitForTransactionRequest{
				ExecuteSubmissionRequest: f.execReq(p)}))
			if err != nil {
				t.Fatalf("execute: %v", err)
			}
			evs := resp.Transaction.Events
			if len(evs) != 1 || evs[0].CreatedEvent == nil {
				t.Fatalf("events: %+v", evs)
			}
			if d := cmp.Diff(replaceOwner(tc.canon, f.ext), string(evs[0].CreatedEvent.CreateArgument)); d != "" {
				t.Errorf("created argument (-want +got):\n%s", d)
			}
			// Used by an exercise, the contract is an input contract whose
			// argument is the prepared create's (normalized the same way).
			p2 := f.prepare(t, "rich-go-"+tc.name, "", jsonapi.JsCommand{ExerciseCommand: &jsonapi.JsExerciseCommand{TemplateID: tid,
				ContractID: evs[0].CreatedEvent.ContractID, Choice: "Go", ChoiceArgument: json.RawMessage(`{}`)}})
			ics := decodePrepared(t, p2).Metadata.InputContracts
			if len(ics) != 1 {
				t.Fatalf("input contracts %#v", ics)
			}
			got, err1 := value.EncodeProto(ics[0].Contract.Argument)
			want, err2 := value.EncodeProto(pt.Transaction.Nodes[0].Create.Argument)
			if err1 != nil || err2 != nil || !bytes.Equal(got, want) {
				t.Errorf("input contract argument %#v, want %#v (%v, %v)", ics[0].Contract.Argument, pt.Transaction.Nodes[0].Create.Argument, err1, err2)
			}
			if _, err := jsonapi.New(f.n).ExecuteSubmissionAndWait(f.ctx, f.execReq(p2)); err != nil {
				t.Errorf("execute Go: %v", err)
			}
		})
	}
}

func replaceOwner(s, party string) string {
	b, _ := json.Marshal(party)
	return strings.ReplaceAll(s, `"OWNER"`, string(b))
}
