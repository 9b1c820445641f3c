package ledger

import (
	"time"

	"github.com/ledgernode/ledgernode/identity"
)

// AllocatePartyRequest asks the node to allocate a party.
// Every field is optional.
type AllocatePartyRequest struct {
	// PartyIDHint becomes the identifier part of the party id
	// (hint::namespace). A hint is generated when it is empty.
	PartyIDHint string
	// LocalMetadata is stored with the party; its resourceVersion must be
	// empty.
	LocalMetadata *identity.ObjectMeta
	// IdentityProviderID is the provider the party belongs to ("" default).
	IdentityProviderID string
	// SynchronizerID is where the party is allocated; empty means the
	// node's default synchronizer.
	SynchronizerID string
	// UserID, when set, names a user that is granted CanActAs on the new
	// party in the same commit.
	UserID string
}

// ListPartiesRequest selects a page of known parties.
type ListPartiesRequest struct {
	// IdentityProviderID scopes the visibility of isLocal and
	// identityProviderId ("" is the default provider).
	IdentityProviderID string
	// FilterParty keeps only parties whose id starts with it.
	FilterParty string
	// PageSize is the page length; 0 means the node's maximum, and a larger
	// value than the maximum is an INVALID_ARGUMENT error.
	PageSize int32
	// PageToken continues after the previous page ("" starts at the first).
	PageToken string
}

// VersionInfo is the Ledger API version the node implements and its
// feature descriptor (Canton's GetLedgerApiVersionResponse).
type VersionInfo struct {
	// Version is the Ledger API version (APIVersion).
	Version string
	// StaticTime reports that the node runs on static time (the
	// experimental static-time feature).
	StaticTime bool
	// CommandInspection reports the command inspection service
	// (CommandStatuses).
	CommandInspection bool
	// MaxRightsPerUser, MaxUsersPageSize and MaxPartiesPageSize are the
	// node's limits (Options).
	MaxRightsPerUser   int
	MaxUsersPageSize   int
	MaxPartiesPageSize int
	// MaxOffsetCheckpointEmissionDelay bounds the delay of offset
	// checkpoints in streams.
	MaxOffsetCheckpointEmissionDelay time.Duration
	// MaxVettedPackagesPageSize is the largest page of ListVettedPackages.
	MaxVettedPackagesPageSize int
}
