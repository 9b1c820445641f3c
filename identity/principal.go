package identity

import "slices"

// Principal is an authenticated caller: a participant user, resolved inside
// its identity provider, with the rights it holds when the request starts.
//
// Package ledger attaches a Principal to a context (ledger.WithPrincipal)
// and checks every operation against it. A context without a Principal is a
// trusted in-process caller.
type Principal struct {
	// UserID is the participant user the token names (its sub claim).
	UserID string
	// IdentityProviderID is the user's provider ("" is the default one).
	IdentityProviderID string
	// Rights are the user's rights.
	Rights []Right
	// Wildcard marks a caller of an unauthenticated node (auth mode none):
	// it may do everything a participant admin may.
	Wildcard bool
}

// Has reports whether the principal holds the right (Wildcard holds all).
func (p Principal) Has(r Right) bool {
	return p.Wildcard || slices.Contains(p.Rights, r)
}

// IsParticipantAdmin reports whether the principal holds ParticipantAdmin.
func (p Principal) IsParticipantAdmin() bool {
	return p.Has(Right{Kind: RightParticipantAdmin})
}

// IsIdentityProviderAdmin reports whether the principal administers its own
// identity provider (IdentityProviderAdmin or ParticipantAdmin).
func (p Principal) IsIdentityProviderAdmin() bool {
	return p.IsParticipantAdmin() || p.Has(Right{Kind: RightIdentityProviderAdmin})
}

// CanActAs reports whether the principal may submit as party.
func (p Principal) CanActAs(party string) bool {
	return p.Has(Right{Kind: RightCanActAs, Party: party})
}

// CanReadAs reports whether the principal may read as party (CanReadAs,
// CanActAs or CanReadAsAnyParty).
func (p Principal) CanReadAs(party string) bool {
	return p.CanActAs(party) || p.Has(Right{Kind: RightCanReadAs, Party: party}) ||
		p.Has(Right{Kind: RightCanReadAsAnyParty})
}
