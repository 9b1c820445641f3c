package ledger

import (
	"context"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/interactive"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// External parties: GenerateExternalPartyTopology and
// AllocateExternalParty (Canton's ApiPartyManagementService, in
// community/ledger/ledger-api-core, platform/apiserver/services/admin).
// The byte-level work (topology transactions, hashes, signatures) is done
// by package interactive; this file resolves the synchronizer, authorizes
// the caller and registers the party.

// protocolVersion is the protocol version of every synchronizer the node
// is connected to; physical synchronizer ids carry it with serial 0.
const (
	protocolVersion     = 35
	synchronizerSerial  = 0
	externalPartyIDPNil = ""
)

// connectedSynchronizer resolves a required synchronizer given as a logical
// or physical id to the logical id the node is connected to.
func (n *Node) connectedSynchronizer(id, field string) (string, error) {
	if id == "" {
		return "", apierr.MissingField.New("%s", field)
	}
	if logical, pv, serial, err := interactive.ParsePhysicalSynchronizerID(id); err == nil {
		if pv != protocolVersion || serial != synchronizerSerial {
			return "", apierr.InvalidArgument.New("the participant is not connected to synchronizer %s", apierr.Quote(id)).
				WithResource("SYNCHRONIZER_ID", id)
		}
		id = logical
	}
	return n.synchronizer(id)
}

// physicalSynchronizer returns the physical id of a connected synchronizer.
func physicalSynchronizer(logical string) string {
	return interactive.PhysicalSynchronizerID(logical, protocolVersion, synchronizerSerial)
}

// GenerateExternalPartyTopology builds the onboarding transaction of an
// external party hosted on this participant (one self-authorizing
// PartyToParticipant, as Canton 3.5's
// ApiPartyManagementService.generateExternalPartyTopology builds) and the
// multi-hash to sign. It stores nothing. It needs ParticipantAdmin or
// IdentityProviderAdmin.
func (n *Node) GenerateExternalPartyTopology(ctx context.Context, req interactive.PartyTopologyRequest) (*interactive.GenerateTopologyResult, error) {
	if err := n.public(ctx); err != nil {
		return nil, err
	}
	if _, err := requireIDPAdmin(ctx, externalPartyIDPNil); err != nil {
		return nil, err
	}
	if _, err := n.connectedSynchronizer(req.Synchronizer, "synchronizer"); err != nil {
		return nil, err
	}
	if req.PublicKey == nil {
		return nil, apierr.MissingField.New("public_key")
	}
	if req.ConfirmationThreshold < 0 {
		return nil, apierr.InvalidField.New("confirmation_threshold: must not be negative")
	}
	res, err := interactive.GenerateTopology(interactive.GenerateTopologyRequest{
		PartyHint:                       req.PartyHint,
		PublicKey:                       *req.PublicKey,
		ParticipantUID:                  n.participantID,
		LocalParticipantObservationOnly: req.LocalParticipantObservationOnly,
		OtherConfirmingParticipantUIDs:  req.OtherConfirmingParticipantUIDs,
		ConfirmationThreshold:           uint32(req.ConfirmationThreshold),
		ObservingParticipantUIDs:        req.ObservingParticipantUIDs,
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// AllocateExternalParty verifies signed onboarding transactions
// (interactive.VerifyOnboarding) and registers the external party with its
// signing keys and threshold, appending a topology transaction with a
// ParticipantAuthorizationAdded event at a new offset; a userId is granted
// CanActAs on it. An invalid request changes nothing; an existing party
// fails with EXTERNAL_PARTY_ALREADY_EXISTS. Authorization is that of
// AllocateParty. Other hosting participants are not contacted: a
// multi-hosted party is registered here once its own transactions verify.
// It returns the party id.
func (n *Node) AllocateExternalParty(ctx context.Context, req interactive.PartyAllocationRequest) (party string, err error) {
	if err := n.public(ctx); err != nil {
		return "", err
	}
	idp, err := requireIDPAdmin(ctx, req.IdentityProviderID)
	if err != nil {
		return "", err
	}
	if err := identity.ValidateIdentityProviderID(idp); err != nil {
		return "", apierr.InvalidField.New("identity_provider_id: %v", err)
	}
	syncID, err := n.connectedSynchronizer(req.Synchronizer, "synchronizer")
	if err != nil {
		return "", err
	}
	if len(req.OnboardingTransactions) == 0 {
		return "", apierr.MissingField.New("onboarding_transactions")
	}
	if req.UserID != "" {
		if err := identity.ValidateUserID(req.UserID); err != nil {
			return "", apierr.InvalidField.New("user_id: %v", err)
		}
	}
	// The signatures' fields are checked by VerifyOnboarding (INVALID_ARGUMENT).
	onb := interactive.OnboardingRequest{ParticipantUID: n.participantID,
		Transactions: req.OnboardingTransactions, MultiHashSignatures: req.MultiHashSignatures}
	p, err := interactive.VerifyOnboarding(onb)
	if err != nil {
		return "", err
	}
	party = p.PartyID
	permission := update.PermissionConfirmation
	for _, h := range p.Participants {
		if h.ParticipantUID == n.participantID && h.Permission == interactive.ParticipantPermissionObservation {
			permission = update.PermissionObservation
		}
	}
	_, err = n.st.Submit(func(tx *store.Tx) (any, error) {
		rec := partyRecord{Party: party, IdentityProviderID: idp, SynchronizerID: syncID,
			Metadata:    identity.ObjectMeta{ResourceVersion: "0", Annotations: map[string]string{}},
			SigningKeys: p.SigningKeys, SigningThreshold: p.SigningThreshold}
		return n.registerParty(tx, rec, req.UserID, permission, func() error {
			return apierr.ExternalPartyAlreadyExists.New("Party %s already exists on synchronizer %s", party, physicalSynchronizer(syncID)).
				WithResource("PARTY", party)
		})
	})
	if err != nil {
		return "", storeErr(err)
	}
	return party, nil
}
