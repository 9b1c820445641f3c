package ledger

import (
	"context"
)

// Version returns the Ledger API version and the node's feature descriptor
// (any authenticated caller).
func (n *Node) Version(ctx context.Context) (VersionInfo, error) {
	if err := n.public(ctx); err != nil {
		return VersionInfo{}, err
	}
	return VersionInfo{
		Version:                          APIVersion,
		StaticTime:                       n.static != nil,
		CommandInspection:                true, // command_status.go (Canton's LedgerFeatures)
		MaxRightsPerUser:                 n.opts.MaxRightsPerUser,
		MaxUsersPageSize:                 n.opts.MaxUsersPageSize,
		MaxPartiesPageSize:               n.opts.MaxPartiesPageSize,
		MaxOffsetCheckpointEmissionDelay: n.opts.CheckpointDelay,
		MaxVettedPackagesPageSize:        100,
	}, nil
}
