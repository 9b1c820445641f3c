package httpadapter

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// Tests of the user, right, identity-provider and party-update routes.

func canActAs(p string) identity.Right { return identity.Right{Kind: identity.RightCanActAs, Party: p} }
func canReadAs(p string) identity.Right {
	return identity.Right{Kind: identity.RightCanReadAs, Party: p}
}

var (
	participantAdmin = identity.Right{Kind: identity.RightParticipantAdmin}
	idpAdmin         = identity.Right{Kind: identity.RightIdentityProviderAdmin}
	readAsAnyParty   = identity.Right{Kind: identity.RightCanReadAsAnyParty}
	executeAsAny     = identity.Right{Kind: identity.RightCanExecuteAsAnyParty}
)

// js encodes v as a JSON request body.
func js(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// escapeAll percent-encodes every byte that is not a letter or a digit, so
// that the router sees no literal ':', '@', '(' … in a path segment.
func escapeAll(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// wantCantonError checks that rec is a JsCantonError with the status and
// code, and returns it.
func wantCantonError(t testing.TB, rec *httptest.ResponseRecorder, status int, code string) jsCantonError {
	t.Helper()
	if rec.Code != status {
		t.Fatalf("status %d, want %d; body %s", rec.Code, status, rec.Body)
	}
	e := decodeCantonError(t, rec)
	if e.Code != code {
		t.Fatalf("code %q, want %q; body %s", e.Code, code, rec.Body)
	}
	return e
}

// adminState is everything the user/idp/party routes can change, read
// in-process as a trusted caller.
type adminState struct {
	End     int64
	Parties jsonapi.ListPartiesResponse
	IDPs    []identity.IdentityProviderConfig
	Users   map[string][]identity.User      // by identity provider
	Rights  map[string][]identity.Right     // by user
	Party   map[string]jsonapi.PartyDetails // by party, per provider view
}

func (h *harness) adminState() adminState {
	h.t.Helper()
	ctx := context.Background()
	s := adminState{Users: map[string][]identity.User{}, Rights: map[string][]identity.Right{}, Party: map[string]jsonapi.PartyDetails{}}
	base := h.state()
	s.End, s.Parties = base.End, base.Parties
	idps, err := jsonapi.New(h.node).ListIdentityProviderConfigs(ctx)
	if err != nil {
		h.t.Fatalf("ListIdentityProviderConfigs: %v", err)
	}
	s.IDPs = idps.IdentityProviderConfigs
	providers := []string{""}
	for _, c := range s.IDPs {
		providers = append(providers, c.IdentityProviderID)
	}
	for _, idp := range providers {
		users, err := jsonapi.New(h.node).ListUsers(ctx, jsonapi.ListUsersRequest{IdentityProviderID: idp})
		if err != nil {
			h.t.Fatalf("ListUsers(%q): %v", idp, err)
		}
		s.Users[idp] = users.Users
		for _, u := range users.Users {
			r, err := jsonapi.New(h.node).ListUserRights(ctx, jsonapi.GetUserRequest{UserID: u.ID, IdentityProviderID: idp})
			if err != nil {
				h.t.Fatalf("ListUserRights(%s): %v", u.ID, err)
			}
			s.Rights[u.ID] = r.Rights
		}
		parties, err := jsonapi.New(h.node).ListParties(ctx, ledger.ListPartiesRequest{IdentityProviderID: idp})
		if err != nil {
			h.t.Fatalf("ListParties(%q): %v", idp, err)
		}
		for _, p := range parties.PartyDetails {
			s.Party[idp+"/"+p.Party] = p
		}
	}
	return s
}

// userFixture is a node with users, identity providers and a party, as a
// participant admin sets them up through the adapter.
type userFixture struct {
	*harness
	admin map[string]string // the admin's header ("" in auth mode none)
	party string            // alice's party
}

func newUserFixture(t *testing.T, lopts ledger.Options, opts Options, admin map[string]string) *userFixture {
	t.Helper()
	h := newHarnessWith(t, lopts, opts)
	f := &userFixture{harness: h, admin: admin}
	f.party = h.allocate("alice", admin).Party
	f.createIDP("idp1", "https://idp1.example")
	f.createIDP("idp2", "https://idp2.example")
	f.createUser(identity.User{ID: "alice", PrimaryParty: f.party}, canActAs(f.party))
	f.createUser(identity.User{ID: "carol", IdentityProviderID: "idp1"})
	return f
}

func (f *userFixture) createIDP(id, issuer string) identity.IdentityProviderConfig {
	f.t.Helper()
	body := js(f.t, jsonapi.IdentityProviderConfigRequest{IdentityProviderConfig: identity.IdentityProviderConfig{
		IdentityProviderID: id, Issuer: issuer, JWKSURL: "http://127.0.0.1:1/" + id + "/jwks"}})
	return decodeAs[jsonapi.IdentityProviderConfigResponse](f.t, f.do(httpCall{method: "POST", target: "/v2/idps", body: body, header: f.admin})).IdentityProviderConfig
}

func (f *userFixture) createUser(u identity.User, rights ...identity.Right) identity.User {
	f.t.Helper()
	body := js(f.t, jsonapi.CreateUserRequest{User: u, Rights: rights})
	return decodeAs[jsonapi.UserResponse](f.t, f.do(httpCall{method: "POST", target: "/v2/users", body: body, header: f.admin})).User
}

func TestUserLifecycle(t *testing.T) {
	t.Parallel()
	f := newUserFixture(t, ledger.Options{}, Options{}, nil)
	h, p := f.harness, f.party

	// The wire shape of a created user, and of the rights.
	rec := h.do(httpCall{method: "POST", target: "/v2/users", body: js(t, jsonapi.CreateUserRequest{
		User:   identity.User{ID: "bob", PrimaryParty: p, Metadata: identity.ObjectMeta{Annotations: map[string]string{"team": "blue"}}},
		Rights: []identity.Right{canReadAs(p), readAsAnyParty},
	})})
	wantBody := `{"user":{"id":"bob","primaryParty":"` + p + `","isDeactivated":false,"metadata":{"resourceVersion":"0","annotations":{"team":"blue"}},"identityProviderId":"","primaryPartyAuthentication":false}}`
	if diff := cmp.Diff(wantBody, strings.TrimSpace(rec.Body.String())); diff != "" || rec.Code != 200 {
		t.Fatalf("create: %d (-want +got):\n%s", rec.Code, diff)
	}
	rec = h.do(httpCall{method: "GET", target: "/v2/users/bob/rights"})
	wantRights := `{"rights":[{"kind":{"CanReadAs":{"value":{"party":"` + p + `"}}}},{"kind":{"CanReadAsAnyParty":{"value":{}}}}]}`
	if diff := cmp.Diff(wantRights, strings.TrimSpace(rec.Body.String())); diff != "" {
		t.Errorf("rights (-want +got):\n%s", diff)
	}

	bob := identity.User{ID: "bob", PrimaryParty: p, Metadata: identity.ObjectMeta{ResourceVersion: "0", Annotations: map[string]string{"team": "blue"}}}
	for _, target := range []string{"/v2/users/bob", "/v2/users/b%6Fb", "/v2/users/bob?identity-provider-id="} {
		got := decodeAs[jsonapi.UserResponse](t, h.do(httpCall{method: "GET", target: target}))
		if diff := cmp.Diff(jsonapi.UserResponse{User: bob}, got); diff != "" {
			t.Errorf("GET %s (-want +got):\n%s", target, diff)
		}
	}

	t.Run("list and pages", func(t *testing.T) {
		all := decodeAs[jsonapi.ListUsersResponse](t, h.do(httpCall{method: "GET", target: "/v2/users"}))
		var ids []string
		for _, u := range all.Users {
			ids = append(ids, u.ID)
		}
		if diff := cmp.Diff([]string{"alice", "bob", identity.DefaultParticipantAdmin}, ids); diff != "" || all.NextPageToken != "" {
			t.Errorf("users of the default provider (-want +got):\n%s\nnext %q", diff, all.NextPageToken)
		}
		var paged []string
		token := ""
		for range 10 {
			page := decodeAs[jsonapi.ListUsersResponse](t, h.do(httpCall{method: "GET", target: "/v2/users?pageSize=1&pageToken=" + url.QueryEscape(token)}))
			if len(page.Users) != 1 {
				t.Fatalf("page of 1: %+v", page)
			}
			paged = append(paged, page.Users[0].ID)
			if token = page.NextPageToken; token == "" {
				break
			}
		}
		if diff := cmp.Diff(ids, paged); diff != "" {
			t.Errorf("paged (-want +got):\n%s", diff)
		}
		// identity-provider-id is not a parameter of GET /v2/users: the
		// default provider is listed.
		other := decodeAs[jsonapi.ListUsersResponse](t, h.do(httpCall{method: "GET", target: "/v2/users?identity-provider-id=idp1"}))
		if diff := cmp.Diff(all, other); diff != "" {
			t.Errorf("identity-provider-id changed the list (-want +got):\n%s", diff)
		}
		wantText(t, h.do(httpCall{method: "GET", target: "/v2/users?pageSize=x"}), 400, "Invalid value for: query parameter pageSize (")
		e := wantCantonError(t, h.do(httpCall{method: "GET", target: "/v2/users?pageToken=%21%21"}), 400, apierr.InvalidArgument.Name)
		if !strings.Contains(e.Cause, "page token") {
			t.Errorf("cause %q", e.Cause)
		}
	})

	t.Run("authenticated user", func(t *testing.T) {
		// Auth mode none acts as the participant admin.
		got := decodeAs[jsonapi.UserResponse](t, h.do(httpCall{method: "GET", target: "/v2/authenticated-user"}))
		if got.User.ID != identity.DefaultParticipantAdmin {
			t.Errorf("authenticated user %+v", got.User)
		}
	})

	t.Run("update", func(t *testing.T) {
		// unknownFields of the mask is accepted and ignored.
		body := `{"user":{"id":"bob","primaryParty":"","isDeactivated":true,"metadata":{"resourceVersion":"0","annotations":{"team":"","role":"ops"}}},` +
			`"updateMask":{"paths":["primary_party","metadata.annotations","is_deactivated"],"unknownFields":{"fields":{}}}}`
		got := decodeAs[jsonapi.UserResponse](t, h.do(httpCall{method: "PATCH", target: "/v2/users/bob", body: body}))
		want := identity.User{ID: "bob", IsDeactivated: true, Metadata: identity.ObjectMeta{ResourceVersion: "1", Annotations: map[string]string{"role": "ops"}}}
		if diff := cmp.Diff(jsonapi.UserResponse{User: want}, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
		again := decodeAs[jsonapi.UserResponse](t, h.do(httpCall{method: "GET", target: "/v2/users/bob"}))
		if diff := cmp.Diff(got, again); diff != "" {
			t.Errorf("GET after PATCH (-want +got):\n%s", diff)
		}
	})

	t.Run("rights", func(t *testing.T) {
		grant := js(t, jsonapi.UserRightsRequest{UserID: "bob", Rights: []identity.Right{canActAs(p), canReadAs(p), canActAs(p)}})
		g := decodeAs[jsonapi.GrantUserRightsResponse](t, h.do(httpCall{method: "POST", target: "/v2/users/bob/rights", body: grant}))
		if diff := cmp.Diff([]identity.Right{canActAs(p)}, g.NewlyGrantedRights); diff != "" {
			t.Errorf("granted (-want +got):\n%s", diff)
		}
		revoke := js(t, jsonapi.UserRightsRequest{UserID: "bob", Rights: []identity.Right{canReadAs(p), executeAsAny}})
		r := decodeAs[jsonapi.RevokeUserRightsResponse](t, h.do(httpCall{method: "PATCH", target: "/v2/users/bob/rights", body: revoke}))
		if diff := cmp.Diff([]identity.Right{canReadAs(p)}, r.NewlyRevokedRights); diff != "" {
			t.Errorf("revoked (-want +got):\n%s", diff)
		}
		l := decodeAs[jsonapi.ListUserRightsResponse](t, h.do(httpCall{method: "GET", target: "/v2/users/bob/rights"}))
		if diff := cmp.Diff([]identity.Right{readAsAnyParty, canActAs(p)}, l.Rights, cmpopts.SortSlices(func(a, b identity.Right) bool {
			return a.Kind+identity.RightKind(a.Party) < b.Kind+identity.RightKind(b.Party)
		})); diff != "" {
			t.Errorf("rights (-want +got):\n%s", diff)
		}
		// Nothing new: empty lists, printed as [].
		rec := h.do(httpCall{method: "POST", target: "/v2/users/bob/rights", body: `{"userId":"bob","rights":[]}`})
		if diff := cmp.Diff(`{"newlyGrantedRights":[]}`, strings.TrimSpace(rec.Body.String())); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
		rec = h.do(httpCall{method: "PATCH", target: "/v2/users/bob/rights", body: `{"userId":"bob"}`})
		if diff := cmp.Diff(`{"newlyRevokedRights":[]}`, strings.TrimSpace(rec.Body.String())); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})

	t.Run("percent-encoded user id", func(t *testing.T) {
		const id = "dave@x.io:(1)|~"
		f.createUser(identity.User{ID: id})
		path := "/v2/users/" + escapeAll(id)
		got := decodeAs[jsonapi.UserResponse](t, h.do(httpCall{method: "GET", target: path}))
		if got.User.ID != id {
			t.Errorf("GET %s: %+v", path, got.User)
		}
		upd := js(t, jsonapi.UpdateUserRequest{User: identity.User{ID: id, PrimaryParty: p}, UpdateMask: jsonapi.FieldMask{Paths: []string{"primary_party"}}})
		if got := decodeAs[jsonapi.UserResponse](t, h.do(httpCall{method: "PATCH", target: path, body: upd})); got.User.PrimaryParty != p {
			t.Errorf("PATCH %s: %+v", path, got.User)
		}
		grant := js(t, jsonapi.UserRightsRequest{UserID: id, Rights: []identity.Right{canReadAs(p)}})
		decodeAs[jsonapi.GrantUserRightsResponse](t, h.do(httpCall{method: "POST", target: path + "/rights", body: grant}))
		if l := decodeAs[jsonapi.ListUserRightsResponse](t, h.do(httpCall{method: "GET", target: path + "/rights"})); len(l.Rights) != 1 {
			t.Errorf("rights %+v", l)
		}
		rec := h.do(httpCall{method: "DELETE", target: path})
		if diff := cmp.Diff("{}", strings.TrimSpace(rec.Body.String())); diff != "" || rec.Code != 200 {
			t.Errorf("DELETE: %d (-want +got):\n%s", rec.Code, diff)
		}
		wantCantonError(t, h.do(httpCall{method: "GET", target: path}), 404, apierr.UserNotFound.Name)
	})

	t.Run("move between providers", func(t *testing.T) {
		move := func(src, dst string) *httptest.ResponseRecorder {
			return h.do(httpCall{method: "PATCH", target: "/v2/users/bob/identity-provider-id", body: js(t, jsonapi.UpdateUserIdentityProviderRequest{
				UserID: "bob", SourceIdentityProviderID: src, TargetIdentityProviderID: dst})})
		}
		rec := move("", "idp1")
		if diff := cmp.Diff("{}", strings.TrimSpace(rec.Body.String())); diff != "" || rec.Code != 200 {
			t.Fatalf("move: %d (-want +got):\n%s", rec.Code, diff)
		}
		wantCantonError(t, h.do(httpCall{method: "GET", target: "/v2/users/bob"}), 404, apierr.UserNotFound.Name)
		got := decodeAs[jsonapi.UserResponse](t, h.do(httpCall{method: "GET", target: "/v2/users/bob?identity-provider-id=idp1"}))
		if got.User.IdentityProviderID != "idp1" {
			t.Errorf("after the move: %+v", got.User)
		}
		decodeAs[jsonapi.Empty](t, move("idp1", ""))
		if got := decodeAs[jsonapi.UserResponse](t, h.do(httpCall{method: "GET", target: "/v2/users/bob"})); got.User.IdentityProviderID != "" {
			t.Errorf("after moving back: %+v", got.User)
		}
	})

	t.Run("delete", func(t *testing.T) {
		rec := h.do(httpCall{method: "DELETE", target: "/v2/users/bob"})
		if diff := cmp.Diff("{}", strings.TrimSpace(rec.Body.String())); diff != "" || rec.Code != 200 {
			t.Fatalf("DELETE: %d (-want +got):\n%s", rec.Code, diff)
		}
		e := wantCantonError(t, h.do(httpCall{method: "GET", target: "/v2/users/bob"}), 404, apierr.UserNotFound.Name)
		if diff := cmp.Diff([][2]string{{"USER", "bob"}}, e.Resources); diff != "" {
			t.Errorf("resources (-want +got):\n%s", diff)
		}
	})
}

func TestIdentityProviderLifecycle(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{})
	rec := h.do(httpCall{method: "GET", target: "/v2/idps"})
	if diff := cmp.Diff(`{"identityProviderConfigs":[]}`, strings.TrimSpace(rec.Body.String())); diff != "" {
		t.Errorf("no providers (-want +got):\n%s", diff)
	}
	cfg := identity.IdentityProviderConfig{IdentityProviderID: "idp1", Issuer: "https://idp1.example", JWKSURL: "https://idp1.example/jwks"}
	rec = h.do(httpCall{method: "POST", target: "/v2/idps", body: js(t, jsonapi.IdentityProviderConfigRequest{IdentityProviderConfig: cfg})})
	wantBody := `{"identityProviderConfig":{"identityProviderId":"idp1","isDeactivated":false,"issuer":"https://idp1.example","jwksUrl":"https://idp1.example/jwks","audience":""}}`
	if diff := cmp.Diff(wantBody, strings.TrimSpace(rec.Body.String())); diff != "" || rec.Code != 200 {
		t.Fatalf("create: %d (-want +got):\n%s", rec.Code, diff)
	}
	get := func() identity.IdentityProviderConfig {
		t.Helper()
		return decodeAs[jsonapi.IdentityProviderConfigResponse](t, h.do(httpCall{method: "GET", target: "/v2/idps/idp1"})).IdentityProviderConfig
	}
	if diff := cmp.Diff(cfg, get()); diff != "" {
		t.Errorf("GET (-want +got):\n%s", diff)
	}
	list := decodeAs[jsonapi.ListIdentityProviderConfigsResponse](t, h.do(httpCall{method: "GET", target: "/v2/idps"}))
	if diff := cmp.Diff([]identity.IdentityProviderConfig{cfg}, list.IdentityProviderConfigs); diff != "" {
		t.Errorf("list (-want +got):\n%s", diff)
	}

	// PATCH changes only the masked fields; an empty issuer in the body is
	// fine when the issuer is not masked.
	body := `{"identityProviderConfig":{"identityProviderId":"idp1","issuer":"","jwksUrl":"","audience":"https://aud.example","isDeactivated":true},"updateMask":{"paths":["audience"]}}`
	upd := decodeAs[jsonapi.IdentityProviderConfigResponse](t, h.do(httpCall{method: "PATCH", target: "/v2/idps/idp1", body: body}))
	want := cfg
	want.Audience = "https://aud.example"
	if diff := cmp.Diff(want, upd.IdentityProviderConfig); diff != "" {
		t.Errorf("PATCH audience (-want +got):\n%s", diff)
	}
	body = js(t, jsonapi.UpdateIdentityProviderConfigRequest{
		IdentityProviderConfig: identity.IdentityProviderConfig{IdentityProviderID: "idp1", Issuer: "https://new.example", JWKSURL: "http://keys.example:8080/k", IsDeactivated: true},
		UpdateMask:             jsonapi.FieldMask{Paths: []string{"issuer", "jwks_url", "is_deactivated"}},
	})
	upd = decodeAs[jsonapi.IdentityProviderConfigResponse](t, h.do(httpCall{method: "PATCH", target: "/v2/idps/idp1", body: body}))
	want.Issuer, want.JWKSURL, want.IsDeactivated = "https://new.example", "http://keys.example:8080/k", true
	if diff := cmp.Diff(want, upd.IdentityProviderConfig); diff != "" {
		t.Errorf("PATCH issuer/jwks/deactivated (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, get()); diff != "" {
		t.Errorf("GET after PATCH (-want +got):\n%s", diff)
	}

	rec = h.do(httpCall{method: "DELETE", target: "/v2/idps/idp1"})
	if diff := cmp.Diff("{}", strings.TrimSpace(rec.Body.String())); diff != "" || rec.Code != 200 {
		t.Fatalf("DELETE: %d (-want +got):\n%s", rec.Code, diff)
	}
	e := wantCantonError(t, h.do(httpCall{method: "GET", target: "/v2/idps/idp1"}), 404, apierr.IDPConfigNotFound.Name)
	if diff := cmp.Diff([][2]string{{"IDENTITY_PROVIDER_CONFIG", "idp1"}}, e.Resources); diff != "" {
		t.Errorf("resources (-want +got):\n%s", diff)
	}
	if l := decodeAs[jsonapi.ListIdentityProviderConfigsResponse](t, h.do(httpCall{method: "GET", target: "/v2/idps"})); len(l.IdentityProviderConfigs) != 0 {
		t.Errorf("after DELETE: %+v", l)
	}
}

func TestUpdatePartyDetails(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{})
	alice := h.allocate("alice", nil)
	path := "/v2/parties/" + encodeURIComponent(alice.Party)
	body := js(t, jsonapi.UpdatePartyDetailsRequest{
		PartyDetails: jsonapi.PartyDetails{Party: alice.Party, IsLocal: true, LocalMetadata: identity.ObjectMeta{
			ResourceVersion: alice.LocalMetadata.ResourceVersion, Annotations: map[string]string{"desk": "fx", "example.com/tier": "1"}}},
		UpdateMask: jsonapi.FieldMask{Paths: []string{"local_metadata.annotations", "is_local"}},
	})
	got := decodeAs[jsonapi.UpdatePartyDetailsResponse](t, h.do(httpCall{method: "PATCH", target: path, body: body}))
	want := alice
	want.LocalMetadata.Annotations = map[string]string{"desk": "fx", "example.com/tier": "1"}
	if got.PartyDetails.LocalMetadata.ResourceVersion == alice.LocalMetadata.ResourceVersion {
		t.Errorf("the resource version %q did not change", alice.LocalMetadata.ResourceVersion)
	}
	want.LocalMetadata.ResourceVersion = got.PartyDetails.LocalMetadata.ResourceVersion
	if diff := cmp.Diff(jsonapi.UpdatePartyDetailsResponse{PartyDetails: want}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	read := decodeAs[jsonapi.GetPartiesResponse](t, h.do(httpCall{method: "GET", target: path}))
	if diff := cmp.Diff([]jsonapi.PartyDetails{want}, read.PartyDetails); diff != "" {
		t.Errorf("GET after PATCH (-want +got):\n%s", diff)
	}
	// A raw (unencoded) path works too; deleting an annotation with "".
	body = `{"partyDetails":{"party":"` + alice.Party + `","localMetadata":{"annotations":{"desk":""}}},"updateMask":{"paths":["local_metadata"],"unknownFields":{"fields":{}}}}`
	got = decodeAs[jsonapi.UpdatePartyDetailsResponse](t, h.do(httpCall{method: "PATCH", target: "/v2/parties/" + alice.Party, body: body}))
	if diff := cmp.Diff(map[string]string{"example.com/tier": "1"}, got.PartyDetails.LocalMetadata.Annotations); diff != "" {
		t.Errorf("annotations (-want +got):\n%s", diff)
	}
}

// rejection is one request that must fail and leave the state unchanged.
type rejection struct {
	name   string
	call   httpCall
	status int
	code   string // "" for a 400 text/plain decode failure
	cause  string // a substring of the cause (or of the text)
}

func runRejections(t *testing.T, h *harness, tests []rejection) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := h.adminState()
			rec := h.do(tt.call)
			if tt.code == "" {
				wantText(t, rec, tt.status, "Invalid value for: ")
				if !strings.Contains(rec.Body.String(), tt.cause) {
					t.Errorf("text %q lacks %q", rec.Body, tt.cause)
				}
			} else {
				e := wantCantonError(t, rec, tt.status, tt.code)
				if !strings.Contains(e.Cause, tt.cause) {
					t.Errorf("cause %q lacks %q", e.Cause, tt.cause)
				}
			}
			if diff := cmp.Diff(before, h.adminState()); diff != "" {
				t.Errorf("a rejected request changed the state (-before +after):\n%s", diff)
			}
		})
	}
}

func TestUserAndProviderRejections(t *testing.T) {
	t.Parallel()
	f := newUserFixture(t, ledger.Options{MaxRightsPerUser: 2}, Options{}, nil)
	p := f.party
	body := func(v any) string { return js(t, v) }
	createUser := func(u identity.User, rights ...identity.Right) httpCall {
		return httpCall{method: "POST", target: "/v2/users", body: body(jsonapi.CreateUserRequest{User: u, Rights: rights})}
	}
	patchUser := func(path string, u identity.User, paths ...string) httpCall {
		return httpCall{method: "PATCH", target: "/v2/users/" + path, body: body(jsonapi.UpdateUserRequest{User: u, UpdateMask: jsonapi.FieldMask{Paths: paths}})}
	}
	rights := func(method, path, user string, rs ...identity.Right) httpCall {
		return httpCall{method: method, target: "/v2/users/" + path + "/rights", body: body(jsonapi.UserRightsRequest{UserID: user, Rights: rs})}
	}
	move := func(path, user, src, dst string) httpCall {
		return httpCall{method: "PATCH", target: "/v2/users/" + path + "/identity-provider-id", body: body(jsonapi.UpdateUserIdentityProviderRequest{
			UserID: user, SourceIdentityProviderID: src, TargetIdentityProviderID: dst})}
	}
	createIDP := func(c identity.IdentityProviderConfig) httpCall {
		return httpCall{method: "POST", target: "/v2/idps", body: body(jsonapi.IdentityProviderConfigRequest{IdentityProviderConfig: c})}
	}
	patchIDP := func(path string, c identity.IdentityProviderConfig, paths ...string) httpCall {
		return httpCall{method: "PATCH", target: "/v2/idps/" + path, body: body(jsonapi.UpdateIdentityProviderConfigRequest{IdentityProviderConfig: c, UpdateMask: jsonapi.FieldMask{Paths: paths}})}
	}
	patchParty := func(path string, d jsonapi.PartyDetails, paths ...string) httpCall {
		return httpCall{method: "PATCH", target: "/v2/parties/" + path, body: body(jsonapi.UpdatePartyDetailsRequest{PartyDetails: d, UpdateMask: jsonapi.FieldMask{Paths: paths}})}
	}
	huge := map[string]string{"big": strings.Repeat("x", identity.MaxAnnotationsSize)}
	other := "nobody::1220" + strings.Repeat("ab", 32)
	newIDP := func(id, issuer, jwks string) identity.IdentityProviderConfig {
		return identity.IdentityProviderConfig{IdentityProviderID: id, Issuer: issuer, JWKSURL: jwks}
	}

	runRejections(t, f.harness, []rejection{
		// Users.
		{"create existing user", createUser(identity.User{ID: "alice"}), 409, apierr.UserAlreadyExists.Name, `"alice" already exists`},
		{"create with too many rights", createUser(identity.User{ID: "dave"}, canActAs(p), canReadAs(p), readAsAnyParty), 400, apierr.TooManyUserRights.Name, "maximum of 2"},
		{"grant too many rights", rights("POST", "alice", "alice", canReadAs(p), readAsAnyParty), 400, apierr.TooManyUserRights.Name, "maximum of 2"},
		{"create in an unknown provider", createUser(identity.User{ID: "dave", IdentityProviderID: "nope"}), 404, apierr.IDPConfigNotFound.Name, "nope"},
		{"create with a bad annotation key", createUser(identity.User{ID: "dave", Metadata: identity.ObjectMeta{Annotations: map[string]string{"-bad": "v"}}}), 400, apierr.InvalidField.Name, "-bad"},
		{"create with an empty annotation value", createUser(identity.User{ID: "dave", Metadata: identity.ObjectMeta{Annotations: map[string]string{"k": ""}}}), 400, apierr.InvalidField.Name, "empty"},
		{"create with too large annotations", createUser(identity.User{ID: "dave", Metadata: identity.ObjectMeta{Annotations: huge}}), 400, apierr.MaxUserAnnotationsSizeExceeded.Name, "256kb"},
		{"create with a bad user id", createUser(identity.User{ID: "bad user"}), 400, apierr.InvalidField.Name, "user.id"},
		{"create with a resource version", createUser(identity.User{ID: "dave", Metadata: identity.ObjectMeta{ResourceVersion: "3"}}), 400, apierr.InvalidField.Name, "resource_version"},
		{"create with a bad right", createUser(identity.User{ID: "dave"}, canActAs("bad!party")), 400, apierr.InvalidArgument.Name, "invalid right"},
		{"create with an Empty right", httpCall{method: "POST", target: "/v2/users", body: `{"user":{"id":"dave"},"rights":[{"kind":{"Empty":{}}}]}`}, 400, "", "Empty"},
		{"create without a body", httpCall{method: "POST", target: "/v2/users"}, 400, "", "body"},
		{"get unknown user", httpCall{method: "GET", target: "/v2/users/nobody"}, 404, apierr.UserNotFound.Name, "nobody"},
		{"get user of another provider", httpCall{method: "GET", target: "/v2/users/alice?identity-provider-id=idp1"}, 404, apierr.UserNotFound.Name, "alice"},
		{"get user with a bad provider id", httpCall{method: "GET", target: "/v2/users/alice?identity-provider-id=a%25b"}, 400, apierr.InvalidField.Name, "identity_provider_id"},
		{"delete unknown user", httpCall{method: "DELETE", target: "/v2/users/nobody"}, 404, apierr.UserNotFound.Name, "nobody"},
		{"delete user of another provider", httpCall{method: "DELETE", target: "/v2/users/carol"}, 404, apierr.UserNotFound.Name, "carol"},
		{"rights of unknown user", httpCall{method: "GET", target: "/v2/users/nobody/rights"}, 404, apierr.UserNotFound.Name, "nobody"},
		{"grant to unknown user", rights("POST", "nobody", "nobody", canReadAs(p)), 404, apierr.UserNotFound.Name, "nobody"},
		{"revoke from unknown user", rights("PATCH", "nobody", "nobody", canActAs(p)), 404, apierr.UserNotFound.Name, "nobody"},
		{"update unknown user", patchUser("nobody", identity.User{ID: "nobody"}, "primary_party"), 404, apierr.UserNotFound.Name, "nobody"},
		{"update with an empty mask", patchUser("alice", identity.User{ID: "alice"}), 400, apierr.InvalidUserUpdate.Name, "contains no entries"},
		{"update with a bad mask path", patchUser("alice", identity.User{ID: "alice"}, "primary_party", "shoe_size"), 400, apierr.InvalidUserUpdate.Name, "'shoe_size' is invalid"},
		{"update with a stale resource version", patchUser("alice", identity.User{ID: "alice", Metadata: identity.ObjectMeta{ResourceVersion: "7"}}, "primary_party"),
			409, apierr.ConcurrentUserUpdate.Name, "concurrent update"},
		{"update with a bad annotation key", patchUser("alice", identity.User{ID: "alice", Metadata: identity.ObjectMeta{Annotations: map[string]string{"a/b/c": "v"}}}, "metadata.annotations"),
			400, apierr.InvalidField.Name, "a/b/c"},
		{"update with too large annotations", patchUser("alice", identity.User{ID: "alice", Metadata: identity.ObjectMeta{Annotations: huge}}, "metadata"),
			400, apierr.MaxUserAnnotationsSizeExceeded.Name, "256kb"},
		{"update with a bad primary party", patchUser("alice", identity.User{ID: "alice", PrimaryParty: "bad!p"}, "primary_party"), 400, apierr.InvalidField.Name, "primary_party"},
		{"move to an unknown provider", move("alice", "alice", "", "nope"), 404, apierr.IDPConfigNotFound.Name, "nope"},
		{"move from the wrong provider", move("alice", "alice", "idp1", "idp2"), 404, apierr.UserNotFound.Name, "alice"},
		{"move unknown user", move("nobody", "nobody", "", "idp1"), 404, apierr.UserNotFound.Name, "nobody"},

		// Path/body consistency (the JSON layer).
		{"update: body user differs", patchUser("alice", identity.User{ID: "carol"}, "primary_party"), 400, apierr.InvalidArgument.Name,
			"The submitted request has invalid arguments: alice does not match user in body: Some(carol)"},
		{"update: encoded path differs", patchUser("al%69ce2", identity.User{ID: "alice"}, "primary_party"), 400, apierr.InvalidArgument.Name,
			"alice2 does not match user in body"},
		{"grant: body user differs", rights("POST", "alice", "carol", canReadAs(p)), 400, apierr.InvalidArgument.Name, "alice does not match user in body: carol"},
		{"grant: body user missing", httpCall{method: "POST", target: "/v2/users/alice/rights", body: `{"rights":[]}`}, 400, apierr.InvalidArgument.Name, "alice does not match user in body"},
		{"revoke: body user differs", rights("PATCH", "alice", "carol", canActAs(p)), 400, apierr.InvalidArgument.Name, "alice does not match user in body: carol"},
		{"move: body user differs", move("alice", "carol", "idp1", ""), 400, apierr.InvalidArgument.Name, "alice does not match user in body: carol"},
		{"idp update: body id differs", patchIDP("idp1", newIDP("idp2", "https://x.example", ""), "issuer"), 400, apierr.InvalidArgument.Name,
			"idp1 does not match identity provider config in body: Some(idp2)"},
		{"party update: body party differs", patchParty(encodeURIComponent(p), jsonapi.PartyDetails{Party: other, IsLocal: true}, "local_metadata"), 400, apierr.InvalidArgument.Name,
			p + " does not match party in body: Some(" + other + ")"},
		{"malformed user id: get", httpCall{method: "GET", target: "/v2/users/bad%20user"}, 400, apierr.InvalidArgument.Name, "Malformed user-id: "},
		{"malformed user id: delete", httpCall{method: "DELETE", target: "/v2/users/" + strings.Repeat("u", 129)}, 400, apierr.InvalidArgument.Name, "Malformed user-id: "},
		{"malformed user id: rights", httpCall{method: "GET", target: "/v2/users/a%2Fb/rights"}, 400, apierr.InvalidArgument.Name, "Malformed user-id: "},
		{"malformed path user id that matches the body", rights("POST", "bad%20user", "bad user", canReadAs(p)), 400, apierr.InvalidField.Name, "user_id"},
		{"patch: wrong JSON type", httpCall{method: "PATCH", target: "/v2/users/alice", body: `{"user":{"id":"alice"},"updateMask":{"paths":"primary_party"}}`}, 400, "", "updateMask.paths"},

		// Identity providers.
		{"create existing provider", createIDP(newIDP("idp1", "https://other.example", "https://other.example/jwks")), 409, apierr.IDPConfigAlreadyExists.Name, "idp1"},
		{"create with a taken issuer", createIDP(newIDP("idp3", "https://idp1.example", "https://other.example/jwks")), 409, apierr.IDPConfigIssuerAlreadyExists.Name, "https://idp1.example"},
		{"create without an id", createIDP(newIDP("", "https://idp3.example", "https://idp3.example/jwks")), 400, apierr.MissingField.Name, "identity_provider_id"},
		{"create with a bad id", createIDP(newIDP("bad%id", "https://idp3.example", "https://idp3.example/jwks")), 400, apierr.InvalidField.Name, "identity_provider_id"},
		{"create without an issuer", createIDP(newIDP("idp3", "", "https://idp3.example/jwks")), 400, apierr.MissingField.Name, "issuer"},
		{"create without a jwksUrl", createIDP(newIDP("idp3", "https://idp3.example", "")), 400, apierr.MissingField.Name, "jwks_url"},
		{"create with a malformed jwksUrl", createIDP(newIDP("idp3", "https://idp3.example", "not a url")), 400, apierr.InvalidField.Name, "Malformed URL"},
		{"create with an ftp jwksUrl", createIDP(newIDP("idp3", "https://idp3.example", "ftp://idp3.example/jwks")), 400, apierr.InvalidField.Name, "Malformed URL"},
		{"get unknown provider", httpCall{method: "GET", target: "/v2/idps/nope"}, 404, apierr.IDPConfigNotFound.Name, "nope"},
		{"get provider with a bad id", httpCall{method: "GET", target: "/v2/idps/bad%25id"}, 400, apierr.InvalidField.Name, "identity_provider_id"},
		{"update unknown provider", patchIDP("nope", newIDP("nope", "", ""), "is_deactivated"), 404, apierr.IDPConfigNotFound.Name, "nope"},
		{"update with an empty mask", patchIDP("idp1", newIDP("idp1", "", "")), 400, apierr.InvalidIdentityProviderUpdate.Name, "contains no entries"},
		{"update with a bad mask path", patchIDP("idp1", newIDP("idp1", "", ""), "identity_provider_id"), 400, apierr.InvalidIdentityProviderUpdate.Name, "is invalid"},
		{"update with a malformed jwksUrl", patchIDP("idp1", newIDP("idp1", "", "::nope"), "jwks_url"), 400, apierr.InvalidField.Name, "Malformed URL"},
		{"update with an empty issuer", patchIDP("idp1", newIDP("idp1", "", ""), "issuer"), 400, apierr.InvalidField.Name, "issuer"},
		{"update to a taken issuer", patchIDP("idp2", newIDP("idp2", "https://idp1.example", ""), "issuer"), 409, apierr.IDPConfigIssuerAlreadyExists.Name, "https://idp1.example"},
		{"delete unknown provider", httpCall{method: "DELETE", target: "/v2/idps/nope"}, 404, apierr.IDPConfigNotFound.Name, "nope"},
		{"delete a provider with users", httpCall{method: "DELETE", target: "/v2/idps/idp1"}, 400, apierr.IDPConfigInUse.Name, "idp1"},

		// Party details.
		{"update unknown party", patchParty(encodeURIComponent(other), jsonapi.PartyDetails{Party: other}, "local_metadata.annotations"), 404, apierr.PartyNotFound.Name, other},
		{"update party of another provider", patchParty(encodeURIComponent(p), jsonapi.PartyDetails{Party: p, IdentityProviderID: "idp1"}, "local_metadata.annotations"),
			404, apierr.PartyNotFound.Name, p},
		{"update party with a stale resource version", patchParty(encodeURIComponent(p), jsonapi.PartyDetails{Party: p, LocalMetadata: identity.ObjectMeta{ResourceVersion: "99"}}, "local_metadata"),
			409, apierr.ConcurrentPartyDetailsUpdate.Name, "concurrent update"},
		{"update party with an empty mask", patchParty(encodeURIComponent(p), jsonapi.PartyDetails{Party: p}), 400, apierr.InvalidPartyDetailsUpdate.Name, "contains no entries"},
		{"update party with a bad annotation key", patchParty(encodeURIComponent(p), jsonapi.PartyDetails{Party: p, LocalMetadata: identity.ObjectMeta{Annotations: map[string]string{"_x": "y"}}}, "local_metadata"),
			400, apierr.InvalidField.Name, "_x"},
		{"update party with too large annotations", patchParty(encodeURIComponent(p), jsonapi.PartyDetails{Party: p, LocalMetadata: identity.ObjectMeta{Annotations: huge}}, "local_metadata"),
			400, apierr.MaxPartyAnnotationsSizeExceeded.Name, "256kb"},
	})

	t.Run("definite answer of JSON-layer errors", func(t *testing.T) {
		for _, c := range []httpCall{
			patchUser("alice", identity.User{ID: "carol"}, "primary_party"),
			{method: "GET", target: "/v2/users/bad%20user"},
		} {
			e := wantCantonError(t, f.do(c), 400, apierr.InvalidArgument.Name)
			iptr := func(i int) *int { return &i }
			want := jsCantonError{Code: "INVALID_ARGUMENT", Cause: e.Cause, Context: map[string]string{"category": "8", "definite_answer": "false"},
				Resources: [][2]string{}, ErrorCategory: 8, GRPCCodeValue: iptr(3), DefiniteAnswer: new(bool)}
			if diff := cmp.Diff(want, e); diff != "" {
				t.Errorf("%s %s (-want +got):\n%s", c.method, c.target, diff)
			}
		}
	})
}

func TestTooManyIdentityProviders(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{})
	create := func(i int) *httptest.ResponseRecorder {
		return h.do(httpCall{method: "POST", target: "/v2/idps", body: js(t, jsonapi.IdentityProviderConfigRequest{IdentityProviderConfig: identity.IdentityProviderConfig{
			IdentityProviderID: fmt.Sprintf("idp-%02d", i), Issuer: fmt.Sprintf("https://idp%d.example", i), JWKSURL: "https://keys.example/jwks"}})})
	}
	for i := 1; i <= identity.MaxIdentityProviders; i++ {
		decodeAs[jsonapi.IdentityProviderConfigResponse](t, create(i))
	}
	before := h.adminState()
	e := wantCantonError(t, create(identity.MaxIdentityProviders+1), 400, apierr.TooManyIdentityProviderConfigs.Name)
	if !strings.Contains(e.Cause, "16") || e.ErrorCategory != 9 {
		t.Errorf("error %+v", e)
	}
	after := h.adminState()
	if diff := cmp.Diff(before, after); diff != "" {
		t.Errorf("the rejected 17th provider changed the state (-before +after):\n%s", diff)
	}
	if len(after.IDPs) != identity.MaxIdentityProviders {
		t.Errorf("%d providers", len(after.IDPs))
	}
	// Deleting one makes room again.
	decodeAs[jsonapi.Empty](t, h.do(httpCall{method: "DELETE", target: "/v2/idps/idp-01"}))
	decodeAs[jsonapi.IdentityProviderConfigResponse](t, create(identity.MaxIdentityProviders+1))
}

// TestUserAuthorization runs the user and provider routes as a plain user,
// an identity-provider admin and a participant admin (fake verifier).
func TestUserAuthorization(t *testing.T) {
	t.Parallel()
	verifier := fakeVerifier{
		"admin-token":    {UserID: identity.DefaultParticipantAdmin},
		"alice-token":    {UserID: "alice"},
		"idpadmin-token": {UserID: "idpadm", IdentityProviderID: "idp1"},
	}
	admin, alice, idpadm := bearer("admin-token"), bearer("alice-token"), bearer("idpadmin-token")
	f := newUserFixture(t, ledger.Options{}, Options{Verifier: verifier}, admin)
	h, p := f.harness, f.party
	f.createUser(identity.User{ID: "bob"})
	f.createUser(identity.User{ID: "idpadm", IdentityProviderID: "idp1"}, idpAdmin)
	f.createUser(identity.User{ID: "idpuser", IdentityProviderID: "idp1"}, canReadAs(p))

	body := func(v any) string { return js(t, v) }
	with := func(header map[string]string, c httpCall) httpCall { c.header = header; return c }
	createUser := func(u identity.User, rights ...identity.Right) httpCall {
		return httpCall{method: "POST", target: "/v2/users", body: body(jsonapi.CreateUserRequest{User: u, Rights: rights})}
	}
	grant := func(user, idp string, rs ...identity.Right) httpCall {
		return httpCall{method: "POST", target: "/v2/users/" + user + "/rights", body: body(jsonapi.UserRightsRequest{UserID: user, Rights: rs, IdentityProviderID: idp})}
	}
	revoke := func(user, idp string, rs ...identity.Right) httpCall {
		c := grant(user, idp, rs...)
		c.method = "PATCH"
		return c
	}
	move := func(user, src, dst string) httpCall {
		return httpCall{method: "PATCH", target: "/v2/users/" + user + "/identity-provider-id", body: body(jsonapi.UpdateUserIdentityProviderRequest{
			UserID: user, SourceIdentityProviderID: src, TargetIdentityProviderID: dst})}
	}
	patchUser := func(u identity.User, paths ...string) httpCall {
		return httpCall{method: "PATCH", target: "/v2/users/" + u.ID, body: body(jsonapi.UpdateUserRequest{User: u, UpdateMask: jsonapi.FieldMask{Paths: paths}})}
	}
	idpBody := body(jsonapi.UpdateIdentityProviderConfigRequest{IdentityProviderConfig: identity.IdentityProviderConfig{IdentityProviderID: "idp1", IsDeactivated: true},
		UpdateMask: jsonapi.FieldMask{Paths: []string{"is_deactivated"}}})
	newIDP := body(jsonapi.IdentityProviderConfigRequest{IdentityProviderConfig: identity.IdentityProviderConfig{IdentityProviderID: "idp9", Issuer: "https://idp9.example", JWKSURL: "https://idp9.example/k"}})
	partyBody := body(jsonapi.UpdatePartyDetailsRequest{PartyDetails: jsonapi.PartyDetails{Party: p}, UpdateMask: jsonapi.FieldMask{Paths: []string{"local_metadata"}}})
	otherIDPPartyBody := body(jsonapi.UpdatePartyDetailsRequest{PartyDetails: jsonapi.PartyDetails{Party: p, IdentityProviderID: "idp2"}, UpdateMask: jsonapi.FieldMask{Paths: []string{"local_metadata"}}})

	denied := []struct {
		who  string
		call httpCall
	}{
		{"alice", with(alice, httpCall{method: "GET", target: "/v2/users"})},
		{"alice", with(alice, createUser(identity.User{ID: "eve"}))},
		{"alice", with(alice, httpCall{method: "GET", target: "/v2/users/bob"})},
		{"alice", with(alice, httpCall{method: "GET", target: "/v2/users/bob/rights"})},
		{"alice", with(alice, httpCall{method: "DELETE", target: "/v2/users/bob"})},
		{"alice", with(alice, httpCall{method: "DELETE", target: "/v2/users/alice"})},
		{"alice", with(alice, patchUser(identity.User{ID: "bob", PrimaryParty: p}, "primary_party"))},
		{"alice", with(alice, patchUser(identity.User{ID: "alice", PrimaryParty: ""}, "primary_party"))},
		{"alice", with(alice, grant("alice", "", participantAdmin))},
		{"alice", with(alice, grant("alice", "", canReadAs(p)))},
		{"alice", with(alice, revoke("alice", "", canActAs(p)))},
		{"alice", with(alice, move("alice", "", "idp1"))},
		{"alice", with(alice, httpCall{method: "GET", target: "/v2/idps"})},
		{"alice", with(alice, httpCall{method: "POST", target: "/v2/idps", body: newIDP})},
		{"alice", with(alice, httpCall{method: "GET", target: "/v2/idps/idp1"})},
		{"alice", with(alice, httpCall{method: "PATCH", target: "/v2/idps/idp1", body: idpBody})},
		{"alice", with(alice, httpCall{method: "DELETE", target: "/v2/idps/idp2"})},
		{"alice", with(alice, httpCall{method: "PATCH", target: "/v2/parties/" + encodeURIComponent(p), body: partyBody})},
		{"idp admin", with(idpadm, createUser(identity.User{ID: "frank", IdentityProviderID: "idp2"}))},
		{"idp admin", with(idpadm, createUser(identity.User{ID: "frank", IdentityProviderID: "idp1"}, participantAdmin))},
		{"idp admin", with(idpadm, grant("idpuser", "idp1", participantAdmin))},
		{"idp admin", with(idpadm, grant("idpuser", "", participantAdmin))},
		{"idp admin", with(idpadm, grant("bob", "idp2", canReadAs(p)))},
		{"idp admin", with(idpadm, httpCall{method: "GET", target: "/v2/users/bob?identity-provider-id=idp2"})},
		{"idp admin", with(idpadm, patchUser(identity.User{ID: "bob", PrimaryParty: p, IdentityProviderID: "idp2"}, "primary_party"))},
		{"idp admin", with(idpadm, move("idpuser", "idp1", ""))},
		{"idp admin", with(idpadm, move("idpuser", "idp1", "idp2"))},
		{"idp admin", with(idpadm, httpCall{method: "GET", target: "/v2/idps"})},
		{"idp admin", with(idpadm, httpCall{method: "GET", target: "/v2/idps/idp1"})},
		{"idp admin", with(idpadm, httpCall{method: "PATCH", target: "/v2/idps/idp1", body: idpBody})},
		{"idp admin", with(idpadm, httpCall{method: "DELETE", target: "/v2/idps/idp2"})},
		{"idp admin", with(idpadm, httpCall{method: "POST", target: "/v2/idps", body: newIDP})},
		{"idp admin", with(idpadm, httpCall{method: "PATCH", target: "/v2/parties/" + encodeURIComponent(p), body: otherIDPPartyBody})},
	}
	for _, tt := range denied {
		t.Run("denied "+tt.who+" "+tt.call.method+" "+tt.call.target, func(t *testing.T) {
			before := h.adminState()
			e := wantCantonError(t, h.do(tt.call), 403, "NA")
			if e.ErrorCategory != -1 || e.GRPCCodeValue == nil || *e.GRPCCodeValue != 7 {
				t.Errorf("403 body %+v, want the redacted PERMISSION_DENIED", e)
			}
			if diff := cmp.Diff(before, h.adminState()); diff != "" {
				t.Errorf("a denied request changed the state (-before +after):\n%s", diff)
			}
		})
	}

	t.Run("a plain user reads itself", func(t *testing.T) {
		want := identity.User{ID: "alice", PrimaryParty: p, Metadata: identity.ObjectMeta{ResourceVersion: "0", Annotations: map[string]string{}}}
		for _, target := range []string{"/v2/users/alice", "/v2/authenticated-user", "/v2/authenticated-user?identity-provider-id="} {
			got := decodeAs[jsonapi.UserResponse](t, h.do(httpCall{method: "GET", target: target, header: alice}))
			if diff := cmp.Diff(jsonapi.UserResponse{User: want}, got); diff != "" {
				t.Errorf("GET %s (-want +got):\n%s", target, diff)
			}
		}
		got := decodeAs[jsonapi.ListUserRightsResponse](t, h.do(httpCall{method: "GET", target: "/v2/users/alice/rights", header: alice}))
		if diff := cmp.Diff([]identity.Right{canActAs(p)}, got.Rights); diff != "" {
			t.Errorf("own rights (-want +got):\n%s", diff)
		}
	})

	t.Run("an identity-provider admin manages its provider", func(t *testing.T) {
		eve := decodeAs[jsonapi.UserResponse](t, h.do(with(idpadm, createUser(identity.User{ID: "eve", IdentityProviderID: "idp1"}, canReadAs(p)))))
		if eve.User.IdentityProviderID != "idp1" {
			t.Errorf("created %+v", eve.User)
		}
		// identityProviderId "" is the admin's own provider.
		g := decodeAs[jsonapi.GrantUserRightsResponse](t, h.do(with(idpadm, grant("eve", "", canActAs(p)))))
		if diff := cmp.Diff([]identity.Right{canActAs(p)}, g.NewlyGrantedRights); diff != "" {
			t.Errorf("granted (-want +got):\n%s", diff)
		}
		list := decodeAs[jsonapi.ListUsersResponse](t, h.do(with(idpadm, httpCall{method: "GET", target: "/v2/users"})))
		var ids []string
		for _, u := range list.Users {
			ids = append(ids, u.ID)
		}
		if diff := cmp.Diff([]string{"carol", "eve", "idpadm", "idpuser"}, ids); diff != "" {
			t.Errorf("users the idp admin lists (-want +got):\n%s", diff)
		}
		if got := decodeAs[jsonapi.UserResponse](t, h.do(with(idpadm, httpCall{method: "GET", target: "/v2/users/eve?identity-provider-id=idp1"}))); got.User.ID != "eve" {
			t.Errorf("GET eve: %+v", got.User)
		}
		if r := decodeAs[jsonapi.ListUserRightsResponse](t, h.do(with(idpadm, httpCall{method: "GET", target: "/v2/users/eve/rights"}))); len(r.Rights) != 2 {
			t.Errorf("eve's rights: %+v", r)
		}
		upd := patchUser(identity.User{ID: "eve", IdentityProviderID: "idp1", PrimaryParty: p}, "primary_party")
		if got := decodeAs[jsonapi.UserResponse](t, h.do(with(idpadm, upd))); got.User.PrimaryParty != p {
			t.Errorf("PATCH eve: %+v", got.User)
		}
		decodeAs[jsonapi.Empty](t, h.do(with(idpadm, httpCall{method: "DELETE", target: "/v2/users/eve"})))
		wantCantonError(t, h.do(with(admin, httpCall{method: "GET", target: "/v2/users/eve?identity-provider-id=idp1"})), 404, apierr.UserNotFound.Name)
	})

	t.Run("only a participant admin moves users between providers", func(t *testing.T) {
		decodeAs[jsonapi.Empty](t, h.do(with(admin, move("idpuser", "idp1", ""))))
		got := decodeAs[jsonapi.UserResponse](t, h.do(with(admin, httpCall{method: "GET", target: "/v2/users/idpuser"})))
		if got.User.IdentityProviderID != "" {
			t.Errorf("after the move: %+v", got.User)
		}
		// Now outside the idp admin's provider.
		wantCantonError(t, h.do(with(idpadm, httpCall{method: "GET", target: "/v2/users/idpuser/rights"})), 404, apierr.UserNotFound.Name)
		wantCantonError(t, h.do(with(idpadm, httpCall{method: "GET", target: "/v2/users/idpuser?identity-provider-id=idp1"})), 404, apierr.UserNotFound.Name)
	})

	t.Run("an identity-provider admin reading a user without naming the provider", func(t *testing.T) {
		// Canton scopes an empty identityProviderId to the admin's own
		// provider: its users are found, the default provider's are not.
		// ledger.GetUser authorizes with that scope but then reads the
		// user in provider "" (it drops the provider requireSelfOrIDPAdmin
		// returns): an idp1 admin gets 404 for idp1's users and reads the
		// default provider's users.
		if got := decodeAs[jsonapi.UserResponse](t, h.do(with(idpadm, httpCall{method: "GET", target: "/v2/users/idpadm"}))); got.User.ID != "idpadm" {
			t.Errorf("GET idpadm: %+v", got.User)
		}
		wantCantonError(t, h.do(with(idpadm, httpCall{method: "GET", target: "/v2/users/alice"})), 404, apierr.UserNotFound.Name)
	})
}

// TestConcurrentUserUpdates races PATCHes with the same resourceVersion:
// exactly one wins, the others get CONCURRENT_USER_UPDATE_DETECTED.
func TestConcurrentUserUpdates(t *testing.T) {
	t.Parallel()
	f := newUserFixture(t, ledger.Options{}, Options{}, nil)
	loadSpec(t) // before the goroutines
	for round := range 3 {
		cur := decodeAs[jsonapi.UserResponse](t, f.do(httpCall{method: "GET", target: "/v2/users/alice"})).User
		const racers = 2
		reqs := make([]*http.Request, racers)
		recs := make([]*httptest.ResponseRecorder, racers)
		for i := range racers {
			u := cur
			u.Metadata.Annotations = map[string]string{"writer": fmt.Sprint(i)}
			reqs[i] = httptest.NewRequest("PATCH", "/v2/users/alice", strings.NewReader(js(t, jsonapi.UpdateUserRequest{
				User: u, UpdateMask: jsonapi.FieldMask{Paths: []string{"metadata.annotations"}}})))
			recs[i] = httptest.NewRecorder()
		}
		var start, done sync.WaitGroup
		start.Add(1)
		for i := range racers {
			done.Add(1)
			go func() {
				defer done.Done()
				start.Wait()
				f.h.ServeHTTP(recs[i], reqs[i])
			}()
		}
		start.Done()
		done.Wait()

		var codes []int
		winner := -1
		for i, rec := range recs {
			checkResponse(t, reqs[i], rec)
			codes = append(codes, rec.Code)
			switch rec.Code {
			case 200:
				winner = i
			case 409:
				wantCantonError(t, rec, 409, apierr.ConcurrentUserUpdate.Name)
			}
		}
		slices.Sort(codes)
		if diff := cmp.Diff([]int{200, 409}, codes); diff != "" {
			t.Fatalf("round %d: statuses (-want +got):\n%s", round, diff)
		}
		after := decodeAs[jsonapi.UserResponse](t, f.do(httpCall{method: "GET", target: "/v2/users/alice"})).User
		if got := after.Metadata.Annotations["writer"]; got != fmt.Sprint(winner) {
			t.Errorf("round %d: the stored writer is %q, the winner %d", round, got, winner)
		}
		if after.Metadata.ResourceVersion == cur.Metadata.ResourceVersion {
			t.Errorf("round %d: resource version unchanged", round)
		}
	}
}

// TestUserCannotRemoveItselfOverHTTP: DELETE and PATCH of the caller's
// own user (delete, deactivate, revoke its ParticipantAdmin) answer 400
// INVALID_ARGUMENT with Canton's cause, change nothing, and the caller's
// token keeps working.
func TestUserCannotRemoveItselfOverHTTP(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Verifier: testVerifier})
	admin := bearer("admin-token")
	for _, tc := range []struct {
		name, method, target, body, cause string
	}{
		{"delete", "DELETE", "/v2/users/participant_admin", "", "Requesting user cannot delete itself"},
		{"deactivate", "PATCH", "/v2/users/participant_admin",
			`{"user":{"id":"participant_admin","isDeactivated":true},"updateMask":{"paths":["is_deactivated"]}}`,
			"Requesting user cannot self-deactivate"},
		{"revoke own admin", "PATCH", "/v2/users/participant_admin/rights",
			`{"userId":"participant_admin","rights":[{"kind":{"ParticipantAdmin":{"value":{}}}}]}`,
			"Requesting user cannot remove own admin rights"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := h.adminState()
			e := wantCantonError(t, h.do(httpCall{method: tc.method, target: tc.target, body: tc.body, header: admin}),
				http.StatusBadRequest, "INVALID_ARGUMENT")
			if want := "The submitted request has invalid arguments: " + tc.cause; e.Cause != want {
				t.Errorf("cause %q, want %q", e.Cause, want)
			}
			if diff := cmp.Diff(before, h.adminState()); diff != "" {
				t.Errorf("state changed (-before +after):\n%s", diff)
			}
			if rec := h.do(httpCall{method: "GET", target: "/v2/authenticated-user", header: admin}); rec.Code != http.StatusOK ||
				!strings.Contains(rec.Body.String(), `"participant_admin"`) {
				t.Errorf("authenticated-user afterwards = %d %s", rec.Code, rec.Body)
			}
		})
	}
}

func ledgerCreateUser(id string) jsonapi.CreateUserRequest {
	return jsonapi.CreateUserRequest{User: identity.User{ID: id}}
}
