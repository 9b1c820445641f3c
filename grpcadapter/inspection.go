package grpcadapter

import (
	"context"

	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/ledgernode/ledgernode/grpcadapter/internal/pbvalue"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/grpcadapter/pb/v2/admin"
	"github.com/ledgernode/ledgernode/ledger"
)

// inspectionService is CommandInspectionService.
type inspectionService struct {
	admin.UnimplementedCommandInspectionServiceServer
	a *Adapter
}

// GetCommandStatus answers from the Node's command tracker. The
// submitted commands (CommandStatus.commands) are not sent: the adapter
// has no conversion of the Node's commands to the gRPC Command yet.
// ledgernode has no sequencer, so request_statistics is zero and there
// are no timings.
func (s *inspectionService) GetCommandStatus(ctx context.Context, req *admin.GetCommandStatusRequest) (*admin.GetCommandStatusResponse, error) {
	res, err := s.a.node.CommandStatuses(ctx, req.GetCommandIdPrefix(), ledger.CommandState(req.GetState()), int(req.GetLimit()))
	if err != nil {
		return nil, err
	}
	out := &admin.GetCommandStatusResponse{CommandStatus: make([]*admin.CommandStatus, len(res))}
	for i, c := range res {
		out.CommandStatus[i] = s.statusToProto(ctx, c)
	}
	return out, nil
}

func (s *inspectionService) statusToProto(ctx context.Context, c ledger.CommandStatus) *admin.CommandStatus {
	comp := &ledgerv2.Completion{CommandId: c.CommandID, UserId: c.UserID, ActAs: c.ActAs, SubmissionId: c.SubmissionID}
	switch c.State {
	case ledger.CommandStateSucceeded:
		// Canton: CompletionFromTransaction.OkStatus.
		comp.Status = &spb.Status{}
		comp.UpdateId, comp.Offset = c.UpdateID, c.Offset
		comp.SynchronizerTime = synchronizerTimeToProto(c.SynchronizerID, c.RecordTime)
	case ledger.CommandStateFailed:
		if c.Error != nil {
			comp.Status = s.a.statusProto(ctx, c.Error)
		}
	}
	out := &admin.CommandStatus{
		Started:           timestamppb.New(c.Started),
		Completion:        comp,
		State:             admin.CommandState(c.State),
		RequestStatistics: &admin.RequestStatistics{},
		Updates: &admin.CommandUpdates{
			Created:       contractsToProto(c.Updates.Created),
			Archived:      contractsToProto(c.Updates.Archived),
			Exercised:     uint32(c.Updates.Exercised),
			Fetched:       uint32(c.Updates.Fetched),
			LookedUpByKey: uint32(c.Updates.LookedUpByKey),
		},
		SynchronizerId: c.SynchronizerID,
	}
	out.Completed = timestamp(c.Completed)
	return out
}

// contractsToProto is Canton's mk of recordTransactionImpact: the
// template id by package id, the key non-verbose.
func contractsToProto(cs []ledger.CommandContract) []*admin.Contract {
	out := make([]*admin.Contract, len(cs))
	for i, c := range cs {
		out[i] = &admin.Contract{TemplateId: pbvalue.IdentifierToProto(c.TemplateID), ContractId: c.ContractID}
		if c.ContractKey != nil {
			out[i].ContractKey = pbvalue.ToProto(c.ContractKey, false)
		}
	}
	return out
}
