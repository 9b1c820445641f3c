package httpadapter

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// TestOneInputCheckingPath sends invalid requests as a Go caller, over
// HTTP and (for streams) over a WebSocket, and checks that all of them
// meet the same rule with the same error: a shape rule (apierr.Malformed)
// is INVALID_ARGUMENT for Go and WebSocket callers with the detail that
// HTTP answers as 400 text/plain "Invalid value for: body (<detail>)"; a
// refused field is the same JsCantonError everywhere.
func TestOneInputCheckingPath(t *testing.T) {
	t.Parallel()
	f := newLedgerFixture(t, ledger.Options{}, Options{}, nil)
	ctx := context.Background()
	create := createIou(f.iou(), f.alice, 1)
	twoVariants := create
	twoVariants.ExerciseCommand = &jsonapi.JsExerciseCommand{TemplateID: f.iou(), ContractID: "00ab", Choice: "Archive"}
	badTemplate := createIou("Main:Iou", f.alice, 1)
	ts := "2025-01-28T14:49:33.525551Z"
	badTime := "yesterday"
	with := func(mod func(*jsonapi.JsCommands), cs ...jsonapi.JsCommand) jsonapi.JsCommands {
		c := commands("one-path", f.alice, cs...)
		mod(&c)
		return c
	}
	same := func(*jsonapi.JsCommands) {}
	submits := []struct {
		name   string
		cmds   jsonapi.JsCommands
		detail string // the Malformed detail, or "" for a JsCantonError
		cause  string // a fragment of the JsCantonError cause
	}{
		{"two variants", with(same, twoVariants), "a one-of holds 2 variants, expected one at 'commands[0]'", ""},
		{"no variant", with(same, jsonapi.JsCommand{}), "expected one of CreateAndExerciseCommand, CreateCommand, ExerciseByKeyCommand, ExerciseCommand at 'commands[0]'", ""},
		{"bad template id", with(same, create, badTemplate),
			"Invalid identifier format (Main:Iou) not matching the expected format (<package>:<moduleName>:<entityName>) at 'commands[1].CreateCommand.templateId'", ""},
		{"bad minLedgerTimeAbs", with(func(c *jsonapi.JsCommands) { c.MinLedgerTimeAbs = &badTime }, create),
			`text "yesterday" could not be parsed as a timestamp at 'minLedgerTimeAbs'`, ""},
		{"dedup one-of", with(func(c *jsonapi.JsCommands) {
			c.DeduplicationPeriod = &jsonapi.DeduplicationPeriod{DeduplicationOffset: &jsonapi.Wrapped[int64]{Value: 1}, Empty: &struct{}{}}
		}, create), "a one-of holds 2 variants, expected one at 'deduplicationPeriod'", ""},
		{"both minLedgerTimes", with(func(c *jsonapi.JsCommands) {
			c.MinLedgerTimeAbs, c.MinLedgerTimeRel = &ts, &jsonapi.Duration{Seconds: 5}
		}, create),
			"", "minLedgerTimeAbs and minLedgerTimeRel are exclusive"},
		{"disclosedContracts with a blob that does not decode", with(func(c *jsonapi.JsCommands) {
			c.DisclosedContracts = []jsonapi.JsDisclosedContract{{CreatedEventBlob: "AA=="}}
		}, create), "", "disclosedContracts[0].createdEventBlob: Unable to decode disclosed contract event payload"},
	}
	before := f.end()
	for _, tc := range submits {
		t.Run("submit/"+tc.name, func(t *testing.T) {
			_, goErr := jsonapi.New(f.node).SubmitAndWait(ctx, tc.cmds)
			sameError(t, goErr, f.post("/v2/commands/submit-and-wait", tc.cmds), tc.detail, tc.cause)
			// The same rules, at their path inside a larger request.
			req := jsonapi.SubmitAndWaitForTransactionRequest{Commands: tc.cmds}
			_, goErr = jsonapi.New(f.node).SubmitAndWaitForTransaction(ctx, req)
			detail := tc.detail
			if detail != "" {
				detail = strings.Replace(detail, "at '", "at 'commands.", 1)
			}
			cause := tc.cause
			if cause != "" {
				cause = "commands." + cause
			}
			sameError(t, goErr, f.post("/v2/commands/submit-and-wait-for-transaction", req), detail, cause)
		})
	}
	if got := f.end(); got != before {
		t.Errorf("refused submissions moved the ledger end from %d to %d", before, got)
	}

	// Stream requests: Go iterator, HTTP list, WebSocket stream.
	srv := httptest.NewServer(f.h)
	defer srv.Close()
	filter := func(tf map[string]any) jsonapi.GetUpdatesRequest {
		var cf jsonapi.CumulativeFilter
		raw, _ := json.Marshal(map[string]any{"identifierFilter": tf})
		if err := json.Unmarshal(raw, &cf); err != nil {
			t.Fatal(err)
		}
		ef := jsonapi.EventFormat{FiltersByParty: map[string]jsonapi.Filters{f.alice: {Cumulative: []jsonapi.CumulativeFilter{cf}}}}
		return jsonapi.GetUpdatesRequest{UpdateFormat: &jsonapi.UpdateFormat{IncludeTransactions: &jsonapi.TransactionFormat{
			EventFormat: ef, TransactionShape: jsonapi.ShapeACSDelta}}}
	}
	at := "updateFormat.includeTransactions.eventFormat.filtersByParty." + f.alice + ".cumulative[0].identifierFilter"
	streams := []struct {
		name   string
		req    jsonapi.GetUpdatesRequest
		detail string
	}{
		{"bad template id", filter(map[string]any{"TemplateFilter": map[string]any{"value": map[string]any{"templateId": "Iou"}}}),
			"Invalid identifier format (Iou) not matching the expected format (<package>:<moduleName>:<entityName>) at '" + at + ".TemplateFilter.value.templateId'"},
		{"two variants", filter(map[string]any{"TemplateFilter": map[string]any{"value": map[string]any{"templateId": f.iou()}},
			"WildcardFilter": map[string]any{"value": map[string]any{}}}),
			"a one-of holds 2 variants, expected one at '" + at + "'"},
		{"bad shape", func() jsonapi.GetUpdatesRequest {
			r := filter(map[string]any{"WildcardFilter": map[string]any{"value": map[string]any{}}})
			r.UpdateFormat.IncludeTransactions.TransactionShape = "FLAT"
			return r
		}(), `unknown enum value "FLAT", expected one of TRANSACTION_SHAPE_UNSPECIFIED, TRANSACTION_SHAPE_ACS_DELTA, TRANSACTION_SHAPE_LEDGER_EFFECTS at 'updateFormat.includeTransactions.transactionShape'`},
	}
	for _, tc := range streams {
		t.Run("stream/"+tc.name, func(t *testing.T) {
			goErr := lastError(jsonapi.New(f.node).StreamUpdates(ctx, tc.req))
			sameError(t, goErr, f.post("/v2/updates", tc.req), tc.detail, "")
			_, listErr := jsonapi.New(f.node).UpdatesList(ctx, tc.req, ledger.ListOptions{})
			if !errors.Is(listErr, apierr.InvalidArgument) {
				t.Errorf("UpdatesList: %v, want INVALID_ARGUMENT", listErr)
			}
			got := frames(t, dialStream(t, srv.URL+"/v2/updates", "any", js(t, tc.req)), -1)
			if len(got) != 1 {
				t.Fatalf("WebSocket sent %d frames, want one error frame: %v", len(got), got)
			}
			if got[0]["code"] != "INVALID_ARGUMENT" || got[0]["cause"] != apierr.From(goErr).Cause {
				t.Errorf("WebSocket frame %v, want the Go error %v", got[0], goErr)
			}
		})
	}
}

// lastError drains a stream and returns its error.
func lastError[T any](seq iter.Seq2[T, error]) error {
	for _, err := range seq {
		if err != nil {
			return err
		}
	}
	return nil
}

// sameError checks that the Go error and the HTTP answer are the same
// error: a Malformed one with detail (400 text/plain over HTTP), or a
// JsCantonError whose cause holds cause.
func sameError(t *testing.T, goErr error, rec *httptest.ResponseRecorder, detail, cause string) {
	t.Helper()
	if !errors.Is(goErr, apierr.InvalidArgument) {
		t.Fatalf("Go caller: %v, want INVALID_ARGUMENT", goErr)
	}
	var df *apierr.DecodeFailure
	isMalformed := errors.As(goErr, &df)
	if detail != "" {
		if !isMalformed || df.Detail != detail {
			t.Errorf("Go caller: %v, want the malformed detail %q", goErr, detail)
		}
		wantText(t, rec, http.StatusBadRequest, "Invalid value for: body ("+detail+")")
		return
	}
	if isMalformed {
		t.Errorf("Go caller: %v is a decode failure, want a JsCantonError", goErr)
	}
	if !strings.Contains(apierr.From(goErr).Cause, cause) {
		t.Errorf("Go caller: %v, want a cause holding %q", goErr, cause)
	}
	if rec.Code != http.StatusBadRequest {
		t.Fatalf("HTTP: status %d, want 400; body %s", rec.Code, rec.Body)
	}
	e := decodeCantonError(t, rec)
	if e.Code != "INVALID_ARGUMENT" || e.Cause != apierr.From(goErr).Cause {
		t.Errorf("HTTP: %s %q, want the Go error %v", e.Code, e.Cause, goErr)
	}
}
