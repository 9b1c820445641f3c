package ledger

import (
	"context"
	"strconv"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/interactive"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
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

// SigningPublicKey is a Ledger API public key: {format, keyData, keySpec}.
type SigningPublicKey struct {
	Format  string `json:"format"`
	KeyData []byte `json:"keyData"`
	KeySpec string `json:"keySpec"`
}

// Signature is a Ledger API signature.
type Signature struct {
	Format               string `json:"format"`
	Signature            []byte `json:"signature"`
	SignedBy             string `json:"signedBy"`
	SigningAlgorithmSpec string `json:"signingAlgorithmSpec"`
}

// GenerateExternalPartyTopologyRequest asks for the onboarding
// transactions of an external party.
type GenerateExternalPartyTopologyRequest struct {
	Synchronizer                    string            `json:"synchronizer"`
	PartyHint                       string            `json:"partyHint"`
	PublicKey                       *SigningPublicKey `json:"publicKey"`
	LocalParticipantObservationOnly bool              `json:"localParticipantObservationOnly"`
	OtherConfirmingParticipantUIDs  []string          `json:"otherConfirmingParticipantUids"`
	ConfirmationThreshold           int32             `json:"confirmationThreshold"`
	ObservingParticipantUIDs        []string          `json:"observingParticipantUids"`
}

// GenerateExternalPartyTopologyResponse carries the transactions to sign.
type GenerateExternalPartyTopologyResponse struct {
	PartyID              string   `json:"partyId"`
	PublicKeyFingerprint string   `json:"publicKeyFingerprint"`
	TopologyTransactions [][]byte `json:"topologyTransactions"`
	MultiHash            []byte   `json:"multiHash"`
}

// SignedTransaction is an onboarding transaction with its signatures.
type SignedTransaction struct {
	Transaction []byte      `json:"transaction"`
	Signatures  []Signature `json:"signatures"`
}

// AllocateExternalPartyRequest registers an external party from signed
// onboarding transactions.
type AllocateExternalPartyRequest struct {
	Synchronizer           string              `json:"synchronizer"`
	OnboardingTransactions []SignedTransaction `json:"onboardingTransactions"`
	MultiHashSignatures    []Signature         `json:"multiHashSignatures"`
	IdentityProviderID     string              `json:"identityProviderId"`
	WaitForAllocation      *bool               `json:"waitForAllocation"`
	UserID                 string              `json:"userId"`
}

// AllocateExternalPartyResponse names the allocated party.
type AllocateExternalPartyResponse struct {
	PartyID string `json:"partyId"`
}

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

func toSignatures(in []Signature, field string) ([]interactive.Signature, error) {
	out := make([]interactive.Signature, 0, len(in))
	for i, s := range in {
		f, err := interactive.ParseSignatureFormat(s.Format)
		if err != nil {
			return nil, apierr.InvalidArgument.New("%s[%d].format: %v", field, i, err)
		}
		a, err := interactive.ParseSigningAlgorithmSpec(s.SigningAlgorithmSpec)
		if err != nil {
			return nil, apierr.InvalidArgument.New("%s[%d].signingAlgorithmSpec: %v", field, i, err)
		}
		sig := interactive.Signature{Format: f, Signature: s.Signature, SignedBy: s.SignedBy, SigningAlgorithmSpec: a}
		if err := interactive.CheckSignatureFields(sig); err != nil {
			return nil, err
		}
		out = append(out, sig)
	}
	return out, nil
}

// GenerateExternalPartyTopology builds the onboarding transaction of an
// external party hosted on this participant (one self-authorizing
// PartyToParticipant, as Canton 3.5's
// ApiPartyManagementService.generateExternalPartyTopology builds) and the
// multi-hash to sign. It stores nothing. It needs ParticipantAdmin or
// IdentityProviderAdmin.
func (n *Node) GenerateExternalPartyTopology(ctx context.Context, req GenerateExternalPartyTopologyRequest) (GenerateExternalPartyTopologyResponse, error) {
	if err := n.public(ctx); err != nil {
		return GenerateExternalPartyTopologyResponse{}, err
	}
	if _, err := requireIDPAdmin(ctx, externalPartyIDPNil); err != nil {
		return GenerateExternalPartyTopologyResponse{}, err
	}
	if _, err := n.connectedSynchronizer(req.Synchronizer, "synchronizer"); err != nil {
		return GenerateExternalPartyTopologyResponse{}, err
	}
	if req.PublicKey == nil {
		return GenerateExternalPartyTopologyResponse{}, apierr.MissingField.New("public_key")
	}
	if req.ConfirmationThreshold < 0 {
		return GenerateExternalPartyTopologyResponse{}, apierr.InvalidField.New("confirmation_threshold: must not be negative")
	}
	format, err := interactive.ParseKeyFormat(req.PublicKey.Format)
	if err != nil {
		return GenerateExternalPartyTopologyResponse{}, apierr.InvalidField.New("public_key.format: %v", err)
	}
	spec, err := interactive.ParseSigningKeySpec(req.PublicKey.KeySpec)
	if err != nil {
		return GenerateExternalPartyTopologyResponse{}, apierr.InvalidField.New("public_key.key_spec: %v", err)
	}
	res, err := interactive.GenerateTopology(interactive.GenerateTopologyRequest{
		PartyHint:                       req.PartyHint,
		PublicKey:                       interactive.SigningPublicKey{Format: format, KeyData: req.PublicKey.KeyData, KeySpec: spec},
		ParticipantUID:                  n.participantID,
		LocalParticipantObservationOnly: req.LocalParticipantObservationOnly,
		OtherConfirmingParticipantUIDs:  req.OtherConfirmingParticipantUIDs,
		ConfirmationThreshold:           uint32(req.ConfirmationThreshold),
		ObservingParticipantUIDs:        req.ObservingParticipantUIDs,
	})
	if err != nil {
		return GenerateExternalPartyTopologyResponse{}, err
	}
	return GenerateExternalPartyTopologyResponse{PartyID: res.PartyID, PublicKeyFingerprint: res.PublicKeyFingerprint,
		TopologyTransactions: res.TopologyTransactions, MultiHash: res.MultiHash}, nil
}

// AllocateExternalParty verifies signed onboarding transactions
// (interactive.VerifyOnboarding) and registers the external party with its
// signing keys and threshold, appending a topology transaction with a
// ParticipantAuthorizationAdded event at a new offset; a userId is granted
// CanActAs on it. An invalid request changes nothing; an existing party
// fails with EXTERNAL_PARTY_ALREADY_EXISTS. Authorization is that of
// AllocateParty. Other hosting participants are not contacted: a
// multi-hosted party is registered here once its own transactions verify.
func (n *Node) AllocateExternalParty(ctx context.Context, req AllocateExternalPartyRequest) (AllocateExternalPartyResponse, error) {
	if err := n.public(ctx); err != nil {
		return AllocateExternalPartyResponse{}, err
	}
	idp, err := requireIDPAdmin(ctx, req.IdentityProviderID)
	if err != nil {
		return AllocateExternalPartyResponse{}, err
	}
	if err := identity.ValidateIdentityProviderID(idp); err != nil {
		return AllocateExternalPartyResponse{}, apierr.InvalidField.New("identity_provider_id: %v", err)
	}
	syncID, err := n.connectedSynchronizer(req.Synchronizer, "synchronizer")
	if err != nil {
		return AllocateExternalPartyResponse{}, err
	}
	if len(req.OnboardingTransactions) == 0 {
		return AllocateExternalPartyResponse{}, apierr.MissingField.New("onboarding_transactions")
	}
	if req.UserID != "" {
		if err := identity.ValidateUserID(req.UserID); err != nil {
			return AllocateExternalPartyResponse{}, apierr.InvalidField.New("user_id: %v", err)
		}
	}
	onb := interactive.OnboardingRequest{ParticipantUID: n.participantID}
	for i, t := range req.OnboardingTransactions {
		sigs, err := toSignatures(t.Signatures, "onboarding_transactions["+strconv.Itoa(i)+"].signatures")
		if err != nil {
			return AllocateExternalPartyResponse{}, err
		}
		onb.Transactions = append(onb.Transactions, interactive.SignedTopologyTransaction{Transaction: t.Transaction, Signatures: sigs})
	}
	if onb.MultiHashSignatures, err = toSignatures(req.MultiHashSignatures, "multi_hash_signatures"); err != nil {
		return AllocateExternalPartyResponse{}, err
	}
	p, err := interactive.VerifyOnboarding(onb)
	if err != nil {
		return AllocateExternalPartyResponse{}, err
	}
	party := p.PartyID
	permission := PermissionConfirmation
	for _, h := range p.Participants {
		if h.ParticipantUID == n.participantID && h.Permission == interactive.ParticipantPermissionObservation {
			permission = PermissionObservation
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
		return AllocateExternalPartyResponse{}, storeErr(err)
	}
	return AllocateExternalPartyResponse{PartyID: party}, nil
}
