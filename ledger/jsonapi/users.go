package jsonapi

import (
	"context"

	"github.com/ledgernode/ledgernode/identity"
)

// The user management service (Canton's JsUserManagementService): users,
// their rights and their identity provider.

// Empty is the answer of operations Canton answers with an empty message
// ({} on the wire).
type Empty struct{}

// FieldMask names the fields an update changes, with proto snake_case paths
// such as "primary_party" or "metadata.annotations".
type FieldMask struct {
	Paths         []string       `json:"paths"`
	UnknownFields *UnknownFields `json:"unknownFields,omitempty"`
}

// CreateUserRequest creates a user with initial rights (POST /v2/users).
type CreateUserRequest struct {
	User   identity.User    `json:"user"`
	Rights []identity.Right `json:"rights"`
}

// UserResponse carries one user.
type UserResponse struct {
	User identity.User `json:"user"`
}

// GetUserRequest names a user inside an identity provider (from the path
// and query of GET /v2/users/{user-id}). An empty UserID means the
// authenticated caller's own user.
type GetUserRequest struct {
	UserID             string
	IdentityProviderID string
}

// ListUsersRequest selects a page of users of one identity provider (the
// query of GET /v2/users).
type ListUsersRequest struct {
	// PageSize 0 means the node's maximum; larger values are capped.
	PageSize  int32
	PageToken string
	// IdentityProviderID selects the provider whose users are listed.
	IdentityProviderID string
}

// ListUsersResponse is a page of users ordered by id; NextPageToken is ""
// on the last page.
type ListUsersResponse struct {
	Users         []identity.User `json:"users"`
	NextPageToken string          `json:"nextPageToken"`
}

// UpdateUserRequest updates the fields of User named by UpdateMask
// (primary_party, is_deactivated, metadata.annotations,
// metadata.resource_version, identity_provider_id,
// primary_party_authentication). A non-empty metadata.resourceVersion must
// equal the stored one.
type UpdateUserRequest struct {
	User       identity.User `json:"user"`
	UpdateMask FieldMask     `json:"updateMask"`
}

// UserRightsRequest grants or revokes rights of a user.
type UserRightsRequest struct {
	UserID             string           `json:"userId"`
	Rights             []identity.Right `json:"rights"`
	IdentityProviderID string           `json:"identityProviderId"`
}

// ListUserRightsResponse lists a user's rights.
type ListUserRightsResponse struct {
	Rights []identity.Right `json:"rights"`
}

// GrantUserRightsResponse lists the rights the user did not have before.
type GrantUserRightsResponse struct {
	NewlyGrantedRights []identity.Right `json:"newlyGrantedRights"`
}

// RevokeUserRightsResponse lists the rights the user had and lost.
type RevokeUserRightsResponse struct {
	NewlyRevokedRights []identity.Right `json:"newlyRevokedRights"`
}

// UpdateUserIdentityProviderRequest moves a user from one identity provider
// to another ("" is the default provider).
type UpdateUserIdentityProviderRequest struct {
	UserID                   string `json:"userId"`
	SourceIdentityProviderID string `json:"sourceIdentityProviderId"`
	TargetIdentityProviderID string `json:"targetIdentityProviderId"`
}

// CreateUser serves POST /v2/users (Node.CreateUser).
func (a *API) CreateUser(ctx context.Context, req CreateUserRequest) (UserResponse, error) {
	u, err := a.Node.CreateUser(ctx, req.User, req.Rights)
	if err != nil {
		return UserResponse{}, err
	}
	return UserResponse{User: u}, nil
}

// GetUser serves GET /v2/users/{user-id} and GET /v2/authenticated-user
// (Node.GetUser).
func (a *API) GetUser(ctx context.Context, req GetUserRequest) (UserResponse, error) {
	u, err := a.Node.GetUser(ctx, req.UserID, req.IdentityProviderID)
	if err != nil {
		return UserResponse{}, err
	}
	return UserResponse{User: u}, nil
}

// ListUsers serves GET /v2/users (Node.ListUsers).
func (a *API) ListUsers(ctx context.Context, req ListUsersRequest) (ListUsersResponse, error) {
	users, next, err := a.Node.ListUsers(ctx, req.PageSize, req.PageToken, req.IdentityProviderID)
	if err != nil {
		return ListUsersResponse{}, err
	}
	return ListUsersResponse{Users: nonNil(users), NextPageToken: next}, nil
}

// DeleteUser serves DELETE /v2/users/{user-id} (Node.DeleteUser).
func (a *API) DeleteUser(ctx context.Context, req GetUserRequest) (Empty, error) {
	return Empty{}, a.Node.DeleteUser(ctx, req.UserID, req.IdentityProviderID)
}

// UpdateUser serves PATCH /v2/users/{user-id} (Node.UpdateUser).
func (a *API) UpdateUser(ctx context.Context, req UpdateUserRequest) (UserResponse, error) {
	u, err := a.Node.UpdateUser(ctx, req.User, req.UpdateMask.Paths)
	if err != nil {
		return UserResponse{}, err
	}
	return UserResponse{User: u}, nil
}

// ListUserRights serves GET /v2/users/{user-id}/rights
// (Node.ListUserRights).
func (a *API) ListUserRights(ctx context.Context, req GetUserRequest) (ListUserRightsResponse, error) {
	rights, err := a.Node.ListUserRights(ctx, req.UserID, req.IdentityProviderID)
	if err != nil {
		return ListUserRightsResponse{}, err
	}
	return ListUserRightsResponse{Rights: nonNil(rights)}, nil
}

// GrantUserRights serves POST /v2/users/{user-id}/rights
// (Node.GrantUserRights).
func (a *API) GrantUserRights(ctx context.Context, req UserRightsRequest) (GrantUserRightsResponse, error) {
	added, err := a.Node.GrantUserRights(ctx, req.UserID, req.IdentityProviderID, req.Rights)
	if err != nil {
		return GrantUserRightsResponse{}, err
	}
	return GrantUserRightsResponse{NewlyGrantedRights: nonNil(added)}, nil
}

// RevokeUserRights serves PATCH /v2/users/{user-id}/rights
// (Node.RevokeUserRights).
func (a *API) RevokeUserRights(ctx context.Context, req UserRightsRequest) (RevokeUserRightsResponse, error) {
	removed, err := a.Node.RevokeUserRights(ctx, req.UserID, req.IdentityProviderID, req.Rights)
	if err != nil {
		return RevokeUserRightsResponse{}, err
	}
	return RevokeUserRightsResponse{NewlyRevokedRights: nonNil(removed)}, nil
}

// UpdateUserIdentityProvider serves PATCH
// /v2/users/{user-id}/identity-provider-id
// (Node.UpdateUserIdentityProvider).
func (a *API) UpdateUserIdentityProvider(ctx context.Context, req UpdateUserIdentityProviderRequest) (Empty, error) {
	return Empty{}, a.Node.UpdateUserIdentityProvider(ctx, req.UserID, req.SourceIdentityProviderID, req.TargetIdentityProviderID)
}

// nonNil returns s, or an empty slice for nil: the wire prints a list as
// [], never null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
