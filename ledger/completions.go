package ledger

import (
	"context"
	"iter"
	"slices"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// completionsOf validates and authorizes a completions request: the
// parties need read rights, and another user's completions need
// CanReadAsAnyParty. It returns the renderer of matching entries.
func (n *Node) completionsOf(ctx context.Context, userID string, parties []string, beginExclusive int64) (func(*logEntry) (update.CompletionElement, bool), error) {
	if err := n.public(ctx); err != nil {
		return nil, err
	}
	p := caller(ctx)
	if userID == "" {
		userID = p.UserID
	}
	if userID == "" {
		return nil, apierr.MissingField.New("user_id")
	}
	if err := identity.ValidateUserID(userID); err != nil {
		return nil, apierr.InvalidField.New("user_id: %v", err)
	}
	if len(parties) == 0 {
		return nil, apierr.MissingField.New("parties")
	}
	for _, party := range parties {
		if err := identity.ValidatePartyString(party); err != nil {
			return nil, apierr.InvalidField.New("parties: %v", err)
		}
	}
	if err := authorizeRead(ctx, parties, false); err != nil {
		return nil, err
	}
	if !p.Wildcard && userID != p.UserID && !p.Has(identity.Right{Kind: identity.RightCanReadAsAnyParty}) {
		return nil, denied("reading the completions of user %s", userID)
	}
	if err := checkStreamRange(OffsetRange{After: beginExclusive, Tail: true}, n.st.LedgerEnd()); err != nil {
		return nil, err
	}
	if err := n.checkCompletionsNotPruned(beginExclusive); err != nil { // prune.go
		return nil, err
	}
	user := userID
	return func(e *logEntry) (update.CompletionElement, bool) {
		if e.Kind == kindTopology || e.UserID != user || !slices.ContainsFunc(e.ActAs, func(a string) bool { return slices.Contains(parties, a) }) {
			return nil, false
		}
		at, _ := parseTime(e.RecordTime) // the node stored it formatted
		return &update.Completion{CommandID: e.CommandID, UpdateID: e.UpdateID, UserID: e.UserID, ActAs: nonNil(e.ActAs),
			SubmissionID: e.SubmissionID, Offset: e.Offset, SynchronizerID: e.SynchronizerID, RecordTime: at}, true
	}, nil
}

// completionCheckpoint is a list's closing checkpoint as a completion
// element.
func completionCheckpoint(c *update.OffsetCheckpoint) update.CompletionElement { return c }

// CompletionsList returns the completions Completions yields, as one list
// (the JSON API's POST /v2/commands/completions and
// command-completions): the stream is open-ended, so the list always
// waits for the idle timeout, under the list limit
// (MAXIMUM_LIST_ELEMENTS_REACHED beyond it). When the ledger end moved
// past the last completion, the list ends with a *update.OffsetCheckpoint
// at the ledger end.
func (n *Node) CompletionsList(ctx context.Context, userID string, parties []string, beginExclusive int64, opts ListOptions) ([]update.CompletionElement, error) {
	render, err := n.completionsOf(ctx, userID, parties, beginExclusive)
	if err != nil {
		return nil, err
	}
	return collect(n, ctx, beginExclusive, nil, false, "", opts, true, render, completionCheckpoint)
}

// Completions yields the completions of user userID's commands that act
// as any of parties, after offset beginExclusive (Canton's
// CommandCompletionService.CompletionStream), and follows the ledger
// until ctx ends, then yields ctx.Err() (the package's
// cancellation contract, see streams.go); when it has caught up and no
// completion came for Options.CheckpointDelay, it yields a
// *update.OffsetCheckpoint at the ledger end, once per ledger end (as
// Canton's completion stream, which always adds checkpoints). A refused request yields its error
// first and ends. userID "" is the caller (MISSING_FIELD user_id when the
// caller has none); another user's completions need CanReadAsAnyParty.
// parties must not be empty (MISSING_FIELD), each a valid party id
// (INVALID_FIELD) the caller can read as. beginExclusive must not be past
// the ledger end nor before the pruning offset.
func (n *Node) Completions(ctx context.Context, userID string, parties []string, beginExclusive int64) iter.Seq2[update.CompletionElement, error] {
	return func(yield func(update.CompletionElement, error) bool) {
		render, err := n.completionsOf(ctx, userID, parties, beginExclusive)
		if err != nil {
			yield(nil, err)
			return
		}
		for v, err := range follow(n, ctx, beginExclusive, nil, false, "", render, completionCheckpoint) {
			if !yield(v, err) || err != nil {
				return
			}
		}
	}
}
