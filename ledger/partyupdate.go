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

var partyMaskPaths = []string{"local_metadata", "local_metadata.annotations",
	"local_metadata.resource_version", "is_local", "identity_provider_id"}

func partyNotFound(p string) *apierr.Error {
	return apierr.PartyNotFound.New("Party not found: %s", apierr.Quote(p)).WithResource("PARTY", p)
}

// UpdatePartyDetails applies to the party d.Party the fields of d that paths
// names (as in an update mask: local_metadata, local_metadata.annotations,
// local_metadata.resource_version, is_local and identity_provider_id;
// is_local and identity_provider_id cannot change), and returns the
// updated details. It needs
// ParticipantAdmin or IdentityProviderAdmin of the party's provider; the
// party must belong to d.IdentityProviderID (PARTY_NOT_FOUND
// otherwise). A stale resourceVersion fails with
// CONCURRENT_PARTY_DETAILS_UPDATE_DETECTED and changes nothing.
func (n *Node) UpdatePartyDetails(ctx context.Context, d identity.Party, paths []string) (identity.Party, error) {
	idp, err := requireIDPAdmin(ctx, d.IdentityProviderID)
	if err != nil {
		return identity.Party{}, err
	}
	if err := validIDP("party_details.identity_provider_id", idp); err != nil {
		return identity.Party{}, err
	}
	if d.Party == "" {
		return identity.Party{}, apierr.MissingField.New("party_details.party")
	}
	if err := validPartyField("party_details.party", d.Party); err != nil {
		return identity.Party{}, err
	}
	version, checkVersion, err := resourceVersion("party_details.local_metadata", d.LocalMetadata.ResourceVersion)
	if err != nil {
		return identity.Party{}, err
	}
	invalid := func(format string, args ...any) error {
		return apierr.InvalidPartyDetailsUpdate.New("Update operation for party '%s' failed due to: "+format, append([]any{apierr.Quote(d.Party)}, args...)...)
	}
	if len(paths) == 0 {
		return identity.Party{}, invalid("The update mask contains no entries")
	}
	set := map[string]bool{}
	for _, p := range paths {
		if !slices.Contains(partyMaskPaths, p) {
			return identity.Party{}, invalid("The update path: '%s' is invalid", apierr.Quote(p))
		}
		set[p] = true
	}
	if set["is_local"] && !d.IsLocal {
		return identity.Party{}, invalid("Update path is_local cannot be changed")
	}
	annotations := set["local_metadata"] || set["local_metadata.annotations"]
	if annotations {
		if err := annotationsErr(d.LocalMetadata.Annotations, true, apierr.MaxPartyAnnotationsSizeExceeded, "party_details.local_metadata.annotations"); err != nil {
			return identity.Party{}, err
		}
	}
	v, err := n.st.Submit(func(tx *store.Tx) (any, error) {
		raw, err := tx.Get(store.PartyKey(d.Party))
		if errors.Is(err, store.ErrNotFound) {
			return nil, partyNotFound(d.Party)
		}
		if err != nil {
			return nil, err
		}
		var rec partyRecord
		if err := json.Unmarshal(raw, &rec); err != nil {
			return nil, err
		}
		if rec.IdentityProviderID != idp {
			return nil, partyNotFound(d.Party)
		}
		if staleVersion(version, checkVersion, rec.Metadata.ResourceVersion) {
			return nil, apierr.ConcurrentPartyDetailsUpdate.New("Update operation for party '%s' failed due to a concurrent update to the same party", apierr.Quote(d.Party)).
				WithResource("PARTY", d.Party)
		}
		if annotations {
			merged, err := mergeAnnotations(rec.Metadata.Annotations, d.LocalMetadata.Annotations, apierr.MaxPartyAnnotationsSizeExceeded)
			if err != nil {
				return nil, err
			}
			rec.Metadata.Annotations = merged
		}
		rec.Metadata.ResourceVersion = nextVersion(rec.Metadata.ResourceVersion)
		tx.Set(store.PartyKey(d.Party), mustJSON(rec))
		return rec, nil
	})
	if err != nil {
		return identity.Party{}, storeErr(err)
	}
	return v.(partyRecord).details(idp), nil
}
