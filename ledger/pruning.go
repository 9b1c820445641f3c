package ledger

import "context"

// LatestPrunedOffsets returns the latest pruned offsets (any authenticated
// caller; 0 means not pruned): the offset of the last Prune, kept across
// restarts, for both the participant and the divulged contracts (divulged
// contracts are pruned with the archived ones, as the deprecated
// PruneRequest.prune_all_divulged_contracts says).
func (n *Node) LatestPrunedOffsets(ctx context.Context) (participant, allDivulgedContracts int64, err error) {
	if err := n.public(ctx); err != nil {
		return 0, 0, err
	}
	p, err := n.prunedUpTo()
	if err != nil {
		return 0, 0, err
	}
	return p, p, nil
}
