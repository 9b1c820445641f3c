package interactive

import (
	"errors"
	"slices"
	"sort"
	"strings"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
)

// SignedTopologyTransaction is Canton's
// AllocateExternalPartyRequest.SignedTransaction:
// an UntypedVersionedMessage and the signatures over its hash.
type SignedTopologyTransaction struct {
	// Transaction holds the versioned topology transaction bytes.
	Transaction []byte
	// Signatures are signatures over the transaction's 34-byte hash.
	Signatures []Signature
}

// OnboardingRequest is the pure part of PartyAllocationRequest.
type OnboardingRequest struct {
	// ParticipantUID is this (the local) participant's uid.
	ParticipantUID string
	// Transactions are the onboarding transactions with their signatures.
	Transactions []SignedTopologyTransaction
	// MultiHashSignatures sign the multi-hash over all transactions.
	MultiHashSignatures []Signature
}

// OnboardedParty is the result of a successful VerifyOnboarding.
type OnboardedParty struct {
	// PartyID is the party (hint::namespace).
	PartyID string
	// Namespace is the party namespace (a key fingerprint).
	Namespace string
	// SigningKeys are the party's protocol signing keys, in order.
	SigningKeys []SigningKey
	// SigningThreshold is the number of distinct keys that must sign a
	// prepared transaction.
	SigningThreshold int
	// Participants are the hosting participants.
	Participants []HostingParticipant
	// ConfirmationThreshold is the PartyToParticipant threshold.
	ConfirmationThreshold uint32
	// Serial is the PartyToParticipant serial.
	Serial uint32
	// TransactionHashes are the 34-byte hashes of the transactions, in
	// request order.
	TransactionHashes [][]byte
	// MultiHash is the multi-hash over all transactions.
	MultiHash []byte
	// PendingParticipants are the other hosts whose approval (their own
	// signature on the PartyToParticipant) is still needed. Empty when
	// this participant is the only host, which is the case in which
	// Canton completes the allocation locally (and may wait for it).
	PendingParticipants []string
}

type keyInfo struct {
	key SigningKey
	fp  string
}

// VerifyOnboarding checks an AllocateExternalParty request without any
// topology state, as Canton's
// ApiPartyManagementService.allocateExternalParty and
// ExternalPartyOnboardingDetails check it:
//   - every transaction parses as a versioned v30 TopologyTransaction with
//     operation ADD_REPLACE, and every signature has its format and
//     algorithm set (else INVALID_ARGUMENT);
//   - the mappings are exactly one PartyToParticipant, at most one root
//     NamespaceDelegation of the party namespace and at most one
//     PartyToKeyMapping of the same party; signing keys come from the
//     PartyToParticipant or the PartyToKeyMapping, never both; nothing else
//     (a DecentralizedNamespaceDefinition is not supported here);
//   - the hosting rules: no SUBMISSION, at least one CONFIRMATION, this
//     participant is a host, and a single host must be this participant
//     with CONFIRMATION; every party key has PROTOCOL usage, and the key
//     whose fingerprint is the namespace also NAMESPACE usage;
//   - the signing threshold is between 1 and the number of keys
//     (TOPOLOGY_SIGNING_THRESHOLD_CANNOT_BE_REACHED);
//   - a transaction's signatures are its own (over its hash) plus the
//     multi-hash signatures (over the multi-hash of all transactions), the
//     first per signer kept; each must come from a key in the request
//     (else TOPOLOGY_UNAUTHORIZED_TRANSACTION) and verify (else
//     TOPOLOGY_INVALID_TX_SIGNATURE);
//   - each transaction is authorized by the namespace key (with NAMESPACE
//     usage) and every key it adds has signed it (with PROOF_OF_OWNERSHIP
//     usage), else TOPOLOGY_UNAUTHORIZED_TRANSACTION.
//
// Other hosting participants' approvals cannot be checked here; they are
// returned in PendingParticipants.
func VerifyOnboarding(req OnboardingRequest) (*OnboardedParty, error) {
	if len(req.Transactions) == 0 {
		return nil, apierr.InvalidArgument.New("no onboarding transactions were provided")
	}
	type parsed struct {
		tx   *TopologyTransaction
		hash []byte
		sigs []Signature
	}
	txs := make([]parsed, len(req.Transactions))
	hashes := make([][]byte, len(req.Transactions))
	var p2p *PartyToParticipant
	var p2pSerial uint32
	var nsd *NamespaceDelegation
	var p2k *PartyToKeyMapping
	for i, st := range req.Transactions {
		tx, err := DecodeTopologyTransaction(st.Transaction)
		if err != nil {
			return nil, apierr.InvalidArgument.New("onboarding transaction %d: %v", i, err)
		}
		for _, s := range st.Signatures {
			if err := CheckSignatureFields(s); err != nil {
				return nil, apierr.InvalidArgument.New("onboarding transaction %d: %v", i, err)
			}
		}
		if tx.Operation != TopologyOperationAddReplace {
			return nil, apierr.InvalidArgument.New("onboarding transaction %d: operation must be %v, got %v", i, TopologyOperationAddReplace, tx.Operation)
		}
		switch m := tx.Mapping; {
		case m.PartyToParticipant != nil:
			if p2p != nil {
				return nil, apierr.InvalidArgument.New("only one PartyToParticipant transaction is allowed")
			}
			p2p, p2pSerial = m.PartyToParticipant, tx.Serial
		case m.NamespaceDelegation != nil:
			if nsd != nil {
				return nil, apierr.InvalidArgument.New("only one NamespaceDelegation transaction is allowed")
			}
			nsd = m.NamespaceDelegation
		case m.PartyToKeyMapping != nil:
			if p2k != nil {
				return nil, apierr.InvalidArgument.New("only one PartyToKeyMapping transaction is allowed")
			}
			p2k = m.PartyToKeyMapping
		default:
			return nil, apierr.InvalidArgument.New("Unsupported transactions found: mapping code %d in onboarding transaction %d", m.Code, i)
		}
		hashes[i] = TopologyTransactionHash(st.Transaction)
		txs[i] = parsed{tx: tx, hash: hashes[i], sigs: st.Signatures}
	}
	for _, s := range req.MultiHashSignatures {
		if err := CheckSignatureFields(s); err != nil {
			return nil, apierr.InvalidArgument.New("multi-hash signature: %v", err)
		}
	}
	if p2p == nil {
		return nil, apierr.InvalidArgument.New("exactly one PartyToParticipant transaction is required")
	}
	uid, err := identity.ParseUID(p2p.Party)
	if err != nil {
		return nil, apierr.InvalidArgument.New("invalid party %q: %v", p2p.Party, err)
	}
	namespace := uid.Namespace
	if err := checkHosting(p2p, req.ParticipantUID); err != nil {
		return nil, err
	}

	// The party's signing keys: from the P2P or the PartyToKeyMapping.
	var partyKeys []SigningKey
	var threshold uint32
	switch {
	case p2k != nil && p2p.PartySigningKeys != nil:
		return nil, apierr.InvalidArgument.New("signing keys must be given either in the PartyToParticipant or in a PartyToKeyMapping, not both")
	case p2k != nil:
		if p2k.Party != p2p.Party {
			return nil, apierr.InvalidArgument.New("the PartyToKeyMapping is for %s, not for %s", p2k.Party, p2p.Party)
		}
		partyKeys, threshold = p2k.SigningKeys, p2k.Threshold
	case p2p.PartySigningKeys != nil:
		partyKeys, threshold = p2p.PartySigningKeys.Keys, p2p.PartySigningKeys.Threshold
	default:
		return nil, apierr.InvalidArgument.New("the party %s has no signing keys", p2p.Party)
	}
	if len(partyKeys) == 0 {
		return nil, apierr.InvalidArgument.New("the party %s has no signing keys", p2p.Party)
	}
	known := map[string]keyInfo{}
	for _, k := range partyKeys {
		fp, err := k.Fingerprint()
		if err != nil {
			return nil, apierr.InvalidArgument.New("invalid party signing key: %v", err)
		}
		if _, dup := known[fp]; dup {
			return nil, apierr.InvalidArgument.New("signing key %s is listed more than once", fp)
		}
		if !k.HasUsage(SigningKeyUsageProtocol) {
			return nil, apierr.InvalidArgument.New("party signing key %s does not have the usage %v", fp, SigningKeyUsageProtocol)
		}
		if fp == namespace && !k.HasUsage(SigningKeyUsageNamespace) {
			return nil, apierr.InvalidArgument.New("party signing key %s is the namespace key but does not have the usage %v", fp, SigningKeyUsageNamespace)
		}
		known[fp] = keyInfo{k, fp}
	}
	if threshold == 0 || int(threshold) > len(partyKeys) {
		return nil, apierr.TopologySigningThresholdCannotBeReached.New("Tried to set a signing threshold (%d) above the number of signing keys (%d).", threshold, len(partyKeys))
	}
	if nsd != nil {
		fp, err := nsd.TargetKey.Fingerprint()
		if err != nil {
			return nil, apierr.InvalidArgument.New("invalid namespace delegation key: %v", err)
		}
		if nsd.Namespace != fp || nsd.Namespace != namespace {
			return nil, apierr.InvalidArgument.New("the NamespaceDelegation must be a root certificate of the party namespace %s", namespace)
		}
		if nsd.Restriction == 5 || nsd.Restriction == 6 || nsd.Restriction == 0 && !nsd.IsRootDelegation {
			return nil, apierr.InvalidArgument.New("the NamespaceDelegation of %s is not a root delegation", namespace)
		}
		if !nsd.TargetKey.HasUsage(SigningKeyUsageNamespace) {
			return nil, apierr.InvalidArgument.New("namespace key %s does not have the usage %v", fp, SigningKeyUsageNamespace)
		}
		if _, ok := known[fp]; !ok {
			known[fp] = keyInfo{nsd.TargetKey, fp}
		}
	}
	nsKey, haveNS := known[namespace]
	if !haveNS {
		return nil, apierr.TopologyUnauthorizedTransaction.New("Topology transaction authorization cannot be verified due to missing namespace delegations for keys %s", namespace)
	}

	multi := MultiHash(hashes)
	for i, t := range txs {
		signers := map[string]bool{}
		isNSD := t.tx.Mapping.NamespaceDelegation != nil
		check := func(s Signature, msg []byte) error {
			if isNSD && s.SignedBy != namespace {
				return nil // only the namespace key's signatures are kept
			}
			if signers[s.SignedBy] {
				return nil // de-duplicated by signer: the first one counts
			}
			ki, ok := known[s.SignedBy]
			if !ok {
				return apierr.TopologyUnauthorizedTransaction.New("Topology transaction authorization cannot be verified due to missing namespace delegations for keys %s", s.SignedBy)
			}
			if err := VerifySignature(ki.key, s, msg, SigningKeyUsageUnspecified); err != nil {
				if errors.Is(err, ErrInvalidSignature) {
					return apierr.TopologyInvalidTxSignature.Wrap(err, "Transaction signature verification failed")
				}
				return apierr.InvalidArgument.New("onboarding transaction %d: %v", i, err)
			}
			signers[s.SignedBy] = true
			return nil
		}
		for _, s := range t.sigs {
			if err := check(s, t.hash); err != nil {
				return nil, err
			}
		}
		for _, s := range req.MultiHashSignatures {
			if err := check(s, multi); err != nil {
				return nil, err
			}
		}
		// Namespace authorization.
		if !signers[namespace] {
			return nil, apierr.TopologyUnauthorizedTransaction.New("Topology transaction is missing authorizations by namespaces=%s and keys=", namespace)
		}
		if !nsKey.key.HasUsage(SigningKeyUsageNamespace) {
			return nil, apierr.TopologyUnauthorizedTransaction.New("namespace key %s does not have the usage %v", namespace, SigningKeyUsageNamespace)
		}
		// Proof of ownership by every key the transaction adds.
		var added []SigningKey
		switch m := t.tx.Mapping; {
		case m.PartyToParticipant != nil && m.PartyToParticipant.PartySigningKeys != nil:
			added = m.PartyToParticipant.PartySigningKeys.Keys
		case m.PartyToKeyMapping != nil:
			added = m.PartyToKeyMapping.SigningKeys
		}
		var missing []string
		for _, k := range added {
			fp, _ := k.Fingerprint()
			if !signers[fp] {
				missing = append(missing, fp)
				continue
			}
			if !k.HasUsage(SigningKeyUsageProofOfOwnership) {
				return nil, apierr.TopologyUnauthorizedTransaction.New("key %s does not have the usage %v", fp, SigningKeyUsageProofOfOwnership)
			}
		}
		if len(missing) > 0 {
			return nil, apierr.TopologyUnauthorizedTransaction.New("Topology transaction is missing authorizations by namespaces= and keys=%s", strings.Join(missing, ","))
		}
	}

	out := &OnboardedParty{
		PartyID:               p2p.Party,
		Namespace:             namespace,
		SigningKeys:           slices.Clone(partyKeys),
		SigningThreshold:      int(threshold),
		Participants:          slices.Clone(p2p.Participants),
		ConfirmationThreshold: p2p.Threshold,
		Serial:                p2pSerial,
		TransactionHashes:     hashes,
		MultiHash:             multi,
	}
	for _, h := range p2p.Participants {
		if h.ParticipantUID != req.ParticipantUID {
			out.PendingParticipants = append(out.PendingParticipants, h.ParticipantUID)
		}
	}
	sort.Strings(out.PendingParticipants)
	return out, nil
}

// checkHosting applies Canton's hosting rules for an external party
// (ExternalPartyOnboardingDetails).
func checkHosting(p *PartyToParticipant, self string) error {
	if len(p.Participants) == 0 {
		return apierr.InvalidArgument.New("the PartyToParticipant has no hosting participants")
	}
	seen := map[string]bool{}
	confirmers := uint32(0)
	var selfHost *HostingParticipant
	for i, h := range p.Participants {
		if _, err := identity.ParseUID(h.ParticipantUID); err != nil {
			return apierr.InvalidArgument.New("invalid participant uid %q: %v", h.ParticipantUID, err)
		}
		if seen[h.ParticipantUID] {
			return apierr.InvalidArgument.New("participant %s is listed more than once", h.ParticipantUID)
		}
		seen[h.ParticipantUID] = true
		switch h.Permission {
		case ParticipantPermissionSubmission:
			return apierr.InvalidArgument.New("external parties cannot be hosted with %v (participant %s)", h.Permission, h.ParticipantUID)
		case ParticipantPermissionConfirmation:
			confirmers++
		case ParticipantPermissionObservation:
		default:
			return apierr.InvalidArgument.New("invalid participant permission %v for %s", h.Permission, h.ParticipantUID)
		}
		if h.ParticipantUID == self {
			selfHost = &p.Participants[i]
		}
	}
	if confirmers == 0 {
		return apierr.InvalidArgument.New("the party must have at least one confirming participant")
	}
	if p.Threshold == 0 || p.Threshold > confirmers {
		return apierr.InvalidArgument.New("confirmation threshold %d must be between 1 and the number of confirming participants %d", p.Threshold, confirmers)
	}
	if selfHost == nil {
		return apierr.InvalidArgument.New("this participant %s must host the party", self)
	}
	if len(p.Participants) == 1 && selfHost.Permission != ParticipantPermissionConfirmation {
		return apierr.InvalidArgument.New("a party hosted on a single participant must be hosted with %v", ParticipantPermissionConfirmation)
	}
	return nil
}
