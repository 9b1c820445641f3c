package ledger

import "github.com/ledgernode/ledgernode/ledger/update"

// CheckpointAt returns the offset checkpoint at offset as the node's
// lists and streams write it: the node's time as every synchronizer's
// record time. The caller must have given its reader everything visible
// at or before offset.
func (n *Node) CheckpointAt(offset int64) *update.OffsetCheckpoint { return n.checkpoint(offset) }
