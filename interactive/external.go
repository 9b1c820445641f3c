package interactive

// The requests of a node's external-party onboarding (Canton's
// PartyManagementService.GenerateExternalPartyTopology and
// AllocateExternalParty), beside the pure GenerateTopology and
// VerifyOnboarding they feed.

// PartyTopologyRequest asks a node for the onboarding transactions of an
// external party hosted on it (the node's GenerateExternalPartyTopology;
// GenerateTopologyRequest is the node-independent part).
type PartyTopologyRequest struct {
	// Synchronizer is a connected synchronizer, logical or physical id.
	// Required.
	Synchronizer string
	// PartyHint becomes the identifier part of the party id.
	PartyHint string
	// PublicKey is the party's namespace and protocol key. Required.
	PublicKey *SigningPublicKey
	// LocalParticipantObservationOnly hosts the party here with
	// observation instead of confirmation rights.
	LocalParticipantObservationOnly bool
	// OtherConfirmingParticipantUIDs are further confirming hosts.
	OtherConfirmingParticipantUIDs []string
	// ConfirmationThreshold is the confirmation threshold (0: all
	// confirming participants; not negative).
	ConfirmationThreshold int
	// ObservingParticipantUIDs are further observing hosts.
	ObservingParticipantUIDs []string
}

// PartyAllocationRequest asks a node to register an external party from
// signed onboarding transactions (the node's AllocateExternalParty;
// OnboardingRequest is the node-independent part).
type PartyAllocationRequest struct {
	// Synchronizer is a connected synchronizer, logical or physical id.
	// Required.
	Synchronizer string
	// OnboardingTransactions are the transactions GenerateExternalPartyTopology
	// returned, each with its signatures. At least one.
	OnboardingTransactions []SignedTopologyTransaction
	// MultiHashSignatures sign the multi-hash over all transactions.
	MultiHashSignatures []Signature
	// IdentityProviderID is the party's identity provider ("" the default).
	IdentityProviderID string
	// UserID, when set, is granted CanActAs on the party.
	UserID string
}
