package grpcadapter

import (
	"context"

	"google.golang.org/grpc"

	"github.com/ledgernode/ledgernode/apierr"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/ledger"
)

// GetActiveContracts streams the contracts active at active_at_offset
// that the event format shows, one GetActiveContractsResponse per
// contract as Canton sends them (ApiStateService): the created event,
// the synchronizer the contract is on, the workflow id of the
// transaction that created it. It walks Node.ActiveContractEvents, one
// contract sent before the next is read (Send blocks under flow
// control); the client's cancellation ends the walk.
//
// Not served, and why: stream_continuation_token (the walk has no
// tokens); nodes connected to more than one synchronizer (the typed
// walk does not say which synchronizer a reassigned contract is on, nor
// its reassignment counter); contracts in transit between synchronizers
// (IncompleteUnassigned/IncompleteAssigned) are not part of the walk —
// on one synchronizer there are none.
func (s *stateService) GetActiveContracts(req *ledgerv2.GetActiveContractsRequest, stream grpc.ServerStreamingServer[ledgerv2.GetActiveContractsResponse]) error {
	f, verbose, err := readFormatFromProto(req.GetEventFormat(), "event_format")
	if err != nil {
		return err
	}
	if req.StreamContinuationToken != nil {
		return notServed("GetActiveContracts with a stream_continuation_token", "the Node's typed walk has no continuation tokens")
	}
	if len(s.a.node.Synchronizers()) > 1 {
		return notServed("GetActiveContracts on a node with several synchronizers", "the Node's typed walk does not say which synchronizer a contract is on")
	}
	ctx := stream.Context()
	at := req.GetActiveAtOffset()
	if at == 0 {
		// Canton: "If zero, the empty set will be returned" — after the
		// checks of the format, which the walk's first page makes.
		for _, err := range s.a.node.ActiveContractEvents(ctx, f, 0) {
			return err
		}
		return nil
	}
	origins := map[int64]*ledger.Transaction{}
	for c, err := range s.a.node.ActiveContractEvents(ctx, f, at) {
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		}
		origin, err := s.origin(ctx, f, c.Offset, origins)
		if err != nil {
			return err
		}
		pc, err := createdToProto(c, verbose)
		if err != nil {
			return err
		}
		if err := stream.Send(&ledgerv2.GetActiveContractsResponse{
			WorkflowId: origin.WorkflowID,
			ContractEntry: &ledgerv2.GetActiveContractsResponse_ActiveContract{ActiveContract: &ledgerv2.ActiveContract{
				CreatedEvent: pc, SynchronizerId: origin.SynchronizerID}},
		}); err != nil {
			return err
		}
	}
	return nil
}

// origin returns the transaction that created a contract at offset off
// (its workflow id and synchronizer), read once per offset: the one
// transaction of the range (off-1, off] as the reader sees it (it sees
// the create, so it sees that transaction).
func (s *stateService) origin(ctx context.Context, f ledger.ReadFormat, off int64, cache map[int64]*ledger.Transaction) (*ledger.Transaction, error) {
	if t, ok := cache[off]; ok {
		return t, nil
	}
	f.Shape = ledger.ACSDelta
	f.Blobs, f.InterfaceViews = false, false
	for t, err := range s.a.node.Transactions(ctx, f, ledger.OffsetRange{After: off - 1, Through: off}) {
		if err != nil {
			return nil, err
		}
		if len(cache) >= 4096 {
			clear(cache) // keep the cache of a long walk small
		}
		cache[off] = t
		return t, nil
	}
	// The reader sees an active contract as a stakeholder, so it sees its
	// create in the transaction's ACS delta.
	return nil, apierr.InternalError.New("the transaction that created an active contract at offset %d is not visible", off)
}
