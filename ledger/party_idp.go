package ledger

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// UpdatePartyIdentityProviderRequest moves a party from one identity
// provider to another: Canton's UpdatePartyIdentityProviderIdRequest.
// An empty provider id is the default provider.
type UpdatePartyIdentityProviderRequest struct {
	Party                    string
	SourceIdentityProviderID string
	TargetIdentityProviderID string
}

// UpdatePartyIdentityProvider moves a party hosted on this participant
// from req.SourceIdentityProviderID to req.TargetIdentityProviderID
// (ParticipantAdmin), as Canton's
// ApiPartyManagementService.updatePartyIdentityProviderId does: a missing
// party is MISSING_FIELD, a malformed party or provider id INVALID_FIELD,
// a provider that does not exist INVALID_ARGUMENT ("Provided
// identity_provider_id … has not been found."), and a party that is not
// hosted here or does not belong to the source provider PARTY_NOT_FOUND
// (PersistentPartyRecordStore.updatePartyRecordIdp). A refusal changes
// nothing; moving a party to the provider it is in succeeds and changes
// nothing either.
func (n *Node) UpdatePartyIdentityProvider(ctx context.Context, req UpdatePartyIdentityProviderRequest) (Empty, error) {
	if err := n.public(ctx); err != nil {
		return Empty{}, err
	}
	if err := requireParticipantAdmin(ctx, "moving a party between identity providers"); err != nil {
		return Empty{}, err
	}
	if req.Party == "" {
		return Empty{}, apierr.MissingField.New("party")
	}
	if err := validPartyField("party", req.Party); err != nil {
		return Empty{}, err
	}
	if err := validIDP("source_identity_provider_id", req.SourceIdentityProviderID); err != nil {
		return Empty{}, err
	}
	if err := validIDP("target_identity_provider_id", req.TargetIdentityProviderID); err != nil {
		return Empty{}, err
	}
	src, dst := req.SourceIdentityProviderID, req.TargetIdentityProviderID
	_, err := n.st.Submit(func(tx *store.Tx) (any, error) {
		for _, id := range []string{src, dst} {
			if err := requireIDPExists(tx, id); errors.Is(err, apierr.IDPConfigNotFound) {
				// Canton: identityProviderExistsOrError.
				return nil, apierr.InvalidArgument.New("Provided identity_provider_id %s has not been found.", apierr.Quote(id))
			} else if err != nil {
				return nil, err
			}
		}
		raw, err := tx.Get(store.PartyKey(req.Party))
		if errors.Is(err, store.ErrNotFound) {
			return nil, errPartyIDPNotFound(req.Party)
		}
		if err != nil {
			return nil, err
		}
		var rec partyRecord
		if err := json.Unmarshal(raw, &rec); err != nil {
			return nil, err
		}
		if rec.IdentityProviderID != src {
			return nil, errPartyIDPNotFound(req.Party)
		}
		if src == dst {
			return nil, nil
		}
		rec.IdentityProviderID = dst
		tx.Set(store.PartyKey(req.Party), mustJSON(rec))
		tx.Delete(store.IDPMemberKey(src, "p", req.Party))
		tx.Set(store.IDPMemberKey(dst, "p", req.Party), nil)
		return nil, nil
	})
	return Empty{}, storeErr(err)
}

// errPartyIDPNotFound is Canton's PartyNotFound.Reject of the operation.
func errPartyIDPNotFound(party string) error {
	return apierr.PartyNotFound.New("Party: '%s' was not found when updating party's identity provider", apierr.Quote(party)).
		WithResource("PARTY", party)
}
