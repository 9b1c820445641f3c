package identity

import (
	"context"
	"time"
)

// Claims are the verified ledger-API claims of an access token.
type Claims struct {
	// UserID is the participant user the token is for (its sub claim).
	UserID string
	// Issuer is the token's iss claim ("" when absent).
	Issuer string
	// IdentityProviderID is the provider whose key verified the token (""
	// for the node's own key).
	IdentityProviderID string
	// ParticipantID is the participant the token is restricted to, from an
	// audience-based token or a scope-based token's single aud ("" when
	// unrestricted).
	ParticipantID string
	// Audiences are the token's aud values.
	Audiences []string
	// Scopes are the token's scopes (scope split on spaces, or scp).
	Scopes []string
	// ExpiresAt is the exp claim (zero when absent).
	ExpiresAt time.Time
}

// Verifier checks a compact JWT and returns its ledger-API claims. Every
// failure is an *apierr.Error with code UNAUTHENTICATED (401), whose cause
// says why (it is logged, and redacted for clients); this package's
// verifiers return the APIError of a KindUnauthenticated *Error.
type Verifier interface {
	Verify(ctx context.Context, token string) (Claims, error)
}
