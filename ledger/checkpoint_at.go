package ledger

// CheckpointAt returns the offset checkpoint at offset as the node's
// lists and streams write it: the node's time as every synchronizer's
// record time. The caller must have given its reader everything visible
// at or before offset.
func (n *Node) CheckpointAt(offset int64) *Checkpoint { return n.checkpoint(offset) }
