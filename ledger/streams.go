package ledger

import (
	"context"
	"iter"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// streamPage is how many log entries a stream reads from one snapshot.
const streamPage = 500

// Cancellation contract of every iterator of the package (Updates and the
// Stream* methods): when ctx ends before the iterator does, its last
// element is the error ctx.Err() (errors.Is(err, context.Canceled) or
// context.DeadlineExceeded), yielded once; a caller that stops the loop
// itself gets nothing more. An iterator that reaches its natural end (the
// end offset, the last active contract) just stops, with no error.

// StreamUpdates yields the updates of a list request one by one, as the
// WebSocket form of /v2/updates does: it ends after the end offset, or,
// open-ended, follows the ledger (woken by the committer) until ctx ends,
// then yields ctx.Err() (see the cancellation contract above). Stopping the
// loop releases everything.
func (n *Node) StreamUpdates(ctx context.Context, req GetUpdatesRequest) iter.Seq2[GetUpdatesResponse, error] {
	return streamOf(n, ctx, req, listUpdates, func(rd *renderer, e *logEntry) (GetUpdatesResponse, bool) {
		u, ok := rd.update(e)
		return GetUpdatesResponse{Update: u}, ok
	}, updateCheckpoint)
}

// StreamFlats is StreamUpdates for /v2/updates/flats (ACS-delta shape).
func (n *Node) StreamFlats(ctx context.Context, req GetUpdatesRequest) iter.Seq2[GetUpdatesResponse, error] {
	return streamOf(n, ctx, req, listFlats, func(rd *renderer, e *logEntry) (GetUpdatesResponse, bool) {
		u, ok := rd.update(e)
		return GetUpdatesResponse{Update: u}, ok
	}, updateCheckpoint)
}

// StreamTrees is StreamUpdates for /v2/updates/trees (transaction trees).
func (n *Node) StreamTrees(ctx context.Context, req GetUpdatesRequest) iter.Seq2[GetUpdateTreesResponse, error] {
	return streamOf(n, ctx, req, listTrees, func(rd *renderer, e *logEntry) (GetUpdateTreesResponse, bool) {
		u, ok := rd.tree(e)
		return GetUpdateTreesResponse{Update: u}, ok
	}, treeCheckpoint)
}

func streamOf[T any](n *Node, ctx context.Context, req GetUpdatesRequest, shape listShape,
	render func(*renderer, *logEntry) (T, bool), checkpoint func(OffsetCheckpoint) T) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		fail := func(err error) { yield(zero, err) }
		if err := n.public(ctx); err != nil {
			fail(err)
			return
		}
		if err := req.checkShape(); err != nil {
			fail(err)
			return
		}
		f, err := req.format(shape)
		if err != nil {
			fail(err)
			return
		}
		if shape == listTrees {
			f.IncludeTopologyEvents = nil
		}
		spec := jsonUpdateSpec(f)
		if err := n.checkSpec(ctx, &spec); err != nil {
			fail(err)
			return
		}
		if req.DescendingOrder && req.EndInclusive == nil {
			fail(apierr.DescendingOrderMissingEnd.New("descending order needs end_inclusive"))
			return
		}
		if err := checkOffsets(req.BeginExclusive, req.EndInclusive, n.st.LedgerEnd()); err != nil {
			fail(err)
			return
		}
		if err := n.checkUpdatesNotPruned(req.BeginExclusive, req.EndInclusive); err != nil { // prune.go
			fail(err)
			return
		}
		rd := newRenderer(spec, n)
		for v, err := range follow(n, ctx, req.BeginExclusive, req.EndInclusive, req.DescendingOrder, indexParty(&spec),
			func(e *logEntry) (T, bool) { return render(rd, e) }, checkpoint) {
			if !yield(v, err) || err != nil {
				return
			}
		}
	}
}

// follow yields the rendered log entries of (begin, end]: newest first from
// one snapshot when desc; otherwise in order, a page per snapshot, and —
// without an end — following the ledger, woken by the committer, until ctx
// ends, when it yields ctx.Err(). Without an end and with a checkpoint
// function, it also yields an offset checkpoint at the ledger end when it
// has caught up and no entry came for Options.CheckpointDelay, once per
// ledger end (as TypedUpdates with OffsetRange.Checkpoints).
func follow[T any](n *Node, ctx context.Context, begin int64, end *int64, desc bool, party string,
	render func(*logEntry) (T, bool), checkpoint func(OffsetCheckpoint) T) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		fail := func(err error) { yield(zero, err) }
		if desc {
			// A bounded range, read from one snapshot, newest first.
			var out []T
			err := n.st.View(func(r *store.Reader) error {
				return scanEntries(r, begin, *end, true, party, func(e *logEntry) (bool, error) {
					if v, ok := render(e); ok {
						out = append(out, v)
					}
					return true, nil
				})
			})
			if err != nil {
				fail(storeErr(err))
				return
			}
			for _, v := range out {
				if !yield(v, nil) {
					return
				}
			}
			return
		}
		cursor := begin
		checkpointed := int64(-1) // the offset of the last checkpoint yielded
		for {
			changed := n.st.Changed()
			hi := n.st.LedgerEnd()
			if end != nil {
				hi = min(hi, *end)
			}
			for cursor < hi {
				if err := ctx.Err(); err != nil {
					fail(err)
					return
				}
				var batch []T
				last := cursor
				err := n.st.View(func(r *store.Reader) error {
					count := 0
					return scanEntries(r, cursor, hi, false, party, func(e *logEntry) (bool, error) {
						if v, ok := render(e); ok {
							batch = append(batch, v)
						}
						last = e.Offset
						count++
						return count < streamPage, nil
					})
				})
				if err != nil {
					fail(storeErr(err))
					return
				}
				if len(batch) == 0 && last == cursor {
					last = hi // nothing of the range is indexed for the party
				}
				cursor = last
				for _, v := range batch {
					if !yield(v, nil) {
						return
					}
				}
			}
			if end != nil && cursor >= *end {
				return
			}
			var delay time.Duration
			if checkpoint != nil && end == nil && cursor > checkpointed {
				delay = n.opts.CheckpointDelay
			}
			idle, err := waitChange(ctx, changed, delay)
			if err != nil {
				fail(err)
				return
			}
			if idle {
				checkpointed = cursor
				if !yield(checkpoint(n.checkpoint(cursor).wire()), nil) {
					return
				}
			}
		}
	}
}

// StreamActiveContracts yields the active contracts at an offset one by
// one (the WebSocket form of /v2/state/active-contracts); the stream ends
// by itself after the last contract, or yields ctx.Err() when ctx ends
// first.
func (n *Node) StreamActiveContracts(ctx context.Context, req GetActiveContractsRequest) iter.Seq2[GetActiveContractsResponse, error] {
	return func(yield func(GetActiveContractsResponse, error) bool) {
		// The list form with the list limit lifted; a page of contracts at a
		// time keeps the snapshot short.
		if err := n.public(ctx); err != nil {
			yield(GetActiveContractsResponse{}, err)
			return
		}
		if err := req.checkShape(); err != nil {
			yield(GetActiveContractsResponse{}, err)
			return
		}
		f := req.EventFormat
		if f == nil {
			f = req.Filter
		}
		after := ""
		at := req.ActiveAtOffset
		size := int32(streamPage)
		for {
			if err := ctx.Err(); err != nil {
				yield(GetActiveContractsResponse{}, err)
				return
			}
			page, err := n.ActiveContractsPage(ctx, GetActiveContractsPageRequest{ActiveAtOffset: &at, EventFormat: derefFormat(f), MaxPageSize: &size, PageToken: after})
			if err != nil {
				yield(GetActiveContractsResponse{}, err)
				return
			}
			for _, c := range page.ActiveContracts {
				if !yield(c, nil) {
					return
				}
			}
			if page.NextPageToken == nil {
				return
			}
			after = *page.NextPageToken
		}
	}
}

func derefFormat(f *EventFormat) EventFormat {
	if f == nil {
		return EventFormat{}
	}
	return *f
}
