package ledger

import (
	"context"
	"time"

	"github.com/ledgernode/ledgernode/ledger/update"
)

// DefaultCheckpointDelay is the default Options.CheckpointDelay.
const DefaultCheckpointDelay = time.Second

// checkpoint is the checkpoint at offset, with the node's time as every
// synchronizer's record time (the node commits on all of them with its
// own clock).
func (n *Node) checkpoint(offset int64) *update.OffsetCheckpoint {
	now := n.now()
	c := &update.OffsetCheckpoint{Offset: offset, SynchronizerTimes: make([]update.SynchronizerTime, len(n.syncs))}
	for i, s := range n.syncs {
		c.SynchronizerTimes[i] = update.SynchronizerTime{SynchronizerID: s, RecordTime: now}
	}
	return c
}

// waitChange waits for changed to close or ctx to end (its error); with a
// delay above zero, also for the delay, and reports whether that came
// first.
func waitChange(ctx context.Context, changed <-chan struct{}, delay time.Duration) (idle bool, err error) {
	var timeout <-chan time.Time
	if delay > 0 {
		t := time.NewTimer(delay)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case <-changed:
		return false, nil
	case <-timeout:
		return true, nil
	case <-ctx.Done():
		return false, ctx.Err()
	}
}
