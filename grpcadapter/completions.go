package grpcadapter

import (
	"context"
	"errors"
	"time"

	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc"

	"github.com/ledgernode/ledgernode/apierr"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// completionService is CommandCompletionService.
type completionService struct {
	ledgerv2.UnimplementedCommandCompletionServiceServer
	a *Adapter
}

// CompletionStream streams the completions of the Node's completion
// iterator (the one behind the JSON API's /v2/commands/completions
// WebSocket), with its checks and authorization: the completions of the
// user's commands acting as any of the parties after begin_exclusive,
// then the ledger followed until the client cancels (the stream's
// context ends the iterator). Each element is sent before the next is
// read: Send blocks while the client's flow-control window is full, so
// a slow reader holds the iterator back instead of filling a buffer.
func (s *completionService) CompletionStream(req *ledgerv2.CompletionStreamRequest, stream grpc.ServerStreamingServer[ledgerv2.CompletionStreamResponse]) error {
	ctx := stream.Context()
	for v, err := range s.a.node.Completions(ctx, req.GetUserId(), req.GetParties(), req.GetBeginExclusive()) {
		if err != nil {
			return err
		}
		out, err := s.completionToProto(ctx, v)
		if err != nil {
			return err
		}
		if err := stream.Send(out); err != nil {
			return err
		}
	}
	return nil
}

// completionToProto converts one element of the stream: a completion or
// an offset checkpoint. A completion's status is a google.rpc.Status:
// code 0 for a success, else the error's status as the adapter answers
// it (the Node reports rejections as the answers of the submissions, so
// its completions are successes).
func (s *completionService) completionToProto(ctx context.Context, e update.CompletionElement) (*ledgerv2.CompletionStreamResponse, error) {
	switch e := e.(type) {
	case *update.Completion:
		c := &ledgerv2.Completion{
			CommandId:        e.CommandID,
			Status:           &spb.Status{},
			UpdateId:         e.UpdateID,
			UserId:           e.UserID,
			ActAs:            e.ActAs,
			SubmissionId:     e.SubmissionID,
			Offset:           e.Offset,
			SynchronizerTime: synchronizerTimeToProto(e.SynchronizerID, e.RecordTime),
		}
		if e.Status != nil {
			var ae *apierr.Error
			if !errors.As(e.Status, &ae) {
				ae = apierr.InternalError.Wrap(e.Status, "%v", e.Status)
			}
			c.Status = s.a.statusProto(ctx, ae)
		}
		return &ledgerv2.CompletionStreamResponse{CompletionResponse: &ledgerv2.CompletionStreamResponse_Completion{Completion: c}}, nil
	case *update.OffsetCheckpoint:
		return &ledgerv2.CompletionStreamResponse{CompletionResponse: &ledgerv2.CompletionStreamResponse_OffsetCheckpoint{OffsetCheckpoint: checkpointToProto(e)}}, nil
	}
	return nil, apierr.InternalError.New("completion stream element with neither a completion nor a checkpoint")
}

// synchronizerTimeToProto converts a synchronizer's record time (absent
// when zero).
func synchronizerTimeToProto(sync string, at time.Time) *ledgerv2.SynchronizerTime {
	return &ledgerv2.SynchronizerTime{SynchronizerId: sync, RecordTime: timestamp(at)}
}
