package ledger

import "context"

// GetLatestPrunedOffsetsResponse reports how far the ledger has been
// pruned: 0 means not at all.
type GetLatestPrunedOffsetsResponse struct {
	ParticipantPrunedUpToInclusive          int64 `json:"participantPrunedUpToInclusive"`
	AllDivulgedContractsPrunedUpToInclusive int64 `json:"allDivulgedContractsPrunedUpToInclusive"`
}

// LatestPrunedOffsets returns the latest pruned offsets (any authenticated
// caller). ledgernode never prunes: both are always 0, the participant's
// beginning.
func (n *Node) LatestPrunedOffsets(ctx context.Context) (GetLatestPrunedOffsetsResponse, error) {
	if err := n.public(ctx); err != nil {
		return GetLatestPrunedOffsetsResponse{}, err
	}
	return GetLatestPrunedOffsetsResponse{}, nil
}
