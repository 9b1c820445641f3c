package ledger

import "context"

// GetLatestPrunedOffsetsResponse reports how far the ledger has been
// pruned: 0 means not at all.
type GetLatestPrunedOffsetsResponse struct {
	ParticipantPrunedUpToInclusive          int64 `json:"participantPrunedUpToInclusive"`
	AllDivulgedContractsPrunedUpToInclusive int64 `json:"allDivulgedContractsPrunedUpToInclusive"`
}

// LatestPrunedOffsets returns the latest pruned offsets (any authenticated
// caller): the offset of the last Prune, kept across restarts, for both
// (divulged contracts are pruned with the archived ones, as the
// deprecated PruneRequest.prune_all_divulged_contracts says).
func (n *Node) LatestPrunedOffsets(ctx context.Context) (GetLatestPrunedOffsetsResponse, error) {
	if err := n.public(ctx); err != nil {
		return GetLatestPrunedOffsetsResponse{}, err
	}
	p, err := n.prunedUpTo()
	if err != nil {
		return GetLatestPrunedOffsetsResponse{}, err
	}
	return GetLatestPrunedOffsetsResponse{ParticipantPrunedUpToInclusive: p, AllDivulgedContractsPrunedUpToInclusive: p}, nil
}
