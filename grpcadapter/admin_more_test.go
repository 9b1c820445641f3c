package grpcadapter_test

import (
	"context"
	"errors"
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
			got, err := e.node.GetParties(context.Background(), ledger.GetPartiesRequest{Parties: []string{alice}, IdentityProviderID: idp})
			if err != nil {
				t.Fatal(err)
			}
			if len(got.PartyDetails) == 1 && got.PartyDetails[0].IsLocal {
				return got.PartyDetails[0].IdentityProviderID
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
	list, err := e.node.ListParties(context.Background(), ledger.ListPartiesRequest{IdentityProviderID: "idp1"})
	if err != nil || len(list.PartyDetails) != 1 || list.PartyDetails[0].Party != alice {
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
	topology := ledger.UpdateFormat{IncludeTopologyEvents: &ledger.TopologyFormat{IncludeParticipantAuthorizationEvents: &ledger.ParticipantAuthorizationTopologyFormat{}}}
	readFromStart := func() error {
		_, err := e.node.UpdatesPage(context.Background(), ledger.GetUpdatesPageRequest{EndOffsetInclusive: &end.Offset, UpdateFormat: topology})
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
	page, err := e.node.UpdatesPage(context.Background(), ledger.GetUpdatesPageRequest{BeginOffsetExclusive: upTo, EndOffsetInclusive: &end.Offset, UpdateFormat: topology})
	if err != nil || len(page.Updates) != 1 {
		t.Errorf("the update after the pruned offset: %v, %v", page.Updates, err)
	}
}
