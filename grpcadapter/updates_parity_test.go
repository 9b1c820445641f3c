package grpcadapter_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/grpcadapter"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// updSum is what both APIs must agree on about an update.
type updSum struct {
	Kind, UpdateID, CommandID, WorkflowID, Sync string
	Offset                                      int64
	EffectiveAt, RecordTime                     string
	Events                                      []evSum
}

// evSum is what both APIs must agree on about an event of an update.
type evSum struct {
	Kind                                       string
	Created                                    *createdSummary
	NodeID, LastDescendant                     int32
	ContractID, TemplateID, Choice             string
	Witnesses, Acting, Implemented             []string
	Consuming, ACSDelta                        bool
	ReassignmentID, Source, Target, Submitter  string
	Counter, Offset                            int64
	Party, Participant, Permission, ChangeKind string
}

func protoTime(ts *timestamppb.Timestamp) string {
	if ts == nil {
		return ""
	}
	return ts.AsTime().UTC().Format(time.RFC3339Nano)
}

func jsonTime(t *testing.T, s string) string {
	t.Helper()
	if s == "" {
		return ""
	}
	tm, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return tm.UTC().Format(time.RFC3339Nano)
}

func idOf(id *ledgerv2.Identifier) string {
	if id == nil {
		return ""
	}
	return id.GetPackageId() + ":" + id.GetModuleName() + ":" + id.GetEntityName()
}

// protoUpdate is a GetUpdatesResponse or a GetUpdateResponse.
type protoUpdate interface {
	GetTransaction() *ledgerv2.Transaction
	GetReassignment() *ledgerv2.Reassignment
	GetTopologyTransaction() *ledgerv2.TopologyTransaction
}

func sumOfProto(u protoUpdate) updSum {
	switch {
	case u.GetTransaction() != nil:
		tx := u.GetTransaction()
		out := updSum{Kind: "tx", UpdateID: tx.UpdateId, CommandID: tx.CommandId, WorkflowID: tx.WorkflowId, Sync: tx.SynchronizerId,
			Offset: tx.Offset, EffectiveAt: protoTime(tx.EffectiveAt), RecordTime: protoTime(tx.RecordTime)}
		for _, e := range tx.Events {
			switch {
			case e.GetCreated() != nil:
				c := createdOfProto(e.GetCreated())
				out.Events = append(out.Events, evSum{Kind: "created", Created: &c})
			case e.GetArchived() != nil:
				a := e.GetArchived()
				out.Events = append(out.Events, evSum{Kind: "archived", NodeID: a.NodeId, ContractID: a.ContractId, TemplateID: idOf(a.TemplateId),
					Witnesses: a.WitnessParties, Implemented: idsOf(a.ImplementedInterfaces), Offset: a.Offset})
			case e.GetExercised() != nil:
				x := e.GetExercised()
				out.Events = append(out.Events, evSum{Kind: "exercised", NodeID: x.NodeId, LastDescendant: x.LastDescendantNodeId, ContractID: x.ContractId,
					TemplateID: idOf(x.TemplateId), Choice: x.Choice, Witnesses: x.WitnessParties, Acting: x.ActingParties,
					Implemented: idsOf(x.ImplementedInterfaces), Consuming: x.Consuming, ACSDelta: x.AcsDelta, Offset: x.Offset})
			}
		}
		return out
	case u.GetReassignment() != nil:
		r := u.GetReassignment()
		out := updSum{Kind: "ra", UpdateID: r.UpdateId, CommandID: r.CommandId, WorkflowID: r.WorkflowId, Sync: r.SynchronizerId,
			Offset: r.Offset, RecordTime: protoTime(r.RecordTime)}
		for _, e := range r.Events {
			if un := e.GetUnassigned(); un != nil {
				out.Events = append(out.Events, evSum{Kind: "unassigned", ReassignmentID: un.ReassignmentId, ContractID: un.ContractId,
					TemplateID: idOf(un.TemplateId), Source: un.Source, Target: un.Target, Submitter: un.Submitter,
					Counter: int64(un.ReassignmentCounter), Witnesses: un.WitnessParties, Offset: un.Offset, NodeID: un.NodeId})
			} else if as := e.GetAssigned(); as != nil {
				c := createdOfProto(as.CreatedEvent)
				out.Events = append(out.Events, evSum{Kind: "assigned", Created: &c, ReassignmentID: as.ReassignmentId, Source: as.Source,
					Target: as.Target, Submitter: as.Submitter, Counter: int64(as.ReassignmentCounter)})
			}
		}
		return out
	case u.GetTopologyTransaction() != nil:
		tp := u.GetTopologyTransaction()
		out := updSum{Kind: "tp", UpdateID: tp.UpdateId, Sync: tp.SynchronizerId, Offset: tp.Offset, RecordTime: protoTime(tp.RecordTime)}
		for _, e := range tp.Events {
			switch {
			case e.GetParticipantAuthorizationAdded() != nil:
				a := e.GetParticipantAuthorizationAdded()
				out.Events = append(out.Events, evSum{Kind: "topology", ChangeKind: "added", Party: a.PartyId, Participant: a.ParticipantId, Permission: a.ParticipantPermission.String()})
			case e.GetParticipantAuthorizationChanged() != nil:
				a := e.GetParticipantAuthorizationChanged()
				out.Events = append(out.Events, evSum{Kind: "topology", ChangeKind: "changed", Party: a.PartyId, Participant: a.ParticipantId, Permission: a.ParticipantPermission.String()})
			case e.GetParticipantAuthorizationRevoked() != nil:
				a := e.GetParticipantAuthorizationRevoked()
				out.Events = append(out.Events, evSum{Kind: "topology", ChangeKind: "revoked", Party: a.PartyId, Participant: a.ParticipantId})
			}
		}
		return out
	}
	return updSum{Kind: "none"}
}

func idsOf(ids []*ledgerv2.Identifier) []string {
	var out []string
	for _, id := range ids {
		out = append(out, idOf(id))
	}
	return out
}

func sumOfJSON(t *testing.T, u jsonapi.Update) updSum {
	t.Helper()
	switch {
	case u.Transaction != nil:
		tx := u.Transaction.Value
		out := updSum{Kind: "tx", UpdateID: tx.UpdateID, CommandID: tx.CommandID, WorkflowID: tx.WorkflowID, Sync: tx.SynchronizerID,
			Offset: tx.Offset, EffectiveAt: jsonTime(t, tx.EffectiveAt), RecordTime: jsonTime(t, tx.RecordTime)}
		for _, e := range tx.Events {
			switch {
			case e.CreatedEvent != nil:
				c := createdOfJSON(t, e.CreatedEvent)
				out.Events = append(out.Events, evSum{Kind: "created", Created: &c})
			case e.ArchivedEvent != nil:
				a := e.ArchivedEvent
				out.Events = append(out.Events, evSum{Kind: "archived", NodeID: a.NodeID, ContractID: a.ContractID, TemplateID: a.TemplateID,
					Witnesses: a.WitnessParties, Implemented: a.ImplementedInterfaces, Offset: a.Offset})
			case e.ExercisedEvent != nil:
				x := e.ExercisedEvent
				out.Events = append(out.Events, evSum{Kind: "exercised", NodeID: x.NodeID, LastDescendant: x.LastDescendantNodeID, ContractID: x.ContractID,
					TemplateID: x.TemplateID, Choice: x.Choice, Witnesses: x.WitnessParties, Acting: x.ActingParties,
					Implemented: x.ImplementedInterfaces, Consuming: x.Consuming, ACSDelta: x.ACSDelta, Offset: x.Offset})
			}
		}
		return out
	case u.Reassignment != nil:
		r := u.Reassignment.Value
		out := updSum{Kind: "ra", UpdateID: r.UpdateID, CommandID: r.CommandID, WorkflowID: r.WorkflowID, Sync: r.SynchronizerID,
			Offset: r.Offset, RecordTime: jsonTime(t, r.RecordTime)}
		for _, e := range r.Events {
			if w := e.JsUnassignedEvent; w != nil {
				un := w.Value
				out.Events = append(out.Events, evSum{Kind: "unassigned", ReassignmentID: un.ReassignmentID, ContractID: un.ContractID,
					TemplateID: un.TemplateID, Source: un.Source, Target: un.Target, Submitter: un.Submitter,
					Counter: un.ReassignmentCounter, Witnesses: un.WitnessParties, Offset: un.Offset, NodeID: un.NodeID})
			} else if as := e.JsAssignmentEvent; as != nil {
				c := createdOfJSON(t, &as.CreatedEvent)
				out.Events = append(out.Events, evSum{Kind: "assigned", Created: &c, ReassignmentID: as.ReassignmentID, Source: as.Source,
					Target: as.Target, Submitter: as.Submitter, Counter: as.ReassignmentCounter})
			}
		}
		return out
	case u.TopologyTransaction != nil:
		tp := u.TopologyTransaction.Value
		out := updSum{Kind: "tp", UpdateID: tp.UpdateID, Sync: tp.SynchronizerID, Offset: tp.Offset, RecordTime: jsonTime(t, tp.RecordTime)}
		for _, e := range tp.Events {
			for kind, v := range map[string]*jsonapi.Wrapped[jsonapi.ParticipantAuthorization]{"added": e.Event.ParticipantAuthorizationAdded,
				"changed": e.Event.ParticipantAuthorizationChanged, "revoked": e.Event.ParticipantAuthorizationRevoked} {
				if v != nil {
					ev := evSum{Kind: "topology", ChangeKind: kind, Party: v.Value.PartyID, Participant: v.Value.ParticipantID}
					if kind != "revoked" {
						ev.Permission = string(v.Value.ParticipantPermission)
					}
					out.Events = append(out.Events, ev)
				}
			}
		}
		return out
	}
	return updSum{Kind: "none"}
}

// twoSyncEnv is a node on two synchronizers with Pings created,
// responded to, unassigned and assigned, served over gRPC and HTTP with
// the same tokens.
type twoSyncEnv struct {
	*env
	http              *httptest.Server
	alice, bob        string
	pingID            string
	syncs             []string
	moving, responded string
}

func newTwoSyncEnv(t *testing.T) *twoSyncEnv {
	t.Helper()
	node, data, syncs := twoSyncPingNode(t)
	ctx := context.Background()
	alice, bob := ledgertest.MustAllocate(t, node, "alice"), ledgertest.MustAllocate(t, node, "bob")
	if _, err := node.GrantUserRights(ctx, identity.DefaultParticipantAdmin, "",
		[]identity.Right{{Kind: identity.RightCanActAs, Party: alice}, {Kind: identity.RightCanActAs, Party: bob}}); err != nil {
		t.Fatal(err)
	}
	pingID := ledgertest.MainPackageID(t, data) + ":Canton.Internal.Ping:Ping"
	ping := ledger.MustParseTemplateRef(pingID)
	var cids []value.ContractID
	for _, id := range []string{"moving", "staying", "answered"} {
		res := ledgertest.Submit(t, node, ledger.Commands{ActAs: []string{alice}, WorkflowID: "wf-" + id, Commands: []ledger.Command{
			ledger.CreateCommand{Template: ping, Arguments: ledgertest.Record(map[string]value.Value{
				"id": value.Text(id), "initiator": value.Party(alice), "responder": value.Party(bob)})}}})
		cids = append(cids, res.Created()[0].ContractID)
	}
	resp := ledgertest.Submit(t, node, ledger.Commands{ActAs: []string{bob}, WorkflowID: "wf-respond", Commands: []ledger.Command{
		ledger.ExerciseCommand{Template: ping, ContractID: cids[2], Choice: "Respond", Argument: ledgertest.Record(nil)}}})
	un, err := node.Reassign(ctx, ledger.ReassignCommands{CommandID: "unassign", WorkflowID: "wf-move", Submitter: alice, Commands: []ledger.ReassignCommand{
		ledger.UnassignContract{ContractID: cids[0], Source: syncs[0], Target: syncs[1]}}}, ledger.ReassignmentEvents(ledger.ReadAs(alice)))
	if err != nil {
		t.Fatal(err)
	}
	unassigned, ok := un.Events[0].(*update.UnassignedEvent)
	if !ok {
		t.Fatalf("the unassignment's event is a %T", un.Events[0])
	}
	if _, err := node.Reassign(ctx, ledger.ReassignCommands{CommandID: "assign", Submitter: alice, Commands: []ledger.ReassignCommand{
		ledger.AssignContract{ReassignmentID: unassigned.ReassignmentID, Source: syncs[0], Target: syncs[1]}}}); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, node, grpcadapter.Options{})
	return &twoSyncEnv{env: e, http: sameSecretHTTP(t, e), alice: alice, bob: bob, pingID: pingID, syncs: syncs,
		moving: string(cids[0]), responded: resp.UpdateID}
}

// post sends a JSON request to the HTTP API as the participant admin.
func (e *twoSyncEnv) post(t *testing.T, path string, body any) *http.Response {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, e.http.URL+path, strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+e.admin)
	req.Header.Set("Content-Type", "application/json")
	resp, err := e.http.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// formats returns the same update format for both APIs: alice with a
// wildcard with blobs; bob with a Ping template filter beside a
// wildcard; reassignments as alice; the topology events of alice.
func (e *twoSyncEnv) formats(shape ledgerv2.TransactionShape) (*ledgerv2.UpdateFormat, jsonapi.UpdateFormat) {
	blobs := &ledgerv2.CumulativeFilter{IdentifierFilter: &ledgerv2.CumulativeFilter_WildcardFilter{WildcardFilter: &ledgerv2.WildcardFilter{IncludeCreatedEventBlob: true}}}
	tmpl := &ledgerv2.CumulativeFilter{IdentifierFilter: &ledgerv2.CumulativeFilter_TemplateFilter{TemplateFilter: &ledgerv2.TemplateFilter{TemplateId: identifier(e.pingID)}}}
	wild := &ledgerv2.CumulativeFilter{IdentifierFilter: &ledgerv2.CumulativeFilter_WildcardFilter{WildcardFilter: &ledgerv2.WildcardFilter{}}}
	g := &ledgerv2.UpdateFormat{
		IncludeTransactions: &ledgerv2.TransactionFormat{TransactionShape: shape, EventFormat: &ledgerv2.EventFormat{Verbose: true,
			FiltersByParty: map[string]*ledgerv2.Filters{e.alice: {Cumulative: []*ledgerv2.CumulativeFilter{blobs}}, e.bob: {Cumulative: []*ledgerv2.CumulativeFilter{tmpl, wild}}}}},
		IncludeReassignments:  &ledgerv2.EventFormat{Verbose: true, FiltersByParty: map[string]*ledgerv2.Filters{e.alice: {}}},
		IncludeTopologyEvents: &ledgerv2.TopologyFormat{IncludeParticipantAuthorizationEvents: &ledgerv2.ParticipantAuthorizationTopologyFormat{Parties: []string{e.alice}}},
	}
	jsShape := jsonapi.ShapeACSDelta
	if shape == ledgerv2.TransactionShape_TRANSACTION_SHAPE_LEDGER_EFFECTS {
		jsShape = jsonapi.ShapeLedgerEffects
	}
	jBlobs := jsonapi.CumulativeFilter{IdentifierFilter: jsonapi.IdentifierFilter{WildcardFilter: &jsonapi.Wrapped[jsonapi.WildcardFilterValue]{Value: jsonapi.WildcardFilterValue{IncludeCreatedEventBlob: true}}}}
	jTmpl := jsonapi.CumulativeFilter{IdentifierFilter: jsonapi.IdentifierFilter{TemplateFilter: &jsonapi.Wrapped[jsonapi.TemplateFilterValue]{Value: jsonapi.TemplateFilterValue{TemplateID: e.pingID}}}}
	jWild := jsonapi.CumulativeFilter{IdentifierFilter: jsonapi.IdentifierFilter{WildcardFilter: &jsonapi.Wrapped[jsonapi.WildcardFilterValue]{}}}
	j := jsonapi.UpdateFormat{
		IncludeTransactions: &jsonapi.TransactionFormat{TransactionShape: jsShape, EventFormat: jsonapi.EventFormat{Verbose: true,
			FiltersByParty: map[string]jsonapi.Filters{e.alice: {Cumulative: []jsonapi.CumulativeFilter{jBlobs}}, e.bob: {Cumulative: []jsonapi.CumulativeFilter{jTmpl, jWild}}}}},
		IncludeReassignments:  &jsonapi.EventFormat{Verbose: true, FiltersByParty: map[string]jsonapi.Filters{e.alice: {}}},
		IncludeTopologyEvents: &jsonapi.TopologyFormat{IncludeParticipantAuthorizationEvents: &jsonapi.ParticipantAuthorizationTopologyFormat{Parties: []string{e.alice}}},
	}
	return g, j
}

// jsonUpdates reads every update of the format over HTTP, in one page.
func (e *twoSyncEnv) jsonUpdates(t *testing.T, j jsonapi.UpdateFormat, desc bool) []updSum {
	t.Helper()
	end := e.endOffset(t)
	size := int32(ledger.MaxUpdatesPageSize)
	var page jsonapi.GetUpdatesPageResponse
	decodeOK(t, e.post(t, "/v2/updates/get-updates-page", jsonapi.GetUpdatesPageRequest{EndOffsetInclusive: &end, MaxPageSize: &size,
		UpdateFormat: &j, DescendingOrder: desc}), &page)
	var out []updSum
	for _, u := range page.Updates {
		out = append(out, sumOfJSON(t, u.Update))
	}
	return out
}

func (e *twoSyncEnv) endOffset(t *testing.T) int64 {
	t.Helper()
	end, err := e.node.LedgerEnd(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return end
}

// TestGetUpdatesSameAsJSON: GetUpdates (ascending and descending),
// GetUpdateByOffset and GetUpdateById give the transactions,
// reassignments and topology transactions of the JSON API's pages, with
// per-party filters and a wildcard beside a template filter, in both
// shapes.
func TestGetUpdatesSameAsJSON(t *testing.T) {
	t.Parallel()
	e := newTwoSyncEnv(t)
	updates := ledgerv2.NewUpdateServiceClient(e.conn)
	ctx := as(e.admin)
	for _, shape := range []ledgerv2.TransactionShape{ledgerv2.TransactionShape_TRANSACTION_SHAPE_ACS_DELTA, ledgerv2.TransactionShape_TRANSACTION_SHAPE_LEDGER_EFFECTS} {
		g, j := e.formats(shape)
		for _, desc := range []bool{false, true} {
			t.Run(fmt.Sprintf("%v descending=%v", shape, desc), func(t *testing.T) {
				want := e.jsonUpdates(t, j, desc)
				kinds := map[string]int{}
				for _, u := range want {
					kinds[u.Kind]++
				}
				if kinds["tx"] < 4 || kinds["ra"] != 2 || kinds["tp"] < 1 {
					t.Fatalf("the JSON updates are %v; want the transactions, the two reassignments and alice's topology", kinds)
				}
				end := e.endOffset(t)
				st, err := updates.GetUpdates(ctx, &ledgerv2.GetUpdatesRequest{EndInclusive: &end, UpdateFormat: g, DescendingOrder: desc})
				if err != nil {
					t.Fatal(err)
				}
				var got []updSum
				for {
					r, err := st.Recv()
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatal(err)
					}
					got = append(got, sumOfProto(r))
				}
				if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
					t.Errorf("GetUpdates differs (-json +grpc):\n%s", d)
				}
				if desc {
					return
				}
				for _, w := range want {
					byOffset, err := updates.GetUpdateByOffset(ctx, &ledgerv2.GetUpdateByOffsetRequest{Offset: w.Offset, UpdateFormat: g})
					if err != nil {
						t.Fatal(err)
					}
					if d := cmp.Diff(w, sumOfProto(byOffset), cmpopts.EquateEmpty()); d != "" {
						t.Errorf("GetUpdateByOffset(%d) differs (-json +grpc):\n%s", w.Offset, d)
					}
					byID, err := updates.GetUpdateById(ctx, &ledgerv2.GetUpdateByIdRequest{UpdateId: w.UpdateID, UpdateFormat: g})
					if err != nil {
						t.Fatal(err)
					}
					if d := cmp.Diff(w, sumOfProto(byID), cmpopts.EquateEmpty()); d != "" {
						t.Errorf("GetUpdateById(%s) differs (-json +grpc):\n%s", w.UpdateID, d)
					}
				}
			})
		}
	}
	t.Run("refusals", func(t *testing.T) {
		g, j := e.formats(ledgerv2.TransactionShape_TRANSACTION_SHAPE_ACS_DELTA)
		for _, tc := range []struct {
			name string
			grpc func() error
			path string
			body any
		}{
			{"by offset 0", func() error {
				_, err := updates.GetUpdateByOffset(ctx, &ledgerv2.GetUpdateByOffsetRequest{Offset: 0, UpdateFormat: g})
				return err
			}, "/v2/updates/update-by-offset", jsonapi.GetUpdateByOffsetRequest{Offset: 0, UpdateFormat: &j}},
			{"by an offset after the end", func() error {
				_, err := updates.GetUpdateByOffset(ctx, &ledgerv2.GetUpdateByOffsetRequest{Offset: 1000, UpdateFormat: g})
				return err
			}, "/v2/updates/update-by-offset", jsonapi.GetUpdateByOffsetRequest{Offset: 1000, UpdateFormat: &j}},
			{"a page with a token of another request", func() error {
				_, err := updates.GetUpdatesPage(ctx, &ledgerv2.GetUpdatesPageRequest{UpdateFormat: g, PageToken: []byte(`{"c":1,"r":"x"}`)})
				return err
			}, "/v2/updates/get-updates-page", jsonapi.GetUpdatesPageRequest{UpdateFormat: &j, PageToken: base64.StdEncoding.EncodeToString([]byte(`{"c":1,"r":"x"}`))}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				want := fromHTTP(t, e.post(t, tc.path, tc.body))
				if d := cmp.Diff(want, fromGRPC(t, tc.grpc())); d != "" {
					t.Errorf("refusal differs (-json +grpc):\n%s", d)
				}
			})
		}
		// Descending without an end: the JSON stream's refusal.
		st, err := updates.GetUpdates(ctx, &ledgerv2.GetUpdatesRequest{UpdateFormat: g, DescendingOrder: true})
		if err == nil {
			_, err = st.Recv()
		}
		wantCode(t, err, codes.InvalidArgument, "DESCENDING_ORDER_MISSING_END")
	})
}

// TestGetUpdatesPageSameAsJSON: GetUpdatesPage pages through the same
// updates as the JSON API's /v2/updates/get-updates-page, ascending and
// descending, with the same bounds and tokens (the JSON token is the
// base64 of the gRPC bytes).
func TestGetUpdatesPageSameAsJSON(t *testing.T) {
	t.Parallel()
	e := newTwoSyncEnv(t)
	updates := ledgerv2.NewUpdateServiceClient(e.conn)
	ctx := as(e.admin)
	g, j := e.formats(ledgerv2.TransactionShape_TRANSACTION_SHAPE_LEDGER_EFFECTS)
	for _, desc := range []bool{false, true} {
		t.Run(fmt.Sprint("descending=", desc), func(t *testing.T) {
			end := e.endOffset(t)
			size := int32(3)
			greq := &ledgerv2.GetUpdatesPageRequest{EndOffsetInclusive: &end, MaxPageSize: &size, UpdateFormat: g, DescendingOrder: desc}
			jreq := jsonapi.GetUpdatesPageRequest{EndOffsetInclusive: &end, MaxPageSize: &size, UpdateFormat: &j, DescendingOrder: desc}
			pages := 0
			for {
				pages++
				var js jsonapi.GetUpdatesPageResponse
				decodeOK(t, e.post(t, "/v2/updates/get-updates-page", jreq), &js)
				gp, err := updates.GetUpdatesPage(ctx, greq)
				if err != nil {
					t.Fatal(err)
				}
				var want, got []updSum
				for _, u := range js.Updates {
					want = append(want, sumOfJSON(t, u.Update))
				}
				for _, u := range gp.Updates {
					got = append(got, sumOfProto(u))
				}
				if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
					t.Errorf("page %d differs (-json +grpc):\n%s", pages, d)
				}
				if js.LowestPageOffsetExclusive != gp.LowestPageOffsetExclusive || js.HighestPageOffsetInclusive != gp.HighestPageOffsetInclusive {
					t.Errorf("page %d: bounds (%d, %d], JSON (%d, %d]", pages, gp.LowestPageOffsetExclusive, gp.HighestPageOffsetInclusive,
						js.LowestPageOffsetExclusive, js.HighestPageOffsetInclusive)
				}
				var next *string
				if gp.NextPageToken != nil {
					s := base64.StdEncoding.EncodeToString(gp.NextPageToken)
					next = &s
				}
				if d := cmp.Diff(js.NextPageToken, next); d != "" {
					t.Fatalf("page %d: next token (-json +grpc base64):\n%s", pages, d)
				}
				if next == nil || pages > 10 {
					break
				}
				greq.PageToken, jreq.PageToken = gp.NextPageToken, *next
			}
			if pages < 3 {
				t.Errorf("%d pages; want the updates on several", pages)
			}
		})
	}
}

// TestGetActiveContractsSameAsJSON: on a node with two synchronizers,
// GetActiveContracts streams the contracts of the JSON API's
// /v2/state/active-contracts, active and in transit, with their
// synchronizers and counters; each element's continuation token resumes
// the stream after it.
func TestGetActiveContractsSameAsJSON(t *testing.T) {
	t.Parallel()
	e := newTwoSyncEnv(t)
	ctx := context.Background()
	// A second contract in transit: unassigned, not assigned.
	ping := ledger.MustParseTemplateRef(e.pingID)
	res := ledgertest.Submit(t, e.node, ledger.Commands{ActAs: []string{e.alice}, WorkflowID: "wf-transit", Commands: []ledger.Command{
		ledger.CreateCommand{Template: ping, Arguments: ledgertest.Record(map[string]value.Value{
			"id": value.Text("transit"), "initiator": value.Party(e.alice), "responder": value.Party(e.bob)})}}})
	if _, err := e.node.Reassign(ctx, ledger.ReassignCommands{CommandID: "unassign-2", Submitter: e.alice, Commands: []ledger.ReassignCommand{
		ledger.UnassignContract{ContractID: res.Created()[0].ContractID, Source: e.syncs[0], Target: e.syncs[1]}}}); err != nil {
		t.Fatal(err)
	}
	end := e.endOffset(t)
	var js []jsonapi.GetActiveContractsResponse
	decodeOK(t, e.post(t, "/v2/state/active-contracts", jsonapi.GetActiveContractsRequest{ActiveAtOffset: end,
		EventFormat: &jsonapi.EventFormat{Verbose: true, FiltersByParty: map[string]jsonapi.Filters{e.bob: {}}}}), &js)
	type entry struct {
		WorkflowID, SynchronizerID string
		Counter                    int64
		Created                    createdSummary
		Unassigned                 string
	}
	var want []entry
	for _, r := range js {
		if ac := r.ContractEntry.JsActiveContract; ac != nil {
			want = append(want, entry{r.WorkflowID, ac.SynchronizerID, ac.ReassignmentCounter, createdOfJSON(t, &ac.CreatedEvent), ""})
		} else if iu := r.ContractEntry.JsIncompleteUnassigned; iu != nil {
			u := iu.UnassignedEvent
			want = append(want, entry{r.WorkflowID, u.Source, u.ReassignmentCounter, createdOfJSON(t, &iu.CreatedEvent), u.ReassignmentID + "→" + u.Target})
		}
	}
	read := func(token []byte) ([]entry, [][]byte) {
		req := &ledgerv2.GetActiveContractsRequest{ActiveAtOffset: end, StreamContinuationToken: token,
			EventFormat: &ledgerv2.EventFormat{Verbose: true, FiltersByParty: map[string]*ledgerv2.Filters{e.bob: {}}}}
		st, err := ledgerv2.NewStateServiceClient(e.conn).GetActiveContracts(as(e.admin), req)
		if err != nil {
			t.Fatal(err)
		}
		var got []entry
		var tokens [][]byte
		for {
			r, err := st.Recv()
			if err == io.EOF {
				return got, tokens
			}
			if err != nil {
				t.Fatal(err)
			}
			if ac := r.GetActiveContract(); ac != nil {
				got = append(got, entry{r.WorkflowId, ac.SynchronizerId, int64(ac.ReassignmentCounter), createdOfProto(ac.CreatedEvent), ""})
			} else if iu := r.GetIncompleteUnassigned(); iu != nil {
				u := iu.UnassignedEvent
				got = append(got, entry{r.WorkflowId, u.Source, int64(u.ReassignmentCounter), createdOfProto(iu.CreatedEvent), u.ReassignmentId + "→" + u.Target})
			}
			tokens = append(tokens, r.StreamContinuationToken)
		}
	}
	got, tokens := read(nil)
	syncsSeen := map[string]bool{}
	transit := 0
	for _, w := range want {
		syncsSeen[w.SynchronizerID] = true
		if w.Unassigned != "" {
			transit++
		}
	}
	if len(syncsSeen) != 2 || transit != 1 {
		t.Fatalf("the JSON ACS is %+v; want contracts on both synchronizers and one in transit", want)
	}
	if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("GetActiveContracts differs (-json +grpc):\n%s", d)
	}
	for i, tok := range tokens {
		rest, _ := read(tok)
		if d := cmp.Diff(want[i+1:], rest, cmpopts.EquateEmpty()); d != "" {
			t.Errorf("after element %d's token (-want +got):\n%s", i, d)
		}
	}
	// A token that is not this stream's is Canton's
	// INVALID_CONTINUATION_TOKEN: one of another format, and bytes that
	// are no token.
	for name, tok := range map[string][]byte{"another format's token": tokens[0], "no token": []byte("nope")} {
		req := &ledgerv2.GetActiveContractsRequest{ActiveAtOffset: end, StreamContinuationToken: tok,
			EventFormat: &ledgerv2.EventFormat{FiltersByParty: map[string]*ledgerv2.Filters{e.alice: {}}}}
		st, err := ledgerv2.NewStateServiceClient(e.conn).GetActiveContracts(as(e.admin), req)
		if err == nil {
			_, err = st.Recv()
		}
		if err == nil || err == io.EOF {
			t.Fatalf("%s: %v, want INVALID_CONTINUATION_TOKEN", name, err)
		}
		wantCode(t, err, codes.InvalidArgument, "INVALID_CONTINUATION_TOKEN")
	}
}
