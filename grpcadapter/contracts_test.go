package grpcadapter_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/grpcadapter"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/grpcadapter/pb/v2/admin"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// createdSummary is what both APIs must agree on about a created event
// (a Ping's: its argument's fields in order).
type createdSummary struct {
	ContractID, TemplateID, PackageName, RepresentativePackageID string
	Offset                                                       int64
	NodeID                                                       int32
	Args                                                         []string
	Signatories, Observers, Witnesses                            []string
	CreatedAt, Blob                                              string
	ACSDelta                                                     bool
}

func createdOfProto(c *ledgerv2.CreatedEvent) createdSummary {
	var args []string
	for _, f := range c.GetCreateArguments().GetFields() {
		args = append(args, f.GetValue().GetText()+f.GetValue().GetParty())
	}
	at := ""
	if c.CreatedAt != nil {
		at = c.CreatedAt.AsTime().UTC().Format(time.RFC3339Nano)
	}
	id := c.GetTemplateId()
	return createdSummary{ContractID: c.ContractId, TemplateID: id.GetPackageId() + ":" + id.GetModuleName() + ":" + id.GetEntityName(),
		PackageName: c.PackageName, RepresentativePackageID: c.RepresentativePackageId, Offset: c.Offset, NodeID: c.NodeId, Args: args,
		Signatories: c.Signatories, Observers: c.Observers, Witnesses: c.WitnessParties, CreatedAt: at,
		Blob: base64.StdEncoding.EncodeToString(c.CreatedEventBlob), ACSDelta: c.AcsDelta}
}

func createdOfJSON(t *testing.T, c *jsonapi.JsCreatedEvent) createdSummary {
	t.Helper()
	var ping struct{ ID, Initiator, Responder string }
	if err := json.Unmarshal(c.CreateArgument, &ping); err != nil {
		t.Fatalf("argument %s: %v", c.CreateArgument, err)
	}
	at, err := time.Parse(time.RFC3339Nano, c.CreatedAt)
	if err != nil {
		t.Fatal(err)
	}
	return createdSummary{ContractID: c.ContractID, TemplateID: c.TemplateID, PackageName: c.PackageName, RepresentativePackageID: c.RepresentativePackageID,
		Offset: c.Offset, NodeID: c.NodeID, Args: []string{ping.ID, ping.Initiator, ping.Responder},
		Signatories: c.Signatories, Observers: c.Observers, Witnesses: c.WitnessParties, CreatedAt: at.UTC().Format(time.RFC3339Nano),
		Blob: c.CreatedEventBlob, ACSDelta: c.ACSDelta}
}

// acsEntry is what both APIs must agree on about an entry of a page of
// active contracts.
type acsEntry struct {
	WorkflowID, SynchronizerID string
	Counter                    int64
	Created                    createdSummary
}

// pageSummary is a page of active contracts: its entries, its offset and
// its next page token as the JSON API writes it (base64 of the gRPC
// bytes).
type pageSummary struct {
	Entries []acsEntry
	At      int64
	Next    *string
}

func pageOfProto(p *ledgerv2.GetActiveContractsPageResponse) pageSummary {
	out := pageSummary{At: p.ActiveAtOffset}
	for _, r := range p.ActiveContracts {
		ac := r.GetActiveContract()
		out.Entries = append(out.Entries, acsEntry{r.WorkflowId, ac.GetSynchronizerId(), int64(ac.GetReassignmentCounter()), createdOfProto(ac.GetCreatedEvent())})
	}
	if p.NextPageToken != nil {
		s := base64.StdEncoding.EncodeToString(p.NextPageToken)
		out.Next = &s
	}
	return out
}

func pageOfJSON(t *testing.T, p jsonapi.GetActiveContractsPageResponse) pageSummary {
	t.Helper()
	out := pageSummary{At: p.ActiveAtOffset, Next: p.NextPageToken}
	for _, r := range p.ActiveContracts {
		ac := r.ContractEntry.JsActiveContract
		out.Entries = append(out.Entries, acsEntry{r.WorkflowID, ac.SynchronizerID, ac.ReassignmentCounter, createdOfJSON(t, &ac.CreatedEvent)})
	}
	return out
}

// sameSecretHTTP serves e's node over the JSON API with e's verifier, so
// that one token (e.token) is good for both APIs.
func sameSecretHTTP(t *testing.T, e *env) *httptest.Server {
	t.Helper()
	v, err := identity.ParseAuthSpec("hs256:"+string(e.secret), identity.VerifyOptions{ParticipantID: e.node.ParticipantIDString()})
	if err != nil {
		t.Fatal(err)
	}
	return ledgertest.ServeWith(t, e.node, v)
}

// contractsEnv is a ping environment with carol, a party of no Ping
// (the admin may read as her), a reader user (CanReadAs alice only), and
// a JSON API server that takes the same tokens as the gRPC one.
type contractsEnv struct {
	*pingEnv
	http      *httptest.Server
	carol     string
	adminTok  string // the participant admin's token
	readerTok string // the reader's token
}

func newContractsEnv(t *testing.T) *contractsEnv {
	t.Helper()
	p := newPingEnv(t)
	if _, err := admin.NewUserManagementServiceClient(p.conn).CreateUser(p.grpcCtx, &admin.CreateUserRequest{User: &admin.User{Id: "reader"},
		Rights: []*admin.Right{{Kind: &admin.Right_CanReadAs_{CanReadAs: &admin.Right_CanReadAs{Party: p.alice}}}}}); err != nil {
		t.Fatal(err)
	}
	carol := ledgertest.MustAllocate(t, p.node, "carol")
	if _, err := p.node.GrantUserRights(context.Background(), identity.DefaultParticipantAdmin, "", []identity.Right{{Kind: identity.RightCanReadAs, Party: carol}}); err != nil {
		t.Fatal(err)
	}
	return &contractsEnv{pingEnv: p, http: sameSecretHTTP(t, p.env), carol: carol, adminTok: p.env.admin, readerTok: p.token(t, "reader")}
}

// postAs posts body to path over the JSON API with token.
func (c *contractsEnv) postAs(token, path, body string) *http.Response {
	c.t.Helper()
	req, err := http.NewRequest(http.MethodPost, c.http.URL+path, strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Client().Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	return resp
}

// sameHTTPRefusal fails the test unless the gRPC error and the JSON API's
// answer are the same refusal: for a redacted status (PERMISSION_DENIED)
// the same gRPC code and HTTP 403, else the same Canton error.
func sameHTTPRefusal(t *testing.T, grpcErr error, resp *http.Response, want codes.Code, code string) {
	t.Helper()
	st, ok := status.FromError(grpcErr)
	if grpcErr == nil || !ok || st.Code() != want {
		t.Fatalf("gRPC answered %v, want %v", grpcErr, want)
	}
	if want == codes.PermissionDenied {
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("JSON API answered HTTP %d, want 403", resp.StatusCode)
		}
		return
	}
	j, g := jsonError(t, resp), fromGRPC(t, grpcErr)
	if g.Code != code {
		t.Errorf("gRPC code %s, want %s", g.Code, code)
	}
	if d := cmp.Diff(j, g); d != "" {
		t.Errorf("refusal differs (-json +grpc):\n%s", d)
	}
}

// createPings creates a Ping per id (alice for bob) over gRPC, each in
// its workflow "wf-<id>".
func (p *pingEnv) createPings(ids ...string) {
	p.t.Helper()
	for _, id := range ids {
		c, _ := p.createPing(id, p.pingID)
		c.WorkflowId = "wf-" + id
		if _, err := p.commands.SubmitAndWait(p.grpcCtx, &ledgerv2.SubmitAndWaitRequest{Commands: c}); err != nil {
			p.t.Fatal(err)
		}
	}
}

// TestActiveContractsPageSameAsJSON: GetActiveContractsPage pages
// through the same contracts as the JSON API's
// /v2/state/active-contracts-page, in the same order, with the same
// offsets and tokens (the JSON token is the base64 of the gRPC bytes);
// a token keeps its offset while the ledger moves on, and the same
// requests are refused alike.
func TestActiveContractsPageSameAsJSON(t *testing.T) {
	t.Parallel()
	c := newContractsEnv(t)
	c.pingLedger("consumed")
	c.createPings("p1", "p2", "p3", "p4", "p5")
	state := ledgerv2.NewStateServiceClient(c.conn)
	format := func(party string) (*ledgerv2.EventFormat, string) {
		return &ledgerv2.EventFormat{FiltersByParty: map[string]*ledgerv2.Filters{party: {}}, Verbose: true},
			fmt.Sprintf(`{"filtersByParty":{%q:{}},"verbose":true}`, party)
	}
	size := int32(2)
	jsonPage := func(token, body string) pageSummary {
		t.Helper()
		var p jsonapi.GetActiveContractsPageResponse
		decodeOK(t, c.postAs(token, "/v2/state/active-contracts-page", body), &p)
		return pageOfJSON(t, p)
	}
	for _, party := range []string{c.alice, c.bob} {
		t.Run(party[:5], func(t *testing.T) {
			g, j := format(party)
			var grpcPages, jsonPages []pageSummary
			req := &ledgerv2.GetActiveContractsPageRequest{EventFormat: g, MaxPageSize: &size}
			body := fmt.Sprintf(`{"eventFormat":%s,"maxPageSize":%d}`, j, size)
			first := true
			for {
				res, err := state.GetActiveContractsPage(c.grpcCtx, req)
				if err != nil {
					t.Fatal(err)
				}
				gp, jp := pageOfProto(res), jsonPage(c.adminTok, body)
				grpcPages, jsonPages = append(grpcPages, gp), append(jsonPages, jp)
				if first {
					// The ledger moves on: the next pages still read at
					// the first page's offset.
					c.createPings("later-" + party[:5])
					first = false
				}
				if res.NextPageToken == nil || jp.Next == nil || len(grpcPages) > 5 {
					break
				}
				req.PageToken = res.NextPageToken
				body = fmt.Sprintf(`{"eventFormat":%s,"maxPageSize":%d,"pageToken":%q}`, j, size, *jp.Next)
			}
			if len(grpcPages) != 3 {
				t.Errorf("%d pages of %d, want 3 (5 active Pings)", len(grpcPages), size)
			}
			if d := cmp.Diff(jsonPages, grpcPages, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("pages differ (-json +grpc):\n%s", d)
			}
			// The pages hold the active contracts the JSON API lists at
			// their offset, in that order.
			var list []jsonapi.GetActiveContractsResponse
			c.postOK("/v2/state/active-contracts", fmt.Sprintf(`{"activeAtOffset":%d,"eventFormat":%s}`, grpcPages[0].At, j), &list)
			var want, got []string
			for _, r := range list {
				want = append(want, r.ContractEntry.JsActiveContract.CreatedEvent.ContractID)
			}
			for _, p := range grpcPages {
				if p.At != grpcPages[0].At {
					t.Errorf("a page at %d, the first at %d", p.At, grpcPages[0].At)
				}
				for _, e := range p.Entries {
					got = append(got, e.Created.ContractID)
				}
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("paged contracts differ from the JSON list (-json +grpc):\n%s", d)
			}
		})
	}

	t.Run("refusals", func(t *testing.T) {
		end := c.end()
		ga, ja := format(c.alice)
		gb, jb := format(c.bob)
		// A token of bob's format, used with alice's.
		res, err := state.GetActiveContractsPage(c.grpcCtx, &ledgerv2.GetActiveContractsPageRequest{EventFormat: gb, MaxPageSize: &size})
		if err != nil || res.NextPageToken == nil {
			t.Fatalf("bob's first page: %v, %v", res, err)
		}
		bobs := base64.StdEncoding.EncodeToString(res.NextPageToken)
		zero, tooBig, after := int32(0), int32(ledger.MaxACSPageSize+1), end+5
		for _, tc := range []struct {
			name  string
			token string // the caller's token, for both APIs
			req   *ledgerv2.GetActiveContractsPageRequest
			body  string
			want  codes.Code
			code  string
		}{
			{"a page token that is no token", c.adminTok, &ledgerv2.GetActiveContractsPageRequest{EventFormat: ga, PageToken: []byte("garbage")},
				fmt.Sprintf(`{"eventFormat":%s,"pageToken":%q}`, ja, base64.StdEncoding.EncodeToString([]byte("garbage"))), codes.InvalidArgument, "INVALID_FIELD"},
			{"another format's page token", c.adminTok, &ledgerv2.GetActiveContractsPageRequest{EventFormat: ga, MaxPageSize: &size, PageToken: res.NextPageToken},
				fmt.Sprintf(`{"eventFormat":%s,"maxPageSize":%d,"pageToken":%q}`, ja, size, bobs), codes.InvalidArgument, "INVALID_ACS_PAGE_TOKEN"},
			{"a page size of 0", c.adminTok, &ledgerv2.GetActiveContractsPageRequest{EventFormat: ga, MaxPageSize: &zero},
				fmt.Sprintf(`{"eventFormat":%s,"maxPageSize":0}`, ja), codes.InvalidArgument, "INVALID_ARGUMENT"},
			{"a page size over the limit", c.adminTok, &ledgerv2.GetActiveContractsPageRequest{EventFormat: ga, MaxPageSize: &tooBig},
				fmt.Sprintf(`{"eventFormat":%s,"maxPageSize":%d}`, ja, tooBig), codes.InvalidArgument, "INVALID_ARGUMENT"},
			{"an offset after the ledger end", c.adminTok, &ledgerv2.GetActiveContractsPageRequest{EventFormat: ga, ActiveAtOffset: &after},
				fmt.Sprintf(`{"eventFormat":%s,"activeAtOffset":%d}`, ja, after), codes.OutOfRange, "OFFSET_AFTER_LEDGER_END"},
			{"a party the user may not read as", c.readerTok, &ledgerv2.GetActiveContractsPageRequest{EventFormat: gb},
				fmt.Sprintf(`{"eventFormat":%s}`, jb), codes.PermissionDenied, ""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				_, err := state.GetActiveContractsPage(as(tc.token), tc.req)
				sameHTTPRefusal(t, err, c.postAs(tc.token, "/v2/state/active-contracts-page", tc.body), tc.want, tc.code)
			})
		}
		if c.end() != end {
			t.Errorf("ledger end %d after the refusals, want %d", c.end(), end)
		}
	})

	t.Run("reader as alice", func(t *testing.T) {
		g, j := format(c.alice)
		res, err := state.GetActiveContractsPage(as(c.readerTok), &ledgerv2.GetActiveContractsPageRequest{EventFormat: g})
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(jsonPage(c.readerTok, fmt.Sprintf(`{"eventFormat":%s}`, j)), pageOfProto(res), cmpopts.EquateEmpty()); d != "" {
			t.Errorf("reader's page differs (-json +grpc):\n%s", d)
		}
	})
}

// TestGetContractSameAsJSON: GetContract answers what the JSON API's
// /v2/contracts/contract-by-id does, for an active and an archived
// contract, and refuses alike, leaving the ledger as it was: a
// non-stakeholder or an unknown contract (CONTRACT_PAYLOAD_NOT_FOUND), a
// party the user may not read as, a malformed contract id (INVALID_FIELD
// once authorized, PERMISSION_DENIED before).
func TestGetContractSameAsJSON(t *testing.T) {
	t.Parallel()
	c := newContractsEnv(t)
	created, _ := c.pingLedger("archived")
	archived := c.createdCID(created)
	active := c.createdCID(c.mustCreate("active"))
	carol := c.carol
	contracts := ledgerv2.NewContractServiceClient(c.conn)
	body := func(cid string, parties ...string) string {
		ps, _ := json.Marshal(parties)
		return fmt.Sprintf(`{"contractId":%q,"queryingParties":%s}`, cid, ps)
	}
	for _, tc := range []struct {
		name    string
		cid     string
		parties []string
	}{
		{"active, as alice", active, []string{c.alice}},
		{"active, as bob and carol", active, []string{c.bob, carol}},
		{"archived, as bob", archived, []string{c.bob}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := contracts.GetContract(c.grpcCtx, &ledgerv2.GetContractRequest{ContractId: tc.cid, QueryingParties: tc.parties})
			if err != nil {
				t.Fatal(err)
			}
			var want jsonapi.GetContractResponse
			c.postOK("/v2/contracts/contract-by-id", body(tc.cid, tc.parties...), &want)
			if d := cmp.Diff(createdOfJSON(t, &want.CreatedEvent), createdOfProto(res.CreatedEvent), cmpopts.EquateEmpty()); d != "" {
				t.Errorf("created event differs (-json +grpc):\n%s", d)
			}
			if res.CreatedEvent.CreateArguments.RecordId != nil || res.CreatedEvent.CreateArguments.Fields[0].Label != "" {
				t.Errorf("argument %v is verbose; Canton's GetContract is not", res.CreatedEvent.CreateArguments)
			}
		})
	}
	end := c.end()
	for _, tc := range []struct {
		name    string
		token   string
		cid     string
		parties []string
		want    codes.Code
		code    string
	}{
		{"a non-stakeholder", c.adminTok, active, []string{carol}, codes.NotFound, "CONTRACT_PAYLOAD_NOT_FOUND"},
		{"an unknown contract", c.adminTok, "00" + strings.Repeat("ab", 32), []string{c.alice}, codes.NotFound, "CONTRACT_PAYLOAD_NOT_FOUND"},
		{"no contract id", c.adminTok, "", []string{c.alice}, codes.InvalidArgument, "MISSING_FIELD"},
		{"a party the user may not read as", c.readerTok, active, []string{c.bob}, codes.PermissionDenied, ""},
		{"any party, without the right", c.readerTok, active, nil, codes.PermissionDenied, ""},
		// A contract id that does not parse: INVALID_FIELD for a caller
		// who may read, but authorization comes first (Canton's
		// ContractServiceAuthorization before requireContractId).
		{"a malformed contract id", c.adminTok, "zz", []string{c.alice}, codes.InvalidArgument, "INVALID_FIELD"},
		{"a malformed contract id, a party the user may not read as", c.readerTok, "zz", []string{c.bob}, codes.PermissionDenied, ""},
		{"a malformed contract id, any party without the right", c.readerTok, "zz", nil, codes.PermissionDenied, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := contracts.GetContract(as(tc.token), &ledgerv2.GetContractRequest{ContractId: tc.cid, QueryingParties: tc.parties})
			sameHTTPRefusal(t, err, c.postAs(tc.token, "/v2/contracts/contract-by-id", body(tc.cid, tc.parties...)), tc.want, tc.code)
		})
	}
	// Canton's words for it (FieldValidator.requireContractId).
	_, err := contracts.GetContract(as(c.adminTok), &ledgerv2.GetContractRequest{ContractId: "zz", QueryingParties: []string{c.alice}})
	if want := `The submitted command has a field with invalid value: Invalid field contract_id: cannot parse ContractId "zz"`; fromGRPC(t, err).Cause != want {
		t.Errorf("a contract id that does not parse: %v, want the cause %q", err, want)
	}
	if c.end() != end {
		t.Errorf("ledger end %d after the refusals, want %d", c.end(), end)
	}
}

// eventsSummary is what both APIs must agree on about a contract's
// events.
type eventsSummary struct {
	Created                   *createdSummary
	CreatedSync, ArchivedSync string
	ArchivedID, ArchivedTmpl  string
	ArchivedOffset            int64
	ArchivedNode              int32
	ArchivedWitnesses         []string
}

// TestEventsByContractIDSameAsJSON: GetEventsByContractId answers what
// the JSON API's /v2/events/events-by-contract-id does, for an active
// and an archived contract, and refuses alike: a format that shows none
// of the contract's events or an unknown contract
// (CONTRACT_EVENTS_NOT_FOUND), a party the user may not read as.
func TestEventsByContractIDSameAsJSON(t *testing.T) {
	t.Parallel()
	c := newContractsEnv(t)
	created, _ := c.pingLedger("archived")
	archived := c.createdCID(created)
	active := c.createdCID(c.mustCreate("active"))
	carol := c.carol
	events := ledgerv2.NewEventQueryServiceClient(c.conn)
	request := func(cid string, blobs bool, parties ...string) (*ledgerv2.GetEventsByContractIdRequest, string) {
		g := &ledgerv2.EventFormat{FiltersByParty: map[string]*ledgerv2.Filters{}, Verbose: true}
		fs, jfs := &ledgerv2.Filters{}, "{}"
		if blobs {
			fs = &ledgerv2.Filters{Cumulative: []*ledgerv2.CumulativeFilter{{IdentifierFilter: &ledgerv2.CumulativeFilter_WildcardFilter{
				WildcardFilter: &ledgerv2.WildcardFilter{IncludeCreatedEventBlob: true}}}}}
			jfs = `{"cumulative":[{"identifierFilter":{"WildcardFilter":{"value":{"includeCreatedEventBlob":true}}}}]}`
		}
		var js []string
		for _, p := range parties {
			g.FiltersByParty[p] = fs
			js = append(js, fmt.Sprintf("%q:%s", p, jfs))
		}
		return &ledgerv2.GetEventsByContractIdRequest{ContractId: cid, EventFormat: g},
			fmt.Sprintf(`{"contractId":%q,"eventFormat":{"filtersByParty":{%s},"verbose":true}}`, cid, strings.Join(js, ","))
	}
	for _, tc := range []struct {
		name     string
		cid      string
		blobs    bool
		parties  []string
		archived bool
	}{
		{"active, as alice", active, false, []string{c.alice}, false},
		{"active, as bob and carol, with blobs", active, true, []string{c.bob, carol}, false},
		{"archived, as alice", archived, false, []string{c.alice}, true},
		{"archived, as bob", archived, false, []string{c.bob}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, body := request(tc.cid, tc.blobs, tc.parties...)
			res, err := events.GetEventsByContractId(c.grpcCtx, req)
			if err != nil {
				t.Fatal(err)
			}
			var want jsonapi.GetEventsByContractIDResponse
			c.postOK("/v2/events/events-by-contract-id", body, &want)
			if (want.Archived != nil) != tc.archived || want.Created == nil {
				t.Fatalf("the JSON API answers %+v; want created and archived: %v", want, tc.archived)
			}
			js := eventsSummary{CreatedSync: want.Created.SynchronizerID}
			cs := createdOfJSON(t, &want.Created.CreatedEvent)
			js.Created = &cs
			if a := want.Archived; a != nil {
				js.ArchivedSync, js.ArchivedID, js.ArchivedTmpl = a.SynchronizerID, a.ArchivedEvent.ContractID, a.ArchivedEvent.TemplateID
				js.ArchivedOffset, js.ArchivedNode, js.ArchivedWitnesses = a.ArchivedEvent.Offset, a.ArchivedEvent.NodeID, a.ArchivedEvent.WitnessParties
			}
			gs := eventsSummary{CreatedSync: res.GetCreated().GetSynchronizerId()}
			if res.Created != nil {
				s := createdOfProto(res.Created.CreatedEvent)
				gs.Created = &s
			}
			if a := res.Archived; a != nil {
				e := a.ArchivedEvent
				gs.ArchivedSync, gs.ArchivedID = a.SynchronizerId, e.ContractId
				gs.ArchivedTmpl = e.TemplateId.PackageId + ":" + e.TemplateId.ModuleName + ":" + e.TemplateId.EntityName
				gs.ArchivedOffset, gs.ArchivedNode, gs.ArchivedWitnesses = e.Offset, e.NodeId, e.WitnessParties
			}
			if d := cmp.Diff(js, gs, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("events differ (-json +grpc):\n%s", d)
			}
			if tc.blobs && gs.Created.Blob == "" {
				t.Error("no created event blob; the format asks for it")
			}
		})
	}
	end := c.end()
	for _, tc := range []struct {
		name    string
		token   string
		cid     string
		parties []string
		want    codes.Code
		code    string
	}{
		{"a non-stakeholder", c.adminTok, active, []string{carol}, codes.NotFound, "CONTRACT_EVENTS_NOT_FOUND"},
		{"an unknown contract", c.adminTok, "00" + strings.Repeat("ab", 32), []string{c.alice}, codes.NotFound, "CONTRACT_EVENTS_NOT_FOUND"},
		{"no contract id", c.adminTok, "", []string{c.alice}, codes.InvalidArgument, "MISSING_FIELD"},
		{"a party the user may not read as", c.readerTok, active, []string{c.bob}, codes.PermissionDenied, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, body := request(tc.cid, false, tc.parties...)
			_, err := events.GetEventsByContractId(as(tc.token), req)
			sameHTTPRefusal(t, err, c.postAs(tc.token, "/v2/events/events-by-contract-id", body), tc.want, tc.code)
		})
	}
	// Canton checks the contract id, its presence and its syntax, before
	// the event format (EventQueryServiceRequestValidator), after it
	// authorized the format's parties (EventQueryServiceAuthorization):
	// a reader who may not read as the format's party is refused so
	// whatever the id.
	for _, cid := range []string{"", "zz"} {
		req, body := request(cid, false, c.bob)
		_, err := events.GetEventsByContractId(as(c.readerTok), req)
		sameHTTPRefusal(t, err, c.postAs(c.readerTok, "/v2/events/events-by-contract-id", body), codes.PermissionDenied, "")
	}
	withFormat, _ := request("zz", false, c.alice)
	for _, req := range []*ledgerv2.GetEventsByContractIdRequest{{}, {ContractId: "zz"}, withFormat} {
		want := "INVALID_FIELD"
		if req.ContractId == "" {
			want = "MISSING_FIELD"
		}
		_, err := events.GetEventsByContractId(as(c.adminTok), req)
		if info := wantCode(t, err, codes.InvalidArgument, want); !strings.Contains(status.Convert(err).Message(), "contract_id") {
			t.Errorf("contract id %q: %v (%v), want the contract id's error", req.ContractId, err, info)
		}
	}
	if c.end() != end {
		t.Errorf("ledger end %d after the refusals, want %d", c.end(), end)
	}
}

// TestActiveContractsPageInTransitSameAsJSON: on a node with two
// synchronizers, a contract unassigned and not yet assigned is on the
// page as an IncompleteUnassigned with its created and unassigned events,
// as the JSON page's JsIncompleteUnassigned.
func TestActiveContractsPageInTransitSameAsJSON(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.FromSlash(pingDAR))
	if err != nil {
		t.Skipf("../shared not found: skipping (%v)", err)
	}
	syncs := []string{"s1::1220" + strings.Repeat("01", 32), "s2::1220" + strings.Repeat("02", 32)}
	node := ledgertest.Open(t, ledger.Options{Synchronizers: syncs})
	ctx := context.Background()
	for _, s := range syncs {
		if err := node.UploadDAR(ctx, ledger.UploadDARRequest{DAR: data, SynchronizerID: s}); err != nil {
			t.Fatal(err)
		}
	}
	alice, bob := ledgertest.MustAllocate(t, node, "alice"), ledgertest.MustAllocate(t, node, "bob")
	if _, err := node.GrantUserRights(ctx, identity.DefaultParticipantAdmin, "", []identity.Right{{Kind: identity.RightCanReadAs, Party: bob}}); err != nil {
		t.Fatal(err)
	}
	ping := ledger.MustParseTemplateRef(ledgertest.MainPackageID(t, data) + ":Canton.Internal.Ping:Ping")
	var cids []string
	for _, id := range []string{"moving", "staying"} {
		res := ledgertest.Submit(t, node, ledger.Commands{ActAs: []string{alice}, WorkflowID: "wf-" + id, Commands: []ledger.Command{
			ledger.CreateCommand{Template: ping, Arguments: ledgertest.Record(map[string]value.Value{
				"id": value.Text(id), "initiator": value.Party(alice), "responder": value.Party(bob)})}}})
		cids = append(cids, string(res.Created()[0].ContractID))
	}
	if _, err := node.Reassign(ctx, ledger.ReassignCommands{CommandID: "unassign", Submitter: alice, Commands: []ledger.ReassignCommand{
		ledger.UnassignContract{ContractID: value.ContractID(cids[0]), Source: syncs[0], Target: syncs[1]}}}); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, node, grpcadapter.Options{})
	srv := sameSecretHTTP(t, e)
	res, err := ledgerv2.NewStateServiceClient(e.conn).GetActiveContractsPage(as(e.admin), &ledgerv2.GetActiveContractsPageRequest{
		EventFormat: &ledgerv2.EventFormat{FiltersByParty: map[string]*ledgerv2.Filters{bob: {}}, Verbose: true}})
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, srv.URL+"/v2/state/active-contracts-page",
		strings.NewReader(fmt.Sprintf(`{"eventFormat":{"filtersByParty":{%q:{}},"verbose":true}}`, bob)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+e.admin)
	req.Header.Set("Content-Type", "application/json")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var js jsonapi.GetActiveContractsPageResponse
	decodeOK(t, resp, &js)
	type entry struct {
		WorkflowID, SynchronizerID    string
		Counter                       int64
		Created                       createdSummary
		Unassigned                    bool
		ReassignmentID, Source        string
		Target, ContractID, Template  string
		UnassignedOffset, UnassignedN int64
		Witnesses                     []string
	}
	var want, got []entry
	for _, r := range js.ActiveContracts {
		if ac := r.ContractEntry.JsActiveContract; ac != nil {
			want = append(want, entry{WorkflowID: r.WorkflowID, SynchronizerID: ac.SynchronizerID, Counter: ac.ReassignmentCounter, Created: createdOfJSON(t, &ac.CreatedEvent)})
			continue
		}
		iu := r.ContractEntry.JsIncompleteUnassigned
		u := iu.UnassignedEvent
		want = append(want, entry{WorkflowID: r.WorkflowID, Created: createdOfJSON(t, &iu.CreatedEvent), Unassigned: true, ReassignmentID: u.ReassignmentID,
			Source: u.Source, Target: u.Target, ContractID: u.ContractID, Template: u.TemplateID, UnassignedOffset: u.Offset,
			UnassignedN: u.ReassignmentCounter, Witnesses: u.WitnessParties})
	}
	for _, r := range res.ActiveContracts {
		if ac := r.GetActiveContract(); ac != nil {
			got = append(got, entry{WorkflowID: r.WorkflowId, SynchronizerID: ac.SynchronizerId, Counter: int64(ac.ReassignmentCounter), Created: createdOfProto(ac.CreatedEvent)})
			continue
		}
		iu := r.GetIncompleteUnassigned()
		u := iu.GetUnassignedEvent()
		id := u.GetTemplateId()
		got = append(got, entry{WorkflowID: r.WorkflowId, Created: createdOfProto(iu.GetCreatedEvent()), Unassigned: true, ReassignmentID: u.ReassignmentId,
			Source: u.Source, Target: u.Target, ContractID: u.ContractId, Template: id.GetPackageId() + ":" + id.GetModuleName() + ":" + id.GetEntityName(),
			UnassignedOffset: u.Offset, UnassignedN: int64(u.ReassignmentCounter), Witnesses: u.WitnessParties})
	}
	if len(want) != 2 || !slices.ContainsFunc(want, func(e entry) bool { return e.Unassigned && e.ContractID == cids[0] }) {
		t.Fatalf("the JSON page holds %+v; want the moving Ping in transit beside the staying one", want)
	}
	if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
		t.Errorf("page differs (-json +grpc):\n%s", d)
	}
}
