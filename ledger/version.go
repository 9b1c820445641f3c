package ledger

import "context"

// Version returns the Ledger API version and the node's feature descriptor
// (any authenticated caller).
func (n *Node) Version(ctx context.Context) (VersionResponse, error) {
	if err := n.public(ctx); err != nil {
		return VersionResponse{}, err
	}
	return VersionResponse{
		Version: APIVersion,
		Features: Features{
			Experimental: ExperimentalFeatures{StaticTime: Supported{Supported: n.static != nil},
				CommandInspectionService: Supported{Supported: true}}, // command_status.go (Canton's LedgerFeatures)
			UserManagement: UserManagementFeature{Supported: true,
				MaxRightsPerUser: int32(n.opts.MaxRightsPerUser), MaxUsersPageSize: int32(n.opts.MaxUsersPageSize)},
			PartyManagement:  PartyManagementFeature{MaxPartiesPageSize: int32(n.opts.MaxPartiesPageSize)},
			OffsetCheckpoint: OffsetCheckpointFeature{MaxOffsetCheckpointEmissionDelay: Duration{Seconds: 1, UnknownFields: UnknownFields{Fields: map[int32]UnknownField{}}}},
			PackageFeature:   PackageFeature{MaxVettedPackagesPageSize: 100},
		},
	}, nil
}
