package update

import "time"

// OffsetCheckpoint is an offset checkpoint of a tailing read or of a list
// that waited for more (Canton's OffsetCheckpoint, which its update and
// completion streams send when they are idle): nothing the reader may
// see lies at or before Offset that it has not been given, so it may
// resume from there.
type OffsetCheckpoint struct {
	Offset int64
	// SynchronizerTimes are the record times the connected synchronizers
	// had reached, one per synchronizer.
	SynchronizerTimes []SynchronizerTime
}

// SynchronizerTime is a synchronizer's record time in an
// OffsetCheckpoint.
type SynchronizerTime struct {
	SynchronizerID string
	RecordTime     time.Time
}

// UpdateOffset returns the checkpoint's offset.
func (c *OffsetCheckpoint) UpdateOffset() int64 { return c.Offset }

func (*OffsetCheckpoint) isUpdate()            {}
func (*OffsetCheckpoint) isCompletionElement() {}
