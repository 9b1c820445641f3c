package ledger_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// reassignSyncs are the synchronizers of the reassignment tests.
var reassignSyncs = []string{"s1::1220aa", "s2::1220bb"}

// reassignmentSummary is what a reassignment says, in one form for the
// typed result and the JSON API's.
type reassignmentSummary struct {
	UpdateID, CommandID, WorkflowID, SynchronizerID string
	Offset                                          int64
	RecordTime                                      time.Time
	Events                                          []reassignmentEventSummary
}

type reassignmentEventSummary struct {
	Unassign                               bool
	ReassignmentID, ContractID, TemplateID string
	Source, Target, Submitter, PackageName string
	Counter, Offset                        int64
	NodeID                                 int32
	Witnesses, Signatories                 []string
	Argument                               map[string]any
}

func jsonObject(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return m
}

func typedSummary(t *testing.T, r *update.Reassignment) reassignmentSummary {
	t.Helper()
	out := reassignmentSummary{UpdateID: r.UpdateID, CommandID: r.CommandID, WorkflowID: r.WorkflowID, SynchronizerID: r.SynchronizerID,
		Offset: r.Offset, RecordTime: r.RecordTime.UTC()}
	for _, ev := range r.Events {
		u, ok := ev.(*update.UnassignedEvent)
		if !ok {
			continue
		}
		out.Events = append(out.Events, reassignmentEventSummary{Unassign: true, ReassignmentID: u.ReassignmentID, ContractID: string(u.ContractID),
			TemplateID: u.TemplateID.String(), Source: u.Source, Target: u.Target, Submitter: u.Submitter, PackageName: u.PackageName,
			Counter: u.ReassignmentCounter, Offset: u.Offset, NodeID: u.NodeID, Witnesses: u.WitnessParties})
	}
	for _, ev := range r.Events {
		a, ok := ev.(*update.AssignedEvent)
		if !ok {
			continue
		}
		c := a.Created
		out.Events = append(out.Events, reassignmentEventSummary{ReassignmentID: a.ReassignmentID, ContractID: string(c.ContractID),
			TemplateID: c.TemplateID.String(), Source: a.Source, Target: a.Target, Submitter: a.Submitter, PackageName: c.PackageName,
			Counter: a.ReassignmentCounter, Offset: c.Offset, NodeID: c.NodeID, Witnesses: c.WitnessParties, Signatories: c.Signatories,
			Argument: jsonObject(t, value.AppendJSON(nil, c.Argument))})
	}
	return out
}

func jsonSummary(t *testing.T, r jsonapi.JsReassignment) reassignmentSummary {
	t.Helper()
	at, err := time.Parse(time.RFC3339Nano, r.RecordTime)
	if err != nil {
		t.Fatal(err)
	}
	out := reassignmentSummary{UpdateID: r.UpdateID, CommandID: r.CommandID, WorkflowID: r.WorkflowID, SynchronizerID: r.SynchronizerID,
		Offset: r.Offset, RecordTime: at}
	for _, ev := range r.Events {
		if u := ev.JsUnassignedEvent; u != nil {
			v := u.Value
			out.Events = append(out.Events, reassignmentEventSummary{Unassign: true, ReassignmentID: v.ReassignmentID, ContractID: v.ContractID,
				TemplateID: v.TemplateID, Source: v.Source, Target: v.Target, Submitter: v.Submitter, PackageName: v.PackageName,
				Counter: v.ReassignmentCounter, Offset: v.Offset, NodeID: v.NodeID, Witnesses: v.WitnessParties})
		}
		if a := ev.JsAssignmentEvent; a != nil {
			c := a.CreatedEvent
			out.Events = append(out.Events, reassignmentEventSummary{ReassignmentID: a.ReassignmentID, ContractID: c.ContractID,
				TemplateID: c.TemplateID, Source: a.Source, Target: a.Target, Submitter: a.Submitter, PackageName: c.PackageName,
				Counter: a.ReassignmentCounter, Offset: c.Offset, NodeID: c.NodeID, Witnesses: c.WitnessParties, Signatories: c.Signatories,
				Argument: jsonObject(t, c.CreateArgument)})
		}
	}
	return out
}

// updateReassignment reads a reassignment with the typed update-by-id,
// as party sees it.
func updateReassignment(t *testing.T, f *fixture, updateID, party string) *update.Reassignment {
	t.Helper()
	rf := ledger.ReadAs(party)
	rf.Verbose = true
	u, err := f.n.UpdateByID(f.ctx, updateID, ledger.UpdateReadFormat{Reassignments: &rf})
	if err != nil {
		t.Fatalf("update %s: %v", updateID, err)
	}
	r, ok := u.(*update.Reassignment)
	if !ok {
		t.Fatalf("update %s is not a reassignment: %+v", updateID, u)
	}
	return r
}

// TestReassign: a typed unassignment then assignment across two
// synchronizers; each result is what a read of its update gives.
func TestReassign(t *testing.T) {
	t.Parallel()
	f := newFixture(t, ledger.Options{Synchronizers: reassignSyncs})
	ev := f.create(t, "c1", f.alice)
	cid := value.ContractID(ev.ContractID)
	show := ledger.ReassignmentEvents(ledger.ReadAs(f.alice))

	un, err := f.n.Reassign(f.ctx, ledger.ReassignCommands{Submitter: f.alice, CommandID: "un", WorkflowID: "wf", SubmissionID: "sub",
		Commands: []ledger.ReassignCommand{ledger.UnassignContract{ContractID: cid, Source: reassignSyncs[0], Target: reassignSyncs[1]}}}, show)
	if err != nil {
		t.Fatal(err)
	}
	end, err := f.n.LedgerEnd(f.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if un.Offset != end || un.SynchronizerID != reassignSyncs[0] || un.RecordTime.IsZero() || un.SubmissionID != "sub" ||
		len(un.Events) != 1 {
		t.Fatalf("unassignment: %+v (ledger end %d)", un, end)
	}
	u := un.Events[0].(*update.UnassignedEvent)
	if u.ContractID != cid || u.ReassignmentCounter != 1 || u.Submitter != f.alice || !regexp.MustCompile(`^001220[0-9a-f]{64}$`).MatchString(u.ReassignmentID) {
		t.Fatalf("unassigned event: %+v", u)
	}
	if d := cmp.Diff(typedSummary(t, updateReassignment(t, f, un.UpdateID, f.alice)), typedSummary(t, &un.Reassignment)); d != "" {
		t.Errorf("unassignment (-read +result):\n%s", d)
	}
	if _, err := f.exercise("x1", f.alice, ev.ContractID, "Peek", `{}`); !errors.Is(err, apierr.ContractNotActive) {
		t.Errorf("exercise in transit: %v", err)
	}

	as, err := f.n.Reassign(f.ctx, ledger.ReassignCommands{Submitter: f.alice, CommandID: "as",
		Commands: []ledger.ReassignCommand{ledger.AssignContract{ReassignmentID: u.ReassignmentID, Source: reassignSyncs[0], Target: reassignSyncs[1]}}}, show)
	if err != nil {
		t.Fatal(err)
	}
	if as.SynchronizerID != reassignSyncs[1] || as.Offset != un.Offset+1 || len(as.Events) != 1 {
		t.Fatalf("assignment: %+v", as)
	}
	a := as.Events[0].(*update.AssignedEvent)
	if a.ReassignmentID != u.ReassignmentID || a.ReassignmentCounter != 1 || a.Created.ContractID != cid {
		t.Fatalf("assigned event: %+v", a)
	}
	if r, ok := a.Created.Argument.(value.Record); !ok || len(r.Fields) != 2 {
		t.Errorf("assigned contract's argument: %#v", a.Created.Argument)
	}
	if d := cmp.Diff(typedSummary(t, updateReassignment(t, f, as.UpdateID, f.alice)), typedSummary(t, &as.Reassignment)); d != "" {
		t.Errorf("assignment (-read +result):\n%s", d)
	}
	// The contract is active on the target.
	if _, err := jsonapi.New(f.n).SubmitAndWait(f.ctx, jsonapi.JsCommands{CommandID: "x2", ActAs: []string{f.alice}, UserID: "u1", SynchronizerID: reassignSyncs[1],
		Commands: []jsonapi.JsCommand{{ExerciseCommand: &jsonapi.JsExerciseCommand{TemplateID: f.pkg + ":Main:Iou", ContractID: ev.ContractID,
			Choice: "Peek", ChoiceArgument: json.RawMessage(`{}`)}}}}); err != nil {
		t.Errorf("exercise on the target after assignment: %v", err)
	}

	// Without ReassignmentEvents the result has no events; bob, no
	// stakeholder, sees none either.
	ev2 := f.create(t, "c2", f.alice)
	r, err := f.n.Reassign(f.ctx, ledger.ReassignCommands{Submitter: f.alice, CommandID: "un2",
		Commands: []ledger.ReassignCommand{ledger.UnassignContract{ContractID: value.ContractID(ev2.ContractID), Source: reassignSyncs[0], Target: reassignSyncs[1]}}})
	if err != nil || len(r.Events) != 0 || r.UpdateID == "" {
		t.Errorf("without events: %+v, %v", r, err)
	}
	ev3 := f.create(t, "c3", f.alice)
	r, err = f.n.Reassign(f.ctx, ledger.ReassignCommands{Submitter: f.alice, CommandID: "un3",
		Commands: []ledger.ReassignCommand{ledger.UnassignContract{ContractID: value.ContractID(ev3.ContractID), Source: reassignSyncs[0], Target: reassignSyncs[1]}}},
		ledger.ReassignmentEvents(ledger.ReadAs(f.bob)))
	if err != nil || len(r.Events) != 0 {
		t.Errorf("as bob: %+v, %v", r, err)
	}
}

// jsonReassignment is the JSON API's request for typed commands.
func jsonReassignment(c ledger.ReassignCommands) jsonapi.ReassignmentCommands {
	out := jsonapi.ReassignmentCommands{Submitter: c.Submitter, UserID: c.UserID, CommandID: c.CommandID, WorkflowID: c.WorkflowID, SubmissionID: c.SubmissionID,
		Commands: []jsonapi.ReassignmentCommand{}}
	for _, x := range c.Commands {
		var k jsonapi.ReassignmentCommandKind
		switch x := x.(type) {
		case ledger.UnassignContract:
			k.UnassignCommand = &jsonapi.Wrapped[jsonapi.UnassignCommand]{Value: jsonapi.UnassignCommand{ContractID: string(x.ContractID), Source: x.Source, Target: x.Target}}
		case ledger.AssignContract:
			k.AssignCommand = &jsonapi.Wrapped[jsonapi.AssignCommand]{Value: jsonapi.AssignCommand(x)}
		default:
			k.Empty = &struct{}{}
		}
		out.Commands = append(out.Commands, jsonapi.ReassignmentCommand{Command: k})
	}
	return out
}

// TestReassignRefusals: Reassign refuses with Canton's codes, commits
// nothing (the store and the ledger end are unchanged). (The JSON API's
// reassignment submissions are httpadapter's to test.)
func TestReassignRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t, ledger.Options{Synchronizers: reassignSyncs})
	ev := f.create(t, "c1", f.alice)
	cid := value.ContractID(ev.ContractID)
	s1, s2 := reassignSyncs[0], reassignSyncs[1]
	unassign := func(cid value.ContractID, src, dst string) []ledger.ReassignCommand {
		return []ledger.ReassignCommand{ledger.UnassignContract{ContractID: cid, Source: src, Target: dst}}
	}
	cmd := func(by string, cs []ledger.ReassignCommand) ledger.ReassignCommands {
		return ledger.ReassignCommands{Submitter: by, CommandID: "r", Commands: cs}
	}
	unknown := value.ContractID("00" + ev.ContractID[2:66] + "ca12" + ev.ContractID[:64])
	readOnly := ledger.WithPrincipal(f.ctx, identity.Principal{UserID: "u1", Rights: []identity.Right{{Kind: identity.RightCanReadAs, Party: f.alice}}})
	actOnly := ledger.WithPrincipal(f.ctx, identity.Principal{UserID: "u1", Rights: []identity.Right{{Kind: identity.RightCanActAs, Party: f.alice}}})
	for _, tc := range []struct {
		name   string
		ctx    context.Context
		c      ledger.ReassignCommands
		format []string // parties of the event format (nil: none)
		code   apierr.Code
	}{
		{"no submitter", f.ctx, cmd("", unassign(cid, s1, s2)), nil, apierr.MissingField},
		{"bad submitter", f.ctx, cmd("bad%party", unassign(cid, s1, s2)), nil, apierr.InvalidField},
		{"no command id", f.ctx, ledger.ReassignCommands{Submitter: f.alice, Commands: unassign(cid, s1, s2)}, nil, apierr.MissingField},
		{"bad workflow id", f.ctx, ledger.ReassignCommands{Submitter: f.alice, CommandID: "r", WorkflowID: "a b!", Commands: unassign(cid, s1, s2)}, nil, apierr.InvalidField},
		{"no commands", f.ctx, cmd(f.alice, nil), nil, apierr.MissingField},
		{"a command without a variant", f.ctx, cmd(f.alice, []ledger.ReassignCommand{nil}), nil, apierr.MissingField},
		{"commands of two kinds", f.ctx, cmd(f.alice, append(unassign(cid, s1, s2), ledger.AssignContract{ReassignmentID: "00", Source: s1, Target: s2})), nil, apierr.InvalidArgument},
		{"commands between other synchronizers", f.ctx, cmd(f.alice, append(unassign(cid, s1, s2), unassign(cid, s2, s1)...)), nil, apierr.InvalidArgument},
		{"unknown contract", f.ctx, cmd(f.alice, unassign(unknown, s1, s2)), nil, apierr.ContractNotFound},
		// Refused before any command is looked at: the unknown second
		// contract is not what is reported.
		{"two contracts", f.ctx, cmd(f.alice, append(unassign(cid, s1, s2), unassign(unknown, s1, s2)...)), nil, apierr.Unimplemented},
		{"wrong source synchronizer", f.ctx, cmd(f.alice, unassign(cid, s2, s1)), nil, apierr.ContractNotActive},
		{"same synchronizer", f.ctx, cmd(f.alice, unassign(cid, s1, s1)), nil, apierr.InvalidArgument},
		{"unknown synchronizer", f.ctx, cmd(f.alice, unassign(cid, s1, "s3::1220cc")), nil, apierr.InvalidField},
		{"submitter not a stakeholder", f.ctx, cmd(f.bob, unassign(cid, s1, s2)), nil, apierr.DamlAuthorizationError},
		{"no right to act as the submitter", readOnly, cmd(f.alice, unassign(cid, s1, s2)), nil, apierr.PermissionDenied},
		{"no right to read as the format's party", actOnly, cmd(f.alice, unassign(cid, s1, s2)), []string{f.bob}, apierr.PermissionDenied},
		{"unknown reassignment id", f.ctx, cmd(f.alice, []ledger.ReassignCommand{ledger.AssignContract{ReassignmentID: "001220" + fmt.Sprintf("%064d", 1), Source: s1, Target: s2}}), nil, apierr.ReassignmentNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var opts []ledger.ReassignOption
			if tc.format != nil {
				opts = append(opts, ledger.ReassignmentEvents(ledger.ReadAs(tc.format...)))
			}
			before := ledger.StoreDumpForTest(t, f.n)
			endBefore, err := f.n.LedgerEnd(f.ctx)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.n.Reassign(tc.ctx, tc.c, opts...); !errors.Is(err, tc.code) {
				t.Errorf("Reassign: %v, want %s", err, tc.code.Name)
			}
			if d := cmp.Diff(before, ledger.StoreDumpForTest(t, f.n)); d != "" {
				t.Errorf("state changed:\n%s", d)
			}
			if end, err := f.n.LedgerEnd(f.ctx); err != nil || end != endBefore {
				t.Errorf("ledger end %+v (%v), was %d", end, err, endBefore)
			}
		})
	}
}

// TestReassignSameAsJSON: the same unassignment and assignment submitted
// through the JSON API's submit-and-wait-for-reassignment (over HTTP) and
// through Reassign commit the same shape of update: what each returns is
// what the typed read of its update gives.
func TestReassignSameAsJSON(t *testing.T) {
	t.Parallel()
	f := newFixture(t, ledger.Options{Synchronizers: reassignSyncs})
	ef := &jsonapi.EventFormat{FiltersByParty: map[string]jsonapi.Filters{f.alice: {}}, Verbose: true}
	show := ledger.ReassignmentEvents(ledger.ReadAs(f.alice))
	// The JSON submissions go over HTTP as participant_admin (the
	// token's user), which may act as alice once granted.
	srv, token := ledgertest.Serve(t, f.n)
	if _, err := f.n.GrantUserRights(f.ctx, identity.DefaultParticipantAdmin, "", []identity.Right{{Kind: identity.RightCanActAs, Party: f.alice}}); err != nil {
		t.Fatal(err)
	}
	submitJSON := func(req jsonapi.SubmitAndWaitForReassignmentRequest) (jsonapi.SubmitAndWaitForReassignmentResponse, error) {
		var out jsonapi.SubmitAndWaitForReassignmentResponse
		body, _ := json.Marshal(req)
		hr, _ := http.NewRequestWithContext(f.ctx, http.MethodPost, srv.URL+"/v2/commands/submit-and-wait-for-reassignment", bytes.NewReader(body))
		hr.Header.Set("Authorization", "Bearer "+token)
		hr.Header.Set("Content-Type", "application/json")
		resp, err := srv.Client().Do(hr)
		if err != nil {
			return out, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			return out, err
		}
		if resp.StatusCode != http.StatusOK {
			return out, fmt.Errorf("%s: %s", resp.Status, b)
		}
		return out, json.Unmarshal(b, &out)
	}
	var typed, wire []reassignmentSummary
	for _, via := range []string{"typed", "json"} {
		ev := f.create(t, "c-"+via, f.alice)
		c := ledger.ReassignCommands{Submitter: f.alice, CommandID: "un-" + via, WorkflowID: "wf",
			Commands: []ledger.ReassignCommand{ledger.UnassignContract{ContractID: value.ContractID(ev.ContractID), Source: reassignSyncs[0], Target: reassignSyncs[1]}}}
		var got []reassignmentSummary
		for step := range 2 {
			var s reassignmentSummary
			if via == "typed" {
				r, err := f.n.Reassign(f.ctx, c, show)
				if err != nil {
					t.Fatalf("%s step %d: %v", via, step, err)
				}
				s = typedSummary(t, &r.Reassignment)
			} else {
				r, err := submitJSON(jsonapi.SubmitAndWaitForReassignmentRequest{ReassignmentCommands: jsonReassignment(c), EventFormat: ef})
				if err != nil {
					t.Fatalf("%s step %d: %v", via, step, err)
				}
				s = jsonSummary(t, r.Reassignment)
			}
			if d := cmp.Diff(typedSummary(t, updateReassignment(t, f, s.UpdateID, f.alice)), s); d != "" {
				t.Errorf("%s step %d (-read +result):\n%s", via, step, d)
			}
			got = append(got, s)
			c = ledger.ReassignCommands{Submitter: f.alice, CommandID: "as-" + via, WorkflowID: "wf",
				Commands: []ledger.ReassignCommand{ledger.AssignContract{ReassignmentID: s.Events[0].ReassignmentID, Source: reassignSyncs[0], Target: reassignSyncs[1]}}}
		}
		if via == "typed" {
			typed = got
		} else {
			wire = got
		}
	}
	// The two paths differ only in what identifies the update and the
	// contract.
	norm := func(ss []reassignmentSummary) []reassignmentSummary {
		out := make([]reassignmentSummary, len(ss))
		for i, s := range ss {
			s.UpdateID, s.CommandID, s.Offset, s.RecordTime = "", "", 0, time.Time{}
			evs := make([]reassignmentEventSummary, len(s.Events))
			for j, e := range s.Events {
				e.ReassignmentID, e.ContractID, e.Offset = "", "", 0
				evs[j] = e
			}
			s.Events = evs
			out[i] = s
		}
		return out
	}
	if d := cmp.Diff(norm(wire), norm(typed)); d != "" {
		t.Errorf("(-JSON +typed):\n%s", d)
	}
}
