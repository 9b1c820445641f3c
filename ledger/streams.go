package ledger

import (
	"context"
	"iter"
	"time"

	"github.com/ledgernode/ledgernode/ledger/internal/store"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// streamPage is how many log entries a stream reads from one snapshot.
const streamPage = 500

// Cancellation contract of every iterator of the package (Updates and the
// Stream* methods): when ctx ends before the iterator does, its last
// element is the error ctx.Err() (errors.Is(err, context.Canceled) or
// context.DeadlineExceeded), yielded once; a caller that stops the loop
// itself gets nothing more. An iterator that reaches its natural end (the
// end offset, the last active contract) just stops, with no error.

// follow yields the rendered log entries of (begin, end]: newest first from
// one snapshot when desc; otherwise in order, a page per snapshot, and —
// without an end — following the ledger, woken by the committer, until ctx
// ends, when it yields ctx.Err(). Without an end and with a checkpoint
// function, it also yields an offset checkpoint at the ledger end when it
// has caught up and no entry came for Options.CheckpointDelay, once per
// ledger end (as Updates with OffsetRange.Checkpoints).
func follow[T any](n *Node, ctx context.Context, begin int64, end *int64, desc bool, party string,
	render func(*logEntry) (T, bool), checkpoint func(*update.OffsetCheckpoint) T) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		fail := func(err error) { yield(zero, err) }
		if desc {
			// A bounded range, read from one snapshot, newest first.
			var out []T
			err := n.st.View(func(r *store.Reader) error {
				return scanEntries(r, begin, *end, true, party, 0, func(e *logEntry) (bool, error) {
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
					return scanEntries(r, cursor, hi, false, party, 0, func(e *logEntry) (bool, error) {
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
				if !yield(checkpoint(n.checkpoint(cursor)), nil) {
					return
				}
			}
		}
	}
}
