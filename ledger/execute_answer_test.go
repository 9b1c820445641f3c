package ledger_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// TestExecuteAnswerIsTheReadBack: the answer of
// executeAndWaitForTransaction, written from the typed transaction
// ExecuteForTransaction returns, is byte for byte the JSON API's read
// (package jsonapi) of the same update in the same format: the default (the act_as parties, ACS
// delta, verbose), ledger effects not verbose, and a format showing
// nothing (its header, no events).
func TestExecuteAnswerIsTheReadBack(t *testing.T) {
	t.Parallel()
	f := newExternalFixture(t, ed25519Key)
	tid := f.pkg + ":Main:Iou"
	formats := []struct {
		name string
		f    *jsonapi.TransactionFormat
	}{
		{"default", nil},
		{"ledger effects not verbose", &jsonapi.TransactionFormat{TransactionShape: jsonapi.ShapeLedgerEffects,
			EventFormat: jsonapi.EventFormat{FiltersByParty: map[string]jsonapi.Filters{f.ext: {}, f.bob: {}}}}},
		{"showing nothing", &jsonapi.TransactionFormat{TransactionShape: jsonapi.ShapeACSDelta,
			EventFormat: jsonapi.EventFormat{Verbose: true, FiltersByParty: map[string]jsonapi.Filters{f.bob: {}}}}},
	}
	for i, tc := range formats {
		t.Run(tc.name, func(t *testing.T) {
			// A create of an Iou of the external party.
			args := json.RawMessage(fmt.Sprintf(`{"owner": %q, "amount": "%d"}`, f.ext, i+1))
			p := f.prepare(t, fmt.Sprintf("create-%d", i), "", jsonapi.JsCommand{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: tid, CreateArguments: args}})
			got, err := jsonapi.New(f.n).ExecuteSubmissionAndWaitForTransaction(f.ctx, jsonapi.ExecuteSubmissionAndWaitForTransactionRequest{
				ExecuteSubmissionRequest: f.execReq(p), TransactionFormat: tc.f})
			if err != nil {
				t.Fatal(err)
			}
			var head jsonapi.ExecuteSubmissionAndWaitForTransactionResponse
			if err := json.Unmarshal(got, &head); err != nil {
				t.Fatal(err)
			}
			rf := tc.f
			if rf == nil {
				rf = &jsonapi.TransactionFormat{TransactionShape: jsonapi.ShapeACSDelta, EventFormat: jsonapi.EventFormat{Verbose: true,
					FiltersByParty: map[string]jsonapi.Filters{f.ext: {}}}}
			}
			api := jsonapi.New(f.n)
			var want []byte
			read, err := api.TransactionByID(f.ctx, jsonapi.GetTransactionByIDRequest{UpdateID: head.Transaction.UpdateID, TransactionFormat: rf})
			if err == nil {
				want = read
			} else {
				// The format shows nothing: the read refuses, the answer is
				// the transaction's header with no events.
				if !errors.Is(err, apierr.UpdateNotFound) {
					t.Fatalf("read back: %v, want UPDATE_NOT_FOUND", err)
				}
				all, err2 := api.TransactionByID(f.ctx, jsonapi.GetTransactionByIDRequest{UpdateID: head.Transaction.UpdateID, RequestingParties: []string{f.ext}})
				if err2 != nil {
					t.Fatalf("%v; %v", err, err2)
				}
				var r jsonapi.GetTransactionResponse
				if err := json.Unmarshal(all, &r); err != nil {
					t.Fatal(err)
				}
				r.Transaction.Events = []jsonapi.JsEvent{}
				var buf bytes.Buffer
				enc := json.NewEncoder(&buf)
				enc.SetEscapeHTML(false)
				if err := enc.Encode(jsonapi.ExecuteSubmissionAndWaitForTransactionResponse(r)); err != nil {
					t.Fatal(err)
				}
				want = bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
			}
			if !bytes.Equal(got, want) {
				t.Errorf("\n got %s\nwant %s", got, want)
			}
		})
	}
}
