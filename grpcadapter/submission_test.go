package grpcadapter_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/grpcadapter"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// pingDAR is Canton's Ping DAR, shared by the submission tests; they are
// skipped without ../shared.
const pingDAR = "../../shared/testdata/dars/canton-builtin-admin-workflow-ping.dar"

// pingEnv is a node with the Ping DAR and the parties alice and bob (the
// participant admin may act as both), served over gRPC (e) and over
// HTTP (srv, with the token httpToken).
type pingEnv struct {
	*env
	srv               string
	client            *http.Client
	httpToken         string
	pingID, pkgName   string
	pkgID, pkgVersion string
	alice, bob, admin string
	grpcCtx           context.Context
	commands          ledgerv2.CommandServiceClient
	submissions       ledgerv2.CommandSubmissionServiceClient
	completions       ledgerv2.CommandCompletionServiceClient
	t                 *testing.T
}

func newPingEnv(t *testing.T) *pingEnv {
	t.Helper()
	// Tailing streams send no offset checkpoints here (an hour idle):
	// TestGetUpdatesCheckpoints tests them.
	return newPingEnvWith(t, ledger.Options{CheckpointDelay: time.Hour})
}

// newPingEnvWith is newPingEnv on a node opened with opts.
func newPingEnvWith(t *testing.T, opts ledger.Options) *pingEnv {
	t.Helper()
	data, err := os.ReadFile(filepath.FromSlash(pingDAR))
	if err != nil {
		t.Skipf("../shared not found: skipping (%v)", err)
	}
	d, err := lf.ReadDAR(data, lf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	node := ledgertest.Open(t, opts)
	ledgertest.MustUploadDAR(t, node, data)
	alice, bob := ledgertest.MustAllocate(t, node, "alice"), ledgertest.MustAllocate(t, node, "bob")
	if _, err := node.GrantUserRights(context.Background(), identity.DefaultParticipantAdmin, "", []identity.Right{
		{Kind: identity.RightCanActAs, Party: alice}, {Kind: identity.RightCanActAs, Party: bob}}); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, node, grpcadapter.Options{})
	srv, tok := ledgertest.Serve(t, node)
	return &pingEnv{env: e, srv: srv.URL, client: srv.Client(), httpToken: tok,
		pingID: d.Main.ID + ":Canton.Internal.Ping:Ping", pkgName: d.Main.Name, pkgID: d.Main.ID, pkgVersion: d.Main.Version,
		alice: alice, bob: bob, admin: identity.DefaultParticipantAdmin, grpcCtx: as(e.admin),
		commands:    ledgerv2.NewCommandServiceClient(e.conn),
		submissions: ledgerv2.NewCommandSubmissionServiceClient(e.conn),
		completions: ledgerv2.NewCommandCompletionServiceClient(e.conn), t: t}
}

// post sends a JSON request to the HTTP API.
func (p *pingEnv) post(path, body string) *http.Response {
	p.t.Helper()
	req, err := http.NewRequest(http.MethodPost, p.srv+path, strings.NewReader(body))
	if err != nil {
		p.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+p.httpToken)
	req.Header.Set("Content-Type", "application/json")
	resp, err := p.client.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	return resp
}

// postOK sends a JSON request that must succeed and decodes its answer.
func (p *pingEnv) postOK(path, body string, out any) {
	p.t.Helper()
	decodeOK(p.t, p.post(path, body), out)
}

// decodeOK decodes the answer of a request that must have succeeded.
func decodeOK(t *testing.T, resp *http.Response, out any) {
	t.Helper()
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: HTTP %d %s", resp.Request.Method, resp.Request.URL.Path, resp.StatusCode, b)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("%s %s: %s: %v", resp.Request.Method, resp.Request.URL.Path, b, err)
	}
}

// end is the ledger end.
func (p *pingEnv) end() int64 {
	p.t.Helper()
	end, err := p.node.LedgerEnd(context.Background())
	if err != nil {
		p.t.Fatal(err)
	}
	return end
}

// identifier is the proto form of "pkg:Module:Entity".
func identifier(s string) *ledgerv2.Identifier {
	parts := strings.SplitN(s, ":", 3)
	return &ledgerv2.Identifier{PackageId: parts[0], ModuleName: parts[1], EntityName: parts[2]}
}

func text(s string) *ledgerv2.Value  { return &ledgerv2.Value{Sum: &ledgerv2.Value_Text{Text: s}} }
func party(s string) *ledgerv2.Value { return &ledgerv2.Value{Sum: &ledgerv2.Value_Party{Party: s}} }

// pingArgs is a Ping's contract argument over gRPC.
func pingArgs(id, initiator, responder string) *ledgerv2.Record {
	return &ledgerv2.Record{Fields: []*ledgerv2.RecordField{
		{Label: "id", Value: text(id)}, {Label: "initiator", Value: party(initiator)}, {Label: "responder", Value: party(responder)}}}
}

// createPing is alice's Ping create with the command id cmd, over gRPC
// and as the JSON API's JsCommands.
func (p *pingEnv) createPing(cmd, templateID string) (*ledgerv2.Commands, string) {
	g := &ledgerv2.Commands{CommandId: cmd, ActAs: []string{p.alice}, UserId: p.admin, Commands: []*ledgerv2.Command{{Command: &ledgerv2.Command_Create{
		Create: &ledgerv2.CreateCommand{TemplateId: identifier(templateID), CreateArguments: pingArgs(cmd, p.alice, p.bob)}}}}}
	j := fmt.Sprintf(`{"commandId":%q,"actAs":[%q],"userId":%q,"commands":[{"CreateCommand":{"templateId":%q,"createArguments":{"id":%q,"initiator":%q,"responder":%q}}}]}`,
		cmd, p.alice, p.admin, templateID, cmd, p.alice, p.bob)
	return g, j
}

// respond is actAs's Respond on the Ping cid.
func (p *pingEnv) respond(cmd, actAs, cid string) (*ledgerv2.Commands, string) {
	g := &ledgerv2.Commands{CommandId: cmd, ActAs: []string{actAs}, UserId: p.admin, Commands: []*ledgerv2.Command{{Command: &ledgerv2.Command_Exercise{
		Exercise: &ledgerv2.ExerciseCommand{TemplateId: identifier(p.pingID), ContractId: cid, Choice: "Respond",
			ChoiceArgument: &ledgerv2.Value{Sum: &ledgerv2.Value_Record{Record: &ledgerv2.Record{}}}}}}}}
	j := fmt.Sprintf(`{"commandId":%q,"actAs":[%q],"userId":%q,"commands":[{"ExerciseCommand":{"templateId":%q,"contractId":%q,"choice":"Respond","choiceArgument":{}}}]}`,
		cmd, actAs, p.admin, p.pingID, cid)
	return g, j
}

// completionsJSON lists the completions of the admin's commands as
// alice or bob over HTTP.
func (p *pingEnv) completionsJSON(begin int64) []jsonapi.Completion {
	p.t.Helper()
	var list []jsonapi.CompletionStreamResponse
	p.postOK("/v2/commands/completions?stream_idle_timeout_ms=50",
		fmt.Sprintf(`{"userId":%q,"parties":[%q,%q],"beginExclusive":%d}`, p.admin, p.alice, p.bob, begin), &list)
	var out []jsonapi.Completion
	for _, r := range list {
		if c := r.CompletionResponse.Completion; c != nil {
			out = append(out, c.Value)
		}
	}
	return out
}

// createdCID is the contract id of the one Ping created at offset off.
func (p *pingEnv) createdCID(updateID string) string {
	p.t.Helper()
	var resp struct {
		Transaction struct {
			Events []struct {
				CreatedEvent struct{ ContractID string } `json:"CreatedEvent"`
			}
		}
	}
	p.postOK("/v2/updates/transaction-by-id", fmt.Sprintf(`{"updateId":%q,"transactionFormat":{"eventFormat":{"filtersByParty":{%q:{}},"verbose":true},"transactionShape":"TRANSACTION_SHAPE_ACS_DELTA"}}`, updateID, p.alice), &resp)
	if len(resp.Transaction.Events) != 1 || resp.Transaction.Events[0].CreatedEvent.ContractID == "" {
		p.t.Fatalf("update %s: %+v", updateID, resp)
	}
	return resp.Transaction.Events[0].CreatedEvent.ContractID
}

// jsonError is fromHTTP without the context entries whose value is
// empty: the gRPC status leaves them out of ErrorInfo's metadata
// (Adapter.statusProto).
func jsonError(t *testing.T, resp *http.Response) cantonError {
	t.Helper()
	e := fromHTTP(t, resp)
	for k, v := range e.Context {
		if v == "" {
			delete(e.Context, k)
		}
	}
	return e
}

// completionKey is what both APIs say of a completion.
type completionKey struct {
	CommandID, UpdateID, UserID, SubmissionID string
	ActAs                                     []string
	Offset                                    int64
	Code                                      int32
}

func keyOfJSON(c jsonapi.Completion) completionKey {
	return completionKey{c.CommandID, c.UpdateID, c.UserID, c.SubmissionID, c.ActAs, c.Offset, c.Status.Code}
}

func keyOfGRPC(c *ledgerv2.Completion) completionKey {
	return completionKey{c.CommandId, c.UpdateId, c.UserId, c.SubmissionId, c.ActAs, c.Offset, c.GetStatus().GetCode()}
}

// TestSubmissionsSameAsJSON: Ping creates and Responds submitted over
// gRPC (SubmitAndWait, Submit) and over HTTP on the same node are
// committed alike: the gRPC answers' update ids and offsets are those the
// JSON API reports, refusals carry the same code, cause, context and
// resources over both (alice's Respond: DAML_AUTHORIZATION_ERROR) and
// leave the ledger end where it was, and a gRPC completion stream opened
// before sees every command's completion as the JSON API lists it, until
// the client cancels it.
func TestSubmissionsSameAsJSON(t *testing.T) {
	t.Parallel()
	p := newPingEnv(t)
	begin := p.end()

	// The completion stream, opened before the first submission.
	streamCtx, cancel := context.WithCancel(p.grpcCtx)
	defer cancel()
	stream, err := p.completions.CompletionStream(streamCtx, &ledgerv2.CompletionStreamRequest{UserId: p.admin, Parties: []string{p.alice, p.bob}, BeginExclusive: begin})
	if err != nil {
		t.Fatal(err)
	}
	seen := make(chan *ledgerv2.Completion)
	ended := make(chan error, 1)
	go func() {
		for {
			r, err := stream.Recv()
			if err != nil {
				ended <- err
				return
			}
			if c := r.GetCompletion(); c != nil {
				seen <- c
			}
		}
	}()

	// A create over gRPC: its answer is the JSON API's completion.
	g1, g1JSON := p.createPing("g1", p.pingID)
	res, err := p.commands.SubmitAndWait(p.grpcCtx, &ledgerv2.SubmitAndWaitRequest{Commands: g1})
	if err != nil {
		t.Fatalf("SubmitAndWait: %v", err)
	}
	if res.CompletionOffset != begin+1 || res.UpdateId == "" {
		t.Fatalf("SubmitAndWait: %v, want offset %d", res, begin+1)
	}
	// The same create by package name over HTTP.
	_, h1 := p.createPing("h1", "#"+p.pkgName+":Canton.Internal.Ping:Ping")
	var h1res struct {
		UpdateID         string
		CompletionOffset int64
	}
	p.postOK("/v2/commands/submit-and-wait", h1, &h1res)
	if h1res.CompletionOffset != res.CompletionOffset+1 {
		t.Fatalf("HTTP offset %d after gRPC %d", h1res.CompletionOffset, res.CompletionOffset)
	}
	list := p.completionsJSON(begin)
	if len(list) != 2 || list[0].UpdateID != res.UpdateId || list[0].Offset != res.CompletionOffset || list[0].CommandID != "g1" {
		t.Fatalf("JSON completions %+v; gRPC answered %v", list, res)
	}
	cid := p.createdCID(res.UpdateId)

	t.Run("refusals", func(t *testing.T) {
		aliceRespond, aliceRespondJSON := p.respond("r-alice", p.alice, cid)
		for _, tc := range []struct {
			name   string
			g      *ledgerv2.Commands
			j      string
			reason string
		}{
			{"alice's Respond", aliceRespond, aliceRespondJSON, "DAML_AUTHORIZATION_ERROR"},
			{"duplicate command", g1, g1JSON, "DUPLICATE_COMMAND"},
			{"no command id", func() *ledgerv2.Commands { g, _ := p.createPing("", p.pingID); return g }(),
				func() string { _, j := p.createPing("", p.pingID); return j }(), "MISSING_FIELD"},
			{"no act_as", &ledgerv2.Commands{CommandId: "x", UserId: p.admin, Commands: g1.Commands},
				fmt.Sprintf(`{"commandId":"x","actAs":[],"userId":%q,"commands":[{"CreateCommand":{"templateId":%q,"createArguments":{}}}]}`, p.admin, p.pingID), "MISSING_FIELD"},
			{"unknown package name", func() *ledgerv2.Commands { g, _ := p.createPing("u1", "#nope:Canton.Internal.Ping:Ping"); return g }(),
				func() string { _, j := p.createPing("u1", "#nope:Canton.Internal.Ping:Ping"); return j }(), ""},
			{"missing field of the argument", &ledgerv2.Commands{CommandId: "m1", ActAs: []string{p.alice}, UserId: p.admin, Commands: []*ledgerv2.Command{{Command: &ledgerv2.Command_Create{
				Create: &ledgerv2.CreateCommand{TemplateId: identifier(p.pingID), CreateArguments: &ledgerv2.Record{Fields: pingArgs("m1", p.alice, p.bob).Fields[:2]}}}}}},
				fmt.Sprintf(`{"commandId":"m1","actAs":[%q],"userId":%q,"commands":[{"CreateCommand":{"templateId":%q,"createArguments":{"id":"m1","initiator":%q}}}]}`, p.alice, p.admin, p.pingID, p.alice), ""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				before := p.end()
				_, err := p.commands.SubmitAndWait(p.grpcCtx, &ledgerv2.SubmitAndWaitRequest{Commands: tc.g})
				g := fromGRPC(t, err)
				if tc.reason != "" && g.Code != tc.reason {
					t.Errorf("gRPC %s: %+v, want %s", tc.name, g, tc.reason)
				}
				if d := cmp.Diff(jsonError(t, p.post("/v2/commands/submit-and-wait", tc.j)), g); d != "" {
					t.Errorf("submit-and-wait (-JSON API +gRPC):\n%s", d)
				}
				_, err = p.submissions.Submit(p.grpcCtx, &ledgerv2.SubmitRequest{Commands: tc.g})
				if d := cmp.Diff(jsonError(t, p.post("/v2/commands/async/submit", tc.j)), fromGRPC(t, err)); d != "" {
					t.Errorf("async submit (-JSON API +gRPC):\n%s", d)
				}
				if after := p.end(); after != before {
					t.Errorf("ledger end %d after the refusals, want %d", after, before)
				}
			})
		}
	})

	// bob's Respond through the asynchronous Submit.
	bobRespond, _ := p.respond("r-bob", p.bob, cid)
	if _, err := p.submissions.Submit(p.grpcCtx, &ledgerv2.SubmitRequest{Commands: bobRespond}); err != nil {
		t.Fatalf("bob's Respond: %v", err)
	}
	list = p.completionsJSON(begin)
	if len(list) != 3 || list[2].CommandID != "r-bob" {
		t.Fatalf("JSON completions %+v", list)
	}

	// The stream saw the three completions as the JSON API lists them.
	var got []completionKey
	for range list {
		select {
		case c := <-seen:
			got = append(got, keyOfGRPC(c))
		case err := <-ended:
			t.Fatalf("the stream ended: %v", err)
		case <-time.After(10 * time.Second):
			t.Fatalf("completions seen: %v; want %d", got, len(list))
		}
	}
	var want []completionKey
	for _, c := range list {
		want = append(want, keyOfJSON(c))
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("completions (-JSON API +gRPC stream):\n%s", d)
	}

	// The client's cancellation ends the stream.
	cancel()
	select {
	case err := <-ended:
		if status.Code(err) != codes.Canceled {
			t.Errorf("the stream ended with %v, want CANCELLED", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stream did not end after the client cancelled it")
	}
}

// TestSubmissionUnauthenticated: a bad token is refused with
// UNAUTHENTICATED by every RPC of the submission services, and nothing is
// committed.
func TestSubmissionUnauthenticated(t *testing.T) {
	t.Parallel()
	p := newPingEnv(t)
	before := p.end()
	bad := as("not-a-token")
	g, _ := p.createPing("c1", p.pingID)
	for _, tc := range []struct {
		name string
		call func() error
	}{
		{"SubmitAndWait", func() error {
			_, err := p.commands.SubmitAndWait(bad, &ledgerv2.SubmitAndWaitRequest{Commands: g})
			return err
		}},
		{"Submit", func() error {
			_, err := p.submissions.Submit(bad, &ledgerv2.SubmitRequest{Commands: g})
			return err
		}},
		{"CompletionStream", func() error {
			s, err := p.completions.CompletionStream(bad, &ledgerv2.CompletionStreamRequest{UserId: p.admin, Parties: []string{p.alice}})
			if err != nil {
				return err
			}
			_, err = s.Recv()
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			if status.Code(err) != codes.Unauthenticated {
				t.Errorf("%v, want UNAUTHENTICATED", err)
			}
		})
	}
	if after := p.end(); after != before {
		t.Errorf("ledger end %d, want %d", after, before)
	}
}
