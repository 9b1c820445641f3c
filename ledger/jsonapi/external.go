package jsonapi

import (
	"context"
	"strconv"

	"github.com/ledgernode/ledgernode/interactive"
)

// External parties: Canton's JsPartyManagementService
// (/v2/parties/external/generate-topology, /v2/parties/external/allocate)
// in the protobuf JSON form, crypto enums by their proto names.

// SigningPublicKey is a Ledger API public key: {format, keyData, keySpec}.
type SigningPublicKey struct {
	Format  string `json:"format"`
	KeyData []byte `json:"keyData"`
	KeySpec string `json:"keySpec"`
}

// Signature is a Ledger API signature: {format, signature, signedBy,
// signingAlgorithmSpec}, the enums by their proto names (the typed API
// takes interactive.Signature).
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
// onboarding transactions. WaitForAllocation is accepted and has no
// effect: the Node answers once the party is registered.
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

// GenerateExternalPartyTopology serves POST
// /v2/parties/external/generate-topology: the key's enum names are parsed
// (INVALID_FIELD public_key.format/key_spec), then
// Node.GenerateExternalPartyTopology answers.
func (a *API) GenerateExternalPartyTopology(ctx context.Context, req GenerateExternalPartyTopologyRequest) (GenerateExternalPartyTopologyResponse, error) {
	in := interactive.PartyTopologyRequest{
		Synchronizer:                    req.Synchronizer,
		PartyHint:                       req.PartyHint,
		LocalParticipantObservationOnly: req.LocalParticipantObservationOnly,
		OtherConfirmingParticipantUIDs:  req.OtherConfirmingParticipantUIDs,
		ConfirmationThreshold:           int(req.ConfirmationThreshold),
		ObservingParticipantUIDs:        req.ObservingParticipantUIDs,
	}
	if k := req.PublicKey; k != nil {
		key, err := interactive.ParsePublicKey(k.Format, k.KeyData, k.KeySpec)
		if err != nil {
			return GenerateExternalPartyTopologyResponse{}, err
		}
		in.PublicKey = key
	}
	res, err := a.Node.GenerateExternalPartyTopology(ctx, in)
	if err != nil {
		return GenerateExternalPartyTopologyResponse{}, err
	}
	return GenerateExternalPartyTopologyResponse{PartyID: res.PartyID, PublicKeyFingerprint: res.PublicKeyFingerprint,
		TopologyTransactions: res.TopologyTransactions, MultiHash: res.MultiHash}, nil
}

// AllocateExternalParty serves POST /v2/parties/external/allocate: the
// signatures' enum names are parsed (INVALID_ARGUMENT at their path), then
// Node.AllocateExternalParty answers.
func (a *API) AllocateExternalParty(ctx context.Context, req AllocateExternalPartyRequest) (AllocateExternalPartyResponse, error) {
	in := interactive.PartyAllocationRequest{Synchronizer: req.Synchronizer, IdentityProviderID: req.IdentityProviderID, UserID: req.UserID}
	for i, t := range req.OnboardingTransactions {
		sigs, err := typedSignatures(t.Signatures, "onboarding_transactions["+strconv.Itoa(i)+"].signatures")
		if err != nil {
			return AllocateExternalPartyResponse{}, err
		}
		in.OnboardingTransactions = append(in.OnboardingTransactions, interactive.SignedTopologyTransaction{Transaction: t.Transaction, Signatures: sigs})
	}
	sigs, err := typedSignatures(req.MultiHashSignatures, "multi_hash_signatures")
	if err != nil {
		return AllocateExternalPartyResponse{}, err
	}
	in.MultiHashSignatures = sigs
	party, err := a.Node.AllocateExternalParty(ctx, in)
	if err != nil {
		return AllocateExternalPartyResponse{}, err
	}
	return AllocateExternalPartyResponse{PartyID: party}, nil
}

// typedSignatures parses the enum names of wire signatures at field
// (interactive.ParseSignatures).
func typedSignatures(in []Signature, field string) ([]interactive.Signature, error) {
	return interactive.ParseSignatures(in, field, func(s Signature) interactive.SignatureNames {
		return interactive.SignatureNames{Format: s.Format, Signature: s.Signature, SignedBy: s.SignedBy, SigningAlgorithmSpec: s.SigningAlgorithmSpec}
	})
}
