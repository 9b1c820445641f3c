package jsonapi

import (
	"context"
	"errors"
	"iter"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/internal/wiretime"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// The command completion service: Canton's JsCommandService completions
// (POST /v2/commands/completions and the deprecated
// /v2/commands/command-completions, as lists and WebSocket streams).

// CompletionStreamRequest asks for the completions of a user's commands
// that act as any of the parties, after an offset
// (/v2/commands/completions). With command-completions the user is the
// caller.
type CompletionStreamRequest struct {
	UserID         string   `json:"userId"`
	Parties        []string `json:"parties"`
	BeginExclusive int64    `json:"beginExclusive"`
}

// Status is a gRPC status (JsStatus); code 0 is success.
type Status struct {
	Code    int32  `json:"code"`
	Message string `json:"message"`
	Details []any  `json:"details"`
}

// Completion reports the outcome of a command.
type Completion struct {
	CommandID           string              `json:"commandId"`
	Status              Status              `json:"status"`
	UpdateID            string              `json:"updateId"`
	UserID              string              `json:"userId"`
	ActAs               []string            `json:"actAs"`
	SubmissionID        string              `json:"submissionId"`
	DeduplicationPeriod DeduplicationPeriod `json:"deduplicationPeriod"`
	TraceContext        *TraceContext       `json:"traceContext"`
	Offset              int64               `json:"offset"`
	SynchronizerTime    SynchronizerTime    `json:"synchronizerTime"`
	PaidTrafficCost     *int64              `json:"paidTrafficCost"`
}

// CompletionResponse is {"Completion": {"value": …}} or
// {"OffsetCheckpoint": {"value": …}}.
type CompletionResponse struct {
	Completion       *Wrapped[Completion]       `json:"Completion,omitempty"`
	OffsetCheckpoint *Wrapped[OffsetCheckpoint] `json:"OffsetCheckpoint,omitempty"`
}

// CompletionStreamResponse is one element of a completions list or stream.
type CompletionStreamResponse struct {
	CompletionResponse CompletionResponse `json:"completionResponse"`
}

// CompletionsList serves the list form of POST /v2/commands/completions
// and command-completions (Node.CompletionsList).
func (a *API) CompletionsList(ctx context.Context, req CompletionStreamRequest, opts ledger.ListOptions) ([]CompletionStreamResponse, error) {
	list, err := a.Node.CompletionsList(ctx, req.UserID, req.Parties, req.BeginExclusive, opts)
	if err != nil {
		return nil, err
	}
	out := make([]CompletionStreamResponse, len(list))
	for i, c := range list {
		out[i] = wireCompletion(c)
	}
	return out, nil
}

// StreamCompletions serves the WebSocket form (Node.Completions): the
// completions after the offset, following the ledger until ctx ends.
func (a *API) StreamCompletions(ctx context.Context, req CompletionStreamRequest) iter.Seq2[CompletionStreamResponse, error] {
	return func(yield func(CompletionStreamResponse, error) bool) {
		for c, err := range a.Node.Completions(ctx, req.UserID, req.Parties, req.BeginExclusive) {
			if err != nil {
				yield(CompletionStreamResponse{}, err)
				return
			}
			if !yield(wireCompletion(c), nil) {
				return
			}
		}
	}
}

// wireCompletion renders a completion or a checkpoint.
func wireCompletion(e update.CompletionElement) CompletionStreamResponse {
	switch e := e.(type) {
	case *update.Completion:
		c := Completion{CommandID: e.CommandID, Status: wireStatus(e.Status), UpdateID: e.UpdateID, UserID: e.UserID,
			ActAs: e.ActAs, SubmissionID: e.SubmissionID, DeduplicationPeriod: DeduplicationPeriod{Empty: &struct{}{}},
			Offset: e.Offset, SynchronizerTime: SynchronizerTime{SynchronizerID: e.SynchronizerID, RecordTime: wireTime(e.RecordTime)}}
		if c.ActAs == nil {
			c.ActAs = []string{}
		}
		return CompletionStreamResponse{CompletionResponse: CompletionResponse{Completion: &Wrapped[Completion]{Value: c}}}
	case *update.OffsetCheckpoint:
		cp := OffsetCheckpoint{Offset: e.Offset, SynchronizerTimes: make([]SynchronizerTime, len(e.SynchronizerTimes))}
		for i, st := range e.SynchronizerTimes {
			cp.SynchronizerTimes[i] = SynchronizerTime{SynchronizerID: st.SynchronizerID, RecordTime: wireTime(st.RecordTime)}
		}
		return CompletionStreamResponse{CompletionResponse: CompletionResponse{OffsetCheckpoint: &Wrapped[OffsetCheckpoint]{Value: cp}}}
	}
	return CompletionStreamResponse{}
}

// wireStatus is a completion's status: code 0 for success, else the
// error's gRPC code and message.
func wireStatus(err error) Status {
	s := Status{Details: []any{}}
	if err == nil {
		return s
	}
	s.Code, s.Message = 2, err.Error() // UNKNOWN, for an error without a Canton code
	var ae *apierr.Error
	if errors.As(err, &ae) {
		s.Code = int32(ae.GRPCCode())
	}
	return s
}

// wireTime is a record time on the wire; the zero time is "".
func wireTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return wiretime.Format(t)
}
