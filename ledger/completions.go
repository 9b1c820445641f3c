package ledger

import (
	"context"
	"iter"
	"slices"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
)

// CompletionStreamRequest asks for the completions of a user's commands
// that act as any of the parties, after an offset
// (/v2/commands/completions). With GetCompletions
// (/v2/commands/command-completions) the user is the caller.
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

// Completion reports the outcome of a command. ledgernode commits or
// rejects every submission before answering it, so every completion in the
// stream is a success; rejections are the answers of the submit calls.
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

// completionsOf validates and authorizes a completions request: the
// parties need read rights, and another user's completions need
// CanReadAsAnyParty. It returns the renderer of matching entries.
func (n *Node) completionsOf(ctx context.Context, req *CompletionStreamRequest) (func(*logEntry) (CompletionStreamResponse, bool), error) {
	if err := n.public(ctx); err != nil {
		return nil, err
	}
	p := caller(ctx)
	if req.UserID == "" {
		req.UserID = p.UserID
	}
	if req.UserID == "" {
		return nil, apierr.MissingField.New("user_id")
	}
	if err := identity.ValidateUserID(req.UserID); err != nil {
		return nil, apierr.InvalidField.New("user_id: %v", err)
	}
	if len(req.Parties) == 0 {
		return nil, apierr.MissingField.New("parties")
	}
	for _, party := range req.Parties {
		if err := identity.ValidatePartyString(party); err != nil {
			return nil, apierr.InvalidField.New("parties: %v", err)
		}
	}
	if err := authorizeRead(ctx, req.Parties, false); err != nil {
		return nil, err
	}
	if !p.Wildcard && req.UserID != p.UserID && !p.Has(identity.Right{Kind: identity.RightCanReadAsAnyParty}) {
		return nil, denied("reading the completions of user %s", req.UserID)
	}
	if err := checkOffsets(req.BeginExclusive, nil, n.st.LedgerEnd()); err != nil {
		return nil, err
	}
	if err := n.checkCompletionsNotPruned(req.BeginExclusive); err != nil { // prune.go
		return nil, err
	}
	user, parties := req.UserID, req.Parties
	return func(e *logEntry) (CompletionStreamResponse, bool) {
		if e.Kind == kindTopology || e.UserID != user || !slices.ContainsFunc(e.ActAs, func(a string) bool { return slices.Contains(parties, a) }) {
			return CompletionStreamResponse{}, false
		}
		return CompletionStreamResponse{CompletionResponse: CompletionResponse{Completion: &Wrapped[Completion]{Value: Completion{
			CommandID: e.CommandID, Status: Status{Details: []any{}}, UpdateID: e.UpdateID, UserID: e.UserID, ActAs: nonNil(e.ActAs),
			SubmissionID: e.SubmissionID, DeduplicationPeriod: DeduplicationPeriod{Empty: &struct{}{}}, Offset: e.Offset,
			SynchronizerTime: SynchronizerTime{SynchronizerID: e.SynchronizerID, RecordTime: e.RecordTime}}}}}, true
	}, nil
}

func completionCheckpoint(c OffsetCheckpoint) CompletionStreamResponse {
	return CompletionStreamResponse{CompletionResponse: CompletionResponse{OffsetCheckpoint: &Wrapped[OffsetCheckpoint]{Value: c}}}
}

// CompletionsList returns the completions after an offset as one list
// (POST /v2/commands/completions and command-completions): the stream is
// open-ended, so the list always waits for the idle timeout, under the
// list limit (413 beyond it).
func (n *Node) CompletionsList(ctx context.Context, req CompletionStreamRequest, opts ListOptions) ([]CompletionStreamResponse, error) {
	render, err := n.completionsOf(ctx, &req)
	if err != nil {
		return nil, err
	}
	return collect(n, ctx, req.BeginExclusive, nil, false, "", opts, true, render, completionCheckpoint)
}

// StreamCompletions yields the completions after an offset and follows
// the ledger until ctx ends, then yields ctx.Err() (the WebSocket form;
// the package's cancellation contract, see streams.go).
func (n *Node) StreamCompletions(ctx context.Context, req CompletionStreamRequest) iter.Seq2[CompletionStreamResponse, error] {
	return func(yield func(CompletionStreamResponse, error) bool) {
		render, err := n.completionsOf(ctx, &req)
		if err != nil {
			yield(CompletionStreamResponse{}, err)
			return
		}
		for v, err := range follow(n, ctx, req.BeginExclusive, nil, false, "", render) {
			if !yield(v, err) || err != nil {
				return
			}
		}
	}
}
