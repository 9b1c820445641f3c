package jsonapi_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// reassignmentRead is the JSON read of reassignment id in ef:
// update-by-id's {"update": {"Reassignment": {"value": r}}}, as
// {"reassignment": r}, the answer submit-and-wait-for-reassignment gives
// for the same reassignment in the same format.
func reassignmentRead(t *testing.T, api *jsonapi.API, l *emitLedger, id string, ef jsonapi.EventFormat) []byte {
	t.Helper()
	b, err := api.UpdateByID(l.ctx, jsonapi.GetUpdateByIDRequest{UpdateID: id, UpdateFormat: &jsonapi.UpdateFormat{IncludeReassignments: &ef}})
	if err != nil {
		t.Fatalf("update-by-id %s: %v", id, err)
	}
	const prefix, suffix = `{"update":{"Reassignment":{"value":`, `}}}`
	if !bytes.HasPrefix(b, []byte(prefix)) || !bytes.HasSuffix(b, []byte(suffix)) {
		t.Fatalf("update-by-id %s is not a reassignment: %s", id, b)
	}
	return append(append([]byte(`{"reassignment":`), b[len(prefix):len(b)-len(suffix)]...), '}')
}

func reassignmentOf(t *testing.T, b []byte) jsonapi.JsReassignment {
	t.Helper()
	var r jsonapi.SubmitAndWaitForReassignmentResponse
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("decoding %s: %v", b, err)
	}
	return r.Reassignment
}

func unassign(cid, src, dst string) jsonapi.ReassignmentCommand {
	return jsonapi.ReassignmentCommand{Command: jsonapi.ReassignmentCommandKind{UnassignCommand: &jsonapi.Wrapped[jsonapi.UnassignCommand]{
		Value: jsonapi.UnassignCommand{ContractID: cid, Source: src, Target: dst}}}}
}

func assign(rid, src, dst string) jsonapi.ReassignmentCommand {
	return jsonapi.ReassignmentCommand{Command: jsonapi.ReassignmentCommandKind{AssignCommand: &jsonapi.Wrapped[jsonapi.AssignCommand]{
		Value: jsonapi.AssignCommand{ReassignmentID: rid, Source: src, Target: dst}}}}
}

// TestSubmitAndWaitForReassignment: the answer is the JSON read of the
// committed reassignment in the request's event format, byte for byte
// (stored values: a note with <, &, > and U+2028 keeps json.Marshal's
// escapes); without a format, or with one that shows nothing, it has no
// events; a refusal commits nothing.
func TestSubmitAndWaitForReassignment(t *testing.T) {
	t.Parallel()
	l := newEmitLedger(t, []string{"plain"})
	api := jsonapi.New(l.n)
	const note = "a <b> & c\u2028d"
	c := l.submit(t, "escapes", "", []string{l.alice}, l.create("T", l.tArg(l.alice, l.bob, note, 9)))
	cid := c.Events[0].CreatedEvent.ContractID
	s1, s2 := emitSyncs[0], emitSyncs[1]
	cmds := func(id string, c ...jsonapi.ReassignmentCommand) jsonapi.ReassignmentCommands {
		return jsonapi.ReassignmentCommands{Submitter: l.alice, CommandID: id, WorkflowID: "wf-" + id, Commands: c}
	}
	end := func() int64 {
		e, err := l.n.LedgerEnd(l.ctx)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}

	// Refusals: the JSON one-of (MALFORMED as an INVALID_ARGUMENT), then
	// the node's rules (no variant: MISSING_FIELD).
	for _, tt := range []struct {
		name string
		cmd  jsonapi.ReassignmentCommand
		want error
	}{
		{"two variants", jsonapi.ReassignmentCommand{Command: jsonapi.ReassignmentCommandKind{
			UnassignCommand: unassign(cid, s1, s2).Command.UnassignCommand, Empty: &struct{}{}}}, apierr.InvalidArgument},
		{"no variant", jsonapi.ReassignmentCommand{}, apierr.MissingField},
		{"same synchronizer", unassign(cid, s1, s1), apierr.InvalidArgument},
	} {
		before := end()
		_, err := api.SubmitAndWaitForReassignment(l.ctx, jsonapi.SubmitAndWaitForReassignmentRequest{ReassignmentCommands: cmds("bad", tt.cmd)})
		if !errors.Is(err, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.want)
		}
		if _, err := api.SubmitReassignment(l.ctx, jsonapi.SubmitReassignmentRequest{ReassignmentCommands: cmds("bad", tt.cmd)}); !errors.Is(err, tt.want) {
			t.Errorf("%s (async): %v, want %v", tt.name, err, tt.want)
		}
		if after := end(); after != before {
			t.Errorf("%s: the ledger end moved from %d to %d", tt.name, before, after)
		}
	}

	// Unassign, shown to alice (verbose).
	alice := l.aliceFormat()
	alice.Verbose = true
	got, err := api.SubmitAndWaitForReassignment(l.ctx, jsonapi.SubmitAndWaitForReassignmentRequest{
		ReassignmentCommands: cmds("un", unassign(cid, s1, s2)), EventFormat: &alice})
	if err != nil {
		t.Fatal(err)
	}
	un := reassignmentOf(t, got)
	if len(un.Events) != 1 || un.Events[0].JsUnassignedEvent == nil || un.Events[0].JsUnassignedEvent.Value.ContractID != cid {
		t.Fatalf("unassignment events: %s", got)
	}
	sameWire(t, "unassignment", reassignmentRead(t, api, l, un.UpdateID, alice), got)

	// Assign, shown to bob, the watcher: the created event carries the
	// stored argument, escapes included.
	bob := jsonapi.EventFormat{FiltersByParty: map[string]jsonapi.Filters{l.bob: {}}, Verbose: true}
	rid := un.Events[0].JsUnassignedEvent.Value.ReassignmentID
	got, err = api.SubmitAndWaitForReassignment(l.ctx, jsonapi.SubmitAndWaitForReassignmentRequest{
		ReassignmentCommands: cmds("as", assign(rid, s1, s2)), EventFormat: &bob})
	if err != nil {
		t.Fatal(err)
	}
	as := reassignmentOf(t, got)
	if len(as.Events) != 1 || as.Events[0].JsAssignmentEvent == nil || as.Events[0].JsAssignmentEvent.CreatedEvent.ContractID != cid {
		t.Fatalf("assignment events: %s", got)
	}
	escaped, _ := json.Marshal(note)
	if !bytes.Contains(got, escaped) {
		t.Errorf("the assignment's argument lacks the stored note %s: %s", escaped, got)
	}
	sameWire(t, "assignment", reassignmentRead(t, api, l, as.UpdateID, bob), got)

	// Without a format, and in one whose party sees nothing: no events.
	carol := jsonapi.EventFormat{FiltersByParty: map[string]jsonapi.Filters{l.carol: {}}}
	for _, tt := range []struct {
		name string
		ef   *jsonapi.EventFormat
	}{{"no format", nil}, {"carol's format", &carol}} {
		id := "back-" + tt.name[:2]
		before := end()
		got, err := api.SubmitAndWaitForReassignment(l.ctx, jsonapi.SubmitAndWaitForReassignmentRequest{
			ReassignmentCommands: cmds(id, unassign(cid, s2, s1)), EventFormat: tt.ef})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		r := reassignmentOf(t, got)
		if !bytes.Contains(got, []byte(`"events":[]`)) || r.CommandID != id || r.Offset != before+1 || r.SynchronizerID != s2 {
			t.Errorf("%s: %s, want no events, command %s at offset %d on %s", tt.name, got, id, before+1, s2)
		}
		full := reassignmentOf(t, reassignmentRead(t, api, l, r.UpdateID, alice))
		if len(full.Events) != 1 || full.Events[0].JsUnassignedEvent == nil {
			t.Fatalf("%s: alice's read of the unassignment: %+v", tt.name, full.Events)
		}
		// Back to s2 for the next round, through the async route.
		before = end()
		if _, err := api.SubmitReassignment(l.ctx, jsonapi.SubmitReassignmentRequest{ReassignmentCommands: cmds(id+"-as",
			assign(full.Events[0].JsUnassignedEvent.Value.ReassignmentID, s2, s1))}); err != nil {
			t.Fatalf("%s: async assign: %v", tt.name, err)
		}
		if after := end(); after != before+1 {
			t.Errorf("%s: async assign: the ledger end moved from %d to %d", tt.name, before, after)
		}
		// Now on s1: the next unassignment goes from s1.
		s1, s2 = s2, s1
	}
}

// TestStateAnswers: ledger-end and connected-synchronizers through the
// JSON API are the typed reads' values.
func TestStateAnswers(t *testing.T) {
	t.Parallel()
	l := newEmitLedger(t, []string{"plain"})
	api := jsonapi.New(l.n)
	off, err := l.n.LedgerEnd(l.ctx)
	if err != nil {
		t.Fatal(err)
	}
	end, err := api.LedgerEnd(l.ctx)
	if err != nil || end.Offset != off || off == 0 {
		t.Errorf("LedgerEnd = %+v, %v; want offset %d (not 0)", end, err, off)
	}
	if b, _ := json.Marshal(end); string(b) != `{"offset":`+jsonInt(off)+`}` {
		t.Errorf("ledger-end body %s", b)
	}
	cs, err := api.ConnectedSynchronizers(l.ctx, jsonapi.ConnectedSynchronizersRequest{Party: l.alice})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(cs)
	want := `{"connectedSynchronizers":[{"synchronizerAlias":"s1","synchronizerId":"s1::1220aa","permission":"PARTICIPANT_PERMISSION_SUBMISSION"},` +
		`{"synchronizerAlias":"s2","synchronizerId":"s2::1220bb","permission":"PARTICIPANT_PERMISSION_SUBMISSION"}]}`
	if string(b) != want {
		t.Errorf("connected-synchronizers for alice:\n got %s\nwant %s", b, want)
	}
	cs, err = api.ConnectedSynchronizers(l.ctx, jsonapi.ConnectedSynchronizersRequest{Party: "nobody::1220cc"})
	if b, _ := json.Marshal(cs); err != nil || string(b) != `{"connectedSynchronizers":[]}` {
		t.Errorf("connected-synchronizers for an unknown party: %s, %v", b, err)
	}
}

func jsonInt(i int64) string { b, _ := json.Marshal(i); return string(b) }
