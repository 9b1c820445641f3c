package scriptledger

import "github.com/ledgernode/ledgernode/identity"

// The JSON Ledger API bodies Remote sends and reads for the services that
// moved to package jsonapi (which this package may not import: it serves
// the typed Node): the wire's field names, as Canton's OpenAPI document
// gives them.

// createUserRequest is the body of POST /v2/users.
type createUserRequest struct {
	User   identity.User    `json:"user"`
	Rights []identity.Right `json:"rights"`
}

// userResponse is the answer of GET /v2/users/{id}.
type userResponse struct {
	User identity.User `json:"user"`
}

// listUsersResponse is the answer of GET /v2/users.
type listUsersResponse struct {
	Users         []identity.User `json:"users"`
	NextPageToken string          `json:"nextPageToken"`
}

// userRightsRequest is the body of POST and PATCH /v2/users/{id}/rights.
type userRightsRequest struct {
	UserID string           `json:"userId"`
	Rights []identity.Right `json:"rights"`
}

// grantUserRightsResponse is the answer of POST /v2/users/{id}/rights.
type grantUserRightsResponse struct {
	NewlyGrantedRights []identity.Right `json:"newlyGrantedRights"`
}

// revokeUserRightsResponse is the answer of PATCH /v2/users/{id}/rights.
type revokeUserRightsResponse struct {
	NewlyRevokedRights []identity.Right `json:"newlyRevokedRights"`
}

// listUserRightsResponse is the answer of GET /v2/users/{id}/rights.
type listUserRightsResponse struct {
	Rights []identity.Right `json:"rights"`
}

// allocatePartyRequest is the body of POST /v2/parties.
type allocatePartyRequest struct {
	PartyIDHint string `json:"partyIdHint"`
}

// partyDetails is one party of the party service's answers.
type partyDetails struct {
	Party   string `json:"party"`
	IsLocal bool   `json:"isLocal"`
}

// allocatePartyResponse is the answer of POST /v2/parties.
type allocatePartyResponse struct {
	PartyDetails partyDetails `json:"partyDetails"`
}

// listPartiesResponse is the answer of GET /v2/parties.
type listPartiesResponse struct {
	PartyDetails  []partyDetails `json:"partyDetails"`
	NextPageToken string         `json:"nextPageToken"`
}

// setTimeRequest is the body of POST /ledgernode/v1/time that moves the
// time from CurrentTime to NewTime (Canton's SetTimeRequest).
type setTimeRequest struct {
	CurrentTime string `json:"currentTime"`
	NewTime     string `json:"newTime"`
}

// listPackagesResponse is the answer of GET /v2/packages.
type listPackagesResponse struct {
	PackageIDs []string `json:"packageIds"`
}
