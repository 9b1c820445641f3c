package jsonapi

import "context"

// GetLatestPrunedOffsetsResponse reports how far the ledger has been
// pruned: 0 means not at all.
type GetLatestPrunedOffsetsResponse struct {
	ParticipantPrunedUpToInclusive          int64 `json:"participantPrunedUpToInclusive"`
	AllDivulgedContractsPrunedUpToInclusive int64 `json:"allDivulgedContractsPrunedUpToInclusive"`
}

// LatestPrunedOffsets serves GET /v2/state/latest-pruned-offsets
// (Node.LatestPrunedOffsets).
func (a *API) LatestPrunedOffsets(ctx context.Context) (GetLatestPrunedOffsetsResponse, error) {
	p, d, err := a.Node.LatestPrunedOffsets(ctx)
	if err != nil {
		return GetLatestPrunedOffsetsResponse{}, err
	}
	return GetLatestPrunedOffsetsResponse{ParticipantPrunedUpToInclusive: p, AllDivulgedContractsPrunedUpToInclusive: d}, nil
}
