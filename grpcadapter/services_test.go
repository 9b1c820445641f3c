package grpcadapter_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/grpcadapter"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/grpcadapter/pb/v2/admin"
	ledgertesting "github.com/ledgernode/ledgernode/grpcadapter/pb/v2/testing"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// sameRefusal fails the test unless the gRPC error err carries the code
// of nodeErr, the Node's own answer to the same request: the category's
// gRPC code and the error code id as the ErrorInfo reason.
func sameRefusal(t *testing.T, err, nodeErr error) {
	t.Helper()
	var e *apierr.Error
	if !errors.As(nodeErr, &e) {
		t.Fatalf("the Node accepts the request refused over gRPC (%v): %v", err, nodeErr)
	}
	wantCode(t, err, codes.Code(e.GRPCCode()), e.Code.Name)
}

// TestPartyManagement: allocate, get, list and update parties as the
// Node does, and its refusals with their codes.
func TestPartyManagement(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, grpcadapter.Options{})
	c := admin.NewPartyManagementServiceClient(e.conn)
	ctx := as(e.admin)

	pid, err := c.GetParticipantId(ctx, &admin.GetParticipantIdRequest{})
	if err != nil || pid.ParticipantId != e.node.ParticipantIDString() {
		t.Fatalf("participant id %v, %v; want %s", pid, err, e.node.ParticipantIDString())
	}
	res, err := c.AllocateParty(ctx, &admin.AllocatePartyRequest{PartyIdHint: "alice", LocalMetadata: &admin.ObjectMeta{Annotations: map[string]string{"k": "v"}}})
	if err != nil {
		t.Fatal(err)
	}
	alice := res.PartyDetails
	if !strings.HasPrefix(alice.Party, "alice::") || !alice.IsLocal || alice.LocalMetadata.Annotations["k"] != "v" || alice.LocalMetadata.ResourceVersion == "" {
		t.Fatalf("allocated %v", alice)
	}
	bob := ledgertest.MustAllocate(t, e.node, "bob")

	got, err := c.GetParties(ctx, &admin.GetPartiesRequest{Parties: []string{bob, alice.Party, "unknown::1220aa"}})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range got.PartyDetails {
		names = append(names, p.Party)
	}
	slices.Sort(names)
	if want := []string{alice.Party, bob}; !slices.Equal(names, want) {
		t.Errorf("GetParties: %v, want %v", names, want)
	}

	page, err := c.ListKnownParties(ctx, &admin.ListKnownPartiesRequest{PageSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.PartyDetails) != 1 || page.NextPageToken == "" {
		t.Fatalf("first page %v", page)
	}
	rest, err := c.ListKnownParties(ctx, &admin.ListKnownPartiesRequest{PageSize: 1, PageToken: page.NextPageToken})
	if err != nil || len(rest.PartyDetails) != 1 || rest.PartyDetails[0].Party == page.PartyDetails[0].Party {
		t.Fatalf("second page %v, %v", rest, err)
	}

	up, err := c.UpdatePartyDetails(ctx, &admin.UpdatePartyDetailsRequest{
		PartyDetails: &admin.PartyDetails{Party: alice.Party, LocalMetadata: &admin.ObjectMeta{Annotations: map[string]string{"k": "w"}}},
		UpdateMask:   &fieldmaskpb.FieldMask{Paths: []string{"local_metadata.annotations"}},
	})
	if err != nil || up.PartyDetails.LocalMetadata.Annotations["k"] != "w" || up.PartyDetails.LocalMetadata.ResourceVersion == alice.LocalMetadata.ResourceVersion {
		t.Fatalf("update: %v, %v", up, err)
	}

	// Refusals, with the Node's codes; state unchanged.
	_, err = c.AllocateParty(ctx, &admin.AllocatePartyRequest{PartyIdHint: "alice"})
	_, nodeErr := e.node.AllocateParty(context.Background(), ledger.AllocatePartyRequest{PartyIDHint: "alice"})
	sameRefusal(t, err, nodeErr)
	_, err = c.AllocateParty(ctx, &admin.AllocatePartyRequest{PartyIdHint: "not a valid hint!"})
	_, nodeErr = e.node.AllocateParty(context.Background(), ledger.AllocatePartyRequest{PartyIDHint: "not a valid hint!"})
	sameRefusal(t, err, nodeErr)
	_, err = c.UpdatePartyDetails(ctx, &admin.UpdatePartyDetailsRequest{PartyDetails: &admin.PartyDetails{Party: alice.Party}})
	info := wantCode(t, err, codes.InvalidArgument, "MISSING_FIELD")
	if st, _ := status.FromError(err); !strings.Contains(st.Message(), "update_mask") || info.Metadata["category"] != "8" {
		t.Errorf("missing update_mask: %v", err)
	}
	all, err := c.ListKnownParties(ctx, &admin.ListKnownPartiesRequest{})
	if err != nil || len(all.PartyDetails) != 2 {
		t.Errorf("after the refusals: %v, %v; want alice and bob only", all, err)
	}
}

// right builders
func actAs(p string) *admin.Right {
	return &admin.Right{Kind: &admin.Right_CanActAs_{CanActAs: &admin.Right_CanActAs{Party: p}}}
}
func readAs(p string) *admin.Right {
	return &admin.Right{Kind: &admin.Right_CanReadAs_{CanReadAs: &admin.Right_CanReadAs{Party: p}}}
}
func idpAdmin() *admin.Right {
	return &admin.Right{Kind: &admin.Right_IdentityProviderAdmin_{IdentityProviderAdmin: &admin.Right_IdentityProviderAdmin{}}}
}

// rightStrings prints rights for comparison.
func rightStrings(rs []*admin.Right) []string {
	var out []string
	for _, r := range rs {
		out = append(out, strings.TrimSpace(strings.ReplaceAll(r.String(), "  ", " ")))
	}
	slices.Sort(out)
	return out
}

// TestUserManagement: the nine RPCs, each against the Node's state.
func TestUserManagement(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, grpcadapter.Options{})
	c := admin.NewUserManagementServiceClient(e.conn)
	ctx := as(e.admin)
	alice := ledgertest.MustAllocate(t, e.node, "alice")
	bob := ledgertest.MustAllocate(t, e.node, "bob")

	created, err := c.CreateUser(ctx, &admin.CreateUserRequest{
		User:   &admin.User{Id: "u1", PrimaryParty: alice, Metadata: &admin.ObjectMeta{Annotations: map[string]string{"team": "a"}}},
		Rights: []*admin.Right{actAs(alice)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if created.User.Id != "u1" || created.User.PrimaryParty != alice || created.User.Metadata.Annotations["team"] != "a" || created.User.Metadata.ResourceVersion == "" {
		t.Fatalf("created %v", created.User)
	}
	got, err := c.GetUser(ctx, &admin.GetUserRequest{UserId: "u1"})
	if err != nil || got.User.PrimaryParty != alice {
		t.Fatalf("GetUser: %v, %v", got, err)
	}
	nodeUser, err := e.node.GetUser(context.Background(), "u1", "")
	if err != nil || nodeUser.Metadata.ResourceVersion != got.User.Metadata.ResourceVersion {
		t.Fatalf("the Node's user %v, %v", nodeUser, err)
	}

	granted, err := c.GrantUserRights(ctx, &admin.GrantUserRightsRequest{UserId: "u1", Rights: []*admin.Right{actAs(alice), readAs(bob), idpAdmin()}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rightStrings(granted.NewlyGrantedRights), rightStrings([]*admin.Right{readAs(bob), idpAdmin()}); !slices.Equal(got, want) {
		t.Errorf("newly granted %v, want %v", got, want)
	}
	listed, err := c.ListUserRights(ctx, &admin.ListUserRightsRequest{UserId: "u1"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rightStrings(listed.Rights), rightStrings([]*admin.Right{actAs(alice), readAs(bob), idpAdmin()}); !slices.Equal(got, want) {
		t.Errorf("rights %v, want %v", got, want)
	}
	revoked, err := c.RevokeUserRights(ctx, &admin.RevokeUserRightsRequest{UserId: "u1", Rights: []*admin.Right{readAs(bob), readAs(alice)}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rightStrings(revoked.NewlyRevokedRights), rightStrings([]*admin.Right{readAs(bob)}); !slices.Equal(got, want) {
		t.Errorf("newly revoked %v, want %v", got, want)
	}
	nodeRights, err := e.node.ListUserRights(context.Background(), "u1", "")
	if err != nil || len(nodeRights) != 2 {
		t.Errorf("the Node's rights after the revocation: %v, %v", nodeRights, err)
	}

	updated, err := c.UpdateUser(ctx, &admin.UpdateUserRequest{
		User:       &admin.User{Id: "u1", PrimaryParty: bob},
		UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"primary_party"}},
	})
	if err != nil || updated.User.PrimaryParty != bob {
		t.Fatalf("UpdateUser: %v, %v", updated, err)
	}
	if _, err := c.CreateUser(ctx, &admin.CreateUserRequest{User: &admin.User{Id: "u2"}}); err != nil {
		t.Fatal(err)
	}
	users, err := c.ListUsers(ctx, &admin.ListUsersRequest{PageSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, u := range users.Users {
		ids = append(ids, u.Id)
	}
	if want := []string{identity.DefaultParticipantAdmin, "u1"}; !slices.Equal(ids, want) || users.NextPageToken == "" {
		t.Errorf("first page of users %v (next %q), want %v", ids, users.NextPageToken, want)
	}

	// The identity provider move needs a provider.
	idps := admin.NewIdentityProviderConfigServiceClient(e.conn)
	if _, err := idps.CreateIdentityProviderConfig(ctx, &admin.CreateIdentityProviderConfigRequest{IdentityProviderConfig: &admin.IdentityProviderConfig{
		IdentityProviderId: "idp1", Issuer: "https://idp1.example", JwksUrl: "https://idp1.example/jwks", Audience: "aud",
	}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpdateUserIdentityProviderId(ctx, &admin.UpdateUserIdentityProviderIdRequest{UserId: "u2", TargetIdentityProviderId: "idp1"}); err != nil {
		t.Fatal(err)
	}
	moved, err := e.node.GetUser(context.Background(), "u2", "idp1")
	if err != nil || moved.IdentityProviderID != "idp1" {
		t.Errorf("u2 after the move: %v, %v", moved, err)
	}

	if _, err := c.DeleteUser(ctx, &admin.DeleteUserRequest{UserId: "u1"}); err != nil {
		t.Fatal(err)
	}

	// Refusals: the Node's codes, with its resources.
	_, err = c.GetUser(ctx, &admin.GetUserRequest{UserId: "u1"})
	_, nodeErr := e.node.GetUser(context.Background(), "u1", "")
	sameRefusal(t, err, nodeErr)
	_, _, details := statusOf(t, err)
	if !strings.Contains(detailStrings(details), "u1") {
		t.Errorf("USER_NOT_FOUND details %v name no resource u1", details)
	}
	_, err = c.CreateUser(ctx, &admin.CreateUserRequest{User: &admin.User{Id: "u2"}})
	_, nodeErr = e.node.CreateUser(context.Background(), identity.User{ID: "u2"}, nil)
	sameRefusal(t, err, nodeErr)
	_, err = c.CreateUser(ctx, &admin.CreateUserRequest{})
	wantCode(t, err, codes.InvalidArgument, "MISSING_FIELD")
	_, err = c.GrantUserRights(ctx, &admin.GrantUserRightsRequest{UserId: "u2", IdentityProviderId: "idp1", Rights: []*admin.Right{{}}})
	wantCode(t, err, codes.InvalidArgument, "INVALID_ARGUMENT")
	nodeRights, err = e.node.ListUserRights(context.Background(), "u2", "idp1")
	if err != nil || len(nodeRights) != 0 {
		t.Errorf("u2's rights after the refused grant: %v, %v", nodeRights, err)
	}
}

// detailStrings prints status details for searching.
func detailStrings(ds []proto.Message) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(prototext.Format(d))
		b.WriteString("\n")
	}
	return b.String()
}

// TestIdentityProviderConfigs: create, get, list, update and delete.
func TestIdentityProviderConfigs(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, grpcadapter.Options{})
	c := admin.NewIdentityProviderConfigServiceClient(e.conn)
	ctx := as(e.admin)
	cfg := &admin.IdentityProviderConfig{IdentityProviderId: "idp1", Issuer: "https://idp1.example", JwksUrl: "https://idp1.example/jwks", Audience: "aud"}
	created, err := c.CreateIdentityProviderConfig(ctx, &admin.CreateIdentityProviderConfigRequest{IdentityProviderConfig: cfg})
	if err != nil || created.IdentityProviderConfig.Issuer != cfg.Issuer {
		t.Fatalf("create: %v, %v", created, err)
	}
	got, err := c.GetIdentityProviderConfig(ctx, &admin.GetIdentityProviderConfigRequest{IdentityProviderId: "idp1"})
	if err != nil || got.IdentityProviderConfig.JwksUrl != cfg.JwksUrl || got.IdentityProviderConfig.Audience != "aud" {
		t.Fatalf("get: %v, %v", got, err)
	}
	up, err := c.UpdateIdentityProviderConfig(ctx, &admin.UpdateIdentityProviderConfigRequest{
		IdentityProviderConfig: &admin.IdentityProviderConfig{IdentityProviderId: "idp1", IsDeactivated: true},
		UpdateMask:             &fieldmaskpb.FieldMask{Paths: []string{"is_deactivated"}},
	})
	if err != nil || !up.IdentityProviderConfig.IsDeactivated || up.IdentityProviderConfig.Issuer != cfg.Issuer {
		t.Fatalf("update: %v, %v", up, err)
	}
	list, err := c.ListIdentityProviderConfigs(ctx, &admin.ListIdentityProviderConfigsRequest{})
	if err != nil || len(list.IdentityProviderConfigs) != 1 || !list.IdentityProviderConfigs[0].IsDeactivated {
		t.Fatalf("list: %v, %v", list, err)
	}
	_, err = c.CreateIdentityProviderConfig(ctx, &admin.CreateIdentityProviderConfigRequest{IdentityProviderConfig: cfg})
	_, nodeErr := e.node.CreateIdentityProviderConfig(context.Background(), identity.IdentityProviderConfig{
		IdentityProviderID: "idp1", Issuer: cfg.Issuer, JWKSURL: cfg.JwksUrl, Audience: "aud"})
	sameRefusal(t, err, nodeErr)
	_, err = c.CreateIdentityProviderConfig(ctx, &admin.CreateIdentityProviderConfigRequest{})
	wantCode(t, err, codes.InvalidArgument, "MISSING_FIELD")
	if _, err := c.DeleteIdentityProviderConfig(ctx, &admin.DeleteIdentityProviderConfigRequest{IdentityProviderId: "idp1"}); err != nil {
		t.Fatal(err)
	}
	_, err = c.GetIdentityProviderConfig(ctx, &admin.GetIdentityProviderConfigRequest{IdentityProviderId: "idp1"})
	_, nodeErr = e.node.GetIdentityProviderConfig(context.Background(), "idp1")
	sameRefusal(t, err, nodeErr)
}

// TestPackages: upload a DAR (vetted or not), list, fetch and validate.
func TestPackages(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, grpcadapter.Options{})
	ctx := as(e.admin)
	pm := admin.NewPackageManagementServiceClient(e.conn)
	ps := ledgerv2.NewPackageServiceClient(e.conn)
	dar, ids := lftest.DAR(lftest.IouPackage("1.0.0"))

	if _, err := pm.ValidateDarFile(ctx, &admin.ValidateDarFileRequest{DarFile: dar}); err != nil {
		t.Fatal(err)
	}
	if list, err := ps.ListPackages(ctx, &ledgerv2.ListPackagesRequest{}); err != nil || slices.Contains(list.PackageIds, ids[0]) {
		t.Fatalf("validation stored the package: %v, %v", list, err)
	}
	_, err := pm.UploadDarFile(ctx, &admin.UploadDarFileRequest{DarFile: []byte("not a zip")})
	nodeErr := e.node.UploadDAR(context.Background(), ledger.UploadDARRequest{DAR: []byte("not a zip")})
	sameRefusal(t, err, nodeErr)

	if _, err := pm.UploadDarFile(ctx, &admin.UploadDarFileRequest{DarFile: dar, SubmissionId: "s1"}); err != nil {
		t.Fatal(err)
	}
	list, err := ps.ListPackages(ctx, &ledgerv2.ListPackagesRequest{})
	if err != nil || !slices.Contains(list.PackageIds, ids[0]) {
		t.Fatalf("ListPackages %v, %v; want %s in it", list, err, ids[0])
	}
	pkg, err := ps.GetPackage(ctx, &ledgerv2.GetPackageRequest{PackageId: ids[0]})
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(pkg.ArchivePayload)
	if pkg.Hash != ids[0] || hex.EncodeToString(sum[:]) != ids[0] || pkg.HashFunction != ledgerv2.HashFunction_HASH_FUNCTION_SHA256 {
		t.Errorf("GetPackage: hash %s (payload hashes to %x), want %s", pkg.Hash, sum, ids[0])
	}
	st, err := ps.GetPackageStatus(ctx, &ledgerv2.GetPackageStatusRequest{PackageId: ids[0]})
	if err != nil || st.PackageStatus != ledgerv2.PackageStatus_PACKAGE_STATUS_REGISTERED {
		t.Errorf("status of %s: %v, %v", ids[0], st, err)
	}
	st, err = ps.GetPackageStatus(ctx, &ledgerv2.GetPackageStatusRequest{PackageId: strings.Repeat("ab", 32)})
	if err != nil || st.PackageStatus != ledgerv2.PackageStatus_PACKAGE_STATUS_UNSPECIFIED {
		t.Errorf("status of an unknown package: %v, %v", st, err)
	}
	_, err = ps.GetPackage(ctx, &ledgerv2.GetPackageRequest{PackageId: strings.Repeat("ab", 32)})
	_, nodeErr = e.node.GetPackage(context.Background(), strings.Repeat("ab", 32))
	sameRefusal(t, err, nodeErr)

	// Not vetted: stored, and the Node's vetting state shows it unvetted.
	dar2, ids2 := lftest.DAR(lftest.IouPackage("2.0.0"))
	if _, err := pm.UploadDarFile(ctx, &admin.UploadDarFileRequest{DarFile: dar2, VettingChange: admin.UploadDarFileRequest_VETTING_CHANGE_DONT_VET_ANY_PACKAGES}); err != nil {
		t.Fatal(err)
	}
	vetted, _, err := e.node.ListVettedPackages(context.Background(), ledger.ListVettedPackagesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var vettedIDs []string
	for _, v := range vetted {
		for _, p := range v.Packages {
			vettedIDs = append(vettedIDs, p.PackageID)
		}
	}
	if !slices.Contains(vettedIDs, ids[0]) || slices.Contains(vettedIDs, ids2[0]) {
		t.Errorf("vetted %v: want %s and not %s", vettedIDs, ids[0], ids2[0])
	}
}

// TestState: ledger end, connected synchronizers and pruned offsets as
// the Node reads them.
func TestState(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, grpcadapter.Options{})
	ctx := as(e.admin)
	c := ledgerv2.NewStateServiceClient(e.conn)
	alice := ledgertest.MustAllocate(t, e.node, "alice")
	end, err := c.GetLedgerEnd(ctx, &ledgerv2.GetLedgerEndRequest{})
	nodeEnd, _ := e.node.LedgerEnd(context.Background())
	if err != nil || end.Offset != nodeEnd || end.Offset == 0 {
		t.Fatalf("ledger end %v, %v; the Node's %d", end, err, nodeEnd)
	}
	syncs, err := c.GetConnectedSynchronizers(ctx, &ledgerv2.GetConnectedSynchronizersRequest{Party: alice})
	if err != nil || len(syncs.ConnectedSynchronizers) != 1 {
		t.Fatalf("connected synchronizers %v, %v", syncs, err)
	}
	s := syncs.ConnectedSynchronizers[0]
	if s.SynchronizerId != e.node.Synchronizers()[0] || s.Permission != ledgerv2.ParticipantPermission_PARTICIPANT_PERMISSION_SUBMISSION {
		t.Errorf("synchronizer %v, want %s with submission permission", s, e.node.Synchronizers()[0])
	}
	pruned, err := c.GetLatestPrunedOffsets(ctx, &ledgerv2.GetLatestPrunedOffsetsRequest{})
	if err != nil || pruned.ParticipantPrunedUpToInclusive != 0 {
		t.Errorf("pruned offsets %v, %v", pruned, err)
	}
	// A party the participant does not host is on no synchronizer: the
	// answer is empty, not a refusal (the synchronizers listed for a
	// party are those where it is hosted, with its permission).
	unknown, err := c.GetConnectedSynchronizers(ctx, &ledgerv2.GetConnectedSynchronizersRequest{Party: "not a party"})
	if err != nil || len(unknown.ConnectedSynchronizers) != 0 {
		t.Errorf("connected synchronizers of an unknown party: %v, %v; want none", unknown, err)
	}
}

// TestTimeService: a node on static time reads and moves its clock
// through the testing TimeService; going back and a stale current time
// are refused with the clock unchanged.
func TestTimeService(t *testing.T) {
	t.Parallel()
	start := time.Date(2030, 1, 2, 3, 4, 5, 6000, time.UTC)
	node, _ := ledgertest.OpenStatic(t, ledger.Options{}, start)
	e := newEnv(t, node, grpcadapter.Options{})
	ctx := as(e.admin)
	c := ledgertesting.NewTimeServiceClient(e.conn)
	now, err := c.GetTime(ctx, &ledgertesting.GetTimeRequest{})
	if err != nil || !now.CurrentTime.AsTime().Equal(start) {
		t.Fatalf("GetTime %v, %v; want %v", now, err, start)
	}
	later := start.Add(time.Hour)
	if _, err := c.SetTime(ctx, &ledgertesting.SetTimeRequest{CurrentTime: now.CurrentTime, NewTime: timestamppb.New(later)}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		req  *ledgertesting.SetTimeRequest
		code string
	}{
		{"backwards", &ledgertesting.SetTimeRequest{CurrentTime: timestamppb.New(later), NewTime: timestamppb.New(start)}, "INVALID_ARGUMENT"},
		{"stale current time", &ledgertesting.SetTimeRequest{CurrentTime: timestamppb.New(start), NewTime: timestamppb.New(later.Add(time.Hour))}, "INVALID_ARGUMENT"},
		{"missing new time", &ledgertesting.SetTimeRequest{CurrentTime: timestamppb.New(later)}, "MISSING_FIELD"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.SetTime(ctx, tc.req)
			wantCode(t, err, codes.InvalidArgument, tc.code)
			if got, _ := e.node.Time(context.Background()); !got.Equal(later) {
				t.Errorf("time %v after the refusal, want %v", got, later)
			}
		})
	}
	if got, _ := c.GetTime(ctx, &ledgertesting.GetTimeRequest{}); !got.CurrentTime.AsTime().Equal(later) {
		t.Errorf("GetTime %v, want %v", got.CurrentTime.AsTime(), later)
	}

	// Canton's TimeServiceAuthorization: GetTime is public (any
	// authenticated user), SetTime needs the admin right.
	if _, err := admin.NewUserManagementServiceClient(e.conn).CreateUser(ctx, &admin.CreateUserRequest{User: &admin.User{Id: "plain"}}); err != nil {
		t.Fatal(err)
	}
	plain := as(e.token(t, "plain"))
	if got, err := c.GetTime(plain, &ledgertesting.GetTimeRequest{}); err != nil || !got.CurrentTime.AsTime().Equal(later) {
		t.Errorf("GetTime as a user without rights: %v, %v; want %v", got, err, later)
	}
	_, err = c.SetTime(plain, &ledgertesting.SetTimeRequest{CurrentTime: timestamppb.New(later), NewTime: timestamppb.New(later.Add(time.Hour))})
	wantCode(t, err, codes.PermissionDenied, "")
	if got, _ := e.node.Time(context.Background()); !got.Equal(later) {
		t.Errorf("time %v after the refused SetTime, want %v", got, later)
	}
}

// TestNoTimeServiceOnWallClock: on wall-clock time there is no
// TimeService, as in Canton: UNIMPLEMENTED.
func TestNoTimeServiceOnWallClock(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, grpcadapter.Options{})
	_, err := ledgertesting.NewTimeServiceClient(e.conn).GetTime(as(e.admin), &ledgertesting.GetTimeRequest{})
	if status.Code(err) != codes.Unimplemented {
		t.Errorf("GetTime on wall-clock time: %v, want UNIMPLEMENTED", err)
	}
}

// TestMessageSizeLimit: a request above Options.MaxInboundMessageSize is
// refused by gRPC with RESOURCE_EXHAUSTED before the Node sees it.
func TestMessageSizeLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, grpcadapter.Options{MaxInboundMessageSize: 1 << 16})
	_, err := admin.NewPackageManagementServiceClient(e.conn).UploadDarFile(as(e.admin), &admin.UploadDarFileRequest{DarFile: make([]byte, 1<<17)})
	if status.Code(err) != codes.ResourceExhausted {
		t.Fatalf("a 128 KiB request: %v, want RESOURCE_EXHAUSTED", err)
	}
	if list, err := e.node.ListPackages(context.Background()); err != nil || len(list) != 0 {
		t.Errorf("packages after the refusal: %v, %v", list, err)
	}
}
