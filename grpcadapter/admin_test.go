package grpcadapter_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/grpcadapter"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/grpcadapter/pb/v2/admin"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// TestListKnownPackages: PackageManagementService.ListKnownPackages lists
// the uploaded packages with their size, upload time, name and version,
// and refuses a caller without the admin right.
func TestListKnownPackages(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, grpcadapter.Options{})
	ctx := as(e.admin)
	pm := admin.NewPackageManagementServiceClient(e.conn)
	if list, err := pm.ListKnownPackages(ctx, &admin.ListKnownPackagesRequest{}); err != nil || len(list.PackageDetails) != 0 {
		t.Fatalf("before an upload: %v, %v", list, err)
	}
	before := time.Now().Add(-time.Second)
	dar, ids := lftest.DAR(lftest.IouPackage("1.2.3"))
	if _, err := pm.UploadDarFile(ctx, &admin.UploadDarFileRequest{DarFile: dar}); err != nil {
		t.Fatal(err)
	}
	list, err := pm.ListKnownPackages(ctx, &admin.ListKnownPackagesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var found *admin.PackageDetails
	for _, p := range list.PackageDetails {
		if p.PackageId == ids[0] {
			found = p
		}
	}
	pkg, err := e.node.GetPackage(context.Background(), ids[0])
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case found == nil:
		t.Fatalf("%s not in %v", ids[0], list.PackageDetails)
	case found.PackageSize != uint64(len(pkg.Payload)) || found.Version != "1.2.3" || found.Name == "":
		t.Errorf("details %v; want size %d, version 1.2.3 and a name", found, len(pkg.Payload))
	case found.KnownSince.AsTime().Before(before) || found.KnownSince.AsTime().After(time.Now()):
		t.Errorf("known since %v, want the upload's time", found.KnownSince.AsTime())
	}

	if _, err := admin.NewUserManagementServiceClient(e.conn).CreateUser(ctx, &admin.CreateUserRequest{User: &admin.User{Id: "plain"}}); err != nil {
		t.Fatal(err)
	}
	_, err = pm.ListKnownPackages(as(e.token(t, "plain")), &admin.ListKnownPackagesRequest{})
	wantCode(t, err, codes.PermissionDenied, "")
}

// TestUpdatePartyIdentityProviderId: a party moves between identity
// providers as in Canton; each refusal has Canton's code and leaves the
// party where it was.
func TestUpdatePartyIdentityProviderId(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, grpcadapter.Options{})
	ctx := as(e.admin)
	pc := admin.NewPartyManagementServiceClient(e.conn)
	if _, err := admin.NewIdentityProviderConfigServiceClient(e.conn).CreateIdentityProviderConfig(ctx, &admin.CreateIdentityProviderConfigRequest{
		IdentityProviderConfig: &admin.IdentityProviderConfig{IdentityProviderId: "idp1", Issuer: "issuer1", JwksUrl: "https://jwks.example/1"}}); err != nil {
		t.Fatal(err)
	}
	res, err := pc.AllocateParty(ctx, &admin.AllocatePartyRequest{PartyIdHint: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	alice := res.PartyDetails.Party
	// idpOf is alice's provider as the Node sees it.
	idpOf := func() string {
		t.Helper()
		for _, idp := range []string{"", "idp1"} {
			got, err := e.node.GetParties(context.Background(), []string{alice}, idp)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) == 1 && got[0].IsLocal {
				return got[0].IdentityProviderID
			}
		}
		return "none"
	}

	refusals := []struct {
		name   string
		req    *admin.UpdatePartyIdentityProviderIdRequest
		reason string
	}{
		{"no party", &admin.UpdatePartyIdentityProviderIdRequest{TargetIdentityProviderId: "idp1"}, "MISSING_FIELD"},
		{"malformed party", &admin.UpdatePartyIdentityProviderIdRequest{Party: "not a party!", TargetIdentityProviderId: "idp1"}, "INVALID_FIELD"},
		{"unknown target", &admin.UpdatePartyIdentityProviderIdRequest{Party: alice, TargetIdentityProviderId: "idp9"}, "INVALID_ARGUMENT"},
		{"unknown source", &admin.UpdatePartyIdentityProviderIdRequest{Party: alice, SourceIdentityProviderId: "idp9", TargetIdentityProviderId: "idp1"}, "INVALID_ARGUMENT"},
		{"wrong source", &admin.UpdatePartyIdentityProviderIdRequest{Party: alice, SourceIdentityProviderId: "idp1"}, "PARTY_NOT_FOUND"},
		{"unknown party", &admin.UpdatePartyIdentityProviderIdRequest{Party: "bob::" + strings.Repeat("12", 34), TargetIdentityProviderId: "idp1"}, "PARTY_NOT_FOUND"},
	}
	for _, tc := range refusals {
		t.Run(tc.name, func(t *testing.T) {
			_, err := pc.UpdatePartyIdentityProviderId(ctx, tc.req)
			code := codes.InvalidArgument
			if tc.reason == "PARTY_NOT_FOUND" {
				code = codes.NotFound
			}
			wantCode(t, err, code, tc.reason)
			if got := idpOf(); got != "" {
				t.Errorf("alice in provider %q after the refusal, want the default", got)
			}
		})
	}

	if _, err := pc.UpdatePartyIdentityProviderId(ctx, &admin.UpdatePartyIdentityProviderIdRequest{Party: alice, TargetIdentityProviderId: "idp1"}); err != nil {
		t.Fatal(err)
	}
	if got := idpOf(); got != "idp1" {
		t.Fatalf("alice in provider %q, want idp1", got)
	}
	list, _, err := e.node.ListParties(context.Background(), ledger.ListPartiesRequest{IdentityProviderID: "idp1"})
	if err != nil || len(list) != 1 || list[0].Party != alice {
		t.Errorf("idp1's parties %v, %v; want alice", list, err)
	}
	if _, err := pc.UpdatePartyIdentityProviderId(ctx, &admin.UpdatePartyIdentityProviderIdRequest{Party: alice, SourceIdentityProviderId: "idp1"}); err != nil {
		t.Fatal(err)
	}
	if got := idpOf(); got != "" {
		t.Errorf("alice in provider %q after moving back, want the default", got)
	}
}

// TestPrune: ParticipantPruningService.Prune refuses as Canton does with
// nothing pruned, then prunes: StateService reports the offset and the
// Node's reads before it fail with PARTICIPANT_PRUNED_DATA_ACCESSED.
func TestPrune(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, grpcadapter.Options{})
	ctx := as(e.admin)
	pc := admin.NewPartyManagementServiceClient(e.conn)
	for _, hint := range []string{"alice", "bob", "carol"} {
		if _, err := pc.AllocateParty(ctx, &admin.AllocatePartyRequest{PartyIdHint: hint}); err != nil {
			t.Fatal(err)
		}
	}
	state := ledgerv2.NewStateServiceClient(e.conn)
	end, err := state.GetLedgerEnd(ctx, &ledgerv2.GetLedgerEndRequest{})
	if err != nil || end.Offset < 3 {
		t.Fatalf("ledger end %v, %v", end, err)
	}
	if _, err := admin.NewUserManagementServiceClient(e.conn).CreateUser(ctx, &admin.CreateUserRequest{User: &admin.User{Id: "plain"}}); err != nil {
		t.Fatal(err)
	}
	pruned := func() int64 {
		t.Helper()
		res, err := state.GetLatestPrunedOffsets(ctx, &ledgerv2.GetLatestPrunedOffsetsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if res.AllDivulgedContractsPrunedUpToInclusive != res.ParticipantPrunedUpToInclusive {
			t.Errorf("pruned offsets %v differ", res)
		}
		return res.ParticipantPrunedUpToInclusive
	}
	topology := ledger.UpdateReadFormat{Topology: &ledger.TopologyReadFormat{ParticipantAuthorizations: []string{}}}
	readFromStart := func() error {
		_, err := e.node.UpdatesPage(context.Background(), topology, ledger.OffsetRange{Through: &end.Offset}, nil, nil)
		return err
	}
	pp := admin.NewParticipantPruningServiceClient(e.conn)
	for _, tc := range []struct {
		name   string
		ctx    context.Context
		upTo   int64
		code   codes.Code
		reason string
	}{
		{"zero", ctx, 0, codes.InvalidArgument, "INVALID_ARGUMENT"},
		{"negative", ctx, -2, codes.InvalidArgument, "NON_POSITIVE_OFFSET"},
		{"at the ledger end", ctx, end.Offset, codes.FailedPrecondition, "OFFSET_OUT_OF_RANGE"},
		{"after the ledger end", ctx, end.Offset + 1, codes.FailedPrecondition, "OFFSET_OUT_OF_RANGE"},
		{"not an admin", as(e.token(t, "plain")), 1, codes.PermissionDenied, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := pp.Prune(tc.ctx, &admin.PruneRequest{PruneUpTo: tc.upTo})
			wantCode(t, err, tc.code, tc.reason)
			if got := pruned(); got != 0 {
				t.Errorf("pruned up to %d after the refusal", got)
			}
			if err := readFromStart(); err != nil {
				t.Errorf("reading from the start after the refusal: %v", err)
			}
		})
	}

	upTo := end.Offset - 1
	if _, err := pp.Prune(ctx, &admin.PruneRequest{PruneUpTo: upTo, SubmissionId: "prune-1"}); err != nil {
		t.Fatal(err)
	}
	if got := pruned(); got != upTo {
		t.Errorf("pruned up to %d, want %d", got, upTo)
	}
	if err := readFromStart(); !errors.Is(err, apierr.ParticipantPrunedDataAccessed) {
		t.Errorf("reading from the start after pruning: %v, want PARTICIPANT_PRUNED_DATA_ACCESSED", err)
	}
	page, err := e.node.UpdatesPage(context.Background(), topology, ledger.OffsetRange{After: upTo, Through: &end.Offset}, nil, nil)
	if err != nil {
		t.Fatalf("reading after the pruned offset: %v", err)
	}
	if len(page.Updates) != 1 || page.Updates[0].UpdateOffset() != end.Offset {
		t.Errorf("the updates after the pruned offset: %v, want the one at %d", page.Updates, end.Offset)
	}
}

// TestGetCommandStatus: CommandInspectionService answers from the Node's
// command tracker: the succeeded and failed commands with their
// completion status and effects, filtered by prefix, state and limit.
func TestGetCommandStatus(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, grpcadapter.Options{})
	ctx := as(e.admin)
	bg := context.Background()
	dar, ids := lftest.DAR(lftest.IouPackage("1.0.0"))
	if err := e.node.UploadDAR(bg, ledger.UploadDARRequest{DAR: dar}); err != nil {
		t.Fatal(err)
	}
	alice, err := e.node.AllocateParty(bg, ledger.AllocatePartyRequest{PartyIDHint: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	party := alice.Party
	created, err := jsonapi.DecodeAnswer[jsonapi.SubmitAndWaitForTransactionResponse](jsonapi.New(e.node).SubmitAndWaitForTransaction(bg, jsonapi.SubmitAndWaitForTransactionRequest{Commands: jsonapi.JsCommands{
		CommandID: "ok-1", ActAs: []string{party}, UserID: "u1",
		Commands: []jsonapi.JsCommand{{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: ids[0] + ":Main:Iou",
			CreateArguments: []byte(`{"owner": "` + party + `", "amount": "10"}`)}}}}}))
	if err != nil {
		t.Fatal(err)
	}
	cid := created.Transaction.Events[0].CreatedEvent.ContractID
	archive := func(id string) error {
		_, err := jsonapi.New(e.node).SubmitAndWait(bg, jsonapi.JsCommands{CommandID: id, ActAs: []string{party}, UserID: "u1",
			Commands: []jsonapi.JsCommand{{ExerciseCommand: &jsonapi.JsExerciseCommand{TemplateID: ids[0] + ":Main:Iou", ContractID: cid, Choice: "Archive", ChoiceArgument: []byte(`{}`)}}}})
		return err
	}
	if err := archive("ok-2"); err != nil {
		t.Fatal(err)
	}
	if err := archive("bad-1"); !errors.Is(err, apierr.ContractNotFound) {
		t.Fatalf("archiving twice: %v", err)
	}

	ci := admin.NewCommandInspectionServiceClient(e.conn)
	res, err := ci.GetCommandStatus(ctx, &admin.GetCommandStatusRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if got := commandIDs(res); got != "[bad-1 ok-2 ok-1]" {
		t.Fatalf("commands %s, want [bad-1 ok-2 ok-1]", got)
	}
	bad, ok2, ok1 := res.CommandStatus[0], res.CommandStatus[1], res.CommandStatus[2]
	if bad.State != admin.CommandState_COMMAND_STATE_FAILED || bad.Completion.GetStatus().GetCode() != int32(codes.NotFound) ||
		!strings.HasPrefix(bad.Completion.GetStatus().GetMessage(), "CONTRACT_NOT_FOUND") || bad.Completed == nil {
		t.Errorf("failed command %v", bad)
	}
	if ok2.State != admin.CommandState_COMMAND_STATE_SUCCEEDED || ok2.Completion.GetStatus().GetCode() != 0 || ok2.Completion.UpdateId == "" ||
		ok2.Completion.Offset == 0 || ok2.Completion.UserId != "u1" || ok2.Updates.Exercised != 1 || len(ok2.Updates.Archived) != 1 ||
		ok2.Updates.Archived[0].ContractId != cid {
		t.Errorf("archive command %v", ok2)
	}
	if c := ok1.Updates.GetCreated(); len(c) != 1 || c[0].ContractId != cid || c[0].TemplateId.GetPackageId() != ids[0] || c[0].TemplateId.GetEntityName() != "Iou" {
		t.Errorf("create command's updates %v", ok1.Updates)
	}
	for _, tc := range []struct {
		req  *admin.GetCommandStatusRequest
		want string
	}{
		{&admin.GetCommandStatusRequest{CommandIdPrefix: "ok"}, "[ok-2 ok-1]"},
		{&admin.GetCommandStatusRequest{State: admin.CommandState_COMMAND_STATE_FAILED}, "[bad-1]"},
		{&admin.GetCommandStatusRequest{State: admin.CommandState_COMMAND_STATE_PENDING}, "[]"},
		{&admin.GetCommandStatusRequest{Limit: 1}, "[bad-1]"},
	} {
		res, err := ci.GetCommandStatus(ctx, tc.req)
		if err != nil || commandIDs(res) != tc.want {
			t.Errorf("%v: %s, %v; want %s", tc.req, commandIDs(res), err, tc.want)
		}
	}
	_, err = ci.GetCommandStatus(ctx, &admin.GetCommandStatusRequest{CommandIdPrefix: "not a command id!"})
	wantCode(t, err, codes.InvalidArgument, "INVALID_FIELD")
	if _, err := admin.NewUserManagementServiceClient(e.conn).CreateUser(ctx, &admin.CreateUserRequest{User: &admin.User{Id: "plain"}}); err != nil {
		t.Fatal(err)
	}
	_, err = ci.GetCommandStatus(as(e.token(t, "plain")), &admin.GetCommandStatusRequest{})
	wantCode(t, err, codes.PermissionDenied, "")

	v, err := ledgerv2.NewVersionServiceClient(e.conn).GetLedgerApiVersion(ctx, &ledgerv2.GetLedgerApiVersionRequest{})
	if err != nil || !v.GetFeatures().GetExperimental().GetCommandInspectionService().GetSupported() {
		t.Errorf("version %v, %v: the command inspection service is not reported", v, err)
	}
}

func commandIDs(res *admin.GetCommandStatusResponse) string {
	ids := []string{}
	for _, s := range res.GetCommandStatus() {
		ids = append(ids, s.Completion.GetCommandId())
	}
	return fmt.Sprint(ids)
}
