package grpcadapter

import (
	"context"

	"github.com/ledgernode/ledgernode/grpcadapter/pb/v2/admin"
	"github.com/ledgernode/ledgernode/ledger"
)

// pruningService is ParticipantPruningService.
type pruningService struct {
	admin.UnimplementedParticipantPruningServiceServer
	a *Adapter
}

func (s *pruningService) Prune(ctx context.Context, req *admin.PruneRequest) (*admin.PruneResponse, error) {
	err := s.a.node.Prune(ctx, ledger.PruneRequest{
		PruneUpTo:                 req.GetPruneUpTo(),
		SubmissionID:              req.GetSubmissionId(),
		PruneAllDivulgedContracts: req.GetPruneAllDivulgedContracts(),
	})
	if err != nil {
		return nil, err
	}
	return &admin.PruneResponse{}, nil
}
