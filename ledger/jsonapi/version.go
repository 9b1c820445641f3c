package jsonapi

import (
	"context"
	"time"
)

// The version service (Canton's JsVersionService).

// VersionResponse is the answer of GET /v2/version.
type VersionResponse struct {
	Version  string   `json:"version"`
	Features Features `json:"features"`
}

// Features is the feature descriptor of GET /v2/version.
type Features struct {
	Experimental     ExperimentalFeatures    `json:"experimental"`
	UserManagement   UserManagementFeature   `json:"userManagement"`
	PartyManagement  PartyManagementFeature  `json:"partyManagement"`
	OffsetCheckpoint OffsetCheckpointFeature `json:"offsetCheckpoint"`
	PackageFeature   PackageFeature          `json:"packageFeature"`
}

// ExperimentalFeatures lists experimental features.
type ExperimentalFeatures struct {
	StaticTime               Supported `json:"staticTime"`
	CommandInspectionService Supported `json:"commandInspectionService"`
}

// Supported is a feature flag.
type Supported struct {
	Supported bool `json:"supported"`
}

// UserManagementFeature describes user management limits.
type UserManagementFeature struct {
	Supported        bool  `json:"supported"`
	MaxRightsPerUser int32 `json:"maxRightsPerUser"`
	MaxUsersPageSize int32 `json:"maxUsersPageSize"`
}

// PartyManagementFeature describes party management limits.
type PartyManagementFeature struct {
	MaxPartiesPageSize int32 `json:"maxPartiesPageSize"`
}

// OffsetCheckpointFeature describes offset checkpoint emission.
type OffsetCheckpointFeature struct {
	MaxOffsetCheckpointEmissionDelay Duration `json:"maxOffsetCheckpointEmissionDelay"`
}

// PackageFeature describes package listing limits.
type PackageFeature struct {
	MaxVettedPackagesPageSize int32 `json:"maxVettedPackagesPageSize"`
}

// Version serves GET /v2/version (Node.Version).
func (a *API) Version(ctx context.Context) (VersionResponse, error) {
	v, err := a.Node.Version(ctx)
	if err != nil {
		return VersionResponse{}, err
	}
	return VersionResponse{
		Version: v.Version,
		Features: Features{
			Experimental: ExperimentalFeatures{StaticTime: Supported{Supported: v.StaticTime},
				CommandInspectionService: Supported{Supported: v.CommandInspection}},
			UserManagement: UserManagementFeature{Supported: true,
				MaxRightsPerUser: int32(v.MaxRightsPerUser), MaxUsersPageSize: int32(v.MaxUsersPageSize)},
			PartyManagement:  PartyManagementFeature{MaxPartiesPageSize: int32(v.MaxPartiesPageSize)},
			OffsetCheckpoint: OffsetCheckpointFeature{MaxOffsetCheckpointEmissionDelay: duration(v.MaxOffsetCheckpointEmissionDelay)},
			PackageFeature:   PackageFeature{MaxVettedPackagesPageSize: int32(v.MaxVettedPackagesPageSize)},
		},
	}, nil
}

// duration is d as the wire's Duration object.
func duration(d time.Duration) Duration {
	return Duration{Seconds: int64(d / time.Second), Nanos: int32(d % time.Second),
		UnknownFields: UnknownFields{Fields: map[int32]UnknownField{}}}
}
