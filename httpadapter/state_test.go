package httpadapter

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// Tests of the state routes (active contracts, connected synchronizers),
// events by contract id and reassignments.

// acsIDs lists the contract ids of active-contract entries, with "~" after
// the id of a contract in transit.
func acsIDs(entries []jsonapi.GetActiveContractsResponse) []string {
	var out []string
	for _, e := range entries {
		switch c := e.ContractEntry; {
		case c.JsActiveContract != nil:
			out = append(out, c.JsActiveContract.CreatedEvent.ContractID)
		case c.JsIncompleteUnassigned != nil:
			out = append(out, c.JsIncompleteUnassigned.CreatedEvent.ContractID+"~")
		}
	}
	return out
}

func TestActiveContractsListAndPage(t *testing.T) {
	t.Parallel()
	const limitL = 5
	f := newLedgerFixture(t, ledger.Options{ListLimit: limitL}, Options{}, nil)
	var ids []string
	for i := range limitL + 1 {
		ids = append(ids, f.create(fmt.Sprintf("a%d", i), f.alice, i).ContractID)
	}
	archived := ids[0]
	decodeAs[jsonapi.SubmitAndWaitResponse](t, f.post("/v2/commands/submit-and-wait",
		commands("x", f.alice, exerciseIou(f.iou(), archived, "Archive", `{}`))))
	ids = ids[1:] // limitL active contracts
	slices.Sort(ids)
	end := f.end()
	alice := partyFormat(f.alice)

	// The list, in both filter forms, with the limits.
	for _, tc := range []struct {
		name  string
		query string
		req   jsonapi.GetActiveContractsRequest
		want  []string // nil: 413
	}{
		{"event format", "", jsonapi.GetActiveContractsRequest{ActiveAtOffset: end, EventFormat: &alice}, ids},
		{"legacy filter", "", jsonapi.GetActiveContractsRequest{ActiveAtOffset: end, Filter: &alice, Verbose: true}, ids},
		{"limit 2", "?limit=2", jsonapi.GetActiveContractsRequest{ActiveAtOffset: end, EventFormat: &alice}, ids[:2]},
		{"idle timeout", "?stream_idle_timeout_ms=10", jsonapi.GetActiveContractsRequest{ActiveAtOffset: end, EventFormat: &alice}, ids},
		{"before the archive: L+1", "", jsonapi.GetActiveContractsRequest{ActiveAtOffset: end - 1, EventFormat: &alice}, nil},
		{"before the archive, limit L", fmt.Sprintf("?limit=%d", limitL), jsonapi.GetActiveContractsRequest{ActiveAtOffset: end - 1, EventFormat: &alice}, nil},
		{"bob sees nothing", "", jsonapi.GetActiveContractsRequest{ActiveAtOffset: end, EventFormat: new(partyFormat(f.bob))}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := f.post("/v2/state/active-contracts"+tc.query, tc.req)
			switch {
			case tc.name == "before the archive: L+1":
				wantCantonError(t, rec, 413, "JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED")
			case tc.name == "before the archive, limit L":
				got := acsIDs(decodeAs[[]jsonapi.GetActiveContractsResponse](t, rec))
				all := append([]string{archived}, ids...)
				if len(got) != limitL || slices.ContainsFunc(got, func(id string) bool { return !slices.Contains(all, id) }) {
					t.Errorf("%d contracts at %d: %v", len(got), end-1, got)
				}
			default:
				got := decodeAs[[]jsonapi.GetActiveContractsResponse](t, rec)
				if diff := cmp.Diff(tc.want, acsIDs(got)); diff != "" {
					t.Errorf("contracts (-want +got):\n%s", diff)
				}
				if len(got) > 0 {
					wantKeys(t, rec, []string{"contractEntry", "streamContinuationToken", "workflowId"}, 0)
					wantKeys(t, rec, []string{"JsActiveContract"}, 0, "contractEntry")
					wantKeys(t, rec, []string{"createdEvent", "reassignmentCounter", "synchronizerId"}, 0, "contractEntry", "JsActiveContract")
				}
			}
		})
	}

	// Pages: POST and the deprecated GET with a body, walked by token.
	for _, method := range []string{"POST", "GET"} {
		size := int32(2)
		req := jsonapi.GetActiveContractsPageRequest{EventFormat: alice, MaxPageSize: &size}
		var got []string
		for i := 0; ; i++ {
			if i == 5 {
				t.Fatalf("%s: no last page: %v", method, got)
			}
			rec := f.do(httpCall{method: method, target: "/v2/state/active-contracts-page", body: js(t, req)})
			p := decodeAs[jsonapi.GetActiveContractsPageResponse](t, rec)
			wantKeys(t, rec, []string{"activeAtOffset", "activeContracts", "nextPageToken"})
			if p.ActiveAtOffset != end {
				t.Errorf("%s: page at %d, want the ledger end %d", method, p.ActiveAtOffset, end)
			}
			got = append(got, acsIDs(p.ActiveContracts)...)
			if p.NextPageToken == nil {
				break
			}
			req.PageToken = *p.NextPageToken
		}
		if diff := cmp.Diff(ids, got); diff != "" {
			t.Errorf("%s pages (-want +got):\n%s", method, diff)
		}
	}

	// Rejections.
	before := f.state()
	wantCantonError(t, f.post("/v2/state/active-contracts", jsonapi.GetActiveContractsRequest{ActiveAtOffset: end + 1, EventFormat: &alice}), 400, "OFFSET_AFTER_LEDGER_END")
	wantCantonError(t, f.post("/v2/state/active-contracts", jsonapi.GetActiveContractsRequest{ActiveAtOffset: end}), 400, "INVALID_ARGUMENT")
	wantCantonError(t, f.post("/v2/state/active-contracts", jsonapi.GetActiveContractsRequest{ActiveAtOffset: end, EventFormat: &alice, Filter: &alice}), 400, "INVALID_ARGUMENT")
	wantCantonError(t, f.post("/v2/state/active-contracts-page", jsonapi.GetActiveContractsPageRequest{EventFormat: alice, MaxPageSize: new(int32)}), 400, "INVALID_ARGUMENT")
	wantCantonError(t, f.post("/v2/state/active-contracts-page", jsonapi.GetActiveContractsPageRequest{EventFormat: alice, ActiveAtOffset: new(end + 1)}), 400, "OFFSET_AFTER_LEDGER_END")
	wantText(t, f.post("/v2/state/active-contracts-page", `{"eventFormat":{},"pageToken":"%%%"}`), 400, "Invalid value for: body (The string is not a valid Base64: ")
	wantText(t, f.post("/v2/state/active-contracts", `{"activeAtOffset":0,"streamContinuationToken":"%%%"}`), 400, "Invalid value for: body (The string is not a valid Base64: ")
	wantText(t, f.post("/v2/state/active-contracts?limit=ten", `{"activeAtOffset":0}`), 400, `Invalid value for: query parameter limit (For input string: "ten")`)
	wantText(t, f.do(httpCall{method: "GET", target: "/v2/state/active-contracts-page"}), 400, "Invalid value for: body (the body is empty")
	wantText(t, f.post("/v2/state/active-contracts-page", `{"eventFormat":{"filtersForAnyParty":{"cumulative":[{"identifierFilter":{"InterfaceFilter":{"value":{"interfaceId":"I"}}}}]}}}`),
		400, "Invalid value for: body (Invalid identifier format (I) not matching the expected format (<package>:<moduleName>:<entityName>) at 'eventFormat.filtersForAnyParty.cumulative[0].identifierFilter.InterfaceFilter.value.interfaceId')")
	wantText(t, f.post("/v2/state/active-contracts-page", `{"eventFormat":{"filtersByParty":{"p":{"cumulative":[{"identifierFilter":{"Empty":{},"WildcardFilter":{"value":{}}}}]}}}}`),
		400, "Invalid value for: body (a one-of holds 2 variants, expected one at 'eventFormat.filtersByParty.p.cumulative[0].identifierFilter')")
	if diff := cmp.Diff(before, f.state()); diff != "" {
		t.Errorf("refused reads changed the state (-before +after):\n%s", diff)
	}
}

func TestConnectedSynchronizers(t *testing.T) {
	t.Parallel()
	const a, b = "a::1220aa", "b::1220bb"
	f := newLedgerFixture(t, ledger.Options{Synchronizers: []string{a, b}}, Options{}, nil)
	pid := decodeAs[jsonapi.ParticipantIDResponse](t, f.get("/v2/parties/participant-id")).ParticipantID
	both := []jsonapi.ConnectedSynchronizer{
		{SynchronizerAlias: "a", SynchronizerID: a, Permission: string(update.PermissionSubmission)},
		{SynchronizerAlias: "b", SynchronizerID: b, Permission: string(update.PermissionSubmission)},
	}
	for _, tc := range []struct {
		query string
		want  []jsonapi.ConnectedSynchronizer
	}{
		{"", both},
		{"?party=" + url.QueryEscape(f.alice), both},
		{"?party=" + url.QueryEscape(f.alice) + "&participantId=" + url.QueryEscape(pid) + "&identityProviderId=", both},
		{"?party=nobody%3A%3A1220ab", []jsonapi.ConnectedSynchronizer{}},
		{"?participantId=other%3A%3A1220ab", []jsonapi.ConnectedSynchronizer{}},
	} {
		rec := f.get("/v2/state/connected-synchronizers" + tc.query)
		got := decodeAs[jsonapi.ConnectedSynchronizersResponse](t, rec)
		if diff := cmp.Diff(tc.want, got.ConnectedSynchronizers); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.query, diff)
		}
		wantKeys(t, rec, []string{"connectedSynchronizers"})
	}
}

func TestEventsByContractID(t *testing.T) {
	t.Parallel()
	f := newLedgerFixture(t, ledger.Options{}, Options{}, nil)
	c := f.create("c1", f.alice, 1)
	alice := partyFormat(f.alice)
	req := jsonapi.GetEventsByContractIDRequest{ContractID: c.ContractID, EventFormat: alice}

	rec := f.post("/v2/events/events-by-contract-id", req)
	active := decodeAs[jsonapi.GetEventsByContractIDResponse](t, rec)
	if active.Created == nil || active.Archived != nil || active.Created.SynchronizerID == "" {
		t.Fatalf("active contract: %s", rec.Body)
	}
	if diff := cmp.Diff(c, active.Created.CreatedEvent); diff != "" {
		t.Errorf("created event (-submit +events):\n%s", diff)
	}
	wantKeys(t, rec, []string{"archived", "created"})
	if !strings.Contains(rec.Body.String(), `"archived":null`) {
		t.Errorf("the archived event of an active contract is not null: %s", rec.Body)
	}

	sw := decodeAs[jsonapi.SubmitAndWaitResponse](t, f.post("/v2/commands/submit-and-wait",
		commands("x", f.alice, exerciseIou(f.iou(), c.ContractID, "Transfer", transferTo(f.bob)))))
	rec = f.post("/v2/events/events-by-contract-id", req)
	gone := decodeAs[jsonapi.GetEventsByContractIDResponse](t, rec)
	if gone.Created == nil || gone.Archived == nil || gone.Archived.ArchivedEvent.Offset != sw.CompletionOffset ||
		gone.Archived.ArchivedEvent.ContractID != c.ContractID || gone.Archived.SynchronizerID != active.Created.SynchronizerID {
		t.Fatalf("archived contract: %s", rec.Body)
	}
	wantKeys(t, rec, []string{"archivedEvent", "synchronizerId"}, "archived")

	before := f.state()
	for _, tc := range []struct {
		name string
		req  jsonapi.GetEventsByContractIDRequest
	}{
		{"unknown contract", jsonapi.GetEventsByContractIDRequest{ContractID: "00" + c.ContractID[4:] + "00", EventFormat: alice}},
		{"invisible to the party", jsonapi.GetEventsByContractIDRequest{ContractID: c.ContractID, EventFormat: partyFormat(f.bob)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantCantonError(t, f.post("/v2/events/events-by-contract-id", tc.req), 404, "CONTRACT_EVENTS_NOT_FOUND")
		})
	}
	if diff := cmp.Diff(before, f.state()); diff != "" {
		t.Errorf("refused reads changed the state (-before +after):\n%s", diff)
	}
}

// TestReassignmentOverHTTP unassigns a contract from one synchronizer and
// assigns it to the other.
func TestReassignmentOverHTTP(t *testing.T) {
	t.Parallel()
	const a, b = "a::1220aa", "b::1220bb"
	f := newLedgerFixture(t, ledger.Options{Synchronizers: []string{a, b}}, Options{}, nil)
	c := f.create("c1", f.alice, 1)
	alice := partyFormat(f.alice)
	unassign := func(id string) jsonapi.ReassignmentCommands {
		return jsonapi.ReassignmentCommands{CommandID: id, Submitter: f.alice, Commands: []jsonapi.ReassignmentCommand{{Command: jsonapi.ReassignmentCommandKind{
			UnassignCommand: &jsonapi.Wrapped[jsonapi.UnassignCommand]{Value: jsonapi.UnassignCommand{ContractID: c.ContractID, Source: a, Target: b}}}}}}
	}

	// Refusals first: nothing moves.
	before := f.state()
	for _, tc := range []struct {
		name   string
		body   string
		status int
		code   string
	}{
		{"same source and target", js(t, jsonapi.SubmitAndWaitForReassignmentRequest{ReassignmentCommands: jsonapi.ReassignmentCommands{
			CommandID: "r", Submitter: f.alice, Commands: []jsonapi.ReassignmentCommand{{Command: jsonapi.ReassignmentCommandKind{
				UnassignCommand: &jsonapi.Wrapped[jsonapi.UnassignCommand]{Value: jsonapi.UnassignCommand{ContractID: c.ContractID, Source: a, Target: a}}}}}}}), 400, "INVALID_ARGUMENT"},
		{"not a stakeholder", js(t, jsonapi.SubmitAndWaitForReassignmentRequest{ReassignmentCommands: jsonapi.ReassignmentCommands{
			CommandID: "r", Submitter: f.bob, Commands: unassign("r").Commands}}), 400, "DAML_AUTHORIZATION_ERROR"},
		{"unknown reassignment", js(t, jsonapi.SubmitAndWaitForReassignmentRequest{ReassignmentCommands: jsonapi.ReassignmentCommands{
			CommandID: "r", Submitter: f.alice, Commands: []jsonapi.ReassignmentCommand{{Command: jsonapi.ReassignmentCommandKind{
				AssignCommand: &jsonapi.Wrapped[jsonapi.AssignCommand]{Value: jsonapi.AssignCommand{ReassignmentID: "00ab", Source: a, Target: b}}}}}}}), 404, "REASSIGNMENT_NOT_FOUND"},
		{"no submitter", `{"reassignmentCommands":{"commandId":"r","commands":[]}}`, 400, "MISSING_FIELD"},
		{"two variants", `{"reassignmentCommands":{"commandId":"r","submitter":"` + f.alice + `","commands":[{"command":{"Empty":{},"AssignCommand":{"value":{}}}}]}}`, 400, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := f.post("/v2/commands/submit-and-wait-for-reassignment", tc.body)
			if tc.code == "" {
				wantText(t, rec, 400, "Invalid value for: body (a one-of holds 2 variants, expected one at 'reassignmentCommands.commands[0].command')")
			} else {
				wantCantonError(t, rec, tc.status, tc.code)
			}
		})
	}
	if diff := cmp.Diff(before, f.state()); diff != "" {
		t.Errorf("refused reassignments changed the state (-before +after):\n%s", diff)
	}

	// Unassign, with an event format: JsUnassignedEvent has the "value"
	// layer.
	rec := f.post("/v2/commands/submit-and-wait-for-reassignment", jsonapi.SubmitAndWaitForReassignmentRequest{ReassignmentCommands: unassign("u1"), EventFormat: &alice})
	un := decodeAs[jsonapi.SubmitAndWaitForReassignmentResponse](t, rec).Reassignment
	wantKeys(t, rec, []string{"JsUnassignedEvent"}, "reassignment", "events", 0)
	wantKeys(t, rec, []string{"value"}, "reassignment", "events", 0, "JsUnassignedEvent")
	if len(un.Events) != 1 || un.Events[0].JsUnassignedEvent == nil {
		t.Fatalf("unassignment events: %s", rec.Body)
	}
	ue := un.Events[0].JsUnassignedEvent.Value
	if ue.ContractID != c.ContractID || ue.Source != a || ue.Target != b || ue.ReassignmentCounter != 1 || ue.Submitter != f.alice ||
		un.SynchronizerID != a || un.Offset != f.end() || ue.ReassignmentID == "" {
		t.Errorf("unassigned event %+v in %+v", ue, un)
	}

	// In transit: the ACS shows an incomplete unassignment; exercising on
	// it is refused.
	page := decodeAs[jsonapi.GetActiveContractsPageResponse](t, f.post("/v2/state/active-contracts-page", jsonapi.GetActiveContractsPageRequest{EventFormat: alice}))
	if diff := cmp.Diff([]string{c.ContractID + "~"}, acsIDs(page.ActiveContracts)); diff != "" {
		t.Errorf("ACS in transit (-want +got):\n%s", diff)
	}
	wantCantonError(t, f.post("/v2/commands/submit-and-wait", commands("p", f.alice, exerciseIou(f.iou(), c.ContractID, "Peek", `{}`))), 404, "CONTRACT_NOT_ACTIVE")

	// Assign asynchronously ({}), then read it back: JsAssignmentEvent has
	// no "value" layer.
	assign := jsonapi.SubmitReassignmentRequest{ReassignmentCommands: jsonapi.ReassignmentCommands{CommandID: "a1", Submitter: f.alice,
		Commands: []jsonapi.ReassignmentCommand{{Command: jsonapi.ReassignmentCommandKind{
			AssignCommand: &jsonapi.Wrapped[jsonapi.AssignCommand]{Value: jsonapi.AssignCommand{ReassignmentID: ue.ReassignmentID, Source: a, Target: b}}}}}}}
	wantEmptyObject(t, f.post("/v2/commands/async/submit-reassignment", assign))
	rec = f.post("/v2/updates/update-by-offset", jsonapi.GetUpdateByOffsetRequest{Offset: f.end(), UpdateFormat: &jsonapi.UpdateFormat{IncludeReassignments: &alice}})
	wantKeys(t, rec, []string{"value"}, "update", "Reassignment")
	wantKeys(t, rec, []string{"JsAssignmentEvent"}, "update", "Reassignment", "value", "events", 0)
	wantKeys(t, rec, []string{"createdEvent", "reassignmentCounter", "reassignmentId", "source", "submitter", "target"},
		"update", "Reassignment", "value", "events", 0, "JsAssignmentEvent")
	as := decodeAs[jsonapi.GetUpdateResponse](t, rec).Update.Reassignment.Value
	if ae := as.Events[0].JsAssignmentEvent; ae.ReassignmentID != ue.ReassignmentID || ae.CreatedEvent.ContractID != c.ContractID ||
		ae.ReassignmentCounter != 1 || as.SynchronizerID != b {
		t.Errorf("assignment %+v", as)
	}
	// Assigning twice is refused; the contract is active on b.
	before = f.state()
	assign.ReassignmentCommands.CommandID = "a2"
	wantCantonError(t, f.post("/v2/commands/async/submit-reassignment", assign), 400, "INVALID_REASSIGNMENT")
	if diff := cmp.Diff(before, f.state()); diff != "" {
		t.Errorf("a refused assignment changed the state (-before +after):\n%s", diff)
	}
	list := decodeAs[[]jsonapi.GetActiveContractsResponse](t, f.post("/v2/state/active-contracts", jsonapi.GetActiveContractsRequest{ActiveAtOffset: f.end(), EventFormat: &alice}))
	if len(list) != 1 || list[0].ContractEntry.JsActiveContract == nil || list[0].ContractEntry.JsActiveContract.SynchronizerID != b ||
		list[0].ContractEntry.JsActiveContract.ReassignmentCounter != 1 {
		t.Errorf("ACS after the assignment: %+v", list)
	}

	// Without an event format the reassignment has no events; the
	// contract goes back to a.
	rec = f.post("/v2/commands/submit-and-wait-for-reassignment", jsonapi.SubmitAndWaitForReassignmentRequest{ReassignmentCommands: jsonapi.ReassignmentCommands{
		CommandID: "u2", Submitter: f.alice, Commands: []jsonapi.ReassignmentCommand{{Command: jsonapi.ReassignmentCommandKind{
			UnassignCommand: &jsonapi.Wrapped[jsonapi.UnassignCommand]{Value: jsonapi.UnassignCommand{ContractID: c.ContractID, Source: b, Target: a}}}}}}})
	if r := decodeAs[jsonapi.SubmitAndWaitForReassignmentResponse](t, rec).Reassignment; len(r.Events) != 0 || r.SynchronizerID != b {
		t.Errorf("reassignment without a format: %s", rec.Body)
	}
	// The updates list reads both kinds.
	end := f.end()
	all := decodeAs[[]jsonapi.GetUpdatesResponse](t, f.post("/v2/updates", jsonapi.GetUpdatesRequest{BeginExclusive: c.Offset, EndInclusive: &end,
		UpdateFormat: &jsonapi.UpdateFormat{IncludeTransactions: txFormat(f.alice, jsonapi.ShapeACSDelta), IncludeReassignments: &alice}}))
	var kinds []string
	for _, u := range all {
		switch {
		case u.Update.Transaction != nil:
			kinds = append(kinds, "Transaction")
		case u.Update.Reassignment != nil:
			kinds = append(kinds, "Reassignment")
		}
	}
	if diff := cmp.Diff([]string{"Reassignment", "Reassignment", "Reassignment"}, kinds); diff != "" {
		t.Errorf("updates after the create (-want +got):\n%s", diff)
	}
}

func TestLatestPrunedOffsets(t *testing.T) {
	t.Parallel()
	f := newAuthFixture(t)
	f.create("c1", f.alice, 1)
	for _, header := range []map[string]string{f.admin, f.none} {
		rec := f.do(httpCall{method: "GET", target: "/v2/state/latest-pruned-offsets", header: header})
		got := decodeAs[jsonapi.GetLatestPrunedOffsetsResponse](t, rec)
		if diff := cmp.Diff(jsonapi.GetLatestPrunedOffsetsResponse{}, got); diff != "" {
			t.Errorf("pruned offsets (-want +got):\n%s", diff)
		}
		wantKeys(t, rec, []string{"allDivulgedContractsPrunedUpToInclusive", "participantPrunedUpToInclusive"})
	}
	wantCantonError(t, f.do(httpCall{method: "GET", target: "/v2/state/latest-pruned-offsets"}), 401, "NA")
}
