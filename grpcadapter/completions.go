package grpcadapter

import (
	"time"

	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/ledgernode/ledgernode/apierr"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/ledger"
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
	for v, err := range s.a.node.StreamCompletions(ctx, ledger.CompletionStreamRequest{
		UserID:         req.GetUserId(),
		Parties:        req.GetParties(),
		BeginExclusive: req.GetBeginExclusive(),
	}) {
		if err != nil {
			return err
		}
		out, err := completionResponseToProto(v.CompletionResponse)
		if err != nil {
			return err
		}
		if err := stream.Send(out); err != nil {
			return err
		}
	}
	return nil
}

// completionResponseToProto converts one element of the stream: a
// completion or an offset checkpoint.
func completionResponseToProto(r ledger.CompletionResponse) (*ledgerv2.CompletionStreamResponse, error) {
	switch {
	case r.Completion != nil:
		c, err := completionToProto(&r.Completion.Value)
		if err != nil {
			return nil, err
		}
		return &ledgerv2.CompletionStreamResponse{CompletionResponse: &ledgerv2.CompletionStreamResponse_Completion{Completion: c}}, nil
	case r.OffsetCheckpoint != nil:
		cp := &ledgerv2.OffsetCheckpoint{Offset: r.OffsetCheckpoint.Value.Offset}
		for _, st := range r.OffsetCheckpoint.Value.SynchronizerTimes {
			t, err := synchronizerTimeToProto(st)
			if err != nil {
				return nil, err
			}
			cp.SynchronizerTimes = append(cp.SynchronizerTimes, t)
		}
		return &ledgerv2.CompletionStreamResponse{CompletionResponse: &ledgerv2.CompletionStreamResponse_OffsetCheckpoint{OffsetCheckpoint: cp}}, nil
	}
	return nil, apierr.InternalError.New("completion stream element with neither a completion nor a checkpoint")
}

// completionToProto converts a completion. Its status becomes a
// google.rpc.Status with the code and message (code 0 for a success);
// the Node's completions carry no details (it reports rejections as the
// answers of the submissions, never as failed completions).
func completionToProto(c *ledger.Completion) (*ledgerv2.Completion, error) {
	out := &ledgerv2.Completion{
		CommandId:    c.CommandID,
		Status:       &spb.Status{Code: c.Status.Code, Message: c.Status.Message},
		UpdateId:     c.UpdateID,
		UserId:       c.UserID,
		ActAs:        c.ActAs,
		SubmissionId: c.SubmissionID,
		Offset:       c.Offset,
	}
	if len(c.Status.Details) > 0 {
		return nil, apierr.InternalError.New("completion %s: a status with details has no gRPC form here", c.CommandID)
	}
	switch d := c.DeduplicationPeriod; {
	case d.DeduplicationDuration != nil:
		out.DeduplicationPeriod = &ledgerv2.Completion_DeduplicationDuration{DeduplicationDuration: durationToProto(d.DeduplicationDuration.Value)}
	case d.DeduplicationOffset != nil:
		out.DeduplicationPeriod = &ledgerv2.Completion_DeduplicationOffset{DeduplicationOffset: d.DeduplicationOffset.Value}
	}
	if tc := c.TraceContext; tc != nil {
		out.TraceContext = &ledgerv2.TraceContext{Traceparent: tc.Traceparent, Tracestate: tc.Tracestate}
	}
	if c.SynchronizerTime.SynchronizerID != "" || c.SynchronizerTime.RecordTime != "" {
		st, err := synchronizerTimeToProto(c.SynchronizerTime)
		if err != nil {
			return nil, err
		}
		out.SynchronizerTime = st
	}
	if c.PaidTrafficCost != nil {
		out.PaidTrafficCost = *c.PaidTrafficCost
	}
	return out, nil
}

// synchronizerTimeToProto converts a synchronizer's record time (RFC
// 3339 in the Node's struct).
func synchronizerTimeToProto(st ledger.SynchronizerTime) (*ledgerv2.SynchronizerTime, error) {
	out := &ledgerv2.SynchronizerTime{SynchronizerId: st.SynchronizerID}
	if st.RecordTime != "" {
		t, err := time.Parse(time.RFC3339Nano, st.RecordTime)
		if err != nil {
			return nil, apierr.InternalError.Wrap(err, "record time %q: %v", st.RecordTime, err)
		}
		out.RecordTime = timestamppb.New(t)
	}
	return out, nil
}
