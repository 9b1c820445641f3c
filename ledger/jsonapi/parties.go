package jsonapi

import (
	"context"

	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
)

// The party management service (Canton's JsPartyManagementService).

// ParticipantIDResponse is the answer of GET /v2/parties/participant-id.
type ParticipantIDResponse struct {
	ParticipantID string `json:"participantId"`
}

// PartyDetails describes one party as the JSON API shows it
// (identity.Party on the wire).
type PartyDetails struct {
	Party              string              `json:"party"`
	IsLocal            bool                `json:"isLocal"`
	LocalMetadata      identity.ObjectMeta `json:"localMetadata"`
	IdentityProviderID string              `json:"identityProviderId"`
}

// AllocatePartyRequest is the body of POST /v2/parties
// (ledger.AllocatePartyRequest on the wire). Every field is optional.
type AllocatePartyRequest struct {
	PartyIDHint        string               `json:"partyIdHint"`
	LocalMetadata      *identity.ObjectMeta `json:"localMetadata"`
	IdentityProviderID string               `json:"identityProviderId"`
	SynchronizerID     string               `json:"synchronizerId"`
	UserID             string               `json:"userId"`
}

// AllocatePartyResponse is the answer of POST /v2/parties.
type AllocatePartyResponse struct {
	PartyDetails PartyDetails `json:"partyDetails"`
}

// ListPartiesRequest selects a page of known parties (the query of GET
// /v2/parties).
type ListPartiesRequest = ledger.ListPartiesRequest

// ListPartiesResponse is one page of parties, ordered by party id.
// NextPageToken is "" on the last page.
type ListPartiesResponse struct {
	PartyDetails  []PartyDetails `json:"partyDetails"`
	NextPageToken string         `json:"nextPageToken"`
}

// GetPartiesRequest names parties to look up (the path and query of GET
// /v2/parties/{party}).
type GetPartiesRequest struct {
	// Parties are the ids to look up.
	Parties []string
	// IdentityProviderID scopes isLocal and identityProviderId.
	IdentityProviderID string
}

// GetPartiesResponse holds the known parties among the requested ones.
type GetPartiesResponse struct {
	PartyDetails []PartyDetails `json:"partyDetails"`
}

// UpdatePartyDetailsRequest is the body of PATCH /v2/parties/{party}: the
// details, and the mask naming the fields to change (local_metadata,
// local_metadata.annotations, local_metadata.resource_version, is_local,
// identity_provider_id).
type UpdatePartyDetailsRequest struct {
	PartyDetails PartyDetails `json:"partyDetails"`
	UpdateMask   FieldMask    `json:"updateMask"`
}

// UpdatePartyDetailsResponse carries the updated details.
type UpdatePartyDetailsResponse struct {
	PartyDetails PartyDetails `json:"partyDetails"`
}

// ParticipantID serves GET /v2/parties/participant-id
// (Node.ParticipantID).
func (a *API) ParticipantID(ctx context.Context) (ParticipantIDResponse, error) {
	id, err := a.Node.ParticipantID(ctx)
	if err != nil {
		return ParticipantIDResponse{}, err
	}
	return ParticipantIDResponse{ParticipantID: id}, nil
}

// AllocateParty serves POST /v2/parties (Node.AllocateParty).
func (a *API) AllocateParty(ctx context.Context, req AllocatePartyRequest) (AllocatePartyResponse, error) {
	d, err := a.Node.AllocateParty(ctx, ledger.AllocatePartyRequest(req))
	if err != nil {
		return AllocatePartyResponse{}, err
	}
	return AllocatePartyResponse{PartyDetails: PartyDetails(d)}, nil
}

// ListParties serves GET /v2/parties (Node.ListParties).
func (a *API) ListParties(ctx context.Context, req ListPartiesRequest) (ListPartiesResponse, error) {
	parties, next, err := a.Node.ListParties(ctx, req)
	if err != nil {
		return ListPartiesResponse{}, err
	}
	return ListPartiesResponse{PartyDetails: partyDetails(parties), NextPageToken: next}, nil
}

// GetParties serves GET /v2/parties/{party} (Node.GetParties).
func (a *API) GetParties(ctx context.Context, req GetPartiesRequest) (GetPartiesResponse, error) {
	parties, err := a.Node.GetParties(ctx, req.Parties, req.IdentityProviderID)
	if err != nil {
		return GetPartiesResponse{}, err
	}
	return GetPartiesResponse{PartyDetails: partyDetails(parties)}, nil
}

// UpdatePartyDetails serves PATCH /v2/parties/{party}
// (Node.UpdatePartyDetails).
func (a *API) UpdatePartyDetails(ctx context.Context, req UpdatePartyDetailsRequest) (UpdatePartyDetailsResponse, error) {
	d, err := a.Node.UpdatePartyDetails(ctx, identity.Party(req.PartyDetails), req.UpdateMask.Paths)
	if err != nil {
		return UpdatePartyDetailsResponse{}, err
	}
	return UpdatePartyDetailsResponse{PartyDetails: PartyDetails(d)}, nil
}

// partyDetails converts the Node's party details to the wire's ([] for
// none).
func partyDetails(ds []identity.Party) []PartyDetails {
	out := make([]PartyDetails, len(ds))
	for i, d := range ds {
		out[i] = PartyDetails(d)
	}
	return out
}
