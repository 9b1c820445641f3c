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
	Users  map[string][]identity.User
	Rights map[string][]identity.Right
	IDPs   []identity.IdentityProviderConfig
	End    int64
}

func identitySnapshot(t *testing.T, n *ledger.Node, idps ...string) identityState {
	t.Helper()
	ctx := context.Background()
	s := identityState{Users: map[string][]identity.User{}, Rights: map[string][]identity.Right{}}
	for _, idp := range append([]string{""}, idps...) {
		users, _, err := n.ListUsers(ctx, 0, "", idp)
		if err != nil {
			t.Fatal(err)
		}
		s.Users[idp] = users
		for _, u := range users {
			r, err := n.ListUserRights(ctx, u.ID, idp)
			if err != nil {
				t.Fatal(err)
			}
			s.Rights[u.ID] = r
		}
	}
	l, err := n.ListIdentityProviderConfigs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s.IDPs = l
	end, _ := n.LedgerEnd(ctx)
	s.End = end
	return s
}

func newIDP(id string) identity.IdentityProviderConfig {
	return identity.IdentityProviderConfig{
		IdentityProviderID: id, Issuer: "https://" + id + ".example", JWKSURL: "https://" + id + ".example/jwks"}
}

func TestUserLifecycle(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	alice := ledgertest.MustAllocate(t, n, "alice")
	created, err := n.CreateUser(ctx, identity.User{ID: "alice_user", PrimaryParty: alice,
		Metadata: identity.ObjectMeta{Annotations: map[string]string{"example.com/team": "blue"}}}, []identity.Right{right(identity.RightCanActAs, alice), right(identity.RightCanActAs, alice)})
	if err != nil {
		t.Fatal(err)
	}
	want := identity.User{ID: "alice_user", PrimaryParty: alice,
		Metadata: identity.ObjectMeta{ResourceVersion: "0", Annotations: map[string]string{"example.com/team": "blue"}}}
	if diff := cmp.Diff(want, created); diff != "" {
		t.Errorf("created user (-want +got):\n%s", diff)
	}
	got, err := n.GetUser(ctx, "alice_user", "")
	if err != nil || !cmp.Equal(want, got) {
		t.Errorf("GetUser = %+v, %v", got, err)
	}
	rights, _ := n.ListUserRights(ctx, "alice_user", "")
	if diff := cmp.Diff([]identity.Right{right(identity.RightCanActAs, alice)}, rights); diff != "" {
		t.Errorf("rights deduplicated (-want +got):\n%s", diff)
	}

	granted, err := n.GrantUserRights(ctx, "alice_user", "", []identity.Right{
		right(identity.RightCanActAs, alice), right(identity.RightCanReadAsAnyParty, "")})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]identity.Right{right(identity.RightCanReadAsAnyParty, "")}, granted); diff != "" {
		t.Errorf("newly granted (-want +got):\n%s", diff)
	}
	revoked, err := n.RevokeUserRights(ctx, "alice_user", "", []identity.Right{
		right(identity.RightCanActAs, alice), right(identity.RightCanExecuteAsAnyParty, "")})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]identity.Right{right(identity.RightCanActAs, alice)}, revoked); diff != "" {
		t.Errorf("newly revoked (-want +got):\n%s", diff)
	}

	upd, err := n.UpdateUser(ctx, identity.User{ID: "alice_user", IsDeactivated: true, Metadata: identity.ObjectMeta{
		ResourceVersion: "0", Annotations: map[string]string{"example.com/team": "", "k": "v"}}}, []string{"is_deactivated", "metadata.annotations"})
	if err != nil {
		t.Fatal(err)
	}
	want.IsDeactivated = true
	want.Metadata = identity.ObjectMeta{ResourceVersion: "1", Annotations: map[string]string{"k": "v"}}
	if diff := cmp.Diff(want, upd); diff != "" {
		t.Errorf("updated user (-want +got):\n%s", diff)
	}
	if _, err := n.Authenticate(ctx, identity.Claims{UserID: "alice_user"}); !errors.Is(err, apierr.PermissionDenied) {
		t.Errorf("deactivated user authenticated: %v", err)
	}

	page, next, _ := n.ListUsers(ctx, 1, "", "")
	if len(page) != 1 || page[0].ID != "alice_user" || next == "" {
		t.Fatalf("first page = %+v, next %q", page, next)
	}
	page, next, _ = n.ListUsers(ctx, 1, next, "")
	if len(page) != 1 || page[0].ID != identity.DefaultParticipantAdmin || next != "" {
		t.Fatalf("second page = %+v, next %q", page, next)
	}
	// Canton's words for a negative page size (ApiUserManagementService),
	// which differ from the party list's.
	var e *apierr.Error
	if _, _, err := n.ListUsers(ctx, -1, "", ""); !errors.As(err, &e) || !errors.Is(err, apierr.InvalidArgument) ||
		!strings.HasSuffix(e.Cause, "Max page size must be non-negative") {
		t.Errorf("a negative page size: %v", err)
	}

	if err := n.DeleteUser(ctx, "alice_user", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := n.GetUser(ctx, "alice_user", ""); !errors.Is(err, apierr.UserNotFound) {
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
	if _, err := n.CreateUser(ctx, identity.User{ID: "bob"}, nil); err != nil {
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
			_, err := n.CreateUser(ctx, identity.User{ID: "bob"}, nil)
			return err
		}, apierr.UserAlreadyExists},
		{"create bad id", func() error {
			_, err := n.CreateUser(ctx, identity.User{ID: "b o b"}, nil)
			return err
		}, apierr.InvalidField},
		{"create without id", func() error {
			_, err := n.CreateUser(ctx, identity.User{}, nil)
			return err
		}, apierr.MissingField},
		{"update without id", func() error {
			_, err := n.UpdateUser(ctx, identity.User{PrimaryParty: "p::1220ab"}, []string{"primary_party"})
			return err
		}, apierr.MissingField},
		{"create in unknown idp", func() error {
			_, err := n.CreateUser(ctx, identity.User{ID: "x", IdentityProviderID: "nope"}, nil)
			return err
		}, apierr.IDPConfigNotFound},
		{"create with resource version", func() error {
			_, err := n.CreateUser(ctx, identity.User{ID: "x", Metadata: identity.ObjectMeta{ResourceVersion: "1"}}, nil)
			return err
		}, apierr.InvalidField},
		{"create too many rights", func() error {
			_, err := n.CreateUser(ctx, identity.User{ID: "x"}, []identity.Right{
				right(identity.RightCanReadAsAnyParty, ""), right(identity.RightCanExecuteAsAnyParty, ""), right(identity.RightParticipantAdmin, "")})
			return err
		}, apierr.TooManyUserRights},
		{"create annotations too large", func() error {
			_, err := n.CreateUser(ctx, identity.User{ID: "x", Metadata: identity.ObjectMeta{Annotations: map[string]string{"k": big}}}, nil)
			return err
		}, apierr.MaxUserAnnotationsSizeExceeded},
		{"create bad annotation key", func() error {
			_, err := n.CreateUser(ctx, identity.User{ID: "x", Metadata: identity.ObjectMeta{Annotations: map[string]string{"a/b/c": "v"}}}, nil)
			return err
		}, apierr.InvalidField},
		{"create bad right", func() error {
			_, err := n.CreateUser(ctx, identity.User{ID: "x"}, []identity.Right{{Kind: identity.RightCanActAs}})
			return err
		}, apierr.InvalidArgument},
		{"plain user creates", func() error {
			_, err := n.CreateUser(plain, identity.User{ID: "x"}, nil)
			return err
		}, apierr.PermissionDenied},
		{"idp admin creates in another idp", func() error {
			_, err := n.CreateUser(idpAdmin, identity.User{ID: "x", IdentityProviderID: "idp2"}, nil)
			return err
		}, apierr.PermissionDenied},
		{"idp admin reads a default-provider user", func() error {
			_, err := n.GetUser(idpAdmin, "bob", "")
			return err
		}, apierr.UserNotFound},
		{"no right beats bad input", func() error {
			_, err := n.CreateUser(plain, identity.User{ID: "b a d"}, nil)
			return err
		}, apierr.PermissionDenied},
		{"idp admin grants ParticipantAdmin", func() error {
			_, err := n.CreateUser(idpAdmin, identity.User{ID: "x", IdentityProviderID: "idp1"}, []identity.Right{right(identity.RightParticipantAdmin, "")})
			return err
		}, apierr.PermissionDenied},
		{"get unknown", func() error { _, err := n.GetUser(ctx, "ghost", ""); return err }, apierr.UserNotFound},
		{"get in other idp", func() error {
			_, err := n.GetUser(ctx, "bob", "idp1")
			return err
		}, apierr.UserNotFound},
		{"plain user reads another", func() error {
			_, err := n.GetUser(plain, identity.DefaultParticipantAdmin, "")
			return err
		}, apierr.PermissionDenied},
		{"delete unknown", func() error { err := n.DeleteUser(ctx, "ghost", ""); return err }, apierr.UserNotFound},
		{"update empty mask", func() error {
			_, err := n.UpdateUser(ctx, identity.User{ID: "bob", IsDeactivated: true}, nil)
			return err
		}, apierr.InvalidUserUpdate},
		{"update bad path", func() error {
			_, err := n.UpdateUser(ctx, identity.User{ID: "bob"}, []string{"id"})
			return err
		}, apierr.InvalidUserUpdate},
		{"update stale version", func() error {
			_, err := n.UpdateUser(ctx, identity.User{ID: "bob", PrimaryParty: "p::1220ab",
				Metadata: identity.ObjectMeta{ResourceVersion: "7"}}, []string{"primary_party"})
			return err
		}, apierr.ConcurrentUserUpdate},
		{"update a version that is not a number", func() error {
			_, err := n.UpdateUser(ctx, identity.User{ID: "bob", PrimaryParty: "p::1220ab",
				Metadata: identity.ObjectMeta{ResourceVersion: "abc"}}, []string{"primary_party"})
			return err
		}, apierr.InvalidField},
		{"update unknown", func() error {
			_, err := n.UpdateUser(ctx, identity.User{ID: "ghost"}, []string{"primary_party"})
			return err
		}, apierr.UserNotFound},
		{"update annotations too large", func() error {
			_, err := n.UpdateUser(ctx, identity.User{ID: "bob", Metadata: identity.ObjectMeta{Annotations: map[string]string{"k": big}}}, []string{"metadata.annotations"})
			return err
		}, apierr.MaxUserAnnotationsSizeExceeded},
		{"self deactivation", func() error {
			self := ledger.WithPrincipal(ctx, identity.Principal{UserID: "bob", Rights: []identity.Right{right(identity.RightParticipantAdmin, "")}})
			_, err := n.UpdateUser(self, identity.User{ID: "bob", IsDeactivated: true}, []string{"is_deactivated"})
			return err
		}, apierr.InvalidArgument},
		{"grant beyond the maximum", func() error {
			_, err := n.GrantUserRights(ctx, "bob", "", []identity.Right{
				right(identity.RightCanReadAsAnyParty, ""), right(identity.RightCanExecuteAsAnyParty, ""), right(identity.RightParticipantAdmin, "")})
			return err
		}, apierr.TooManyUserRights},
		{"grant to unknown", func() error {
			_, err := n.GrantUserRights(ctx, "ghost", "", []identity.Right{right(identity.RightCanReadAsAnyParty, "")})
			return err
		}, apierr.UserNotFound},
		{"plain user grants", func() error {
			_, err := n.GrantUserRights(plain, "bob", "", []identity.Right{right(identity.RightCanReadAsAnyParty, "")})
			return err
		}, apierr.PermissionDenied},
		{"move: unknown target", func() error {
			err := n.UpdateUserIdentityProvider(ctx, "bob", "", "nope")
			return err
		}, apierr.IDPConfigNotFound},
		{"move: wrong source", func() error {
			err := n.UpdateUserIdentityProvider(ctx, "bob", "idp1", "")
			return err
		}, apierr.UserNotFound},
		{"move: idp admin", func() error {
			err := n.UpdateUserIdentityProvider(idpAdmin, "bob", "", "idp1")
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
	if _, err := n.CreateUser(ctx, identity.User{ID: "carol"}, []identity.Right{right(identity.RightCanReadAsAnyParty, "")}); err != nil {
		t.Fatal(err)
	}
	p, err := n.Authenticate(ctx, identity.Claims{UserID: "carol"})
	if err != nil {
		t.Fatal(err)
	}
	self := ledger.WithPrincipal(ctx, p)
	if u, err := n.GetUser(self, "", ""); err != nil || u.ID != "carol" {
		t.Errorf("authenticated user = %+v, %v", u, err)
	}
	if r, err := n.ListUserRights(self, "carol", ""); err != nil || len(r) != 1 {
		t.Errorf("own rights = %+v, %v", r, err)
	}
	if _, _, err := n.ListUsers(self, 0, "", ""); !errors.Is(err, apierr.PermissionDenied) {
		t.Errorf("plain user lists users: %v", err)
	}
}

func TestConcurrentUserUpdates(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	if _, err := n.CreateUser(ctx, identity.User{ID: "dan"}, nil); err != nil {
		t.Fatal(err)
	}
	const racers = 8
	var wg sync.WaitGroup
	errs := make([]error, racers)
	for i := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = n.UpdateUser(ctx, identity.User{ID: "dan", Metadata: identity.ObjectMeta{ResourceVersion: "0",
				Annotations: map[string]string{"racer": fmt.Sprint(i)}}}, []string{"metadata.annotations"})
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
	u, _ := n.GetUser(ctx, "dan", "")
	if u.Metadata.ResourceVersion != "1" {
		t.Errorf("resource version = %q, want 1", u.Metadata.ResourceVersion)
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
	upd, err := n.UpdateIdentityProviderConfig(ctx, identity.IdentityProviderConfig{IdentityProviderID: "idp1", IsDeactivated: true, Audience: "aud1"}, []string{"is_deactivated", "audience"})
	if err != nil {
		t.Fatal(err)
	}
	want := newIDP("idp1")
	want.IsDeactivated, want.Audience = true, "aud1"
	if diff := cmp.Diff(want, upd); diff != "" {
		t.Errorf("updated (-want +got):\n%s", diff)
	}

	// A provider with a user or a party cannot be deleted.
	if _, err := n.CreateUser(ctx, identity.User{ID: "eve", IdentityProviderID: "idp1"}, nil); err != nil {
		t.Fatal(err)
	}
	before := identitySnapshot(t, n, "idp1")
	if err := n.DeleteIdentityProviderConfig(ctx, "idp1"); !errors.Is(err, apierr.IDPConfigInUse) {
		t.Fatalf("delete with a user: %v", err)
	}
	if diff := cmp.Diff(before, identitySnapshot(t, n, "idp1")); diff != "" {
		t.Errorf("refused delete changed state:\n%s", diff)
	}
	if err := n.UpdateUserIdentityProvider(ctx, "eve", "idp1", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := n.AllocateParty(ctx, ledger.AllocatePartyRequest{PartyIDHint: "p1", IdentityProviderID: "idp1"}); err != nil {
		t.Fatal(err)
	}
	if err := n.DeleteIdentityProviderConfig(ctx, "idp1"); !errors.Is(err, apierr.IDPConfigInUse) {
		t.Fatalf("delete with a party: %v", err)
	}

	if _, err := n.CreateIdentityProviderConfig(ctx, newIDP("idp2")); err != nil {
		t.Fatal(err)
	}
	if err := n.DeleteIdentityProviderConfig(ctx, "idp2"); err != nil {
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
	dupIssuer.Issuer = "https://idp00.example"
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
			r.JWKSURL = "not a url"
			_, err := n.CreateIdentityProviderConfig(ctx, r)
			return err
		}, apierr.InvalidField},
		{"missing issuer", func() error {
			r := newIDP("x")
			r.Issuer = ""
			_, err := n.CreateIdentityProviderConfig(ctx, r)
			return err
		}, apierr.MissingField},
		{"not admin", func() error { _, err := n.CreateIdentityProviderConfig(plain, newIDP("x")); return err }, apierr.PermissionDenied},
		{"get unknown", func() error { _, err := n.GetIdentityProviderConfig(ctx, "nope"); return err }, apierr.IDPConfigNotFound},
		{"delete unknown", func() error { err := n.DeleteIdentityProviderConfig(ctx, "nope"); return err }, apierr.IDPConfigNotFound},
		{"update empty mask", func() error {
			_, err := n.UpdateIdentityProviderConfig(ctx, identity.IdentityProviderConfig{IdentityProviderID: "idp00"}, nil)
			return err
		}, apierr.InvalidIdentityProviderUpdate},
		{"update bad path", func() error {
			_, err := n.UpdateIdentityProviderConfig(ctx, identity.IdentityProviderConfig{IdentityProviderID: "idp00"}, []string{"identity_provider_id"})
			return err
		}, apierr.InvalidIdentityProviderUpdate},
		{"update to a taken issuer", func() error {
			_, err := n.UpdateIdentityProviderConfig(ctx, identity.IdentityProviderConfig{IdentityProviderID: "idp01", Issuer: "https://idp00.example"}, []string{"issuer"})
			return err
		}, apierr.IDPConfigIssuerAlreadyExists},
		{"update unknown", func() error {
			_, err := n.UpdateIdentityProviderConfig(ctx, identity.IdentityProviderConfig{IdentityProviderID: "nope"}, []string{"audience"})
			return err
		}, apierr.IDPConfigNotFound},
		{"update bad url", func() error {
			_, err := n.UpdateIdentityProviderConfig(ctx, identity.IdentityProviderConfig{IdentityProviderID: "idp00", JWKSURL: "ftp://x"}, []string{"jwks_url"})
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
	upd, err := n.UpdatePartyDetails(ctx, identity.Party{Party: alice, IsLocal: true, LocalMetadata: identity.ObjectMeta{
		ResourceVersion: "0", Annotations: map[string]string{"k": "v"}}}, []string{"local_metadata.annotations"})
	if err != nil {
		t.Fatal(err)
	}
	want := identity.Party{Party: alice, IsLocal: true, LocalMetadata: identity.ObjectMeta{ResourceVersion: "1", Annotations: map[string]string{"k": "v"}}}
	if diff := cmp.Diff(want, upd); diff != "" {
		t.Errorf("updated party (-want +got):\n%s", diff)
	}
	for _, tc := range []struct {
		name    string
		details identity.Party
		paths   []string
		code    apierr.Code
	}{
		{"stale version", identity.Party{Party: alice,
			LocalMetadata: identity.ObjectMeta{ResourceVersion: "0", Annotations: map[string]string{"k": "w"}}}, []string{"local_metadata.annotations"}, apierr.ConcurrentPartyDetailsUpdate},
		{"a version that is not a number", identity.Party{Party: alice,
			LocalMetadata: identity.ObjectMeta{ResourceVersion: "v1", Annotations: map[string]string{"k": "w"}}}, []string{"local_metadata.annotations"}, apierr.InvalidField},
		{"unknown party", identity.Party{Party: "ghost::1220ab"}, []string{"local_metadata.annotations"}, apierr.PartyNotFound},
		{"other provider", identity.Party{Party: alice, IdentityProviderID: "idp1"}, []string{"local_metadata.annotations"}, apierr.PartyNotFound},
		{"empty mask", identity.Party{Party: alice}, nil, apierr.InvalidPartyDetailsUpdate},
		{"is_local false", identity.Party{Party: alice}, []string{"is_local"}, apierr.InvalidPartyDetailsUpdate},
		{"too large", identity.Party{Party: alice,
			LocalMetadata: identity.ObjectMeta{Annotations: map[string]string{"k": strings.Repeat("v", 256*1024)}}}, []string{"local_metadata.annotations"}, apierr.MaxPartyAnnotationsSizeExceeded},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := partyState(t, n)
			if _, err := n.UpdatePartyDetails(ctx, tc.details, tc.paths); !errors.Is(err, tc.code) {
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
	if _, err := n.CreateUser(ctx, identity.User{ID: "frank"}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := n.Authenticate(ctx, identity.Claims{UserID: "frank"}); err != nil {
		t.Fatal(err)
	}
	if err := n.UpdateUserIdentityProvider(ctx, "frank", "", "idp1"); err != nil {
		t.Fatal(err)
	}
	if _, err := n.Authenticate(ctx, identity.Claims{UserID: "frank"}); !errors.Is(err, apierr.PermissionDenied) {
		t.Errorf("default-provider claims after the move: %v", err)
	}
	p, err := n.Authenticate(ctx, identity.Claims{UserID: "frank", IdentityProviderID: "idp1"})
	if err != nil || p.IdentityProviderID != "idp1" {
		t.Errorf("idp1 claims after the move: %+v, %v", p, err)
	}
	l, _, _ := n.ListUsers(ctx, 0, "", "idp1")
	if len(l) != 1 || l[0].ID != "frank" {
		t.Errorf("idp1 users = %+v", l)
	}
}

func TestNonDefaultProviderUserReadsItself(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	if _, err := n.CreateIdentityProviderConfig(ctx, newIDP("idp1")); err != nil {
		t.Fatal(err)
	}
	if _, err := n.CreateUser(ctx, identity.User{ID: "gina", IdentityProviderID: "idp1"}, nil); err != nil {
		t.Fatal(err)
	}
	p, err := n.Authenticate(ctx, identity.Claims{UserID: "gina", IdentityProviderID: "idp1"})
	if err != nil {
		t.Fatal(err)
	}
	self := ledger.WithPrincipal(ctx, p)
	if u, err := n.GetUser(self, "gina", ""); err != nil || u.IdentityProviderID != "idp1" {
		t.Errorf("GetUser(own id, no provider) = %+v, %v", u, err)
	}
	if _, err := n.ListUserRights(self, "gina", ""); err != nil {
		t.Errorf("ListUserRights(own id, no provider) = %v", err)
	}
	// No user id is the caller's own, for its rights as for itself
	// (Canton's MatchUserIdForUserManagement).
	if u, err := n.GetUser(self, "", ""); err != nil || u.ID != "gina" {
		t.Errorf("GetUser(no id) = %+v, %v", u, err)
	}
	if rs, err := n.ListUserRights(self, "", ""); err != nil || len(rs) != 0 {
		t.Errorf("ListUserRights(no id) = %v, %v; want gina's none", rs, err)
	}
	if _, err := n.ListUserRights(ctx, "", ""); !errors.Is(err, apierr.InvalidArgument) {
		t.Errorf("ListUserRights(no id) of an unauthenticated caller = %v, want INVALID_ARGUMENT", err)
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
	u, err := n.CreateUser(idpAdmin, identity.User{ID: "hank"}, nil)
	if err != nil || u.IdentityProviderID != "idp1" {
		t.Fatalf("IDP admin creating without a provider: %+v, %v; want a user of idp1", u, err)
	}
	idp1Admin := ledger.WithPrincipal(ctx, identity.Principal{UserID: "root1", IdentityProviderID: "idp1",
		Rights: []identity.Right{right(identity.RightParticipantAdmin, "")}})
	if _, _, err := n.ListUsers(idp1Admin, 0, "", "idp2"); !errors.Is(err, apierr.PermissionDenied) {
		t.Errorf("participant admin of idp1 listing idp2: %v, want PERMISSION_DENIED", err)
	}
	defaultIDPAdmin := ledger.WithPrincipal(ctx, identity.Principal{UserID: "root0",
		Rights: []identity.Right{right(identity.RightIdentityProviderAdmin, "")}})
	if _, _, err := n.ListUsers(defaultIDPAdmin, 0, "", "idp2"); err != nil {
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
		if _, err := n.CreateUser(ctx, identity.User{ID: id}, []identity.Right{admin}); err != nil {
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
			err := n.DeleteUser(ctx, "alice", "")
			return err
		}},
		{"deactivate", "Requesting user cannot self-deactivate", func(ctx context.Context) error {
			_, err := n.UpdateUser(ctx, identity.User{ID: "alice", IsDeactivated: true}, []string{"is_deactivated"})
			return err
		}},
		{"revoke own admin", "Requesting user cannot remove own admin rights", func(ctx context.Context) error {
			_, err := n.RevokeUserRights(ctx, "alice", "", []identity.Right{admin})
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
			if _, err := n.GetUser(self, "", ""); err != nil {
				t.Errorf("alice cannot read herself afterwards: %v", err)
			}
		})
	}
	other := ledger.WithPrincipal(ctx, identity.Principal{UserID: "root", Rights: []identity.Right{admin}})
	if err := n.DeleteUser(other, "alice", ""); err != nil {
		t.Fatalf("another admin deletes alice: %v", err)
	}
}
