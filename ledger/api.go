package ledger

import (
	"encoding/json"

	"github.com/ledgernode/ledgernode/identity"
)

// LedgerEnd is the answer of GET /v2/state/ledger-end: the offset of the
// last committed update (0 on an empty ledger).
type LedgerEnd struct {
	Offset int64 `json:"offset"`
}

// PartyDetails describes one party. IsLocal and IdentityProviderID follow
// Canton's visibility rule: they are true/shown only when the party is
// hosted here and belongs to the requesting identity provider, as is
// LocalMetadata (empty annotations otherwise).
type PartyDetails struct {
	Party              string
	IsLocal            bool
	LocalMetadata      identity.ObjectMeta
	IdentityProviderID string
}

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

// GetPartiesRequest names parties to look up.
type GetPartiesRequest struct {
	// Parties are the ids to look up; unknown ones are left out of the
	// answer.
	Parties []string
	// IdentityProviderID scopes the visibility of isLocal and
	// identityProviderId.
	IdentityProviderID string
}

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

// Duration is a protobuf Duration in its JSON API object form.
type Duration struct {
	Seconds       int64         `json:"seconds"`
	Nanos         int32         `json:"nanos"`
	UnknownFields UnknownFields `json:"unknownFields"`
}

// UnknownFields is the unknown-field set (UnknownFieldSet) of Canton's
// Duration, FieldMask and ProtoAny: field numbers to their raw values.
// ledgernode prints it empty and ignores it on input, where it is still
// decoded with its type.
type UnknownFields struct {
	Fields map[int32]UnknownField `json:"fields"`
}

// UnknownField is the raw values of one unknown protobuf field (Field).
type UnknownField struct {
	Varint          []int64  `json:"varint,omitempty"`
	Fixed64         []int64  `json:"fixed64,omitempty"`
	Fixed32         []int32  `json:"fixed32,omitempty"`
	LengthDelimited []string `json:"lengthDelimited,omitempty"`
}

// JsDisclosedContract is a contract a submission brings along for the
// interpretation (JsDisclosedContract): its createdEventBlob, as a created
// event carries it, lets the submitters use a contract they are not
// stakeholders of. The blob must describe the ledger's contract.
type JsDisclosedContract struct {
	TemplateID string `json:"templateId"`
	ContractID string `json:"contractId"`
	// CreatedEventBlob is the contract's created-event blob, base64.
	CreatedEventBlob string `json:"createdEventBlob"`
	SynchronizerID   string `json:"synchronizerId"`
}

// JsPrefetchContractKey asks the interpretation to load the contracts of a
// key ahead. It is a performance hint: ledgernode looks keys up in its
// index when the code asks, so the hint changes nothing.
type JsPrefetchContractKey struct {
	TemplateID  string          `json:"templateId"`
	ContractKey json.RawMessage `json:"contractKey"`
	Limit       *int32          `json:"limit"`
}

// CostEstimationHints tune the traffic-cost estimate of a prepared
// transaction. ledgernode makes no estimate (costEstimation is null), so
// the hints change nothing.
type CostEstimationHints struct {
	Disabled           bool     `json:"disabled"`
	ExpectedSignatures []string `json:"expectedSignatures"`
}
