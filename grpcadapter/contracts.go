package grpcadapter

import (
	"context"

	"github.com/ledgernode/ledgernode/daml/value"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
)

// contractService is the alpha ContractService.
type contractService struct {
	ledgerv2.UnimplementedContractServiceServer
	a *Adapter
}

// GetContract answers a contract's created event as the querying
// parties see it (Node.Contract: the rules and errors of the JSON twin,
// CONTRACT_PAYLOAD_NOT_FOUND for an unknown contract or one none of the
// parties is a stakeholder of; INVALID_FIELD for a contract id that does
// not parse). Values are not verbose (no record ids or
// labels): the request has no verbose flag, and Canton's
// ApiContractService renders with verbose = false.
func (s *contractService) GetContract(ctx context.Context, req *ledgerv2.GetContractRequest) (*ledgerv2.GetContractResponse, error) {
	// The id goes to the Node unchecked: it checks it after authorization,
	// as Canton's ContractServiceAuthorization runs before
	// ApiContractService's requireContractId, and in the JSON twin's words.
	ev, err := s.a.node.Contract(ctx, value.ContractID(req.GetContractId()), req.GetQueryingParties())
	if err != nil {
		return nil, err
	}
	pc, err := createdToProto(ev, false)
	if err != nil {
		return nil, err
	}
	return &ledgerv2.GetContractResponse{CreatedEvent: pc}, nil
}
