package ledger

import (
	"context"
	"iter"
	"slices"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
)

// CompletionsRequest asks for the completions of a user's commands that
// act as any of the parties, after an offset (Canton's
// CommandCompletionService.CompletionStream).
type CompletionsRequest struct {
	// UserID is the user whose commands complete; "" is the caller.
	UserID string
	// Parties are the parties the commands act as; at least one.
	Parties []string
	// BeginExclusive is the offset after which completions are read.
	BeginExclusive int64
}

// CompletionElement is one element of a completions read: a *Completion
// or a *Checkpoint.
type CompletionElement interface{ isCompletionElement() }

// Completion reports the outcome of a command. ledgernode commits or
// rejects every submission before answering it, so every completion it
// reads is a success (Status nil); rejections are the answers of the
// submit calls.
type Completion struct {
	CommandID string
	// Status is the command's failure (an *apierr.Error, whose code and
	// message the wire's status carries), nil when it succeeded.
	Status       error
	UpdateID     string
	UserID       string
	ActAs        []string
	SubmissionID string
	Offset       int64
	// SynchronizerID and RecordTime are where and when the update was
	// recorded.
	SynchronizerID string
	RecordTime     time.Time
}

func (*Completion) isCompletionElement() {}
func (*Checkpoint) isCompletionElement() {}

// completionsOf validates and authorizes a completions request: the
// parties need read rights, and another user's completions need
// CanReadAsAnyParty. It returns the renderer of matching entries.
func (n *Node) completionsOf(ctx context.Context, req *CompletionsRequest) (func(*logEntry) (CompletionElement, bool), error) {
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
	return func(e *logEntry) (CompletionElement, bool) {
		if e.Kind == kindTopology || e.UserID != user || !slices.ContainsFunc(e.ActAs, func(a string) bool { return slices.Contains(parties, a) }) {
			return nil, false
		}
		at, _ := parseTime(e.RecordTime) // the node stored it formatted
		return &Completion{CommandID: e.CommandID, UpdateID: e.UpdateID, UserID: e.UserID, ActAs: nonNil(e.ActAs),
			SubmissionID: e.SubmissionID, Offset: e.Offset, SynchronizerID: e.SynchronizerID, RecordTime: at}, true
	}, nil
}

// completionCheckpoint is a list's closing checkpoint as a completion
// element.
func completionCheckpoint(c *Checkpoint) CompletionElement { return c }

// CompletionsList returns the completions after an offset as one list
// (the JSON API's POST /v2/commands/completions and
// command-completions): the stream is open-ended, so the list always
// waits for the idle timeout, under the list limit
// (MAXIMUM_LIST_ELEMENTS_REACHED beyond it). When the ledger end moved
// past the last completion, the list ends with a *Checkpoint at the
// ledger end.
func (n *Node) CompletionsList(ctx context.Context, req CompletionsRequest, opts ListOptions) ([]CompletionElement, error) {
	render, err := n.completionsOf(ctx, &req)
	if err != nil {
		return nil, err
	}
	return collect(n, ctx, req.BeginExclusive, nil, false, "", opts, true, render, completionCheckpoint)
}

// Completions yields the completions after an offset and follows the
// ledger until ctx ends, then yields ctx.Err() (the package's
// cancellation contract, see streams.go); when it has caught up and no
// completion came for Options.CheckpointDelay, it yields a *Checkpoint at
// the ledger end, once per ledger end (as Canton's completion stream,
// which always adds checkpoints). A refused request yields its error
// first and ends.
func (n *Node) Completions(ctx context.Context, req CompletionsRequest) iter.Seq2[CompletionElement, error] {
	return func(yield func(CompletionElement, error) bool) {
		render, err := n.completionsOf(ctx, &req)
		if err != nil {
			yield(nil, err)
			return
		}
		for v, err := range follow(n, ctx, req.BeginExclusive, nil, false, "", render, completionCheckpoint) {
			if !yield(v, err) || err != nil {
				return
			}
		}
	}
}
