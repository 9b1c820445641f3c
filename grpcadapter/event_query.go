package grpcadapter

import (
	"context"

	"github.com/ledgernode/ledgernode/daml/value"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
)

// eventQueryService is EventQueryService.
type eventQueryService struct {
	ledgerv2.UnimplementedEventQueryServiceServer
	a *Adapter
}

// GetEventsByContractId answers a contract's create and archive events
// as the event format shows them, in the ACS-delta shape
// (Node.ContractEvents: the rules and errors of the JSON twin,
// CONTRACT_EVENTS_NOT_FOUND for an unknown contract or one the format
// shows nothing of); the Node checks the contract id after it authorized
// the format's parties, as Canton does.
func (s *eventQueryService) GetEventsByContractId(ctx context.Context, req *ledgerv2.GetEventsByContractIdRequest) (*ledgerv2.GetEventsByContractIdResponse, error) {
	if req.GetEventFormat() == nil {
		// No format, no parties to authorize: Canton's validator checks
		// the contract id before it asks for the format.
		if _, err := contractIDFromProto(req.GetContractId()); err != nil {
			return nil, err
		}
	}
	f, verbose, err := readFormatFromProto(req.GetEventFormat(), "event_format")
	if err != nil {
		return nil, err
	}
	evs, err := s.a.node.ContractEvents(ctx, value.ContractID(req.GetContractId()), f)
	if err != nil {
		return nil, err
	}
	out := &ledgerv2.GetEventsByContractIdResponse{}
	if evs.Created != nil {
		pc, err := createdToProto(evs.Created, verbose)
		if err != nil {
			return nil, err
		}
		out.Created = &ledgerv2.Created{CreatedEvent: pc, SynchronizerId: evs.CreatedSynchronizerID}
	}
	if evs.Archived != nil {
		out.Archived = &ledgerv2.Archived{ArchivedEvent: archivedToProto(evs.Archived), SynchronizerId: evs.ArchivedSynchronizerID}
	}
	return out, nil
}
