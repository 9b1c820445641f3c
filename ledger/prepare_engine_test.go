package ledger_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/interactive"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// pingExternal is a node with Canton's Ping DAR, an external party ext
// (Ed25519) and local parties alice and bob.
type pingExternal struct {
	*externalFixture
	alice  string
	pingID string
}

func newPingExternal(t *testing.T) *pingExternal {
	t.Helper()
	data := realDAR(t, "canton-builtin-admin-workflow-ping.dar")
	pkg := ledgertest.MainPackageID(t, data)
	n := ledgertest.Open(t, ledger.Options{})
	ctx := t.Context()
	ledgertest.MustUploadDAR(t, n, data)
	k := ed25519Key(t)
	_, req := onboard(t, ctx, n, "ext", k)
	ext, err := n.AllocateExternalParty(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	f := &externalFixture{n: n, ctx: ctx, key: k, ext: ext, bob: ledgertest.MustAllocate(t, n, "bob"), pkg: pkg}
	return &pingExternal{externalFixture: f, alice: ledgertest.MustAllocate(t, n, "alice"), pingID: pkg + ":Canton.Internal.Ping:Ping"}
}

func (f *pingExternal) pingArgs(id, initiator, responder string) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"id": %q, "initiator": %q, "responder": %q}`, id, initiator, responder))
}

// prepareCreate prepares ext's Ping to bob.
func (f *pingExternal) prepareCreate(t *testing.T, cmdID string) jsonapi.JsPrepareSubmissionResponse {
	return f.prepare(t, cmdID, "", jsonapi.JsCommand{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: f.pingID,
		CreateArguments: f.pingArgs(cmdID, f.ext, f.bob)}})
}

// alicePing submits alice's Ping to ext and returns its contract id.
func (f *pingExternal) alicePing(t *testing.T, id string) string {
	t.Helper()
	resp, err := jsonapi.DecodeAnswer[jsonapi.SubmitAndWaitForTransactionResponse](jsonapi.New(f.n).SubmitAndWaitForTransaction(f.ctx, jsonapi.SubmitAndWaitForTransactionRequest{Commands: jsonapi.JsCommands{
		CommandID: "alice-" + id, ActAs: []string{f.alice}, UserID: "u1",
		Commands: []jsonapi.JsCommand{{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: f.pingID, CreateArguments: f.pingArgs(id, f.alice, f.ext)}}}}}))
	if err != nil {
		t.Fatalf("alice's Ping: %v", err)
	}
	return resp.Transaction.Events[0].CreatedEvent.ContractID
}

// prepareRespond prepares ext's Respond on a Ping.
func (f *pingExternal) prepareRespond(t *testing.T, cmdID, cid string) jsonapi.JsPrepareSubmissionResponse {
	return f.prepare(t, cmdID, "", jsonapi.JsCommand{ExerciseCommand: &jsonapi.JsExerciseCommand{TemplateID: f.pingID, ContractID: cid,
		Choice: "Respond", ChoiceArgument: json.RawMessage(`{}`)}})
}

// resigned encodes a prepared transaction the client changed and signs
// its V2 hash with ext's key: the node's own checks must refuse it.
func (f *pingExternal) resigned(t *testing.T, pt *interactive.PreparedTransaction) jsonapi.ExecuteSubmissionRequest {
	t.Helper()
	b, err := interactive.EncodePreparedTransaction(pt)
	if err != nil {
		t.Fatal(err)
	}
	h, err := interactive.Hash(pt, interactive.HashingSchemeVersionV2)
	if err != nil {
		t.Fatal(err)
	}
	return f.execReq(jsonapi.JsPrepareSubmissionResponse{PreparedTransaction: b, PreparedTransactionHash: h,
		HashingSchemeVersion: interactive.HashingSchemeVersionV2.String()})
}

func decodePrepared(t *testing.T, p jsonapi.JsPrepareSubmissionResponse) *interactive.PreparedTransaction {
	t.Helper()
	pt, err := interactive.DecodePreparedTransaction(p.PreparedTransaction)
	if err != nil {
		t.Fatal(err)
	}
	return pt
}

func ledgerEffects(parties ...string) *jsonapi.TransactionFormat {
	f := &jsonapi.TransactionFormat{TransactionShape: jsonapi.ShapeLedgerEffects,
		EventFormat: jsonapi.EventFormat{FiltersByParty: map[string]jsonapi.Filters{}, Verbose: true}}
	for _, p := range parties {
		f.EventFormat.FiltersByParty[p] = jsonapi.Filters{}
	}
	return f
}

// TestPrepareExecutePingCreate: ext prepares a Ping to bob through the
// engine: one create node with its real seed, a local contract id and the
// template's signatories and observers; executing it commits the contract
// under its suffixed id.
func TestPrepareExecutePingCreate(t *testing.T) {
	t.Parallel()
	f := newPingExternal(t)
	p := f.prepareCreate(t, "ping-1")
	pt := decodePrepared(t, p)
	if len(pt.Transaction.Nodes) != 1 || pt.Transaction.Nodes[0].Create == nil {
		t.Fatalf("nodes %+v", pt.Transaction.Nodes)
	}
	c := pt.Transaction.Nodes[0].Create
	if !tx.IsLocalContractID(value.ContractID(c.ContractID)) {
		t.Errorf("prepared contract id %s is not local", c.ContractID)
	}
	want := &interactive.Create{LFVersion: "2.1", ContractID: c.ContractID, PackageName: "canton-builtin-admin-workflow-ping",
		TemplateID: interactive.Identifier{PackageID: f.pkg, ModuleName: "Canton.Internal.Ping", EntityName: "Ping"},
		Argument:   c.Argument, Signatories: []string{f.ext}, Stakeholders: sortedPair(f.bob, f.ext)}
	if diff := cmp.Diff(want, c, cmp.Comparer(value.Equal)); diff != "" {
		t.Errorf("create node (-want +got):\n%s", diff)
	}
	if s := pt.Transaction.NodeSeeds; len(s) != 1 || s[0].NodeID != 0 || len(s[0].Seed) != 32 {
		t.Errorf("node seeds %+v", s)
	}
	if pt.Transaction.Version != "2.1" || !cmp.Equal(pt.Transaction.Roots, []string{"0"}) || len(pt.Metadata.InputContracts) != 0 ||
		pt.Metadata.PreparationTime == 0 || pt.Metadata.MinLedgerEffectiveTime != nil || pt.Metadata.MaxLedgerEffectiveTime != nil {
		t.Errorf("transaction %+v metadata %+v", pt.Transaction, pt.Metadata)
	}
	resp, err := jsonapi.DecodeAnswer[jsonapi.ExecuteSubmissionAndWaitForTransactionResponse](jsonapi.New(f.n).ExecuteSubmissionAndWaitForTransaction(f.ctx, jsonapi.ExecuteSubmissionAndWaitForTransactionRequest{
		ExecuteSubmissionRequest: f.execReq(p), TransactionFormat: ledgerEffects(f.ext, f.bob)}))
	if err != nil {
		t.Fatalf("execute: %v", err)
	}
	evs := resp.Transaction.Events
	if len(evs) != 1 || evs[0].CreatedEvent == nil {
		t.Fatalf("events %+v", evs)
	}
	ev := evs[0].CreatedEvent
	if !strings.HasPrefix(ev.ContractID, c.ContractID) || len(ev.ContractID) != 138 || ev.ContractID == c.ContractID {
		t.Errorf("committed contract id %s for prepared %s", ev.ContractID, c.ContractID)
	}
	if !cmp.Equal(ev.Signatories, []string{f.ext}) || !cmp.Equal(ev.Observers, []string{f.bob}) ||
		!cmp.Equal(ev.WitnessParties, sortedPair(f.bob, f.ext)) {
		t.Errorf("created event %+v", ev)
	}
	var arg map[string]string
	if err := json.Unmarshal(ev.CreateArgument, &arg); err != nil || arg["id"] != "ping-1" || arg["responder"] != f.bob {
		t.Errorf("create argument %s (%v)", ev.CreateArgument, err)
	}
}

func sortedPair(a, b string) []string {
	if a > b {
		a, b = b, a
	}
	return []string{a, b}
}

// TestPrepareExecutePingRespond: ext prepares Respond on alice's Ping: an
// exercise node (consuming, ext acting, the choice's result, its children)
// with alice's contract as input contract; executed, the tree is the one a
// submitted Respond has.
func TestPrepareExecutePingRespond(t *testing.T) {
	t.Parallel()
	f := newPingExternal(t)
	cid := f.alicePing(t, "r1")
	p := f.prepareRespond(t, "respond-1", cid)
	pt := decodePrepared(t, p)
	x := pt.Transaction.Nodes[0].Exercise
	if x == nil || !cmp.Equal(pt.Transaction.Roots, []string{"0"}) {
		t.Fatalf("nodes %+v", pt.Transaction.Nodes)
	}
	if x.ContractID != cid || x.ChoiceID != "Respond" || !x.Consuming || !cmp.Equal(x.ActingParties, []string{f.ext}) ||
		!cmp.Equal(x.Signatories, []string{f.alice}) || !cmp.Equal(x.Stakeholders, sortedPair(f.alice, f.ext)) ||
		x.ExerciseResult == nil || x.LFVersion != "2.1" {
		t.Errorf("exercise node %+v", x)
	}
	// Every node the exercise reaches is in the transaction.
	if len(pt.Transaction.Nodes) != 1+len(x.Children) {
		t.Errorf("%d nodes for an exercise with children %v", len(pt.Transaction.Nodes), x.Children)
	}
	t.Logf("Respond: children %v, result %#v", x.Children, x.ExerciseResult)
	if s := pt.Transaction.NodeSeeds; len(s) == 0 || s[0].NodeID != 0 || len(s[0].Seed) != 32 {
		t.Errorf("node seeds %+v", s)
	}
	ics := pt.Metadata.InputContracts
	if len(ics) != 1 || ics[0].Contract.ContractID != cid || ics[0].CreatedAt == 0 || len(ics[0].EventBlob) == 0 ||
		!cmp.Equal(ics[0].Contract.Signatories, []string{f.alice}) {
		t.Fatalf("input contracts %+v", ics)
	}
	resp, err := jsonapi.DecodeAnswer[jsonapi.ExecuteSubmissionAndWaitForTransactionResponse](jsonapi.New(f.n).ExecuteSubmissionAndWaitForTransaction(f.ctx, jsonapi.ExecuteSubmissionAndWaitForTransactionRequest{
		ExecuteSubmissionRequest: f.execReq(p), TransactionFormat: ledgerEffects(f.ext, f.alice)}))
	if err != nil {
		t.Fatalf("execute: %v", err)
	}
	// A submitted Respond (bob answers alice) for comparison.
	cid2 := f.submitPing(t, "r2")
	sub, err := jsonapi.DecodeAnswer[jsonapi.SubmitAndWaitForTransactionResponse](jsonapi.New(f.n).SubmitAndWaitForTransaction(f.ctx, jsonapi.SubmitAndWaitForTransactionRequest{Commands: jsonapi.JsCommands{
		CommandID: "bob-respond", ActAs: []string{f.bob}, UserID: "u1",
		Commands: []jsonapi.JsCommand{{ExerciseCommand: &jsonapi.JsExerciseCommand{TemplateID: f.pingID, ContractID: cid2,
			Choice: "Respond", ChoiceArgument: json.RawMessage(`{}`)}}}}, TransactionFormat: ledgerEffects(f.bob, f.alice)}))
	if err != nil {
		t.Fatalf("submitted Respond: %v", err)
	}
	got, want := shape(resp.Transaction.Events, f.ext), shape(sub.Transaction.Events, f.bob)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("executed Respond differs from a submitted one (-submitted +executed):\n%s", diff)
	}
	ex := resp.Transaction.Events[0].ExercisedEvent
	if ex == nil || ex.ContractID != cid || !ex.Consuming || !cmp.Equal(ex.ActingParties, []string{f.ext}) || ex.NodeID != 0 {
		t.Fatalf("exercised event %+v", resp.Transaction.Events[0])
	}
	// The Ping is archived: preparing Respond again is refused.
	if _, err := jsonapi.New(f.n).PrepareSubmission(f.ctx, jsonapi.JsPrepareSubmissionRequest{CommandID: "respond-2", ActAs: []string{f.ext},
		Commands: []jsonapi.JsCommand{{ExerciseCommand: &jsonapi.JsExerciseCommand{TemplateID: f.pingID, ContractID: cid,
			Choice: "Respond", ChoiceArgument: json.RawMessage(`{}`)}}}}); err == nil {
		t.Error("Respond on an archived Ping prepared")
	}
}

func (f *pingExternal) submitPing(t *testing.T, id string) string {
	t.Helper()
	resp, err := jsonapi.DecodeAnswer[jsonapi.SubmitAndWaitForTransactionResponse](jsonapi.New(f.n).SubmitAndWaitForTransaction(f.ctx, jsonapi.SubmitAndWaitForTransactionRequest{Commands: jsonapi.JsCommands{
		CommandID: "alice-bob-" + id, ActAs: []string{f.alice}, UserID: "u1",
		Commands: []jsonapi.JsCommand{{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: f.pingID, CreateArguments: f.pingArgs(id, f.alice, f.bob)}}}}}))
	if err != nil {
		t.Fatalf("alice's Ping to bob: %v", err)
	}
	return resp.Transaction.Events[0].CreatedEvent.ContractID
}

// shape is what an event tree shows apart from ids, offsets and the
// responder's name (replaced by "RESPONDER").
func shape(evs []jsonapi.JsEvent, responder string) []string {
	var out []string
	for _, e := range evs {
		b, _ := json.Marshal(e)
		var m map[string]map[string]any
		_ = json.Unmarshal(b, &m)
		for kind, fields := range m {
			if fields == nil {
				continue
			}
			for _, k := range []string{"contractId", "offset", "createdAt", "createdEventBlob"} {
				delete(fields, k)
			}
			s, _ := json.Marshal(fields)
			out = append(out, kind+" "+strings.ReplaceAll(string(s), responder, "RESPONDER"))
		}
	}
	return out
}

// TestExecuteTamperedPrepared: a prepared transaction changed and signed
// again by the external party (so the signature checks pass) is compared
// with the engine's re-interpretation and refused at the first difference;
// nothing is written.
func TestExecuteTamperedPrepared(t *testing.T) {
	t.Parallel()
	f := newPingExternal(t)
	create := decodePrepared(t, f.prepareCreate(t, "ping-t"))
	cid := f.alicePing(t, "t1")
	respond := decodePrepared(t, f.prepareRespond(t, "respond-t", cid))
	other := f.alicePing(t, "t2")
	for _, tc := range []struct {
		name   string
		base   *interactive.PreparedTransaction
		mutate func(pt *interactive.PreparedTransaction)
		code   apierr.Code
		msg    string
	}{
		{"changed create argument", create, func(pt *interactive.PreparedTransaction) {
			rec := pt.Transaction.Nodes[0].Create.Argument.(value.Record)
			rec.Fields = append([]value.RecordField(nil), rec.Fields...)
			rec.Fields[2].Value = value.Party(f.alice) // responder
			pt.Transaction.Nodes[0].Create.Argument = rec
		}, apierr.FailedToExecuteTransaction, "node 0 (create): contract_id differs"},
		{"changed create signatories", create, func(pt *interactive.PreparedTransaction) {
			pt.Transaction.Nodes[0].Create.Signatories = sortedPair(f.bob, f.ext)
		}, apierr.FailedToExecuteTransaction, "node 0 (create): signatories differs"},
		{"changed seed", create, func(pt *interactive.PreparedTransaction) {
			pt.Transaction.NodeSeeds[0].Seed = make([]byte, 32)
		}, apierr.FailedToExecuteTransaction, "node 0 (create): contract_id differs"},
		{"non-consuming Respond", respond, func(pt *interactive.PreparedTransaction) {
			pt.Transaction.Nodes[0].Exercise.Consuming = false
		}, apierr.FailedToExecuteTransaction, "node 0 (exercise): consuming differs"},
		{"changed exercise result", respond, func(pt *interactive.PreparedTransaction) {
			pt.Transaction.Nodes[0].Exercise.ExerciseResult = value.Text("pong")
		}, apierr.FailedToExecuteTransaction, "node 0 (exercise): exercise_result differs"},
		{"other acting party", respond, func(pt *interactive.PreparedTransaction) {
			pt.Transaction.Nodes[0].Exercise.ActingParties = sortedPair(f.alice, f.ext)
		}, apierr.FailedToExecuteTransaction, "node 0 (exercise): acting_parties differs"},
		{"Respond on another Ping", respond, func(pt *interactive.PreparedTransaction) {
			pt.Transaction.Nodes[0].Exercise.ContractID = other
		}, apierr.FailedToExecuteTransaction, "contract " + other + " is used but not listed among the input contracts"},
		{"input contract changed", respond, func(pt *interactive.PreparedTransaction) {
			ic := &pt.Metadata.InputContracts[0]
			ic.CreatedAt++
		}, apierr.FailedToExecuteTransaction, "created_at differs from the stored contract"},
		{"extra node", respond, func(pt *interactive.PreparedTransaction) {
			pt.Transaction.Nodes = append(pt.Transaction.Nodes, interactive.Node{NodeID: "9", Rollback: &interactive.Rollback{}})
		}, apierr.FailedToExecuteTransaction, "nodes, not"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pt, err := interactive.DecodePreparedTransaction(mustEncode(t, tc.base))
			if err != nil {
				t.Fatal(err)
			}
			tc.mutate(pt)
			before := ledger.StoreDumpForTest(t, f.n)
			_, err = jsonapi.New(f.n).ExecuteSubmissionAndWait(f.ctx, f.resigned(t, pt))
			if !errors.Is(err, tc.code) || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("err = %v, want %s with %q", err, tc.code.Name, tc.msg)
			}
			if diff := cmp.Diff(before, ledger.StoreDumpForTest(t, f.n)); diff != "" {
				t.Fatalf("state changed:\n%s", diff)
			}
		})
	}
	// Untampered, both execute (the re-signing itself is sound).
	for _, pt := range []*interactive.PreparedTransaction{create, respond} {
		if _, err := jsonapi.New(f.n).ExecuteSubmissionAndWait(f.ctx, f.resigned(t, pt)); err != nil {
			t.Fatalf("execute %s: %v", pt.Metadata.SubmitterInfo.CommandID, err)
		}
	}
}

func mustEncode(t *testing.T, pt *interactive.PreparedTransaction) []byte {
	t.Helper()
	b, err := interactive.EncodePreparedTransaction(pt)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
