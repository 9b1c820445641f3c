package ledger

import (
	"context"
	"errors"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// userRecord is a stored user with its rights.
type userRecord struct {
	User   identity.User    `json:"user"`
	Rights []identity.Right `json:"rights"`
}

type principalKey struct{}

// WithPrincipal returns a context that carries p: every Node method called
// with it is authorized as p. A context without a Principal is a trusted
// in-process caller.
func WithPrincipal(ctx context.Context, p identity.Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the Principal attached to ctx, if any.
func PrincipalFrom(ctx context.Context) (identity.Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(identity.Principal)
	return p, ok
}

// Authenticate resolves verified token claims to a Principal. The token's
// participant (when it names one) must be this node, and the user must
// exist in the claims' identity provider and be active; otherwise the error
// is PERMISSION_DENIED (403) with the context ledger_api_error=invalid token.
func (n *Node) Authenticate(ctx context.Context, c identity.Claims) (identity.Principal, error) {
	invalid := func(format string, args ...any) error {
		return apierr.PermissionDenied.New(format, args...).WithContext("ledger_api_error", "invalid token")
	}
	if c.ParticipantID != "" && c.ParticipantID != n.participantID {
		return identity.Principal{}, invalid("the token is for participant %s, not %s", c.ParticipantID, n.participantID)
	}
	if err := identity.ValidateUserID(c.UserID); err != nil {
		return identity.Principal{}, invalid("%v", err)
	}
	var rec userRecord
	err := n.st.View(func(r *store.Reader) error {
		var err error
		rec, err = readUserRecord(r, c.UserID)
		return err
	})
	if errors.Is(err, store.ErrNotFound) || (err == nil && rec.User.IdentityProviderID != c.IdentityProviderID) {
		return identity.Principal{}, invalid("user %s does not exist in identity provider %q", c.UserID, c.IdentityProviderID)
	}
	if err != nil {
		return identity.Principal{}, storeErr(err)
	}
	if rec.User.IsDeactivated {
		return identity.Principal{}, invalid("user %s is deactivated", c.UserID)
	}
	return identity.Principal{UserID: c.UserID, IdentityProviderID: rec.User.IdentityProviderID, Rights: rec.Rights}, nil
}

// caller returns the request's principal; a trusted in-process caller is a
// wildcard principal.
func caller(ctx context.Context) identity.Principal {
	if p, ok := PrincipalFrom(ctx); ok {
		return p
	}
	return identity.Principal{Wildcard: true}
}

// requireOwnUserID refuses a command submitted under a user id other than
// the caller's own: Canton's MatchUserId claim (Claims.validForUser) lets
// an authenticated user submit, prepare or execute only as itself, a
// participant admin included; a wildcard caller (auth mode none, an
// in-process caller), whose claims name no user in Canton, may name any.
func requireOwnUserID(p identity.Principal, userID string) error {
	if !p.Wildcard && p.UserID != "" && userID != p.UserID {
		return denied("Claims are only valid for userId '%s', actual userId is '%s'", p.UserID, apierr.Quote(userID))
	}
	return nil
}

func denied(format string, args ...any) error {
	return apierr.PermissionDenied.New(format, args...)
}

// public admits any authenticated caller of a serving node.
func (n *Node) public(ctx context.Context) error {
	if err := n.Ready(); err != nil {
		return err
	}
	return ctx.Err()
}

// scope resolves the identity provider a request is about, as Canton's
// authorizer does: an empty id means the caller's own provider.
func scope(p identity.Principal, idp string) string {
	if idp == "" {
		return p.IdentityProviderID
	}
	return idp
}

// requireIDPAdmin admits a participant admin or an identity-provider admin.
// A caller whose claims belong to a specific (non-default) provider may only
// act inside that provider, whatever its rights. It returns the provider the
// request is scoped to (see scope).
func requireIDPAdmin(ctx context.Context, idp string) (string, error) {
	p := caller(ctx)
	idp = scope(p, idp)
	if !p.IsIdentityProviderAdmin() {
		return "", denied("the caller is neither a participant admin nor an identity provider admin")
	}
	if p.IdentityProviderID != "" && idp != p.IdentityProviderID {
		return "", denied("the caller's identity provider %q does not match the request's %q", p.IdentityProviderID, idp)
	}
	return idp, nil
}

// requireSelfOrIDPAdmin admits the user itself (same id, inside its own
// provider), a participant admin, or an admin of the provider. It returns
// the provider the request is scoped to.
func requireSelfOrIDPAdmin(ctx context.Context, userID, idp string) (string, error) {
	p := caller(ctx)
	if !p.Wildcard && userID == p.UserID && scope(p, idp) == p.IdentityProviderID {
		return p.IdentityProviderID, nil
	}
	return requireIDPAdmin(ctx, idp)
}
