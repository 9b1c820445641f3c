package grpcadapter_test

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/ledgernode/ledgernode/grpcadapter"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/grpcadapter/pb/v2/admin"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// txSummary is what both APIs must agree on about a transaction: its
// ids and offset, and per event its kind, contract, template and
// witnesses.
type txSummary struct {
	UpdateID, CommandID, SynchronizerID string
	Offset                              int64
	Events                              []eventSummary
}

type eventSummary struct {
	Kind, ContractID, TemplateID, Choice string
	NodeID                               int32
	Witnesses                            []string
	ACSDelta                             bool
}

func summaryOfProto(t *ledgerv2.Transaction) txSummary {
	s := txSummary{UpdateID: t.UpdateId, CommandID: t.CommandId, SynchronizerID: t.SynchronizerId, Offset: t.Offset, Events: []eventSummary{}}
	id := func(i *ledgerv2.Identifier) string { return i.PackageId + ":" + i.ModuleName + ":" + i.EntityName }
	for _, e := range t.Events {
		switch {
		case e.GetCreated() != nil:
			c := e.GetCreated()
			s.Events = append(s.Events, eventSummary{"created", c.ContractId, id(c.TemplateId), "", c.NodeId, c.WitnessParties, c.AcsDelta})
		case e.GetArchived() != nil:
			a := e.GetArchived()
			s.Events = append(s.Events, eventSummary{"archived", a.ContractId, id(a.TemplateId), "", a.NodeId, a.WitnessParties, false})
		case e.GetExercised() != nil:
			x := e.GetExercised()
			s.Events = append(s.Events, eventSummary{"exercised", x.ContractId, id(x.TemplateId), x.Choice, x.NodeId, x.WitnessParties, x.AcsDelta})
		}
	}
	return s
}

func summaryOfJSON(t *jsonapi.JsTransaction) txSummary {
	s := txSummary{UpdateID: t.UpdateID, CommandID: t.CommandID, SynchronizerID: t.SynchronizerID, Offset: t.Offset, Events: []eventSummary{}}
	for _, e := range t.Events {
		switch {
		case e.CreatedEvent != nil:
			c := e.CreatedEvent
			s.Events = append(s.Events, eventSummary{"created", c.ContractID, c.TemplateID, "", c.NodeID, c.WitnessParties, c.ACSDelta})
		case e.ArchivedEvent != nil:
			a := e.ArchivedEvent
			s.Events = append(s.Events, eventSummary{"archived", a.ContractID, a.TemplateID, "", a.NodeID, a.WitnessParties, false})
		case e.ExercisedEvent != nil:
			x := e.ExercisedEvent
			s.Events = append(s.Events, eventSummary{"exercised", x.ContractID, x.TemplateID, x.Choice, x.NodeID, x.WitnessParties, x.ACSDelta})
		}
	}
	return s
}

// txFormat is a transaction format reading as party with every
// template, in shape, over gRPC and as JSON.
func txFormat(party string, shape ledgerv2.TransactionShape) (*ledgerv2.TransactionFormat, string) {
	g := &ledgerv2.TransactionFormat{EventFormat: &ledgerv2.EventFormat{FiltersByParty: map[string]*ledgerv2.Filters{party: {}}, Verbose: true}, TransactionShape: shape}
	j := fmt.Sprintf(`{"eventFormat":{"filtersByParty":{%q:{}},"verbose":true},"transactionShape":%q}`, party, shape.String())
	return g, j
}

// pingLedger submits a Ping create and bob's Respond to it over gRPC,
// returning the two update ids.
func (p *pingEnv) pingLedger(cmd string) (created, responded string) {
	p.t.Helper()
	c, _ := p.createPing(cmd, p.pingID)
	res, err := p.commands.SubmitAndWait(p.grpcCtx, &ledgerv2.SubmitAndWaitRequest{Commands: c})
	if err != nil {
		p.t.Fatal(err)
	}
	r, _ := p.respond(cmd+"-respond", p.bob, p.createdCID(res.UpdateId))
	res2, err := p.commands.SubmitAndWait(p.grpcCtx, &ledgerv2.SubmitAndWaitRequest{Commands: r})
	if err != nil {
		p.t.Fatal(err)
	}
	return res.UpdateId, res2.UpdateId
}

// grpcUpdates reads the updates of a bounded GetUpdates to its end.
func grpcUpdates(t *testing.T, c ledgerv2.UpdateServiceClient, ctx context.Context, req *ledgerv2.GetUpdatesRequest) ([]txSummary, error) {
	t.Helper()
	st, err := c.GetUpdates(ctx, req)
	if err != nil {
		return nil, err
	}
	var out []txSummary
	for {
		r, err := st.Recv()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, summaryOfProto(r.GetTransaction()))
	}
}

// TestUpdatesSameAsJSON: GetUpdates and GetUpdateById answer as the JSON
// API's /v2/updates and /v2/updates/update-by-id on the same node, in
// both shapes, for alice and for bob, with the same refusals.
func TestUpdatesSameAsJSON(t *testing.T) {
	t.Parallel()
	p := newPingEnv(t)
	created, responded := p.pingLedger("u1")
	p.pingLedger("u2")
	end := p.end()
	updates := ledgerv2.NewUpdateServiceClient(p.conn)
	for _, party := range []string{p.alice, p.bob} {
		for _, shape := range []ledgerv2.TransactionShape{ledgerv2.TransactionShape_TRANSACTION_SHAPE_ACS_DELTA, ledgerv2.TransactionShape_TRANSACTION_SHAPE_LEDGER_EFFECTS} {
			t.Run(party[:3]+"/"+shape.String(), func(t *testing.T) {
				g, j := txFormat(party, shape)
				got, err := grpcUpdates(t, updates, p.grpcCtx, &ledgerv2.GetUpdatesRequest{BeginExclusive: 0, EndInclusive: &end,
					UpdateFormat: &ledgerv2.UpdateFormat{IncludeTransactions: g}})
				if err != nil {
					t.Fatal(err)
				}
				var list []jsonapi.GetUpdatesResponse
				p.postOK("/v2/updates", fmt.Sprintf(`{"beginExclusive":0,"endInclusive":%d,"updateFormat":{"includeTransactions":%s}}`, end, j), &list)
				var want []txSummary
				for _, u := range list {
					if u.Update.Transaction != nil {
						want = append(want, summaryOfJSON(&u.Update.Transaction.Value))
					}
				}
				if len(want) != 4 {
					t.Fatalf("the JSON API lists %d transactions, want 4", len(want))
				}
				if d := cmp.Diff(want, got); d != "" {
					t.Errorf("GetUpdates differs from /v2/updates (-json +grpc):\n%s", d)
				}
				for _, id := range []string{created, responded} {
					r, err := updates.GetUpdateById(p.grpcCtx, &ledgerv2.GetUpdateByIdRequest{UpdateId: id, UpdateFormat: &ledgerv2.UpdateFormat{IncludeTransactions: g}})
					if err != nil {
						t.Fatal(err)
					}
					var one jsonapi.GetUpdateResponse
					p.postOK("/v2/updates/update-by-id", fmt.Sprintf(`{"updateId":%q,"updateFormat":{"includeTransactions":%s}}`, id, j), &one)
					if d := cmp.Diff(summaryOfJSON(&one.Update.Transaction.Value), summaryOfProto(r.GetTransaction())); d != "" {
						t.Errorf("GetUpdateById %s differs (-json +grpc):\n%s", id, d)
					}
				}
			})
		}
	}

	t.Run("refusals", func(t *testing.T) {
		g, j := txFormat(p.bob, ledgerv2.TransactionShape_TRANSACTION_SHAPE_ACS_DELTA)
		after := end + 5
		for _, tc := range []struct {
			name, path, body string
			grpc             func() error
		}{
			{"unknown update id", "/v2/updates/update-by-id", fmt.Sprintf(`{"updateId":%q,"updateFormat":{"includeTransactions":%s}}`, unknownUpdateID, j), func() error {
				_, err := updates.GetUpdateById(p.grpcCtx, &ledgerv2.GetUpdateByIdRequest{UpdateId: unknownUpdateID, UpdateFormat: &ledgerv2.UpdateFormat{IncludeTransactions: g}})
				return err
			}},
			{"begin after the ledger end", "/v2/updates", fmt.Sprintf(`{"beginExclusive":%d,"endInclusive":%d,"updateFormat":{"includeTransactions":%s}}`, after, after, j), func() error {
				_, err := grpcUpdates(t, updates, p.grpcCtx, &ledgerv2.GetUpdatesRequest{BeginExclusive: after, EndInclusive: &after, UpdateFormat: &ledgerv2.UpdateFormat{IncludeTransactions: g}})
				return err
			}},
			{"no parties", "/v2/updates", fmt.Sprintf(`{"beginExclusive":0,"endInclusive":%d,"updateFormat":{"includeTransactions":{"eventFormat":{"filtersByParty":{},"verbose":true},"transactionShape":"TRANSACTION_SHAPE_ACS_DELTA"}}}`, end), func() error {
				_, err := grpcUpdates(t, updates, p.grpcCtx, &ledgerv2.GetUpdatesRequest{EndInclusive: &end, UpdateFormat: &ledgerv2.UpdateFormat{IncludeTransactions: &ledgerv2.TransactionFormat{
					EventFormat: &ledgerv2.EventFormat{Verbose: true}, TransactionShape: ledgerv2.TransactionShape_TRANSACTION_SHAPE_ACS_DELTA}}})
				return err
			}},
			{"an end of 0 with a malformed party", "/v2/updates", `{"beginExclusive":0,"endInclusive":0,"updateFormat":{"includeTransactions":{"eventFormat":{"filtersByParty":{"not a party!":{}}},"transactionShape":"TRANSACTION_SHAPE_ACS_DELTA"}}}`, func() error {
				zero := int64(0)
				_, err := grpcUpdates(t, updates, p.grpcCtx, &ledgerv2.GetUpdatesRequest{EndInclusive: &zero, UpdateFormat: &ledgerv2.UpdateFormat{IncludeTransactions: &ledgerv2.TransactionFormat{
					EventFormat: &ledgerv2.EventFormat{FiltersByParty: map[string]*ledgerv2.Filters{"not a party!": {}}}, TransactionShape: ledgerv2.TransactionShape_TRANSACTION_SHAPE_ACS_DELTA}}})
				return err
			}},
			{"end before begin", "/v2/updates", fmt.Sprintf(`{"beginExclusive":%d,"endInclusive":1,"updateFormat":{"includeTransactions":%s}}`, end, j), func() error {
				one := int64(1)
				_, err := grpcUpdates(t, updates, p.grpcCtx, &ledgerv2.GetUpdatesRequest{BeginExclusive: end, EndInclusive: &one, UpdateFormat: &ledgerv2.UpdateFormat{IncludeTransactions: g}})
				return err
			}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				want := jsonError(t, p.post(tc.path, tc.body))
				if d := cmp.Diff(want, fromGRPC(t, tc.grpc())); d != "" {
					t.Errorf("gRPC refusal differs from JSON (-json +grpc):\n%s", d)
				}
			})
		}
	})
}

// TestGetUpdatesTailsAndCancels: without end_inclusive GetUpdates sends
// what is there, then the transactions committed later, until the
// client cancels; formats it does not serve are refused.
func TestGetUpdatesTailsAndCancels(t *testing.T) {
	t.Parallel()
	p := newPingEnv(t)
	p.pingLedger("t1")
	updates := ledgerv2.NewUpdateServiceClient(p.conn)
	g, _ := txFormat(p.bob, ledgerv2.TransactionShape_TRANSACTION_SHAPE_LEDGER_EFFECTS)
	ctx, cancel := context.WithCancel(p.grpcCtx)
	defer cancel()
	st, err := updates.GetUpdates(ctx, &ledgerv2.GetUpdatesRequest{UpdateFormat: &ledgerv2.UpdateFormat{IncludeTransactions: g}})
	if err != nil {
		t.Fatal(err)
	}
	var offsets []int64
	for range 2 {
		r, err := st.Recv()
		if err != nil {
			t.Fatal(err)
		}
		offsets = append(offsets, r.GetTransaction().GetOffset())
	}
	created, _ := p.pingLedger("t2")
	r, err := st.Recv()
	if err != nil {
		t.Fatal(err)
	}
	if r.GetTransaction().GetUpdateId() != created || r.GetTransaction().GetOffset() <= offsets[1] {
		t.Fatalf("tail sent %v after %v, want the update %s", r.GetTransaction(), offsets, created)
	}
	// Exercised events carry their values, labelled (verbose).
	ex := r.GetTransaction().GetEvents()[0].GetCreated()
	if ex == nil || ex.CreateArguments.GetFields()[0].GetLabel() != "id" || ex.CreateArguments.GetRecordId().GetEntityName() != "Ping" || ex.CreatedAt == nil {
		t.Fatalf("created event %v: want a verbose record", ex)
	}
	if _, err := st.Recv(); err != nil {
		t.Fatal(err) // bob's Respond
	}
	// Without verbose: no labels, no record id (Canton's LfEngineToApi).
	plain, err := updates.GetUpdateById(p.grpcCtx, &ledgerv2.GetUpdateByIdRequest{UpdateId: created, UpdateFormat: &ledgerv2.UpdateFormat{IncludeTransactions: &ledgerv2.TransactionFormat{
		EventFormat: &ledgerv2.EventFormat{FiltersByParty: map[string]*ledgerv2.Filters{p.bob: {}}}, TransactionShape: ledgerv2.TransactionShape_TRANSACTION_SHAPE_ACS_DELTA}}})
	if err != nil {
		t.Fatal(err)
	}
	if c := plain.GetTransaction().GetEvents()[0].GetCreated(); c.CreateArguments.GetRecordId() != nil || c.CreateArguments.GetFields()[0].GetLabel() != "" || c.CreateArguments.GetFields()[0].GetValue().GetText() != "t2" {
		t.Errorf("non-verbose created event %v: want no labels nor record id", c)
	}
	cancel()
	done := make(chan error, 1)
	go func() { _, err := st.Recv(); done <- err }()
	select {
	case err := <-done:
		wantCode(t, err, codes.Canceled, "")
	case <-time.After(10 * time.Second):
		t.Fatal("the stream did not end after cancel")
	}

	for _, tc := range []struct {
		name string
		req  *ledgerv2.GetUpdatesRequest
		code codes.Code
	}{
		{"no update format", &ledgerv2.GetUpdatesRequest{}, codes.InvalidArgument},
	} {
		t.Run(tc.name, func(t *testing.T) {
			end := p.end()
			tc.req.EndInclusive = &end
			_, err := grpcUpdates(t, updates, p.grpcCtx, tc.req)
			st, _, _ := statusOf(t, err)
			if st.Code() != tc.code {
				t.Fatalf("code %v (%s), want %v", st.Code(), st.Message(), tc.code)
			}
		})
	}
}

// acsSummary is what both APIs must agree on about an active contract.
type acsSummary struct {
	WorkflowID, SynchronizerID, ContractID, TemplateID string
	Offset                                             int64
	Witnesses, Signatories                             []string
	Counter                                            int64
}

// TestActiveContractsSameAsJSON: GetActiveContracts sends what the JSON
// API's /v2/state/active-contracts lists on the same node (workflow ids
// and synchronizers included), and nothing at offset 0.
func TestActiveContractsSameAsJSON(t *testing.T) {
	t.Parallel()
	p := newPingEnv(t)
	p.pingLedger("a1") // created and consumed
	for _, cmd := range []string{"a2", "a3"} {
		c, _ := p.createPing(cmd, p.pingID)
		c.WorkflowId = "wf-" + cmd
		if _, err := p.commands.SubmitAndWait(p.grpcCtx, &ledgerv2.SubmitAndWaitRequest{Commands: c}); err != nil {
			t.Fatal(err)
		}
	}
	mid := p.end()
	p.pingLedger("a4")
	c, _ := p.createPing("a5", p.pingID)
	if _, err := p.commands.SubmitAndWait(p.grpcCtx, &ledgerv2.SubmitAndWaitRequest{Commands: c}); err != nil {
		t.Fatal(err)
	}
	state := ledgerv2.NewStateServiceClient(p.conn)
	read := func(at int64, party string) ([]acsSummary, error) {
		st, err := state.GetActiveContracts(p.grpcCtx, &ledgerv2.GetActiveContractsRequest{ActiveAtOffset: at,
			EventFormat: &ledgerv2.EventFormat{FiltersByParty: map[string]*ledgerv2.Filters{party: {}}, Verbose: true}})
		if err != nil {
			return nil, err
		}
		var out []acsSummary
		for {
			r, err := st.Recv()
			if err == io.EOF {
				return out, nil
			}
			if err != nil {
				return nil, err
			}
			ac := r.GetActiveContract()
			ce := ac.GetCreatedEvent()
			tid := ce.TemplateId.PackageId + ":" + ce.TemplateId.ModuleName + ":" + ce.TemplateId.EntityName
			out = append(out, acsSummary{r.WorkflowId, ac.SynchronizerId, ce.ContractId, tid, ce.Offset, ce.WitnessParties, ce.Signatories, int64(ac.ReassignmentCounter)})
		}
	}
	for _, at := range []int64{mid, p.end()} {
		for _, party := range []string{p.alice, p.bob} {
			got, err := read(at, party)
			if err != nil {
				t.Fatal(err)
			}
			var list []jsonapi.GetActiveContractsResponse
			p.postOK("/v2/state/active-contracts", fmt.Sprintf(`{"activeAtOffset":%d,"eventFormat":{"filtersByParty":{%q:{}},"verbose":true}}`, at, party), &list)
			var want []acsSummary
			for _, r := range list {
				ac := r.ContractEntry.JsActiveContract
				ce := ac.CreatedEvent
				want = append(want, acsSummary{r.WorkflowID, ac.SynchronizerID, ce.ContractID, ce.TemplateID, ce.Offset, ce.WitnessParties, ce.Signatories, ac.ReassignmentCounter})
			}
			if !slices.ContainsFunc(want, func(s acsSummary) bool { return s.WorkflowID != "" }) {
				t.Fatalf("the JSON API lists %+v, want the workflows' Pings", want)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("at %d as %s: GetActiveContracts differs (-json +grpc):\n%s", at, party[:5], d)
			}
		}
	}
	if got, err := read(0, p.alice); err != nil || len(got) != 0 {
		t.Errorf("at 0: %v, %v; want nothing", got, err)
	}
	after := p.end() + 3
	_, err := read(after, p.alice)
	want := jsonError(t, p.post("/v2/state/active-contracts", fmt.Sprintf(`{"activeAtOffset":%d,"eventFormat":{"filtersByParty":{%q:{}},"verbose":true}}`, after, p.alice)))
	if d := cmp.Diff(want, fromGRPC(t, err)); d != "" {
		t.Errorf("offset after the end: gRPC refusal differs from JSON (-json +grpc):\n%s", d)
	}
}

// TestActiveContractsAfterPruning: contracts created by pruned
// transactions are still sent, with their workflow id (the contract
// keeps it, as Canton's ACS does).
func TestActiveContractsAfterPruning(t *testing.T) {
	t.Parallel()
	p := newPingEnv(t)
	c, _ := p.createPing("old", p.pingID)
	c.WorkflowId = "wf-old"
	if _, err := p.commands.SubmitAndWait(p.grpcCtx, &ledgerv2.SubmitAndWaitRequest{Commands: c}); err != nil {
		t.Fatal(err)
	}
	p.pingLedger("filler") // something after the create to prune up to
	upTo := p.end()
	c, _ = p.createPing("new", p.pingID)
	c.WorkflowId = "wf-new"
	if _, err := p.commands.SubmitAndWait(p.grpcCtx, &ledgerv2.SubmitAndWaitRequest{Commands: c}); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.NewParticipantPruningServiceClient(p.conn).Prune(p.grpcCtx, &admin.PruneRequest{PruneUpTo: upTo}); err != nil {
		t.Fatal(err)
	}
	st, err := ledgerv2.NewStateServiceClient(p.conn).GetActiveContracts(p.grpcCtx, &ledgerv2.GetActiveContractsRequest{ActiveAtOffset: p.end(),
		EventFormat: &ledgerv2.EventFormat{FiltersByParty: map[string]*ledgerv2.Filters{p.alice: {}}}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for {
		r, err := st.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		id := r.GetActiveContract().GetCreatedEvent().GetCreateArguments().GetFields()[0].GetValue().GetText()
		got[id] = r.WorkflowId + "@" + r.GetActiveContract().GetSynchronizerId()
	}
	sync := p.node.Synchronizers()[0]
	if d := cmp.Diff(map[string]string{"old": "wf-old@" + sync, "new": "wf-new@" + sync}, got); d != "" {
		t.Errorf("active contracts after pruning (-want +got):\n%s", d)
	}
}

// TestGetUpdatesCheckpoints: a stream following the ledger sends an
// OffsetCheckpoint at the ledger end once it has caught up and no update
// came for the node's CheckpointDelay — also when the updates that moved
// the ledger end are not the reader's — one per ledger end, with every
// synchronizer's time; a bounded stream sends none.
func TestGetUpdatesCheckpoints(t *testing.T) {
	t.Parallel()
	p := newPingEnvWith(t, ledger.Options{CheckpointDelay: 50 * time.Millisecond})
	created, _ := p.pingLedger("c1")
	updates := ledgerv2.NewUpdateServiceClient(p.conn)
	g, _ := txFormat(p.bob, ledgerv2.TransactionShape_TRANSACTION_SHAPE_ACS_DELTA)
	ctx, cancel := context.WithTimeout(p.grpcCtx, 30*time.Second) // a missing element fails, not hangs
	defer cancel()
	st, err := updates.GetUpdates(ctx, &ledgerv2.GetUpdatesRequest{UpdateFormat: &ledgerv2.UpdateFormat{IncludeTransactions: g}})
	if err != nil {
		t.Fatal(err)
	}
	recv := func() *ledgerv2.GetUpdatesResponse {
		t.Helper()
		r, err := st.Recv()
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := recv(); r.GetTransaction().GetUpdateId() != created {
		t.Fatalf("first element %v, want the create %s", r, created)
	}
	recv() // the archive of bob's Respond
	end := func() int64 {
		t.Helper()
		e, err := p.node.LedgerEnd(p.grpcCtx)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	wantCheckpoint := func(at int64) {
		t.Helper()
		r := recv()
		cp := r.GetOffsetCheckpoint()
		if cp == nil || cp.Offset != at {
			t.Fatalf("got %v, want an offset checkpoint at %d", r, at)
		}
		if len(cp.SynchronizerTimes) != 1 || cp.SynchronizerTimes[0].SynchronizerId != p.node.Synchronizers()[0] || cp.SynchronizerTimes[0].RecordTime == nil {
			t.Fatalf("checkpoint synchronizer times %v, want the node's synchronizer with a time", cp.SynchronizerTimes)
		}
	}
	wantCheckpoint(end())
	// A party allocation moves the ledger end with nothing bob's
	// transaction format shows: the next checkpoint is at the new end.
	ledgertest.MustAllocate(t, p.node, "carol")
	wantCheckpoint(end())
	// One checkpoint per ledger end: the next element is the next update.
	next, _ := p.pingLedger("c2")
	if r := recv(); r.GetTransaction().GetUpdateId() != next {
		t.Fatalf("after the checkpoint: %v, want the create %s", r, next)
	}
	cancel()

	// A bounded stream ends without a checkpoint.
	at := end()
	got, err := grpcUpdates(t, updates, p.grpcCtx, &ledgerv2.GetUpdatesRequest{EndInclusive: &at, UpdateFormat: &ledgerv2.UpdateFormat{IncludeTransactions: g}})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range got {
		if s.UpdateID == "" {
			t.Fatalf("bounded stream %v: an element that is not a transaction", got)
		}
	}
}

// unknownUpdateID is a well-formed update id (the hex of a SHA-256
// multihash) of no update.
var unknownUpdateID = "1220" + strings.Repeat("ab", 32)

// TestUpdateRequestRefusals: the update id and the transaction format of
// update reads are checked as Canton's UpdateServiceRequestValidator and
// FormatValidator check them, in their order: an empty update id is
// MISSING_FIELD update_id, one that is no SHA-256 multihash INVALID_ARGUMENT
// (before the format is read); an unset transaction shape is
// MISSING_FIELD transaction_shape (before the event format), a value the
// enum does not have INVALID_ARGUMENT.
func TestUpdateRequestRefusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, grpcadapter.Options{})
	res, err := admin.NewPartyManagementServiceClient(e.conn).AllocateParty(as(e.admin), &admin.AllocatePartyRequest{PartyIdHint: "alice",
		UserId: identity.DefaultParticipantAdmin})
	if err != nil {
		t.Fatal(err)
	}
	alice := res.PartyDetails.Party
	updates := ledgerv2.NewUpdateServiceClient(e.conn)
	events := &ledgerv2.EventFormat{FiltersByParty: map[string]*ledgerv2.Filters{alice: {}}}
	txs := func(shape ledgerv2.TransactionShape, ef *ledgerv2.EventFormat) *ledgerv2.UpdateFormat {
		return &ledgerv2.UpdateFormat{IncludeTransactions: &ledgerv2.TransactionFormat{TransactionShape: shape, EventFormat: ef}}
	}
	good := txs(ledgerv2.TransactionShape_TRANSACTION_SHAPE_ACS_DELTA, events)
	byID := func(id string, f *ledgerv2.UpdateFormat) func() error {
		return func() error {
			_, err := updates.GetUpdateById(as(e.admin), &ledgerv2.GetUpdateByIdRequest{UpdateId: id, UpdateFormat: f})
			return err
		}
	}
	byOffset := func(f *ledgerv2.UpdateFormat) func() error {
		return func() error {
			_, err := updates.GetUpdateByOffset(as(e.admin), &ledgerv2.GetUpdateByOffsetRequest{Offset: 1, UpdateFormat: f})
			return err
		}
	}
	for _, tc := range []struct {
		name   string
		call   func() error
		code   codes.Code
		reason string
		cause  string
	}{
		{"no update id", byID("", nil), codes.InvalidArgument, "MISSING_FIELD", "update_id"},
		{"an update id that is no hex", byID("nope", nil), codes.InvalidArgument, "INVALID_ARGUMENT", "Failed to parse hex string: nope"},
		{"an update id in upper case", byID(strings.ToUpper(unknownUpdateID), good), codes.InvalidArgument, "INVALID_ARGUMENT", "Failed to parse hex string"},
		{"an update id of another hash", byID("13"+unknownUpdateID[2:], good), codes.InvalidArgument, "INVALID_ARGUMENT", "Unknown hash algorithm for index: 19"},
		{"an update id of another length", byID("1221"+unknownUpdateID[4:], good), codes.InvalidArgument, "INVALID_ARGUMENT", "Mismatch of lengths for SHA-256: given 33, expected 32"},
		{"a short update id", byID("1220aa", good), codes.InvalidArgument, "INVALID_ARGUMENT", "Size of given hash 1 does not match expected size 32 for SHA-256"},
		{"an unknown update id", byID(unknownUpdateID, good), codes.NotFound, "UPDATE_NOT_FOUND", ""},
		{"an unset shape", byOffset(txs(ledgerv2.TransactionShape_TRANSACTION_SHAPE_UNSPECIFIED, events)), codes.InvalidArgument, "MISSING_FIELD", "transaction_shape"},
		{"an unset shape and no event format", byOffset(txs(ledgerv2.TransactionShape_TRANSACTION_SHAPE_UNSPECIFIED, nil)), codes.InvalidArgument, "MISSING_FIELD", "transaction_shape"},
		{"a shape the enum does not have", byOffset(txs(7, events)), codes.InvalidArgument, "INVALID_ARGUMENT", "transaction_shape is defined with invalid value 7"},
		{"no event format", byOffset(txs(ledgerv2.TransactionShape_TRANSACTION_SHAPE_LEDGER_EFFECTS, nil)), codes.InvalidArgument, "MISSING_FIELD", "event_format"},
		{"no update format", byOffset(nil), codes.InvalidArgument, "MISSING_FIELD", "update_format"},
		// Canton's FormatValidator takes each part as optional: a format
		// of none shows nothing of any update.
		{"an update format of nothing", byOffset(&ledgerv2.UpdateFormat{}), codes.NotFound, "UPDATE_NOT_FOUND", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			wantCode(t, err, tc.code, tc.reason)
			if msg := status.Convert(err).Message(); !strings.Contains(msg, tc.cause) {
				t.Errorf("message %q, want it to say %q", msg, tc.cause)
			}
		})
	}
}

// TestGetUpdatesOfNothing checks that an update format selecting no kind
// of update is a valid request whose stream has no update (Canton's
// FormatValidator takes each part of the format as optional).
func TestGetUpdatesOfNothing(t *testing.T) {
	t.Parallel()
	p := newPingEnv(t)
	p.pingLedger("c1")
	end, err := p.node.LedgerEnd(p.grpcCtx)
	if err != nil {
		t.Fatal(err)
	}
	st, err := ledgerv2.NewUpdateServiceClient(p.conn).GetUpdates(p.grpcCtx, &ledgerv2.GetUpdatesRequest{EndInclusive: &end, UpdateFormat: &ledgerv2.UpdateFormat{}})
	if err != nil {
		t.Fatal(err)
	}
	for {
		r, err := st.Recv()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if r.GetOffsetCheckpoint() == nil {
			t.Fatalf("an update format of nothing streamed %v", r)
		}
	}
}
