package ledger

import (
	"context"
	"sync"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// idpVerifiers caches a token verifier per identity provider, keyed by
// issuer. It is rebuilt after any provider change; JWKS caches are kept
// across rebuilds for unchanged URLs so that keys are not fetched again.
type idpVerifiers struct {
	mu       sync.Mutex
	stale    bool
	loaded   bool
	byIssuer map[string]idpVerifier
	jwks     map[string]*identity.JWKS
}

type idpVerifier struct {
	cfg      identity.IdentityProviderConfig
	verifier *identity.JWTVerifier
}

// idpsChanged drops the cached verifiers after a provider changed.
func (n *Node) idpsChanged() {
	n.idpv.mu.Lock()
	n.idpv.stale = true
	n.idpv.mu.Unlock()
}

// idpForIssuer returns the provider whose issuer is iss, if any.
func (n *Node) idpForIssuer(iss string) (idpVerifier, bool, error) {
	v := &n.idpv
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.loaded || v.stale {
		var all []identity.IdentityProviderConfig
		if err := n.st.View(func(r *store.Reader) (err error) { all, err = scanIDPs(r); return err }); err != nil {
			return idpVerifier{}, false, err
		}
		jwks := map[string]*identity.JWKS{}
		byIssuer := map[string]idpVerifier{}
		for _, c := range all {
			ks := v.jwks[c.JWKSURL]
			if ks == nil {
				ks = identity.NewJWKS(c.JWKSURL, n.opts.JWKS)
			}
			jwks[c.JWKSURL] = ks
			byIssuer[c.Issuer] = idpVerifier{cfg: c, verifier: identity.NewJWTVerifier(ks, identity.VerifyOptions{
				ParticipantID:  n.participantID,
				TargetAudience: c.Audience,
				Clock:          n.clock,
			})}
		}
		v.byIssuer, v.jwks, v.loaded, v.stale = byIssuer, jwks, true, false
	}
	e, ok := v.byIssuer[iss]
	return e, ok, nil
}

// TokenVerifier returns a Verifier that sends each token to the identity
// provider named by its iss claim: a token whose issuer is an active
// provider is verified with that provider's JWKS (and audience, when set)
// and its claims are scoped to the provider; a deactivated provider's
// tokens are unauthenticated. Tokens without iss, or whose issuer is no
// provider, go to the node's own verifier (nil: they are unauthenticated).
func (n *Node) TokenVerifier(own identity.Verifier) identity.Verifier {
	return &nodeVerifier{n: n, own: own}
}

type nodeVerifier struct {
	n   *Node
	own identity.Verifier
}

// Verify implements identity.Verifier.
func (v *nodeVerifier) Verify(ctx context.Context, token string) (identity.Claims, error) {
	if iss, err := identity.UnverifiedIssuer(token); err == nil && iss != "" {
		e, ok, err := v.n.idpForIssuer(iss)
		if err != nil {
			return identity.Claims{}, storeErr(err)
		}
		if ok {
			if e.cfg.IsDeactivated {
				return identity.Claims{}, apierr.Unauthenticated.New("identity provider %s of issuer %s is deactivated", e.cfg.IdentityProviderID, apierr.Quote(iss))
			}
			c, err := e.verifier.Verify(ctx, token)
			if err != nil {
				return identity.Claims{}, err
			}
			c.IdentityProviderID = e.cfg.IdentityProviderID
			return c, nil
		}
	}
	if v.own == nil {
		return identity.Claims{}, apierr.Unauthenticated.New("the token's issuer is no identity provider of this participant")
	}
	return v.own.Verify(ctx, token)
}
