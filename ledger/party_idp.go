package ledger

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// UpdatePartyIdentityProvider moves a party hosted on this participant
// from provider src to provider dst ("" is the default provider)
// (ParticipantAdmin), as Canton's
// ApiPartyManagementService.updatePartyIdentityProviderId does: a missing
// party is MISSING_FIELD, a malformed party or provider id INVALID_FIELD,
// a provider that does not exist INVALID_ARGUMENT ("Provided
// identity_provider_id … has not been found."), and a party that is not
// hosted here or does not belong to the source provider PARTY_NOT_FOUND
// (PersistentPartyRecordStore.updatePartyRecordIdp). A refusal changes
// nothing; moving a party to the provider it is in succeeds and changes
// nothing either.
func (n *Node) UpdatePartyIdentityProvider(ctx context.Context, party, src, dst string) error {
	if err := n.public(ctx); err != nil {
		return err
	}
	if err := requireParticipantAdmin(ctx, "moving a party between identity providers"); err != nil {
		return err
	}
	if party == "" {
		return apierr.MissingField.New("party")
	}
	if err := validPartyField("party", party); err != nil {
		return err
	}
	if err := validIDP("source_identity_provider_id", src); err != nil {
		return err
	}
	if err := validIDP("target_identity_provider_id", dst); err != nil {
		return err
	}
	_, err := n.st.Submit(func(tx *store.Tx) (any, error) {
		for _, id := range []string{src, dst} {
			if err := requireIDPExists(tx, id); errors.Is(err, apierr.IDPConfigNotFound) {
				// Canton: identityProviderExistsOrError.
				return nil, apierr.InvalidArgument.New("Provided identity_provider_id %s has not been found.", apierr.Quote(id))
			} else if err != nil {
				return nil, err
			}
		}
		raw, err := tx.Get(store.PartyKey(party))
		if errors.Is(err, store.ErrNotFound) {
			return nil, errPartyIDPNotFound(party)
		}
		if err != nil {
			return nil, err
		}
		var rec partyRecord
		if err := json.Unmarshal(raw, &rec); err != nil {
			return nil, err
		}
		if rec.IdentityProviderID != src {
			return nil, errPartyIDPNotFound(party)
		}
		if src == dst {
			return nil, nil
		}
		rec.IdentityProviderID = dst
		tx.Set(store.PartyKey(party), mustJSON(rec))
		tx.Delete(store.IDPMemberKey(src, "p", party))
		tx.Set(store.IDPMemberKey(dst, "p", party), nil)
		return nil, nil
	})
	return storeErr(err)
}

// errPartyIDPNotFound is Canton's PartyNotFound.Reject of the operation.
func errPartyIDPNotFound(party string) error {
	return apierr.PartyNotFound.New("Party: '%s' was not found when updating party's identity provider", apierr.Quote(party)).
		WithResource("PARTY", party)
}
