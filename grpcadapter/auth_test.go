package grpcadapter_test

import (
	"context"
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	reflectionpb "google.golang.org/grpc/reflection/grpc_reflection_v1"

	"github.com/ledgernode/ledgernode/grpcadapter"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/grpcadapter/pb/v2/admin"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// TestAuthRefusals: a call without a valid bearer token is refused with
// Canton's redacted UNAUTHENTICATED status (the message names the
// correlation id, which a RequestInfo carries too); a token of an unknown
// user is PERMISSION_DENIED; a user without the right is refused by the
// Node. Nothing changes in the node.
func TestAuthRefusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, grpcadapter.Options{})
	parties := admin.NewPartyManagementServiceClient(e.conn)
	wrong := func() string {
		other := newEnv(t, e.node, grpcadapter.Options{}) // another secret
		return other.admin
	}()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		code codes.Code
	}{
		{"no metadata", context.Background(), codes.Unauthenticated},
		{"not a bearer token", metadata.AppendToOutgoingContext(context.Background(), "authorization", "Basic "+e.admin), codes.Unauthenticated},
		{"empty bearer token", metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "), codes.Unauthenticated},
		{"garbage", as("not.a.jwt"), codes.Unauthenticated},
		{"signed with another secret", as(wrong), codes.Unauthenticated},
		{"unknown user", as(e.token(t, "nobody")), codes.PermissionDenied},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parties.AllocateParty(tc.ctx, &admin.AllocatePartyRequest{PartyIdHint: "mallory"})
			wantCode(t, err, tc.code, "")
			st, _, details := statusOf(t, err)
			if !strings.HasPrefix(st.Message(), "An error occurred. Please contact the operator and inquire about the request ") ||
				!strings.HasSuffix(st.Message(), " with tid <no-tid>") {
				t.Errorf("message %q is not Canton's redacted message", st.Message())
			}
			if len(details) != 1 {
				t.Fatalf("details %v, want one RequestInfo", details)
			}
			ri, ok := details[0].(*errdetails.RequestInfo)
			if !ok || ri.RequestId == "" || !strings.Contains(st.Message(), ri.RequestId) {
				t.Errorf("detail %v is not the RequestInfo of the message's correlation id", details[0])
			}
		})
	}
	// A user without rights is refused by the Node's rules.
	ledgertest.MustAllocate(t, e.node, "alice")
	if _, err := admin.NewUserManagementServiceClient(e.conn).CreateUser(as(e.admin), &admin.CreateUserRequest{User: &admin.User{Id: "plain"}}); err != nil {
		t.Fatal(err)
	}
	_, err := parties.AllocateParty(as(e.token(t, "plain")), &admin.AllocatePartyRequest{PartyIdHint: "mallory"})
	wantCode(t, err, codes.PermissionDenied, "")

	res, err := parties.ListKnownParties(as(e.admin), &admin.ListKnownPartiesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.PartyDetails {
		if strings.HasPrefix(p.Party, "mallory") {
			t.Errorf("a refused allocation left party %s", p.Party)
		}
	}
}

// TestHealthAndReflectionNeedNoToken: the standard health service
// answers SERVING for the server and each Ledger API service, and
// reflection lists the services, both without a token.
func TestHealthAndReflectionNeedNoToken(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, grpcadapter.Options{})
	h := healthpb.NewHealthClient(e.conn)
	for _, svc := range []string{"", "com.daml.ledger.api.v2.VersionService", "com.daml.ledger.api.v2.admin.UserManagementService"} {
		res, err := h.Check(context.Background(), &healthpb.HealthCheckRequest{Service: svc})
		if err != nil || res.Status != healthpb.HealthCheckResponse_SERVING {
			t.Errorf("health of %q: %v, %v", svc, res, err)
		}
	}
	stream, err := reflectionpb.NewServerReflectionClient(e.conn).ServerReflectionInfo(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := stream.Send(&reflectionpb.ServerReflectionRequest{MessageRequest: &reflectionpb.ServerReflectionRequest_ListServices{}}); err != nil {
		t.Fatal(err)
	}
	res, err := stream.Recv()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range res.GetListServicesResponse().GetService() {
		names = append(names, s.Name)
	}
	for _, want := range []string{"com.daml.ledger.api.v2.VersionService", "com.daml.ledger.api.v2.admin.PartyManagementService", "grpc.health.v1.Health"} {
		if !strings.Contains(strings.Join(names, " "), want) {
			t.Errorf("reflection lists %v, without %s", names, want)
		}
	}
}

// TestVersion: GetLedgerApiVersion answers the Node's version and
// features, for any authenticated user.
func TestVersion(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, grpcadapter.Options{})
	if _, err := admin.NewUserManagementServiceClient(e.conn).CreateUser(as(e.admin), &admin.CreateUserRequest{User: &admin.User{Id: "reader"}}); err != nil {
		t.Fatal(err)
	}
	res, err := ledgerv2.NewVersionServiceClient(e.conn).GetLedgerApiVersion(as(e.token(t, "reader")), &ledgerv2.GetLedgerApiVersionRequest{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := e.node.Version(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	f := res.GetFeatures()
	if res.Version != want.Version || f.GetUserManagement().GetMaxRightsPerUser() != int32(want.MaxRightsPerUser) ||
		!f.GetUserManagement().GetSupported() || f.GetPartyManagement().GetMaxPartiesPageSize() != int32(want.MaxPartiesPageSize) ||
		f.GetOffsetCheckpoint().GetMaxOffsetCheckpointEmissionDelay().AsDuration().Seconds() != 1 ||
		f.GetPackageFeature().GetMaxVettedPackagesPageSize() != int32(want.MaxVettedPackagesPageSize) ||
		f.GetExperimental().GetStaticTime().GetSupported() {
		t.Errorf("version %v, want %+v", res, want)
	}
	_, err = ledgerv2.NewVersionServiceClient(e.conn).GetLedgerApiVersion(context.Background(), &ledgerv2.GetLedgerApiVersionRequest{})
	wantCode(t, err, codes.Unauthenticated, "")
}
