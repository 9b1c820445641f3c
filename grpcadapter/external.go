package grpcadapter

import (
	"context"
	"strconv"

	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/grpcadapter/pb/v2/admin"
	"github.com/ledgernode/ledgernode/interactive"
)

// The crypto enums are read by their proto names ("SIGNATURE_FORMAT_RAW");
// an unknown number prints as a number, which is refused as an unknown
// name is over JSON.

func (s *partyService) GenerateExternalPartyTopology(ctx context.Context, req *admin.GenerateExternalPartyTopologyRequest) (*admin.GenerateExternalPartyTopologyResponse, error) {
	r := interactive.PartyTopologyRequest{
		Synchronizer:                    req.GetSynchronizer(),
		PartyHint:                       req.GetPartyHint(),
		LocalParticipantObservationOnly: req.GetLocalParticipantObservationOnly(),
		OtherConfirmingParticipantUIDs:  req.GetOtherConfirmingParticipantUids(),
		ConfirmationThreshold:           int(req.GetConfirmationThreshold()),
		ObservingParticipantUIDs:        req.GetObservingParticipantUids(),
	}
	if k := req.GetPublicKey(); k != nil {
		key, err := interactive.ParsePublicKey(k.GetFormat().String(), k.GetKeyData(), k.GetKeySpec().String())
		if err != nil {
			return nil, err
		}
		r.PublicKey = key
	}
	res, err := s.a.node.GenerateExternalPartyTopology(ctx, r)
	if err != nil {
		return nil, err
	}
	return &admin.GenerateExternalPartyTopologyResponse{
		PartyId:              res.PartyID,
		PublicKeyFingerprint: res.PublicKeyFingerprint,
		TopologyTransactions: res.TopologyTransactions,
		MultiHash:            res.MultiHash,
	}, nil
}

func (s *partyService) AllocateExternalParty(ctx context.Context, req *admin.AllocateExternalPartyRequest) (*admin.AllocateExternalPartyResponse, error) {
	r := interactive.PartyAllocationRequest{
		Synchronizer:       req.GetSynchronizer(),
		IdentityProviderID: req.GetIdentityProviderId(),
		UserID:             req.GetUserId(),
	}
	for i, tx := range req.GetOnboardingTransactions() {
		sigs, err := signaturesFromProto(tx.GetSignatures(), "onboarding_transactions["+strconv.Itoa(i)+"].signatures")
		if err != nil {
			return nil, err
		}
		r.OnboardingTransactions = append(r.OnboardingTransactions, interactive.SignedTopologyTransaction{Transaction: tx.GetTransaction(), Signatures: sigs})
	}
	sigs, err := signaturesFromProto(req.GetMultiHashSignatures(), "multi_hash_signatures")
	if err != nil {
		return nil, err
	}
	r.MultiHashSignatures = sigs
	party, err := s.a.node.AllocateExternalParty(ctx, r)
	if err != nil {
		return nil, err
	}
	return &admin.AllocateExternalPartyResponse{PartyId: party}, nil
}

// signaturesFromProto converts Ledger API signatures by their enum names
// (interactive.ParseSignatures): an enum number without a name is
// INVALID_ARGUMENT "<field>[i].format: …".
func signaturesFromProto(ss []*ledgerv2.Signature, field string) ([]interactive.Signature, error) {
	return interactive.ParseSignatures(ss, field, func(s *ledgerv2.Signature) interactive.SignatureNames {
		return interactive.SignatureNames{Format: s.GetFormat().String(), Signature: s.GetSignature(), SignedBy: s.GetSignedBy(),
			SigningAlgorithmSpec: s.GetSigningAlgorithmSpec().String()}
	})
}
