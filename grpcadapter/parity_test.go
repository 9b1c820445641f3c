package grpcadapter_test

import (
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/status"

	"github.com/ledgernode/ledgernode/grpcadapter"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/grpcadapter/pb/v2/admin"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// cantonError is what both APIs say about a refusal: the JSON API's
// JsCantonError fields, and their gRPC places (ErrorInfo reason and
// metadata, the message after "CODE(category,correlation): ",
// ResourceInfo details, the status code).
type cantonError struct {
	Code          string
	Cause         string
	Context       map[string]string
	Resources     [][2]string
	ErrorCategory int
	GRPCCodeValue int
}

// fromGRPC reads a cantonError from a gRPC status.
func fromGRPC(t *testing.T, err error) cantonError {
	t.Helper()
	st, ok := status.FromError(err)
	if !ok || err == nil {
		t.Fatalf("not a gRPC error: %v", err)
	}
	var out cantonError
	out.GRPCCodeValue = int(st.Code())
	for _, d := range st.Details() {
		switch d := d.(type) {
		case *errdetails.ErrorInfo:
			out.Code, out.Context = d.Reason, d.Metadata
			out.ErrorCategory, _ = strconv.Atoi(d.Metadata["category"])
		case *errdetails.ResourceInfo:
			out.Resources = append(out.Resources, [2]string{d.ResourceType, d.ResourceName})
		}
	}
	_, out.Cause, _ = strings.Cut(st.Message(), "): ")
	return out
}

// fromHTTP reads the JsCantonError of an HTTP answer.
func fromHTTP(t *testing.T, resp *http.Response) cantonError {
	t.Helper()
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var out cantonError
	if err := json.Unmarshal(body, &out); err != nil || out.Code == "" {
		t.Fatalf("HTTP %d %s is not a JsCantonError (%v)", resp.StatusCode, body, err)
	}
	if len(out.Resources) == 0 {
		out.Resources = nil
	}
	return out
}

// TestSameAnswersAsJSON: the same requests over gRPC and over the JSON
// API (httpadapter on the same node) give the same results and the same
// refusals: code, cause, context, resources, category and gRPC code.
// (A malformed path parameter is the JSON layer's own refusal,
// INVALID_ARGUMENT "Malformed user-id"; over gRPC the same id is the
// Node's INVALID_FIELD user_id, as in Canton's gRPC service.)
func TestSameAnswersAsJSON(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, grpcadapter.Options{})
	srv, httpToken := ledgertest.Serve(t, e.node)
	ctx := as(e.admin)
	ledgertest.MustAllocate(t, e.node, "alice")
	httpDo := func(method, path, body string) *http.Response {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+httpToken)
		req.Header.Set("Content-Type", "application/json")
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	users := admin.NewUserManagementServiceClient(e.conn)
	parties := admin.NewPartyManagementServiceClient(e.conn)
	idps := admin.NewIdentityProviderConfigServiceClient(e.conn)
	packages := ledgerv2.NewPackageServiceClient(e.conn)

	t.Run("refusals", func(t *testing.T) {
		unknownPkg := strings.Repeat("ab", 32)
		for _, tc := range []struct {
			name         string
			method, path string
			body         string
			grpc         func() error
		}{
			{"unknown user", http.MethodGet, "/v2/users/nobody", "", func() error {
				_, err := users.GetUser(ctx, &admin.GetUserRequest{UserId: "nobody"})
				return err
			}},
			{"rights of an unknown user", http.MethodGet, "/v2/users/nobody/rights", "", func() error {
				_, err := users.ListUserRights(ctx, &admin.ListUserRightsRequest{UserId: "nobody"})
				return err
			}},
			{"existing user", http.MethodPost, "/v2/users", `{"user": {"id": "participant_admin", "primaryParty": "", "isDeactivated": false, "identityProviderId": ""}, "rights": []}`, func() error {
				_, err := users.CreateUser(ctx, &admin.CreateUserRequest{User: &admin.User{Id: "participant_admin"}})
				return err
			}},
			{"invalid party hint", http.MethodPost, "/v2/parties", `{"partyIdHint": "bad hint!", "identityProviderId": ""}`, func() error {
				_, err := parties.AllocateParty(ctx, &admin.AllocatePartyRequest{PartyIdHint: "bad hint!"})
				return err
			}},
			{"unknown identity provider", http.MethodGet, "/v2/idps/nope", "", func() error {
				_, err := idps.GetIdentityProviderConfig(ctx, &admin.GetIdentityProviderConfigRequest{IdentityProviderId: "nope"})
				return err
			}},
			{"unknown package", http.MethodGet, "/v2/packages/" + unknownPkg, "", func() error {
				_, err := packages.GetPackage(ctx, &ledgerv2.GetPackageRequest{PackageId: unknownPkg})
				return err
			}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				g := fromGRPC(t, tc.grpc())
				h := fromHTTP(t, httpDo(tc.method, tc.path, tc.body))
				if d := cmp.Diff(h, g); d != "" {
					t.Errorf("(-JSON API +gRPC):\n%s", d)
				}
			})
		}
	})

	t.Run("results", func(t *testing.T) {
		decode := func(resp *http.Response, v any) {
			t.Helper()
			defer resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				b, _ := io.ReadAll(resp.Body)
				t.Fatalf("HTTP %d: %s", resp.StatusCode, b)
			}
			if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
				t.Fatal(err)
			}
		}
		var ver struct {
			Version  string
			Features struct {
				UserManagement  struct{ MaxRightsPerUser, MaxUsersPageSize int32 }
				PartyManagement struct{ MaxPartiesPageSize int32 }
			}
		}
		decode(httpDo(http.MethodGet, "/v2/version", ""), &ver)
		gv, err := ledgerv2.NewVersionServiceClient(e.conn).GetLedgerApiVersion(ctx, &ledgerv2.GetLedgerApiVersionRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if ver.Version != gv.Version || ver.Features.UserManagement.MaxRightsPerUser != gv.Features.UserManagement.MaxRightsPerUser ||
			ver.Features.UserManagement.MaxUsersPageSize != gv.Features.UserManagement.MaxUsersPageSize ||
			ver.Features.PartyManagement.MaxPartiesPageSize != gv.Features.PartyManagement.MaxPartiesPageSize {
			t.Errorf("version: JSON %+v, gRPC %v", ver, gv)
		}

		var end struct{ Offset int64 }
		decode(httpDo(http.MethodGet, "/v2/state/ledger-end", ""), &end)
		ge, err := ledgerv2.NewStateServiceClient(e.conn).GetLedgerEnd(ctx, &ledgerv2.GetLedgerEndRequest{})
		if err != nil || ge.Offset != end.Offset {
			t.Errorf("ledger end: JSON %d, gRPC %v (%v)", end.Offset, ge, err)
		}

		var ps struct {
			PartyDetails []struct {
				Party         string
				IsLocal       bool
				LocalMetadata struct {
					ResourceVersion string
					Annotations     map[string]string
				}
			}
		}
		decode(httpDo(http.MethodGet, "/v2/parties", ""), &ps)
		gp, err := parties.ListKnownParties(ctx, &admin.ListKnownPartiesRequest{})
		if err != nil {
			t.Fatal(err)
		}
		jsonParties := map[string]string{}
		for _, p := range ps.PartyDetails {
			jsonParties[p.Party] = p.LocalMetadata.ResourceVersion + " " + strconv.FormatBool(p.IsLocal)
		}
		grpcParties := map[string]string{}
		for _, p := range gp.PartyDetails {
			grpcParties[p.Party] = p.LocalMetadata.GetResourceVersion() + " " + strconv.FormatBool(p.IsLocal)
		}
		if !maps.Equal(jsonParties, grpcParties) {
			t.Errorf("parties: JSON %v, gRPC %v", jsonParties, grpcParties)
		}

		var us struct{ Users []struct{ ID string } }
		decode(httpDo(http.MethodGet, "/v2/users", ""), &us)
		gu, err := users.ListUsers(ctx, &admin.ListUsersRequest{})
		if err != nil {
			t.Fatal(err)
		}
		var jsonIDs, grpcIDs []string
		for _, u := range us.Users {
			jsonIDs = append(jsonIDs, u.ID)
		}
		for _, u := range gu.Users {
			grpcIDs = append(grpcIDs, u.Id)
		}
		if !slices.Equal(jsonIDs, grpcIDs) {
			t.Errorf("users: JSON %v, gRPC %v", jsonIDs, grpcIDs)
		}
	})
}
