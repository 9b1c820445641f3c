package grpcadapter

import (
	"context"

	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/grpcadapter/pb/v2/admin"
	"github.com/ledgernode/ledgernode/ledger"
)

// The Node takes the crypto enums by their proto names
// ("SIGNATURE_FORMAT_RAW"); an unknown number prints as a number, which
// the Node refuses as it refuses an unknown name.

func (s *partyService) GenerateExternalPartyTopology(ctx context.Context, req *admin.GenerateExternalPartyTopologyRequest) (*admin.GenerateExternalPartyTopologyResponse, error) {
	r := ledger.GenerateExternalPartyTopologyRequest{
		Synchronizer:                    req.GetSynchronizer(),
		PartyHint:                       req.GetPartyHint(),
		LocalParticipantObservationOnly: req.GetLocalParticipantObservationOnly(),
		OtherConfirmingParticipantUIDs:  req.GetOtherConfirmingParticipantUids(),
		ConfirmationThreshold:           int32(min(req.GetConfirmationThreshold(), 1<<31-1)),
		ObservingParticipantUIDs:        req.GetObservingParticipantUids(),
	}
	if k := req.GetPublicKey(); k != nil {
		r.PublicKey = &ledger.SigningPublicKey{Format: k.GetFormat().String(), KeyData: k.GetKeyData(), KeySpec: k.GetKeySpec().String()}
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
	r := ledger.AllocateExternalPartyRequest{
		Synchronizer:        req.GetSynchronizer(),
		MultiHashSignatures: signaturesFromProto(req.GetMultiHashSignatures()),
		IdentityProviderID:  req.GetIdentityProviderId(),
		UserID:              req.GetUserId(),
	}
	if req.WaitForAllocation != nil {
		w := req.GetWaitForAllocation()
		r.WaitForAllocation = &w
	}
	for _, tx := range req.GetOnboardingTransactions() {
		r.OnboardingTransactions = append(r.OnboardingTransactions, ledger.SignedTransaction{
			Transaction: tx.GetTransaction(),
			Signatures:  signaturesFromProto(tx.GetSignatures()),
		})
	}
	res, err := s.a.node.AllocateExternalParty(ctx, r)
	if err != nil {
		return nil, err
	}
	return &admin.AllocateExternalPartyResponse{PartyId: res.PartyID}, nil
}

func signaturesFromProto(ss []*ledgerv2.Signature) []ledger.Signature {
	if ss == nil {
		return nil
	}
	out := make([]ledger.Signature, len(ss))
	for i, s := range ss {
		out[i] = ledger.Signature{
			Format:               s.GetFormat().String(),
			Signature:            s.GetSignature(),
			SignedBy:             s.GetSignedBy(),
			SigningAlgorithmSpec: s.GetSigningAlgorithmSpec().String(),
		}
	}
	return out
}
