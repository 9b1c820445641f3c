package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"slices"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

func idpNotFound(id string) *apierr.Error {
	return apierr.IDPConfigNotFound.New("identity provider config %s not found", apierr.Quote(id)).
		WithResource("IDENTITY_PROVIDER_CONFIG", id)
}

// requireIDPExists fails with IDP_CONFIG_NOT_FOUND unless the provider is
// the default one or stored.
func requireIDPExists(r interface{ Get([]byte) ([]byte, error) }, id string) error {
	if id == "" {
		return nil
	}
	_, err := r.Get(store.IDPKey(id))
	if errors.Is(err, store.ErrNotFound) {
		return idpNotFound(id)
	}
	return err
}

func loadIDP(r interface{ Get([]byte) ([]byte, error) }, id string) (identity.IdentityProviderConfig, error) {
	var c identity.IdentityProviderConfig
	raw, err := r.Get(store.IDPKey(id))
	if errors.Is(err, store.ErrNotFound) {
		return c, idpNotFound(id)
	}
	if err != nil {
		return c, err
	}
	return c, json.Unmarshal(raw, &c)
}

func scanIDPs(r interface {
	Scan([]byte, []byte, func(k, v []byte) (bool, error)) error
}) ([]identity.IdentityProviderConfig, error) {
	var out []identity.IdentityProviderConfig
	err := r.Scan([]byte(store.PrefixIDP), nil, func(_, v []byte) (bool, error) {
		var c identity.IdentityProviderConfig
		if err := json.Unmarshal(v, &c); err != nil {
			return false, err
		}
		out = append(out, c)
		return true, nil
	})
	return out, err
}

func requireParticipantAdmin(ctx context.Context, what string) error {
	if !caller(ctx).IsParticipantAdmin() {
		return denied("%s needs ParticipantAdmin", what)
	}
	return nil
}

// CreateIdentityProviderConfig adds an identity provider (ParticipantAdmin).
// The id and the issuer must be unique; at most 16 providers exist.
func (n *Node) CreateIdentityProviderConfig(ctx context.Context, c identity.IdentityProviderConfig) (identity.IdentityProviderConfig, error) {
	if err := requireParticipantAdmin(ctx, "creating an identity provider"); err != nil {
		return identity.IdentityProviderConfig{}, err
	}
	if err := c.Validate(); err != nil {
		return identity.IdentityProviderConfig{}, identity.APIError(err)
	}
	_, err := n.st.Submit(func(tx *store.Tx) (any, error) {
		all, err := scanIDPs(tx)
		if err != nil {
			return nil, err
		}
		for _, o := range all {
			if o.IdentityProviderID == c.IdentityProviderID {
				return nil, apierr.IDPConfigAlreadyExists.New("identity provider config %s already exists", apierr.Quote(c.IdentityProviderID)).
					WithResource("IDENTITY_PROVIDER_CONFIG", c.IdentityProviderID)
			}
			if o.Issuer == c.Issuer {
				return nil, apierr.IDPConfigIssuerAlreadyExists.New("identity provider config with issuer %s already exists", apierr.Quote(c.Issuer)).
					WithResource("IDENTITY_PROVIDER_CONFIG", o.IdentityProviderID)
			}
		}
		if len(all) >= identity.MaxIdentityProviders {
			return nil, apierr.TooManyIdentityProviderConfigs.New("maximum number of identity provider configs (%d) reached", identity.MaxIdentityProviders)
		}
		tx.Set(store.IDPKey(c.IdentityProviderID), mustJSON(c))
		return nil, nil
	})
	if err != nil {
		return identity.IdentityProviderConfig{}, storeErr(err)
	}
	n.idpsChanged()
	return c, nil
}

// GetIdentityProviderConfig returns one provider (ParticipantAdmin).
func (n *Node) GetIdentityProviderConfig(ctx context.Context, id string) (identity.IdentityProviderConfig, error) {
	if err := requireParticipantAdmin(ctx, "reading an identity provider"); err != nil {
		return identity.IdentityProviderConfig{}, err
	}
	if id == "" {
		return identity.IdentityProviderConfig{}, apierr.MissingField.New("identity_provider_id")
	}
	if err := validIDP("identity_provider_id", id); err != nil {
		return identity.IdentityProviderConfig{}, err
	}
	var c identity.IdentityProviderConfig
	err := n.st.View(func(r *store.Reader) (err error) { c, err = loadIDP(r, id); return err })
	if err != nil {
		return identity.IdentityProviderConfig{}, storeErr(err)
	}
	return c, nil
}

// ListIdentityProviderConfigs returns every provider, ordered by id
// (ParticipantAdmin). The default provider is implicit and not listed.
func (n *Node) ListIdentityProviderConfigs(ctx context.Context) ([]identity.IdentityProviderConfig, error) {
	if err := requireParticipantAdmin(ctx, "listing identity providers"); err != nil {
		return nil, err
	}
	var all []identity.IdentityProviderConfig
	err := n.st.View(func(r *store.Reader) (err error) { all, err = scanIDPs(r); return err })
	if err != nil {
		return nil, storeErr(err)
	}
	if all == nil {
		all = []identity.IdentityProviderConfig{}
	}
	return all, nil
}

var idpMaskPaths = []string{"is_deactivated", "jwks_url", "issuer", "audience"}

// UpdateIdentityProviderConfig changes the fields of c that paths names
// (is_deactivated, jwks_url, issuer, audience, as in an update mask)
// and returns the result (ParticipantAdmin). The issuer stays unique.
func (n *Node) UpdateIdentityProviderConfig(ctx context.Context, c identity.IdentityProviderConfig, paths []string) (identity.IdentityProviderConfig, error) {
	if err := requireParticipantAdmin(ctx, "updating an identity provider"); err != nil {
		return identity.IdentityProviderConfig{}, err
	}
	if c.IdentityProviderID == "" {
		return identity.IdentityProviderConfig{}, apierr.MissingField.New("identity_provider_id")
	}
	if err := validIDP("identity_provider_id", c.IdentityProviderID); err != nil {
		return identity.IdentityProviderConfig{}, err
	}
	if len(paths) == 0 {
		return identity.IdentityProviderConfig{}, apierr.InvalidIdentityProviderUpdate.New("Update operation for identity provider config '%s' failed due to: The update mask contains no entries", apierr.Quote(c.IdentityProviderID))
	}
	set := map[string]bool{}
	for _, p := range paths {
		if !slices.Contains(idpMaskPaths, p) {
			return identity.IdentityProviderConfig{}, apierr.InvalidIdentityProviderUpdate.New("Update operation for identity provider config '%s' failed due to: The update path: '%s' is invalid", apierr.Quote(c.IdentityProviderID), apierr.Quote(p))
		}
		set[p] = true
	}
	if set["issuer"] && c.Issuer == "" {
		return identity.IdentityProviderConfig{}, apierr.InvalidField.New("issuer: must not be empty")
	}
	if set["jwks_url"] {
		if err := identity.ValidateJWKSURL(c.JWKSURL); err != nil {
			return identity.IdentityProviderConfig{}, identity.APIError(err)
		}
	}
	v, err := n.st.Submit(func(tx *store.Tx) (any, error) {
		cur, err := loadIDP(tx, c.IdentityProviderID)
		if err != nil {
			return nil, err
		}
		if set["issuer"] && c.Issuer != cur.Issuer {
			all, err := scanIDPs(tx)
			if err != nil {
				return nil, err
			}
			for _, o := range all {
				if o.Issuer == c.Issuer {
					return nil, apierr.IDPConfigIssuerAlreadyExists.New("identity provider config with issuer %s already exists", apierr.Quote(c.Issuer)).
						WithResource("IDENTITY_PROVIDER_CONFIG", o.IdentityProviderID)
				}
			}
			cur.Issuer = c.Issuer
		}
		if set["is_deactivated"] {
			cur.IsDeactivated = c.IsDeactivated
		}
		if set["jwks_url"] {
			cur.JWKSURL = c.JWKSURL
		}
		if set["audience"] {
			cur.Audience = c.Audience
		}
		tx.Set(store.IDPKey(cur.IdentityProviderID), mustJSON(cur))
		return cur, nil
	})
	if err != nil {
		return identity.IdentityProviderConfig{}, storeErr(err)
	}
	n.idpsChanged()
	return v.(identity.IdentityProviderConfig), nil
}

// DeleteIdentityProviderConfig removes a provider (ParticipantAdmin). A
// provider that users or parties still belong to is not deleted:
// IDP_CONFIG_IN_USE.
func (n *Node) DeleteIdentityProviderConfig(ctx context.Context, id string) error {
	if err := requireParticipantAdmin(ctx, "deleting an identity provider"); err != nil {
		return err
	}
	if id == "" {
		return apierr.MissingField.New("identity_provider_id")
	}
	if err := validIDP("identity_provider_id", id); err != nil {
		return err
	}
	_, err := n.st.Submit(func(tx *store.Tx) (any, error) {
		if _, err := loadIDP(tx, id); err != nil {
			return nil, err
		}
		for _, kind := range []string{"u", "p"} {
			used := false
			err := tx.Scan(store.IDPMemberPrefix(id, kind), nil, func(_, _ []byte) (bool, error) {
				used = true
				return false, nil
			})
			if err != nil {
				return nil, err
			}
			if used {
				what := map[string]string{"u": "users", "p": "parties"}[kind]
				return nil, apierr.IDPConfigInUse.New("identity provider config %s still has %s; move or delete them first", apierr.Quote(id), what).
					WithResource("IDENTITY_PROVIDER_CONFIG", id)
			}
		}
		tx.Delete(store.IDPKey(id))
		return nil, nil
	})
	if err != nil {
		return storeErr(err)
	}
	n.idpsChanged()
	return nil
}
