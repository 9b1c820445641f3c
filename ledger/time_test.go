package ledger_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// TestSetTimeFrom: Node.SetTimeFrom, behind the JSON layer that parses the
// request's RFC 3339 times, answers as Canton's TimeService.SetTime
// (ApiTimeService with the testing time service's backend): the time moves
// from current_time to new_time only when current_time is the node's time
// and new_time is not before it; every refusal is Canton's code and
// message and leaves the time unchanged.
func TestSetTimeFrom(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	start := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	node, clock := ledgertest.OpenStatic(t, ledger.Options{}, start)
	alice := ledgertest.MustAllocate(t, node, "alice")

	tests := []struct {
		name    string
		ctx     context.Context
		req     jsonapi.SetTimeRequest
		code    apierr.Code
		cause   string
		wantNow time.Time // the time after the call
	}{
		{name: "no current_time", req: jsonapi.SetTimeRequest{NewTime: "2031-01-01T00:00:00Z"}, code: apierr.MissingField,
			cause: "The submitted command is missing a mandatory field: current_time", wantNow: start},
		{name: "no new_time", req: jsonapi.SetTimeRequest{CurrentTime: "2030-01-01T00:00:00Z"}, code: apierr.MissingField,
			cause: "The submitted command is missing a mandatory field: new_time", wantNow: start},
		{name: "new_time not a time", req: jsonapi.SetTimeRequest{CurrentTime: "2030-01-01T00:00:00Z", NewTime: strings.Repeat("9", 10<<10)}, code: apierr.InvalidField,
			cause: "The submitted command has a field with invalid value: Invalid field new_time: ", wantNow: start},
		{name: "backwards", req: jsonapi.SetTimeRequest{CurrentTime: "2030-01-01T00:00:00Z", NewTime: "2029-12-31T23:59:59.999999Z"}, code: apierr.InvalidArgument,
			cause: "The submitted request has invalid arguments: new_time [2029-12-31T23:59:59.999999Z] is before current_time [2030-01-01T00:00:00Z]. Setting time backwards is not allowed.", wantNow: start},
		{name: "current_time is not the node's", req: jsonapi.SetTimeRequest{CurrentTime: "2029-01-01T00:00:00Z", NewTime: "2031-01-01T00:00:00Z"}, code: apierr.InvalidArgument,
			cause: "The submitted request has invalid arguments: current_time mismatch. Provided: 2029-01-01T00:00:00Z. Actual: 2030-01-01T00:00:00Z", wantNow: start},
		{name: "not a participant admin", ctx: ledger.WithPrincipal(ctx, identity.Principal{UserID: "u", Rights: []identity.Right{{Kind: identity.RightCanActAs, Party: alice}}}),
			req: jsonapi.SetTimeRequest{CurrentTime: "2030-01-01T00:00:00Z", NewTime: "2031-01-01T00:00:00Z"}, code: apierr.PermissionDenied, wantNow: start},
		{name: "the same time", req: jsonapi.SetTimeRequest{CurrentTime: "2030-01-01T00:00:00Z", NewTime: "2030-01-01T00:00:00Z"}, wantNow: start},
		{name: "forward", req: jsonapi.SetTimeRequest{CurrentTime: "2030-01-01T00:00:00Z", NewTime: "2030-01-02T00:00:00.000001Z"}, wantNow: start.Add(24*time.Hour + time.Microsecond)},
		{name: "from a time read before the last move", req: jsonapi.SetTimeRequest{CurrentTime: "2030-01-01T00:00:00Z", NewTime: "2030-02-01T00:00:00Z"}, code: apierr.InvalidArgument,
			cause: "The submitted request has invalid arguments: current_time mismatch. Provided: 2030-01-01T00:00:00Z. Actual: 2030-01-02T00:00:00.000001Z", wantNow: start.Add(24*time.Hour + time.Microsecond)},
	}
	for _, tc := range tests { // in order: each starts from the time the previous left
		c := tc.ctx
		if c == nil {
			c = ctx
		}
		err := jsonapi.New(node).SetTimeFrom(c, tc.req)
		var ae *apierr.Error
		switch {
		case tc.code.Name == "" && err != nil:
			t.Errorf("%s: %v, want success", tc.name, err)
		case tc.code.Name != "" && (!errors.As(err, &ae) || ae.Code.Name != tc.code.Name):
			t.Errorf("%s: %v, want %s", tc.name, err, tc.code.Name)
		case ae != nil && !strings.HasPrefix(ae.Cause, tc.cause):
			t.Errorf("%s: cause %q, want %q", tc.name, ae.Cause, tc.cause)
		case ae != nil && len(ae.Cause) > 300:
			t.Errorf("%s: a cause of %d bytes", tc.name, len(ae.Cause))
		}
		if !clock.Now().Equal(tc.wantNow) {
			t.Errorf("%s: the time is %v after the call, want %v", tc.name, clock.Now(), tc.wantNow)
		}
	}
	// SetTime (from whatever the time is) refuses going back in the same words.
	err := node.SetTime(ctx, start)
	if !errors.Is(err, apierr.InvalidArgument) || !strings.Contains(err.Error(), "new_time [2030-01-01T00:00:00Z] is before current_time [2030-01-02T00:00:00.000001Z]. Setting time backwards is not allowed.") {
		t.Errorf("SetTime backwards: %v", err)
	}

	wall := ledgertest.Open(t, ledger.Options{})
	if err := jsonapi.New(wall).SetTimeFrom(ctx, jsonapi.SetTimeRequest{CurrentTime: "2030-01-01T00:00:00Z", NewTime: "2031-01-01T00:00:00Z"}); !errors.Is(err, apierr.InvalidArgument) {
		t.Errorf("SetTimeFrom on a wall-clock node: %v, want INVALID_ARGUMENT", err)
	}
}

// TestLedgerTimeAfterRecordTime: with minLedgerTimeRel the ledger time is
// ahead of the wall clock; Canton (wall clock) delays the submission until
// the ledger time (CommandSubmissionServiceImpl
// submitTransactionWithDelay), so that record time ≥ effective time.
func TestLedgerTimeAfterRecordTime(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := t.Context()
	d, ids := lftest.DAR(lftest.IouPackage("1.0.0"))
	ledgertest.MustUploadDAR(t, n, d)
	alice := ledgertest.MustAllocate(t, n, "alice")
	resp, err := jsonapi.DecodeAnswer[jsonapi.SubmitAndWaitForTransactionResponse](jsonapi.New(n).SubmitAndWaitForTransaction(ctx, jsonapi.SubmitAndWaitForTransactionRequest{Commands: jsonapi.JsCommands{CommandID: "c1", ActAs: []string{alice}, UserID: "u1",
		MinLedgerTimeRel: &jsonapi.Duration{Nanos: 300_000_000},
		Commands:         []jsonapi.JsCommand{{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: ids[0] + ":Main:Iou", CreateArguments: json.RawMessage(`{"owner": "` + alice + `", "amount": "1"}`)}}}}}))
	if err != nil {
		t.Fatal(err)
	}
	let, err1 := time.Parse(time.RFC3339Nano, resp.Transaction.EffectiveAt)
	rt, err2 := time.Parse(time.RFC3339Nano, resp.Transaction.RecordTime)
	if err1 != nil || err2 != nil || rt.Before(let) {
		t.Errorf("committed at record time %s with effective time %s", resp.Transaction.RecordTime, resp.Transaction.EffectiveAt)
	}
	if rt.Sub(let) > 10*time.Second {
		t.Errorf("record time %s long after the effective time %s", resp.Transaction.RecordTime, resp.Transaction.EffectiveAt)
	}
}

// TestSetTimeFromZeroTimes: a Go caller's zero time is a missing field, as
// the wire's absent time is, and leaves the time unchanged.
func TestSetTimeFromZeroTimes(t *testing.T) {
	t.Parallel()
	start := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	node, clock := ledgertest.OpenStatic(t, ledger.Options{}, start)
	tests := []struct {
		name       string
		current, t time.Time
		field      string
	}{
		{"no current time", time.Time{}, start.Add(time.Hour), "current_time"},
		{"no new time", start, time.Time{}, "new_time"},
		{"neither", time.Time{}, time.Time{}, "current_time"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := node.SetTimeFrom(context.Background(), tc.current, tc.t)
			var ae *apierr.Error
			if !errors.As(err, &ae) || ae.Code.Name != apierr.MissingField.Name || !strings.HasSuffix(ae.Cause, tc.field) {
				t.Errorf("SetTimeFrom = %v, want MISSING_FIELD %s", err, tc.field)
			}
			if !clock.Now().Equal(start) {
				t.Errorf("the time moved to %v", clock.Now())
			}
		})
	}
	if err := node.SetTimeFrom(context.Background(), start, start.Add(time.Minute)); err != nil || !clock.Now().Equal(start.Add(time.Minute)) {
		t.Errorf("SetTimeFrom forward: %v, time %v", err, clock.Now())
	}
}

// TestStaticTimeStaysADamlTimestamp: the static time cannot be moved past
// Daml's last timestamp (9999-12-31T23:59:59.999999Z), by any of the three
// moves: a transaction committed at a later ledger time could not be read
// back (its stored time is no Daml timestamp). The refusal is
// INVALID_ARGUMENT and leaves the time unchanged; the last timestamp
// itself is a time the clock may show.
func TestStaticTimeStaysADamlTimestamp(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	last := time.Date(9999, 12, 31, 23, 59, 59, 999_999_000, time.UTC)
	start := last.Add(-time.Hour)
	node, clock := ledgertest.OpenStatic(t, ledger.Options{}, start)
	for _, tc := range []struct {
		name string
		move func() error
	}{
		{"advance", func() error { return node.AdvanceTime(ctx, 2*time.Hour) }},
		{"set", func() error { return node.SetTime(ctx, last.Add(time.Microsecond)) }},
		{"set from", func() error { return node.SetTimeFrom(ctx, start, last.Add(time.Second)) }},
	} {
		if err := tc.move(); !errors.Is(err, apierr.InvalidArgument) || !strings.Contains(err.Error(), "9999-12-31T23:59:59.999999Z") {
			t.Errorf("%s past the last timestamp: %v, want INVALID_ARGUMENT naming it", tc.name, err)
		}
		if !clock.Now().Equal(start) {
			t.Fatalf("%s: the time is %v after a refused move, want %v", tc.name, clock.Now(), start)
		}
	}
	if err := node.AdvanceTime(ctx, time.Hour); err != nil || !clock.Now().Equal(last) {
		t.Errorf("advance to the last timestamp: %v, the time is %v", err, clock.Now())
	}
}

// TestLedgerTimePastLastTimestamp: a submission whose ledger time (the
// node's time raised by its minimum ledger time) is after Daml's last
// timestamp is INVALID_ARGUMENT, as Canton's
// CommandsValidator.validateLedgerTime has it, and commits nothing: it
// committed a transaction that could not be read back.
func TestLedgerTimePastLastTimestamp(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	last := time.Date(9999, 12, 31, 23, 59, 59, 999_999_000, time.UTC)
	node, _ := ledgertest.OpenStatic(t, ledger.Options{}, last.Add(-time.Hour))
	d, ids := lftest.DAR(lftest.IouPackage("1.0.0"))
	ledgertest.MustUploadDAR(t, node, d)
	alice := ledgertest.MustAllocate(t, node, "alice")
	iou := ledger.TemplateByID(lf.TypeConID{PackageID: ids[0], Module: "Main", Name: "Iou"})
	for i, edit := range []func(*ledger.Commands){
		func(c *ledger.Commands) { c.MinLedgerTimeRel = 2 * time.Hour },
		func(c *ledger.Commands) { c.MinLedgerTime = last.Add(time.Microsecond) },
	} {
		before := ledger.StoreDumpForTest(t, node)
		c := ledger.Commands{ActAs: []string{alice}, CommandID: fmt.Sprint("late-", i), Commands: []ledger.Command{
			ledger.CreateCommand{Template: iou, Arguments: value.Record{Fields: []value.RecordField{
				{Label: "owner", Value: value.Party(alice)}, {Label: "amount", Value: value.Int64(1)}}}}}}
		edit(&c)
		if _, err := node.Submit(ctx, c); !errors.Is(err, apierr.InvalidArgument) || !strings.Contains(err.Error(), "as a Daml timestamp") {
			t.Errorf("%d: %v, want INVALID_ARGUMENT", i, err)
		}
		if diff := cmp.Diff(before, ledger.StoreDumpForTest(t, node)); diff != "" {
			t.Errorf("%d: the refused submission changed the store:\n%s", i, diff)
		}
	}
	// At the last timestamp itself the submission commits.
	c := ledger.Commands{ActAs: []string{alice}, CommandID: "at-last", MinLedgerTime: last, Commands: []ledger.Command{
		ledger.CreateCommand{Template: iou, Arguments: value.Record{Fields: []value.RecordField{
			{Label: "owner", Value: value.Party(alice)}, {Label: "amount", Value: value.Int64(1)}}}}}}
	if _, err := node.Submit(ctx, c); err != nil {
		t.Errorf("at the last timestamp: %v", err)
	}
}
