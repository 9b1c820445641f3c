package grpcadapter

import (
	"context"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/ledgernode/ledgernode/apierr"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/ledger"
)

// updateService is UpdateService, on the Node's typed reads of
// transactions (Node.Transactions, Node.Transaction).
//
// What it does not serve, and why: update formats asking for
// reassignments or topology events (the typed walk has transactions
// only; refused UNIMPLEMENTED rather than answered without them),
// descending_order, event formats the typed ReadFormat cannot express
// (see readFormatFromProto), GetUpdateByOffset (the Node has no typed
// read by offset) and GetUpdatesPage. The stream sends no
// OffsetCheckpoint elements (the typed walk yields transactions only).
type updateService struct {
	ledgerv2.UnimplementedUpdateServiceServer
	a *Adapter
}

// updateServices lists the services of this file's reads.
func (a *Adapter) updateServices() []service {
	return []service{
		{&ledgerv2.UpdateService_ServiceDesc, &updateService{a: a}},
	}
}

// GetUpdates streams the transactions of (begin_exclusive,
// end_inclusive] as the format shows them; without end_inclusive it
// follows the ledger until the client cancels (the stream's context ends
// the Node's iterator). Each transaction is sent before the next is
// read: Send blocks while the client's flow-control window is full, so
// a slow reader holds the walk back instead of filling a buffer.
func (s *updateService) GetUpdates(req *ledgerv2.GetUpdatesRequest, stream grpc.ServerStreamingServer[ledgerv2.GetUpdatesResponse]) error {
	f, verbose, err := updateFormatFromProto(req.GetUpdateFormat())
	if err != nil {
		return err
	}
	if req.GetDescendingOrder() {
		return notServed("GetUpdates with descending_order", "the Node's typed walk reads in ascending order only")
	}
	r := ledger.OffsetRange{After: req.GetBeginExclusive(), Tail: req.EndInclusive == nil}
	if req.EndInclusive != nil {
		r.Through = *req.EndInclusive
		if r.Through == 0 {
			// The Node reads Through 0 as the ledger end; an explicit 0 is
			// the empty range (0, 0], or an end before the begin (the
			// Node's words); a negative begin is the Node's refusal.
			switch {
			case r.After == 0:
				return nil
			case r.After > 0:
				return apierr.InvalidArgument.New("end_inclusive (0) is before begin_exclusive (%d)", r.After)
			}
		}
	}
	ctx := stream.Context()
	for t, err := range s.a.node.Transactions(ctx, f, r) {
		if err != nil {
			if ctx.Err() != nil {
				// The client cancelled: the iterator's last element.
				return ctx.Err()
			}
			return err
		}
		pt, err := transactionToProto(t, verbose)
		if err != nil {
			return err
		}
		if err := stream.Send(&ledgerv2.GetUpdatesResponse{Update: &ledgerv2.GetUpdatesResponse_Transaction{Transaction: pt}}); err != nil {
			return err
		}
	}
	return nil
}

// GetUpdateById returns the transaction with that update id as the
// format shows it (UPDATE_NOT_FOUND when it is unknown or shows
// nothing).
func (s *updateService) GetUpdateById(ctx context.Context, req *ledgerv2.GetUpdateByIdRequest) (*ledgerv2.GetUpdateResponse, error) {
	f, verbose, err := updateFormatFromProto(req.GetUpdateFormat())
	if err != nil {
		return nil, err
	}
	t, err := s.a.node.Transaction(ctx, req.GetUpdateId(), f)
	if err != nil {
		return nil, err
	}
	pt, err := transactionToProto(t, verbose)
	if err != nil {
		return nil, err
	}
	return &ledgerv2.GetUpdateResponse{Update: &ledgerv2.GetUpdateResponse_Transaction{Transaction: pt}}, nil
}

func (s *updateService) GetUpdateByOffset(context.Context, *ledgerv2.GetUpdateByOffsetRequest) (*ledgerv2.GetUpdateResponse, error) {
	return nil, notServed("GetUpdateByOffset", "the Node has no typed read of a transaction by offset")
}

func (s *updateService) GetUpdatesPage(context.Context, *ledgerv2.GetUpdatesPageRequest) (*ledgerv2.GetUpdatesPageResponse, error) {
	return nil, notServed("GetUpdatesPage", "the Node's typed walk has no page tokens")
}

// timestamp is t as a Timestamp, nil for the zero time (absent).
func timestamp(t time.Time) *timestamppb.Timestamp {
	if t.IsZero() {
		return nil
	}
	return timestamppb.New(t)
}
