package interactive

import (
	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
)

// GenerateTopologyRequest is the input of GenerateTopology: the fields of
// PartyTopologyRequest except the synchronizer (which the
// caller resolves), plus this participant's uid.
type GenerateTopologyRequest struct {
	// PartyHint becomes the identifier part of the party id; it must be a
	// valid LF party string without "::", at most 185 characters.
	PartyHint string
	// PublicKey is the party's namespace and protocol key.
	PublicKey SigningPublicKey
	// ParticipantUID is this (the local) participant's uid.
	ParticipantUID string
	// LocalParticipantObservationOnly hosts the party here with
	// OBSERVATION instead of CONFIRMATION.
	LocalParticipantObservationOnly bool
	// OtherConfirmingParticipantUIDs are further CONFIRMATION hosts.
	OtherConfirmingParticipantUIDs []string
	// ConfirmationThreshold is the confirmation threshold (0: all
	// confirming participants).
	ConfirmationThreshold uint32
	// ObservingParticipantUIDs are further OBSERVATION hosts.
	ObservingParticipantUIDs []string
}

// GenerateTopologyResult is GenerateExternalPartyTopologyResponse.
type GenerateTopologyResult struct {
	// PartyID is hint::fingerprint.
	PartyID string
	// PublicKeyFingerprint is the key's fingerprint (the party namespace).
	PublicKeyFingerprint string
	// TopologyTransactions are the transactions to sign, each an
	// UntypedVersionedMessage (exactly one PartyToParticipant in 3.5).
	TopologyTransactions [][]byte
	// MultiHash is the 34-byte multi-hash over all transactions.
	MultiHash []byte
	// Transaction is the decoded form of the single transaction.
	Transaction *TopologyTransaction
}

// GenerateTopology builds the onboarding transaction of an external party
// as Canton 3.5 does
// (ApiPartyManagementService.generateExternalPartyTopology): one
// self-authorizing PartyToParticipant{party, threshold, participants =
// [this participant (CONFIRMATION, or OBSERVATION when observation-only),
// other confirmers (CONFIRMATION)…, observers (OBSERVATION)…],
// party_signing_keys = {[key], 1}} in TopologyTransaction{ADD_REPLACE,
// serial 1}, wrapped as UntypedVersionedMessage version 30, and the
// multi-hash over its hash. Validation failures are INVALID_ARGUMENT
// errors.
func GenerateTopology(req GenerateTopologyRequest) (*GenerateTopologyResult, error) {
	if err := identity.ValidateUIDIdentifier(req.PartyHint); err != nil {
		return nil, apierr.InvalidArgument.New("invalid party hint: %v", err)
	}
	key, fp, err := NormalizeSigningKey(req.PublicKey, nil)
	if err != nil {
		return nil, apierr.InvalidArgument.New("invalid public key: %v", err)
	}
	if _, err := identity.ParseUID(req.ParticipantUID); err != nil {
		return nil, apierr.InvalidArgument.New("invalid participant uid: %v", err)
	}
	local := ParticipantPermissionConfirmation
	if req.LocalParticipantObservationOnly {
		local = ParticipantPermissionObservation
	}
	hosts := []HostingParticipant{{ParticipantUID: req.ParticipantUID, Permission: local}}
	seen := map[string]bool{req.ParticipantUID: true}
	add := func(uids []string, perm ParticipantPermission) error {
		for _, uid := range uids {
			if _, err := identity.ParseUID(uid); err != nil {
				return apierr.InvalidArgument.New("invalid participant uid %q: %v", uid, err)
			}
			if seen[uid] {
				return apierr.InvalidArgument.New("participant %s is listed more than once", uid)
			}
			seen[uid] = true
			hosts = append(hosts, HostingParticipant{ParticipantUID: uid, Permission: perm})
		}
		return nil
	}
	if err := add(req.OtherConfirmingParticipantUIDs, ParticipantPermissionConfirmation); err != nil {
		return nil, err
	}
	if err := add(req.ObservingParticipantUIDs, ParticipantPermissionObservation); err != nil {
		return nil, err
	}
	confirmers := uint32(0)
	for _, h := range hosts {
		if h.Permission == ParticipantPermissionConfirmation {
			confirmers++
		}
	}
	if confirmers == 0 {
		return nil, apierr.InvalidArgument.New("the party must have at least one confirming participant")
	}
	threshold := req.ConfirmationThreshold
	if threshold == 0 {
		threshold = confirmers
	}
	if threshold > confirmers {
		return nil, apierr.InvalidArgument.New("confirmation threshold %d is higher than the number of confirming participants %d", threshold, confirmers)
	}
	partyID := req.PartyHint + "::" + fp
	tx := &TopologyTransaction{
		Operation: TopologyOperationAddReplace,
		Serial:    1,
		Mapping: TopologyMapping{Code: MappingCodePartyToParticipant, PartyToParticipant: &PartyToParticipant{
			Party:            partyID,
			Threshold:        threshold,
			Participants:     hosts,
			PartySigningKeys: &SigningKeysWithThreshold{Keys: []SigningKey{key}, Threshold: 1},
		}},
	}
	b, err := EncodeTopologyTransaction(tx)
	if err != nil {
		return nil, apierr.InvalidArgument.New("cannot encode the topology transaction: %v", err)
	}
	return &GenerateTopologyResult{
		PartyID:              partyID,
		PublicKeyFingerprint: fp,
		TopologyTransactions: [][]byte{b},
		MultiHash:            MultiHash([][]byte{TopologyTransactionHash(b)}),
		Transaction:          tx,
	}, nil
}
