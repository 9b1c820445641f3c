package grpcadapter_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc/codes"

	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/grpcadapter"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// reassignEnv is a node with two synchronizers (the Ping package vetted on
// both) served over gRPC and the JSON API with the same tokens, and
// alice's Pings with bob.
type reassignEnv struct {
	*env
	http       *httptest.Server
	syncs      []string
	alice, bob string
	carol      string            // a party of no Ping
	pings      map[string]string // contract ids by Ping id
}

// twoSyncPingNode is a node with two synchronizers and the Ping DAR
// vetted on both: the node, the DAR and the synchronizer ids.
func twoSyncPingNode(t *testing.T) (*ledger.Node, []byte, []string) {
	t.Helper()
	data, err := os.ReadFile(filepath.FromSlash(pingDAR))
	if err != nil {
		t.Skipf("../shared not found: skipping (%v)", err)
	}
	syncs := []string{"s1::1220" + strings.Repeat("01", 32), "s2::1220" + strings.Repeat("02", 32)}
	node := ledgertest.Open(t, ledger.Options{Synchronizers: syncs})
	for _, s := range syncs {
		if err := node.UploadDAR(context.Background(), ledger.UploadDARRequest{DAR: data, SynchronizerID: s}); err != nil {
			t.Fatal(err)
		}
	}
	return node, data, syncs
}

func newReassignEnv(t *testing.T, ids ...string) *reassignEnv {
	t.Helper()
	node, data, syncs := twoSyncPingNode(t)
	ctx := context.Background()
	r := &reassignEnv{syncs: syncs, alice: ledgertest.MustAllocate(t, node, "alice"), bob: ledgertest.MustAllocate(t, node, "bob"),
		carol: ledgertest.MustAllocate(t, node, "carol"), pings: map[string]string{}}
	// The participant admin submits as alice and carol.
	if _, err := node.GrantUserRights(ctx, identity.DefaultParticipantAdmin, "",
		[]identity.Right{{Kind: identity.RightCanActAs, Party: r.alice}, {Kind: identity.RightCanActAs, Party: r.carol}}); err != nil {
		t.Fatal(err)
	}
	ping := ledger.MustParseTemplateRef(ledgertest.MainPackageID(t, data) + ":Canton.Internal.Ping:Ping")
	for _, id := range ids {
		res := ledgertest.Submit(t, node, ledger.Commands{ActAs: []string{r.alice}, Commands: []ledger.Command{
			ledger.CreateCommand{Template: ping, Arguments: ledgertest.Record(map[string]value.Value{
				"id": value.Text(id), "initiator": value.Party(r.alice), "responder": value.Party(r.bob)})}}})
		r.pings[id] = string(res.Created()[0].ContractID)
	}
	r.env = newEnv(t, node, grpcadapter.Options{})
	r.http = sameSecretHTTP(t, r.env)
	return r
}

// post sends a JSON API request as the participant admin.
func (r *reassignEnv) post(t *testing.T, path, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, r.http.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+r.admin)
	req.Header.Set("Content-Type", "application/json")
	resp, err := r.http.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func (r *reassignEnv) end(t *testing.T) int64 {
	t.Helper()
	e, err := r.node.LedgerEnd(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// reassignSummary is what both APIs must agree on about a reassignment.
type reassignSummary struct {
	UpdateID, CommandID, WorkflowID, SynchronizerID, RecordTime string
	Offset                                                      int64
	Unassigned                                                  []unassignedSummary
	Assigned                                                    []assignedSummary
}

type unassignedSummary struct {
	ReassignmentID, ContractID, TemplateID, Source, Target, Submitter, PackageName string
	Counter, Offset                                                                int64
	NodeID                                                                         int32
	Witnesses                                                                      []string
}

type assignedSummary struct {
	ReassignmentID, Source, Target, Submitter string
	Counter                                   int64
	Created                                   createdSummary
}

func reassignOfProto(r *ledgerv2.Reassignment) reassignSummary {
	out := reassignSummary{UpdateID: r.UpdateId, CommandID: r.CommandId, WorkflowID: r.WorkflowId, SynchronizerID: r.SynchronizerId,
		RecordTime: r.RecordTime.AsTime().UTC().Format(time.RFC3339Nano), Offset: r.Offset}
	for _, ev := range r.Events {
		if u := ev.GetUnassigned(); u != nil {
			id := u.GetTemplateId()
			out.Unassigned = append(out.Unassigned, unassignedSummary{ReassignmentID: u.ReassignmentId, ContractID: u.ContractId,
				TemplateID: id.GetPackageId() + ":" + id.GetModuleName() + ":" + id.GetEntityName(), Source: u.Source, Target: u.Target,
				Submitter: u.Submitter, PackageName: u.PackageName, Counter: int64(u.ReassignmentCounter), Offset: u.Offset, NodeID: u.NodeId,
				Witnesses: u.WitnessParties})
		}
		if a := ev.GetAssigned(); a != nil {
			out.Assigned = append(out.Assigned, assignedSummary{ReassignmentID: a.ReassignmentId, Source: a.Source, Target: a.Target,
				Submitter: a.Submitter, Counter: int64(a.ReassignmentCounter), Created: createdOfProto(a.CreatedEvent)})
		}
	}
	return out
}

func reassignOfJSON(t *testing.T, r jsonapi.JsReassignment) reassignSummary {
	t.Helper()
	at, err := time.Parse(time.RFC3339Nano, r.RecordTime)
	if err != nil {
		t.Fatal(err)
	}
	out := reassignSummary{UpdateID: r.UpdateID, CommandID: r.CommandID, WorkflowID: r.WorkflowID, SynchronizerID: r.SynchronizerID,
		RecordTime: at.UTC().Format(time.RFC3339Nano), Offset: r.Offset}
	for _, ev := range r.Events {
		if u := ev.JsUnassignedEvent; u != nil {
			v := u.Value
			out.Unassigned = append(out.Unassigned, unassignedSummary{ReassignmentID: v.ReassignmentID, ContractID: v.ContractID,
				TemplateID: v.TemplateID, Source: v.Source, Target: v.Target, Submitter: v.Submitter, PackageName: v.PackageName,
				Counter: v.ReassignmentCounter, Offset: v.Offset, NodeID: v.NodeID, Witnesses: v.WitnessParties})
		}
		if a := ev.JsAssignmentEvent; a != nil {
			out.Assigned = append(out.Assigned, assignedSummary{ReassignmentID: a.ReassignmentID, Source: a.Source, Target: a.Target,
				Submitter: a.Submitter, Counter: a.ReassignmentCounter, Created: createdOfJSON(t, &a.CreatedEvent)})
		}
	}
	return out
}

// readReassignment is the JSON API's update-by-id read of a reassignment,
// as alice sees it.
func (r *reassignEnv) readReassignment(t *testing.T, updateID string) reassignSummary {
	t.Helper()
	var u jsonapi.GetUpdateResponse
	decodeOK(t, r.post(t, "/v2/updates/update-by-id", fmt.Sprintf(`{"updateId":%q,"updateFormat":{"includeReassignments":{"filtersByParty":{%q:{}},"verbose":true}}}`,
		updateID, r.alice)), &u)
	if u.Update.Reassignment == nil {
		t.Fatalf("update %s is not a reassignment: %+v", updateID, u.Update)
	}
	return reassignOfJSON(t, u.Update.Reassignment.Value)
}

// commandsJSON and commandsProto are one reassignment in each API's form.
func unassignJSON(cmdID, submitter, cid, src, dst string) string {
	return fmt.Sprintf(`{"commandId":%q,"workflowId":"wf","submitter":%q,"commands":[{"command":{"UnassignCommand":{"value":{"contractId":%q,"source":%q,"target":%q}}}}]}`,
		cmdID, submitter, cid, src, dst)
}

func assignJSON(cmdID, submitter, rid, src, dst string) string {
	return fmt.Sprintf(`{"commandId":%q,"workflowId":"wf","submitter":%q,"commands":[{"command":{"AssignCommand":{"value":{"reassignmentId":%q,"source":%q,"target":%q}}}}]}`,
		cmdID, submitter, rid, src, dst)
}

func unassignProto(cmdID, submitter, cid, src, dst string) *ledgerv2.ReassignmentCommands {
	return &ledgerv2.ReassignmentCommands{CommandId: cmdID, WorkflowId: "wf", Submitter: submitter, Commands: []*ledgerv2.ReassignmentCommand{
		{Command: &ledgerv2.ReassignmentCommand_UnassignCommand{UnassignCommand: &ledgerv2.UnassignCommand{ContractId: cid, Source: src, Target: dst}}}}}
}

func assignProto(cmdID, submitter, rid, src, dst string) *ledgerv2.ReassignmentCommands {
	return &ledgerv2.ReassignmentCommands{CommandId: cmdID, WorkflowId: "wf", Submitter: submitter, Commands: []*ledgerv2.ReassignmentCommand{
		{Command: &ledgerv2.ReassignmentCommand_AssignCommand{AssignCommand: &ledgerv2.AssignCommand{ReassignmentId: rid, Source: src, Target: dst}}}}}
}

// normReassign drops what identifies one submission's update and
// contract, to compare two submissions of the same reassignment.
func normReassign(s reassignSummary) reassignSummary {
	s.UpdateID, s.CommandID, s.RecordTime, s.Offset = "", "", "", 0
	us := make([]unassignedSummary, len(s.Unassigned))
	for i, u := range s.Unassigned {
		u.ReassignmentID, u.ContractID, u.Offset = "", "", 0
		us[i] = u
	}
	as := make([]assignedSummary, len(s.Assigned))
	for i, a := range s.Assigned {
		a.ReassignmentID, a.Created.ContractID, a.Created.Offset, a.Created.Args, a.Created.CreatedAt = "", "", 0, nil, ""
		as[i] = a
	}
	s.Unassigned, s.Assigned = us, as
	return s
}

// TestSubmitAndWaitForReassignmentSameAsJSON: an unassignment then an
// assignment over gRPC return what the JSON API reads of their updates
// (same update id, offset, record time, events), and what the JSON API's
// submit-and-wait-for-reassignment returns for the same reassignment of
// another contract; without an event format neither has events.
func TestSubmitAndWaitForReassignmentSameAsJSON(t *testing.T) {
	t.Parallel()
	r := newReassignEnv(t, "grpc", "json", "bare-grpc", "bare-json")
	ctx := as(r.admin)
	cmds := ledgerv2.NewCommandServiceClient(r.conn)
	s1, s2 := r.syncs[0], r.syncs[1]
	format := &ledgerv2.EventFormat{FiltersByParty: map[string]*ledgerv2.Filters{r.alice: {}}, Verbose: true}
	jsonFormat := fmt.Sprintf(`{"filtersByParty":{%q:{}},"verbose":true}`, r.alice)

	viaGRPC := func(rc *ledgerv2.ReassignmentCommands, f *ledgerv2.EventFormat) reassignSummary {
		t.Helper()
		res, err := cmds.SubmitAndWaitForReassignment(ctx, &ledgerv2.SubmitAndWaitForReassignmentRequest{ReassignmentCommands: rc, EventFormat: f})
		if err != nil {
			t.Fatal(err)
		}
		return reassignOfProto(res.Reassignment)
	}
	viaJSON := func(rc, f string) reassignSummary {
		t.Helper()
		body := `{"reassignmentCommands":` + rc
		if f != "" {
			body += `,"eventFormat":` + f
		}
		var res jsonapi.SubmitAndWaitForReassignmentResponse
		decodeOK(t, r.post(t, "/v2/commands/submit-and-wait-for-reassignment", body+"}"), &res)
		return reassignOfJSON(t, res.Reassignment)
	}

	gu := viaGRPC(unassignProto("u-grpc", r.alice, r.pings["grpc"], s1, s2), format)
	if len(gu.Unassigned) != 1 || gu.Offset != r.end(t) || gu.SynchronizerID != s1 {
		t.Fatalf("unassignment over gRPC: %+v", gu)
	}
	if d := cmp.Diff(r.readReassignment(t, gu.UpdateID), gu); d != "" {
		t.Errorf("unassignment (-JSON read +gRPC):\n%s", d)
	}
	ju := viaJSON(unassignJSON("u-json", r.alice, r.pings["json"], s1, s2), jsonFormat)
	if d := cmp.Diff(normReassign(ju), normReassign(gu)); d != "" {
		t.Errorf("unassignment (-JSON API +gRPC):\n%s", d)
	}

	ga := viaGRPC(assignProto("a-grpc", r.alice, gu.Unassigned[0].ReassignmentID, s1, s2), format)
	if len(ga.Assigned) != 1 || ga.Offset != r.end(t) || ga.SynchronizerID != s2 || ga.Assigned[0].Created.ContractID != r.pings["grpc"] {
		t.Fatalf("assignment over gRPC: %+v", ga)
	}
	if d := cmp.Diff(r.readReassignment(t, ga.UpdateID), ga); d != "" {
		t.Errorf("assignment (-JSON read +gRPC):\n%s", d)
	}
	ja := viaJSON(assignJSON("a-json", r.alice, ju.Unassigned[0].ReassignmentID, s1, s2), jsonFormat)
	if d := cmp.Diff(normReassign(ja), normReassign(ga)); d != "" {
		t.Errorf("assignment (-JSON API +gRPC):\n%s", d)
	}

	gb := viaGRPC(unassignProto("u-bare-grpc", r.alice, r.pings["bare-grpc"], s1, s2), nil)
	jb := viaJSON(unassignJSON("u-bare-json", r.alice, r.pings["bare-json"], s1, s2), "")
	if len(gb.Unassigned)+len(gb.Assigned) != 0 || gb.Offset != jb.Offset-1 {
		t.Errorf("without an event format: gRPC %+v, JSON %+v", gb, jb)
	}
	if d := cmp.Diff(normReassign(jb), normReassign(gb)); d != "" {
		t.Errorf("without an event format (-JSON API +gRPC):\n%s", d)
	}
}

// TestSubmitReassignmentSameAsJSON: CommandSubmissionService's
// SubmitReassignment commits the reassignment before it answers, as the
// JSON API's async/submit-reassignment does: the update at the new ledger
// end is the same reassignment.
func TestSubmitReassignmentSameAsJSON(t *testing.T) {
	t.Parallel()
	r := newReassignEnv(t, "grpc", "json")
	s1, s2 := r.syncs[0], r.syncs[1]
	before := r.end(t)
	if _, err := ledgerv2.NewCommandSubmissionServiceClient(r.conn).SubmitReassignment(as(r.admin), &ledgerv2.SubmitReassignmentRequest{
		ReassignmentCommands: unassignProto("u-grpc", r.alice, r.pings["grpc"], s1, s2)}); err != nil {
		t.Fatal(err)
	}
	if r.end(t) != before+1 {
		t.Fatalf("ledger end %d, want %d", r.end(t), before+1)
	}
	var up jsonapi.GetUpdateResponse
	decodeOK(t, r.post(t, "/v2/updates/update-by-offset", fmt.Sprintf(`{"offset":%d,"updateFormat":{"includeReassignments":{"filtersByParty":{%q:{}},"verbose":true}}}`,
		before+1, r.alice)), &up)
	if up.Update.Reassignment == nil {
		t.Fatalf("update at %d: %+v", before+1, up.Update)
	}
	g := reassignOfJSON(t, up.Update.Reassignment.Value)
	decodeOK(t, r.post(t, "/v2/commands/async/submit-reassignment", `{"reassignmentCommands":`+unassignJSON("u-json", r.alice, r.pings["json"], s1, s2)+`}`), &struct{}{})
	decodeOK(t, r.post(t, "/v2/updates/update-by-offset", fmt.Sprintf(`{"offset":%d,"updateFormat":{"includeReassignments":{"filtersByParty":{%q:{}},"verbose":true}}}`,
		before+2, r.alice)), &up)
	if up.Update.Reassignment == nil {
		t.Fatalf("update at %d: %+v", before+2, up.Update)
	}
	j := reassignOfJSON(t, up.Update.Reassignment.Value)
	if g.CommandID != "u-grpc" || len(g.Unassigned) != 1 || g.Unassigned[0].ContractID != r.pings["grpc"] {
		t.Errorf("gRPC submission's update: %+v", g)
	}
	if d := cmp.Diff(normReassign(j), normReassign(g)); d != "" {
		t.Errorf("(-JSON API +gRPC):\n%s", d)
	}
}

// TestReassignmentRefusalsSameAsJSON: both reassignment RPCs refuse what
// the JSON API's reassignment submissions refuse, with the same error
// (code, cause, context, resources, category, gRPC code), and commit
// nothing.
func TestReassignmentRefusalsSameAsJSON(t *testing.T) {
	t.Parallel()
	r := newReassignEnv(t, "p1")
	s1, s2 := r.syncs[0], r.syncs[1]
	cid := r.pings["p1"]
	unknown := "00" + cid[2:66] + "ca12" + cid[:64]
	noVariant := &ledgerv2.ReassignmentCommands{CommandId: "c", WorkflowId: "wf", Submitter: r.alice, Commands: []*ledgerv2.ReassignmentCommand{{}}}
	reader := r.token(t, "reader")
	if _, err := r.node.CreateUser(context.Background(), identity.User{ID: "reader"},
		[]identity.Right{{Kind: identity.RightCanReadAs, Party: r.alice}}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		token string
		proto *ledgerv2.ReassignmentCommands
		json  string
	}{
		{"no submitter", r.admin, unassignProto("c", "", cid, s1, s2), unassignJSON("c", "", cid, s1, s2)},
		{"no command id", r.admin, unassignProto("", r.alice, cid, s1, s2), unassignJSON("", r.alice, cid, s1, s2)},
		{"a command without a variant", r.admin, noVariant, fmt.Sprintf(`{"commandId":"c","workflowId":"wf","submitter":%q,"commands":[{"command":{"Empty":{}}}]}`, r.alice)},
		{"unknown contract", r.admin, unassignProto("c", r.alice, unknown, s1, s2), unassignJSON("c", r.alice, unknown, s1, s2)},
		{"wrong source synchronizer", r.admin, unassignProto("c", r.alice, cid, s2, s1), unassignJSON("c", r.alice, cid, s2, s1)},
		{"same synchronizer", r.admin, unassignProto("c", r.alice, cid, s1, s1), unassignJSON("c", r.alice, cid, s1, s1)},
		{"unknown synchronizer", r.admin, unassignProto("c", r.alice, cid, s1, "s3::1220cc"), unassignJSON("c", r.alice, cid, s1, "s3::1220cc")},
		{"submitter not a stakeholder", r.admin, unassignProto("c", r.carol, cid, s1, s2), unassignJSON("c", r.carol, cid, s1, s2)},
		{"no right to act as the submitter", reader, unassignProto("c", r.alice, cid, s1, s2), unassignJSON("c", r.alice, cid, s1, s2)},
		{"unknown reassignment id", r.admin, assignProto("c", r.alice, "001220"+strings.Repeat("0", 64), s1, s2), assignJSON("c", r.alice, "001220"+strings.Repeat("0", 64), s1, s2)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := r.end(t)
			post := func(path string) cantonError {
				req, err := http.NewRequest(http.MethodPost, r.http.URL+path, strings.NewReader(`{"reassignmentCommands":`+tc.json+`}`))
				if err != nil {
					t.Fatal(err)
				}
				req.Header.Set("Authorization", "Bearer "+tc.token)
				req.Header.Set("Content-Type", "application/json")
				resp, err := r.http.Client().Do(req)
				if err != nil {
					t.Fatal(err)
				}
				return fromHTTP(t, resp)
			}
			ctx := as(tc.token)
			_, err := ledgerv2.NewCommandServiceClient(r.conn).SubmitAndWaitForReassignment(ctx, &ledgerv2.SubmitAndWaitForReassignmentRequest{ReassignmentCommands: tc.proto})
			sameJSONRefusal(t, "SubmitAndWaitForReassignment", post("/v2/commands/submit-and-wait-for-reassignment"), fromGRPC(t, err))
			_, err = ledgerv2.NewCommandSubmissionServiceClient(r.conn).SubmitReassignment(ctx, &ledgerv2.SubmitReassignmentRequest{ReassignmentCommands: tc.proto})
			sameJSONRefusal(t, "SubmitReassignment", post("/v2/commands/async/submit-reassignment"), fromGRPC(t, err))
			if after := r.end(t); after != before {
				t.Errorf("ledger end moved from %d to %d", before, after)
			}
		})
	}
	// gRPC's own: a request without reassignment_commands.
	_, err := ledgerv2.NewCommandServiceClient(r.conn).SubmitAndWaitForReassignment(as(r.admin), &ledgerv2.SubmitAndWaitForReassignmentRequest{})
	wantCode(t, err, codes.InvalidArgument, "MISSING_FIELD")
	_, err = ledgerv2.NewCommandSubmissionServiceClient(r.conn).SubmitReassignment(as(r.admin), &ledgerv2.SubmitReassignmentRequest{})
	wantCode(t, err, codes.InvalidArgument, "MISSING_FIELD")
}

// sameJSONRefusal compares a refusal of the JSON API and of gRPC. A
// security-sensitive refusal is redacted on both: the JSON API's "NA"
// error, a gRPC status of the same code without ErrorInfo.
func sameJSONRefusal(t *testing.T, what string, h, g cantonError) {
	t.Helper()
	if h.Code == "NA" {
		if g.GRPCCodeValue != h.GRPCCodeValue || g.Code != "" {
			t.Errorf("%s: redacted JSON refusal %+v, gRPC %+v", what, h, g)
		}
		return
	}
	if d := cmp.Diff(h, g); d != "" {
		t.Errorf("%s (-JSON API +gRPC):\n%s", what, d)
	}
}
