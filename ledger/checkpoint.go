package ledger

import (
	"context"
	"time"
)

// Checkpoint is an offset checkpoint of a tailing read or of a list that
// waited for more (Canton's OffsetCheckpoint, which its update and
// completion streams send when they are idle): nothing the reader may
// see lies at or before Offset that it has not been given, so it may
// resume from there.
type Checkpoint struct {
	Offset int64
	// SynchronizerTimes are the record times the connected synchronizers
	// had reached, one per synchronizer.
	SynchronizerTimes []SynchronizerRecordTime
}

// SynchronizerRecordTime is a synchronizer's record time in a Checkpoint.
type SynchronizerRecordTime struct {
	SynchronizerID string
	RecordTime     time.Time
}

// UpdateOffset returns the checkpoint's offset.
func (c *Checkpoint) UpdateOffset() int64 { return c.Offset }

func (*Checkpoint) isUpdate() {}

// DefaultCheckpointDelay is the default Options.CheckpointDelay.
const DefaultCheckpointDelay = time.Second

// checkpoint is the checkpoint at offset, with the node's time as every
// synchronizer's record time (the node commits on all of them with its
// own clock).
func (n *Node) checkpoint(offset int64) *Checkpoint {
	now := n.now()
	c := &Checkpoint{Offset: offset, SynchronizerTimes: make([]SynchronizerRecordTime, len(n.syncs))}
	for i, s := range n.syncs {
		c.SynchronizerTimes[i] = SynchronizerRecordTime{SynchronizerID: s, RecordTime: now}
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
