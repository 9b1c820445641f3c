package ledger_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

func right(kind identity.RightKind, party string) identity.Right {
	return identity.Right{Kind: kind, Party: party}
}

// identityState is what a rejected identity request must leave unchanged.
type identityState struct {
	Users  map[string][]ledger.ListUsersResponse
	Rights map[string][]identity.Right
	IDPs   []identity.IdentityProviderConfig
	End    int64
}

func identitySnapshot(t *testing.T, n *ledger.Node, idps ...string) identityState {
	t.Helper()
	ctx := context.Background()
	s := identityState{Users: map[string][]ledger.ListUsersResponse{}, Rights: map[string][]identity.Right{}}
	for _, idp := range append([]string{""}, idps...) {
		resp, err := n.ListUsers(ctx, ledger.ListUsersRequest{IdentityProviderID: idp})
		if err != nil {
			t.Fatal(err)
		}
		s.Users[idp] = append(s.Users[idp], resp)
		for _, u := range resp.Users {
			r, err := n.ListUserRights(ctx, ledger.GetUserRequest{UserID: u.ID, IdentityProviderID: idp})
			if err != nil {
				t.Fatal(err)
			}
			s.Rights[u.ID] = r.Rights
		}
	}
	l, err := n.ListIdentityProviderConfigs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s.IDPs = l.IdentityProviderConfigs
	end, _ := n.LedgerEnd(ctx)
	s.End = end.Offset
	return s
}

func newIDP(id string) ledger.IdentityProviderConfigRequest {
	return ledger.IdentityProviderConfigRequest{IdentityProviderConfig: identity.IdentityProviderConfig{
		IdentityProviderID: id, Issuer: "https://" + id + ".example", JWKSURL: "https://" + id + ".example/jwks"}}
}

func TestUserLifecycle(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	alice := ledgertest.MustAllocate(t, n, "alice")
	created, err := n.CreateUser(ctx, ledger.CreateUserRequest{
		User: identity.User{ID: "alice_user", PrimaryParty: alice,
			Metadata: identity.ObjectMeta{Annotations: map[string]string{"example.com/team": "blue"}}},
		Rights: []identity.Right{right(identity.RightCanActAs, alice), right(identity.RightCanActAs, alice)},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := identity.User{ID: "alice_user", PrimaryParty: alice,
		Metadata: identity.ObjectMeta{ResourceVersion: "0", Annotations: map[string]string{"example.com/team": "blue"}}}
	if diff := cmp.Diff(want, created.User); diff != "" {
		t.Errorf("created user (-want +got):\n%s", diff)
	}
	got, err := n.GetUser(ctx, ledger.GetUserRequest{UserID: "alice_user"})
	if err != nil || !cmp.Equal(want, got.User) {
		t.Errorf("GetUser = %+v, %v", got, err)
	}
	rights, _ := n.ListUserRights(ctx, ledger.GetUserRequest{UserID: "alice_user"})
	if diff := cmp.Diff([]identity.Right{right(identity.RightCanActAs, alice)}, rights.Rights); diff != "" {
		t.Errorf("rights deduplicated (-want +got):\n%s", diff)
	}

	granted, err := n.GrantUserRights(ctx, ledger.UserRightsRequest{UserID: "alice_user", Rights: []identity.Right{
		right(identity.RightCanActAs, alice), right(identity.RightCanReadAsAnyParty, "")}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]identity.Right{right(identity.RightCanReadAsAnyParty, "")}, granted.NewlyGrantedRights); diff != "" {
		t.Errorf("newly granted (-want +got):\n%s", diff)
	}
	revoked, err := n.RevokeUserRights(ctx, ledger.UserRightsRequest{UserID: "alice_user", Rights: []identity.Right{
		right(identity.RightCanActAs, alice), right(identity.RightCanExecuteAsAnyParty, "")}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]identity.Right{right(identity.RightCanActAs, alice)}, revoked.NewlyRevokedRights); diff != "" {
		t.Errorf("newly revoked (-want +got):\n%s", diff)
	}

	upd, err := n.UpdateUser(ctx, ledger.UpdateUserRequest{
		User: identity.User{ID: "alice_user", IsDeactivated: true, Metadata: identity.ObjectMeta{
			ResourceVersion: "0", Annotations: map[string]string{"example.com/team": "", "k": "v"}}},
		UpdateMask: ledger.FieldMask{Paths: []string{"is_deactivated", "metadata.annotations"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	want.IsDeactivated = true
	want.Metadata = identity.ObjectMeta{ResourceVersion: "1", Annotations: map[string]string{"k": "v"}}
	if diff := cmp.Diff(want, upd.User); diff != "" {
		t.Errorf("updated user (-want +got):\n%s", diff)
	}
	if _, err := n.Authenticate(ctx, identity.Claims{UserID: "alice_user"}); !errors.Is(err, apierr.PermissionDenied) {
		t.Errorf("deactivated user authenticated: %v", err)
	}

	page, _ := n.ListUsers(ctx, ledger.ListUsersRequest{PageSize: 1})
	if len(page.Users) != 1 || page.Users[0].ID != "alice_user" || page.NextPageToken == "" {
		t.Fatalf("first page = %+v", page)
	}
	page, _ = n.ListUsers(ctx, ledger.ListUsersRequest{PageSize: 1, PageToken: page.NextPageToken})
	if len(page.Users) != 1 || page.Users[0].ID != identity.DefaultParticipantAdmin || page.NextPageToken != "" {
		t.Fatalf("second page = %+v", page)
	}

	if _, err := n.DeleteUser(ctx, ledger.GetUserRequest{UserID: "alice_user"}); err != nil {
		t.Fatal(err)
	}
	if _, err := n.GetUser(ctx, ledger.GetUserRequest{UserID: "alice_user"}); !errors.Is(err, apierr.UserNotFound) {
		t.Errorf("deleted user still readable: %v", err)
	}
}

func TestUserErrorsLeaveNoTrace(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{MaxRightsPerUser: 2})
	ctx := context.Background()
	if _, err := n.CreateIdentityProviderConfig(ctx, newIDP("idp1")); err != nil {
		t.Fatal(err)
	}
	if _, err := n.CreateUser(ctx, ledger.CreateUserRequest{User: identity.User{ID: "bob"}}); err != nil {
		t.Fatal(err)
	}
	plain := ledger.WithPrincipal(ctx, identity.Principal{UserID: "bob"})
	idpAdmin := ledger.WithPrincipal(ctx, identity.Principal{UserID: "adm", IdentityProviderID: "idp1",
		Rights: []identity.Right{right(identity.RightIdentityProviderAdmin, "")}})
	big := strings.Repeat("x", 256*1024)
	for _, tc := range []struct {
		name string
		call func() error
		code apierr.Code
	}{
		{"create existing", func() error {
			_, err := n.CreateUser(ctx, ledger.CreateUserRequest{User: identity.User{ID: "bob"}})
			return err
		}, apierr.UserAlreadyExists},
		{"create bad id", func() error {
			_, err := n.CreateUser(ctx, ledger.CreateUserRequest{User: identity.User{ID: "b o b"}})
			return err
		}, apierr.InvalidField},
		{"create in unknown idp", func() error {
			_, err := n.CreateUser(ctx, ledger.CreateUserRequest{User: identity.User{ID: "x", IdentityProviderID: "nope"}})
			return err
		}, apierr.IDPConfigNotFound},
		{"create with resource version", func() error {
			_, err := n.CreateUser(ctx, ledger.CreateUserRequest{User: identity.User{ID: "x", Metadata: identity.ObjectMeta{ResourceVersion: "1"}}})
			return err
		}, apierr.InvalidField},
		{"create too many rights", func() error {
			_, err := n.CreateUser(ctx, ledger.CreateUserRequest{User: identity.User{ID: "x"}, Rights: []identity.Right{
				right(identity.RightCanReadAsAnyParty, ""), right(identity.RightCanExecuteAsAnyParty, ""), right(identity.RightParticipantAdmin, "")}})
			return err
		}, apierr.TooManyUserRights},
		{"create annotations too large", func() error {
			_, err := n.CreateUser(ctx, ledger.CreateUserRequest{User: identity.User{ID: "x", Metadata: identity.ObjectMeta{Annotations: map[string]string{"k": big}}}})
			return err
		}, apierr.MaxUserAnnotationsSizeExceeded},
		{"create bad annotation key", func() error {
			_, err := n.CreateUser(ctx, ledger.CreateUserRequest{User: identity.User{ID: "x", Metadata: identity.ObjectMeta{Annotations: map[string]string{"a/b/c": "v"}}}})
			return err
		}, apierr.InvalidField},
		{"create bad right", func() error {
			_, err := n.CreateUser(ctx, ledger.CreateUserRequest{User: identity.User{ID: "x"}, Rights: []identity.Right{{Kind: identity.RightCanActAs}}})
			return err
		}, apierr.InvalidArgument},
		{"plain user creates", func() error {
			_, err := n.CreateUser(plain, ledger.CreateUserRequest{User: identity.User{ID: "x"}})
			return err
		}, apierr.PermissionDenied},
		{"idp admin creates in another idp", func() error {
			_, err := n.CreateUser(idpAdmin, ledger.CreateUserRequest{User: identity.User{ID: "x", IdentityProviderID: "idp2"}})
			return err
		}, apierr.PermissionDenied},
		{"idp admin reads a default-provider user", func() error {
			_, err := n.GetUser(idpAdmin, ledger.GetUserRequest{UserID: "bob"})
			return err
		}, apierr.UserNotFound},
		{"no right beats bad input", func() error {
			_, err := n.CreateUser(plain, ledger.CreateUserRequest{User: identity.User{ID: "b a d"}})
			return err
		}, apierr.PermissionDenied},
		{"idp admin grants ParticipantAdmin", func() error {
			_, err := n.CreateUser(idpAdmin, ledger.CreateUserRequest{User: identity.User{ID: "x", IdentityProviderID: "idp1"},
				Rights: []identity.Right{right(identity.RightParticipantAdmin, "")}})
			return err
		}, apierr.PermissionDenied},
		{"get unknown", func() error { _, err := n.GetUser(ctx, ledger.GetUserRequest{UserID: "ghost"}); return err }, apierr.UserNotFound},
		{"get in other idp", func() error {
			_, err := n.GetUser(ctx, ledger.GetUserRequest{UserID: "bob", IdentityProviderID: "idp1"})
			return err
		}, apierr.UserNotFound},
		{"plain user reads another", func() error {
			_, err := n.GetUser(plain, ledger.GetUserRequest{UserID: identity.DefaultParticipantAdmin})
			return err
		}, apierr.PermissionDenied},
		{"delete unknown", func() error { _, err := n.DeleteUser(ctx, ledger.GetUserRequest{UserID: "ghost"}); return err }, apierr.UserNotFound},
		{"update empty mask", func() error {
			_, err := n.UpdateUser(ctx, ledger.UpdateUserRequest{User: identity.User{ID: "bob", IsDeactivated: true}})
			return err
		}, apierr.InvalidUserUpdate},
		{"update bad path", func() error {
			_, err := n.UpdateUser(ctx, ledger.UpdateUserRequest{User: identity.User{ID: "bob"}, UpdateMask: ledger.FieldMask{Paths: []string{"id"}}})
			return err
		}, apierr.InvalidUserUpdate},
		{"update stale version", func() error {
			_, err := n.UpdateUser(ctx, ledger.UpdateUserRequest{User: identity.User{ID: "bob", PrimaryParty: "p::1220ab",
				Metadata: identity.ObjectMeta{ResourceVersion: "7"}}, UpdateMask: ledger.FieldMask{Paths: []string{"primary_party"}}})
			return err
		}, apierr.ConcurrentUserUpdate},
		{"update unknown", func() error {
			_, err := n.UpdateUser(ctx, ledger.UpdateUserRequest{User: identity.User{ID: "ghost"}, UpdateMask: ledger.FieldMask{Paths: []string{"primary_party"}}})
			return err
		}, apierr.UserNotFound},
		{"update annotations too large", func() error {
			_, err := n.UpdateUser(ctx, ledger.UpdateUserRequest{User: identity.User{ID: "bob", Metadata: identity.ObjectMeta{Annotations: map[string]string{"k": big}}},
				UpdateMask: ledger.FieldMask{Paths: []string{"metadata.annotations"}}})
			return err
		}, apierr.MaxUserAnnotationsSizeExceeded},
		{"self deactivation", func() error {
			self := ledger.WithPrincipal(ctx, identity.Principal{UserID: "bob", Rights: []identity.Right{right(identity.RightParticipantAdmin, "")}})
			_, err := n.UpdateUser(self, ledger.UpdateUserRequest{User: identity.User{ID: "bob", IsDeactivated: true},
				UpdateMask: ledger.FieldMask{Paths: []string{"is_deactivated"}}})
			return err
		}, apierr.InvalidArgument},
		{"grant beyond the maximum", func() error {
			_, err := n.GrantUserRights(ctx, ledger.UserRightsRequest{UserID: "bob", Rights: []identity.Right{
				right(identity.RightCanReadAsAnyParty, ""), right(identity.RightCanExecuteAsAnyParty, ""), right(identity.RightParticipantAdmin, "")}})
			return err
		}, apierr.TooManyUserRights},
		{"grant to unknown", func() error {
			_, err := n.GrantUserRights(ctx, ledger.UserRightsRequest{UserID: "ghost", Rights: []identity.Right{right(identity.RightCanReadAsAnyParty, "")}})
			return err
		}, apierr.UserNotFound},
		{"plain user grants", func() error {
			_, err := n.GrantUserRights(plain, ledger.UserRightsRequest{UserID: "bob", Rights: []identity.Right{right(identity.RightCanReadAsAnyParty, "")}})
			return err
		}, apierr.PermissionDenied},
		{"move: unknown target", func() error {
			_, err := n.UpdateUserIdentityProvider(ctx, ledger.UpdateUserIdentityProviderRequest{UserID: "bob", TargetIdentityProviderID: "nope"})
			return err
		}, apierr.IDPConfigNotFound},
		{"move: wrong source", func() error {
			_, err := n.UpdateUserIdentityProvider(ctx, ledger.UpdateUserIdentityProviderRequest{UserID: "bob", SourceIdentityProviderID: "idp1"})
			return err
		}, apierr.UserNotFound},
		{"move: idp admin", func() error {
			_, err := n.UpdateUserIdentityProvider(idpAdmin, ledger.UpdateUserIdentityProviderRequest{UserID: "bob", TargetIdentityProviderID: "idp1"})
			return err
		}, apierr.PermissionDenied},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := identitySnapshot(t, n, "idp1")
			err := tc.call()
			if !errors.Is(err, tc.code) {
				t.Fatalf("err = %v, want %s", err, tc.code.Name)
			}
			if diff := cmp.Diff(before, identitySnapshot(t, n, "idp1")); diff != "" {
				t.Errorf("state changed (-before +after):\n%s", diff)
			}
		})
	}
}

func TestSelfService(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	if _, err := n.CreateUser(ctx, ledger.CreateUserRequest{User: identity.User{ID: "carol"},
		Rights: []identity.Right{right(identity.RightCanReadAsAnyParty, "")}}); err != nil {
		t.Fatal(err)
	}
	p, err := n.Authenticate(ctx, identity.Claims{UserID: "carol"})
	if err != nil {
		t.Fatal(err)
	}
	self := ledger.WithPrincipal(ctx, p)
	if u, err := n.GetUser(self, ledger.GetUserRequest{}); err != nil || u.User.ID != "carol" {
		t.Errorf("authenticated user = %+v, %v", u, err)
	}
	if r, err := n.ListUserRights(self, ledger.GetUserRequest{UserID: "carol"}); err != nil || len(r.Rights) != 1 {
		t.Errorf("own rights = %+v, %v", r, err)
	}
	if _, err := n.ListUsers(self, ledger.ListUsersRequest{}); !errors.Is(err, apierr.PermissionDenied) {
		t.Errorf("plain user lists users: %v", err)
	}
}

func TestConcurrentUserUpdates(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	if _, err := n.CreateUser(ctx, ledger.CreateUserRequest{User: identity.User{ID: "dan"}}); err != nil {
		t.Fatal(err)
	}
	const racers = 8
	var wg sync.WaitGroup
	errs := make([]error, racers)
	for i := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = n.UpdateUser(ctx, ledger.UpdateUserRequest{
				User: identity.User{ID: "dan", Metadata: identity.ObjectMeta{ResourceVersion: "0",
					Annotations: map[string]string{"racer": fmt.Sprint(i)}}},
				UpdateMask: ledger.FieldMask{Paths: []string{"metadata.annotations"}}})
		}()
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, apierr.ConcurrentUserUpdate):
			t.Errorf("unexpected error: %v", err)
		}
	}
	if ok != 1 {
		t.Errorf("%d of %d racing updates with one resourceVersion succeeded, want 1", ok, racers)
	}
	u, _ := n.GetUser(ctx, ledger.GetUserRequest{UserID: "dan"})
	if u.User.Metadata.ResourceVersion != "1" {
		t.Errorf("resource version = %q, want 1", u.User.Metadata.ResourceVersion)
	}
}

func TestIdentityProviders(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	created, err := n.CreateIdentityProviderConfig(ctx, newIDP("idp1"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := n.GetIdentityProviderConfig(ctx, "idp1")
	if err != nil || !cmp.Equal(created, got) {
		t.Fatalf("Get = %+v, %v", got, err)
	}
	upd, err := n.UpdateIdentityProviderConfig(ctx, ledger.UpdateIdentityProviderConfigRequest{
		IdentityProviderConfig: identity.IdentityProviderConfig{IdentityProviderID: "idp1", IsDeactivated: true, Audience: "aud1"},
		UpdateMask:             ledger.FieldMask{Paths: []string{"is_deactivated", "audience"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := newIDP("idp1").IdentityProviderConfig
	want.IsDeactivated, want.Audience = true, "aud1"
	if diff := cmp.Diff(want, upd.IdentityProviderConfig); diff != "" {
		t.Errorf("updated (-want +got):\n%s", diff)
	}

	// A provider with a user or a party cannot be deleted.
	if _, err := n.CreateUser(ctx, ledger.CreateUserRequest{User: identity.User{ID: "eve", IdentityProviderID: "idp1"}}); err != nil {
		t.Fatal(err)
	}
	before := identitySnapshot(t, n, "idp1")
	if _, err := n.DeleteIdentityProviderConfig(ctx, "idp1"); !errors.Is(err, apierr.IDPConfigInUse) {
		t.Fatalf("delete with a user: %v", err)
	}
	if diff := cmp.Diff(before, identitySnapshot(t, n, "idp1")); diff != "" {
		t.Errorf("refused delete changed state:\n%s", diff)
	}
	if _, err := n.UpdateUserIdentityProvider(ctx, ledger.UpdateUserIdentityProviderRequest{UserID: "eve", SourceIdentityProviderID: "idp1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := n.AllocateParty(ctx, ledger.AllocatePartyRequest{PartyIDHint: "p1", IdentityProviderID: "idp1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := n.DeleteIdentityProviderConfig(ctx, "idp1"); !errors.Is(err, apierr.IDPConfigInUse) {
		t.Fatalf("delete with a party: %v", err)
	}

	if _, err := n.CreateIdentityProviderConfig(ctx, newIDP("idp2")); err != nil {
		t.Fatal(err)
	}
	if _, err := n.DeleteIdentityProviderConfig(ctx, "idp2"); err != nil {
		t.Fatalf("delete unused provider: %v", err)
	}
	if _, err := n.GetIdentityProviderConfig(ctx, "idp2"); !errors.Is(err, apierr.IDPConfigNotFound) {
		t.Errorf("deleted provider readable: %v", err)
	}
}

func TestIdentityProviderErrorsLeaveNoTrace(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	for i := range 15 {
		if _, err := n.CreateIdentityProviderConfig(ctx, newIDP(fmt.Sprintf("idp%02d", i))); err != nil {
			t.Fatal(err)
		}
	}
	plain := ledger.WithPrincipal(ctx, identity.Principal{UserID: "u"})
	dupIssuer := newIDP("other")
	dupIssuer.IdentityProviderConfig.Issuer = "https://idp00.example"
	for _, tc := range []struct {
		name string
		call func() error
		code apierr.Code
	}{
		{"existing id", func() error { _, err := n.CreateIdentityProviderConfig(ctx, newIDP("idp00")); return err }, apierr.IDPConfigAlreadyExists},
		{"existing issuer", func() error { _, err := n.CreateIdentityProviderConfig(ctx, dupIssuer); return err }, apierr.IDPConfigIssuerAlreadyExists},
		{"missing id", func() error { _, err := n.CreateIdentityProviderConfig(ctx, newIDP("")); return err }, apierr.MissingField},
		{"bad url", func() error {
			r := newIDP("x")
			r.IdentityProviderConfig.JWKSURL = "not a url"
			_, err := n.CreateIdentityProviderConfig(ctx, r)
			return err
		}, apierr.InvalidField},
		{"missing issuer", func() error {
			r := newIDP("x")
			r.IdentityProviderConfig.Issuer = ""
			_, err := n.CreateIdentityProviderConfig(ctx, r)
			return err
		}, apierr.MissingField},
		{"not admin", func() error { _, err := n.CreateIdentityProviderConfig(plain, newIDP("x")); return err }, apierr.PermissionDenied},
		{"get unknown", func() error { _, err := n.GetIdentityProviderConfig(ctx, "nope"); return err }, apierr.IDPConfigNotFound},
		{"delete unknown", func() error { _, err := n.DeleteIdentityProviderConfig(ctx, "nope"); return err }, apierr.IDPConfigNotFound},
		{"update empty mask", func() error {
			_, err := n.UpdateIdentityProviderConfig(ctx, ledger.UpdateIdentityProviderConfigRequest{IdentityProviderConfig: identity.IdentityProviderConfig{IdentityProviderID: "idp00"}})
			return err
		}, apierr.InvalidIdentityProviderUpdate},
		{"update bad path", func() error {
			_, err := n.UpdateIdentityProviderConfig(ctx, ledger.UpdateIdentityProviderConfigRequest{IdentityProviderConfig: identity.IdentityProviderConfig{IdentityProviderID: "idp00"},
				UpdateMask: ledger.FieldMask{Paths: []string{"identity_provider_id"}}})
			return err
		}, apierr.InvalidIdentityProviderUpdate},
		{"update to a taken issuer", func() error {
			_, err := n.UpdateIdentityProviderConfig(ctx, ledger.UpdateIdentityProviderConfigRequest{
				IdentityProviderConfig: identity.IdentityProviderConfig{IdentityProviderID: "idp01", Issuer: "https://idp00.example"},
				UpdateMask:             ledger.FieldMask{Paths: []string{"issuer"}}})
			return err
		}, apierr.IDPConfigIssuerAlreadyExists},
		{"update unknown", func() error {
			_, err := n.UpdateIdentityProviderConfig(ctx, ledger.UpdateIdentityProviderConfigRequest{IdentityProviderConfig: identity.IdentityProviderConfig{IdentityProviderID: "nope"},
				UpdateMask: ledger.FieldMask{Paths: []string{"audience"}}})
			return err
		}, apierr.IDPConfigNotFound},
		{"update bad url", func() error {
			_, err := n.UpdateIdentityProviderConfig(ctx, ledger.UpdateIdentityProviderConfigRequest{IdentityProviderConfig: identity.IdentityProviderConfig{IdentityProviderID: "idp00", JWKSURL: "ftp://x"},
				UpdateMask: ledger.FieldMask{Paths: []string{"jwks_url"}}})
			return err
		}, apierr.InvalidField},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := identitySnapshot(t, n)
			if err := tc.call(); !errors.Is(err, tc.code) {
				t.Fatalf("err = %v, want %s", err, tc.code.Name)
			}
			if diff := cmp.Diff(before, identitySnapshot(t, n)); diff != "" {
				t.Errorf("state changed (-before +after):\n%s", diff)
			}
		})
	}
	if _, err := n.CreateIdentityProviderConfig(ctx, newIDP("idp15")); err != nil {
		t.Fatalf("16th provider: %v", err)
	}
	before := identitySnapshot(t, n)
	if _, err := n.CreateIdentityProviderConfig(ctx, newIDP("idp16")); !errors.Is(err, apierr.TooManyIdentityProviderConfigs) {
		t.Fatalf("17th provider: %v", err)
	}
	if diff := cmp.Diff(before, identitySnapshot(t, n)); diff != "" {
		t.Errorf("state changed:\n%s", diff)
	}
}

func TestUpdatePartyDetails(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	alice := ledgertest.MustAllocate(t, n, "alice")
	upd, err := n.UpdatePartyDetails(ctx, ledger.UpdatePartyDetailsRequest{
		PartyDetails: ledger.PartyDetails{Party: alice, IsLocal: true, LocalMetadata: identity.ObjectMeta{
			ResourceVersion: "0", Annotations: map[string]string{"k": "v"}}},
		UpdateMask: ledger.FieldMask{Paths: []string{"local_metadata.annotations"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := ledger.PartyDetails{Party: alice, IsLocal: true, LocalMetadata: identity.ObjectMeta{ResourceVersion: "1", Annotations: map[string]string{"k": "v"}}}
	if diff := cmp.Diff(want, upd.PartyDetails); diff != "" {
		t.Errorf("updated party (-want +got):\n%s", diff)
	}
	for _, tc := range []struct {
		name string
		req  ledger.UpdatePartyDetailsRequest
		code apierr.Code
	}{
		{"stale version", ledger.UpdatePartyDetailsRequest{PartyDetails: ledger.PartyDetails{Party: alice,
			LocalMetadata: identity.ObjectMeta{ResourceVersion: "0", Annotations: map[string]string{"k": "w"}}},
			UpdateMask: ledger.FieldMask{Paths: []string{"local_metadata.annotations"}}}, apierr.ConcurrentPartyDetailsUpdate},
		{"unknown party", ledger.UpdatePartyDetailsRequest{PartyDetails: ledger.PartyDetails{Party: "ghost::1220ab"},
			UpdateMask: ledger.FieldMask{Paths: []string{"local_metadata.annotations"}}}, apierr.PartyNotFound},
		{"other provider", ledger.UpdatePartyDetailsRequest{PartyDetails: ledger.PartyDetails{Party: alice, IdentityProviderID: "idp1"},
			UpdateMask: ledger.FieldMask{Paths: []string{"local_metadata.annotations"}}}, apierr.PartyNotFound},
		{"empty mask", ledger.UpdatePartyDetailsRequest{PartyDetails: ledger.PartyDetails{Party: alice}}, apierr.InvalidPartyDetailsUpdate},
		{"is_local false", ledger.UpdatePartyDetailsRequest{PartyDetails: ledger.PartyDetails{Party: alice},
			UpdateMask: ledger.FieldMask{Paths: []string{"is_local"}}}, apierr.InvalidPartyDetailsUpdate},
		{"too large", ledger.UpdatePartyDetailsRequest{PartyDetails: ledger.PartyDetails{Party: alice,
			LocalMetadata: identity.ObjectMeta{Annotations: map[string]string{"k": strings.Repeat("v", 256*1024)}}},
			UpdateMask: ledger.FieldMask{Paths: []string{"local_metadata.annotations"}}}, apierr.MaxPartyAnnotationsSizeExceeded},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := partyState(t, n)
			if _, err := n.UpdatePartyDetails(ctx, tc.req); !errors.Is(err, tc.code) {
				t.Fatalf("err = %v, want %s", err, tc.code.Name)
			}
			if diff := cmp.Diff(before, partyState(t, n)); diff != "" {
				t.Errorf("state changed:\n%s", diff)
			}
		})
	}
}

func TestMovedUserAuthenticatesInNewProvider(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	if _, err := n.CreateIdentityProviderConfig(ctx, newIDP("idp1")); err != nil {
		t.Fatal(err)
	}
	if _, err := n.CreateUser(ctx, ledger.CreateUserRequest{User: identity.User{ID: "frank"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := n.Authenticate(ctx, identity.Claims{UserID: "frank"}); err != nil {
		t.Fatal(err)
	}
	if _, err := n.UpdateUserIdentityProvider(ctx, ledger.UpdateUserIdentityProviderRequest{UserID: "frank", TargetIdentityProviderID: "idp1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := n.Authenticate(ctx, identity.Claims{UserID: "frank"}); !errors.Is(err, apierr.PermissionDenied) {
		t.Errorf("default-provider claims after the move: %v", err)
	}
	p, err := n.Authenticate(ctx, identity.Claims{UserID: "frank", IdentityProviderID: "idp1"})
	if err != nil || p.IdentityProviderID != "idp1" {
		t.Errorf("idp1 claims after the move: %+v, %v", p, err)
	}
	l, _ := n.ListUsers(ctx, ledger.ListUsersRequest{IdentityProviderID: "idp1"})
	if len(l.Users) != 1 || l.Users[0].ID != "frank" {
		t.Errorf("idp1 users = %+v", l.Users)
	}
}

func TestNonDefaultProviderUserReadsItself(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	if _, err := n.CreateIdentityProviderConfig(ctx, newIDP("idp1")); err != nil {
		t.Fatal(err)
	}
	if _, err := n.CreateUser(ctx, ledger.CreateUserRequest{User: identity.User{ID: "gina", IdentityProviderID: "idp1"}}); err != nil {
		t.Fatal(err)
	}
	p, err := n.Authenticate(ctx, identity.Claims{UserID: "gina", IdentityProviderID: "idp1"})
	if err != nil {
		t.Fatal(err)
	}
	self := ledger.WithPrincipal(ctx, p)
	if u, err := n.GetUser(self, ledger.GetUserRequest{UserID: "gina"}); err != nil || u.User.IdentityProviderID != "idp1" {
		t.Errorf("GetUser(own id, no provider) = %+v, %v", u, err)
	}
	if _, err := n.ListUserRights(self, ledger.GetUserRequest{UserID: "gina"}); err != nil {
		t.Errorf("ListUserRights(own id, no provider) = %v", err)
	}
}

// An empty identity_provider_id means the caller's own provider, and a
// caller of a specific provider cannot act in another one, whatever its
// rights (Canton's implyIdentityProviderIdFromClaims and
// validateRequestIdentityProviderId).
func TestProviderScopeFromClaims(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	for _, id := range []string{"idp1", "idp2"} {
		if _, err := n.CreateIdentityProviderConfig(ctx, newIDP(id)); err != nil {
			t.Fatal(err)
		}
	}
	idpAdmin := ledger.WithPrincipal(ctx, identity.Principal{UserID: "adm", IdentityProviderID: "idp1",
		Rights: []identity.Right{right(identity.RightIdentityProviderAdmin, "")}})
	u, err := n.CreateUser(idpAdmin, ledger.CreateUserRequest{User: identity.User{ID: "hank"}})
	if err != nil || u.User.IdentityProviderID != "idp1" {
		t.Fatalf("IDP admin creating without a provider: %+v, %v; want a user of idp1", u, err)
	}
	idp1Admin := ledger.WithPrincipal(ctx, identity.Principal{UserID: "root1", IdentityProviderID: "idp1",
		Rights: []identity.Right{right(identity.RightParticipantAdmin, "")}})
	if _, err := n.ListUsers(idp1Admin, ledger.ListUsersRequest{IdentityProviderID: "idp2"}); !errors.Is(err, apierr.PermissionDenied) {
		t.Errorf("participant admin of idp1 listing idp2: %v, want PERMISSION_DENIED", err)
	}
	defaultIDPAdmin := ledger.WithPrincipal(ctx, identity.Principal{UserID: "root0",
		Rights: []identity.Right{right(identity.RightIdentityProviderAdmin, "")}})
	if _, err := n.ListUsers(defaultIDPAdmin, ledger.ListUsersRequest{IdentityProviderID: "idp2"}); err != nil {
		t.Errorf("IDP admin of the default provider listing idp2: %v", err)
	}
}

// TestUserCannotRemoveItself: as Canton, a user cannot delete itself,
// deactivate itself or revoke its own ParticipantAdmin right
// (INVALID_ARGUMENT), and nothing changes; another admin can.
func TestUserCannotRemoveItself(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	admin := right(identity.RightParticipantAdmin, "")
	for _, id := range []string{"alice", "root"} {
		if _, err := n.CreateUser(ctx, ledger.CreateUserRequest{User: identity.User{ID: id}, Rights: []identity.Right{admin}}); err != nil {
			t.Fatal(err)
		}
	}
	p, err := n.Authenticate(ctx, identity.Claims{UserID: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	self := ledger.WithPrincipal(ctx, p)
	for _, tc := range []struct {
		name, cause string
		call        func(context.Context) error
	}{
		{"delete", "Requesting user cannot delete itself", func(ctx context.Context) error {
			_, err := n.DeleteUser(ctx, ledger.GetUserRequest{UserID: "alice"})
			return err
		}},
		{"deactivate", "Requesting user cannot self-deactivate", func(ctx context.Context) error {
			_, err := n.UpdateUser(ctx, ledger.UpdateUserRequest{User: identity.User{ID: "alice", IsDeactivated: true},
				UpdateMask: ledger.FieldMask{Paths: []string{"is_deactivated"}}})
			return err
		}},
		{"revoke own admin", "Requesting user cannot remove own admin rights", func(ctx context.Context) error {
			_, err := n.RevokeUserRights(ctx, ledger.UserRightsRequest{UserID: "alice", Rights: []identity.Right{admin}})
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := identitySnapshot(t, n)
			err := tc.call(self)
			var ae *apierr.Error
			if !errors.As(err, &ae) || ae.Code != apierr.InvalidArgument || ae.Cause != "The submitted request has invalid arguments: "+tc.cause {
				t.Fatalf("err = %v, want INVALID_ARGUMENT %q", err, tc.cause)
			}
			if diff := cmp.Diff(before, identitySnapshot(t, n)); diff != "" {
				t.Errorf("state changed (-before +after):\n%s", diff)
			}
			if _, err := n.GetUser(self, ledger.GetUserRequest{}); err != nil {
				t.Errorf("alice cannot read herself afterwards: %v", err)
			}
		})
	}
	other := ledger.WithPrincipal(ctx, identity.Principal{UserID: "root", Rights: []identity.Right{admin}})
	if _, err := n.DeleteUser(other, ledger.GetUserRequest{UserID: "alice"}); err != nil {
		t.Fatalf("another admin deletes alice: %v", err)
	}
}
