package jsonapi

import (
	"context"

	"github.com/ledgernode/ledgernode/identity"
)

// The identity provider config service (Canton's
// JsIdentityProviderService).

// IdentityProviderConfigRequest carries one configuration (create).
type IdentityProviderConfigRequest struct {
	IdentityProviderConfig identity.IdentityProviderConfig `json:"identityProviderConfig"`
}

// IdentityProviderConfigResponse carries one configuration.
type IdentityProviderConfigResponse struct {
	IdentityProviderConfig identity.IdentityProviderConfig `json:"identityProviderConfig"`
}

// UpdateIdentityProviderConfigRequest updates the fields named by the mask
// (is_deactivated, jwks_url, issuer, audience).
type UpdateIdentityProviderConfigRequest struct {
	IdentityProviderConfig identity.IdentityProviderConfig `json:"identityProviderConfig"`
	UpdateMask             FieldMask                       `json:"updateMask"`
}

// ListIdentityProviderConfigsResponse lists every configuration.
type ListIdentityProviderConfigsResponse struct {
	IdentityProviderConfigs []identity.IdentityProviderConfig `json:"identityProviderConfigs"`
}

// CreateIdentityProviderConfig serves POST /v2/idps
// (Node.CreateIdentityProviderConfig).
func (a *API) CreateIdentityProviderConfig(ctx context.Context, req IdentityProviderConfigRequest) (IdentityProviderConfigResponse, error) {
	c, err := a.Node.CreateIdentityProviderConfig(ctx, req.IdentityProviderConfig)
	if err != nil {
		return IdentityProviderConfigResponse{}, err
	}
	return IdentityProviderConfigResponse{IdentityProviderConfig: c}, nil
}

// GetIdentityProviderConfig serves GET /v2/idps/{idp-id}
// (Node.GetIdentityProviderConfig).
func (a *API) GetIdentityProviderConfig(ctx context.Context, id string) (IdentityProviderConfigResponse, error) {
	c, err := a.Node.GetIdentityProviderConfig(ctx, id)
	if err != nil {
		return IdentityProviderConfigResponse{}, err
	}
	return IdentityProviderConfigResponse{IdentityProviderConfig: c}, nil
}

// ListIdentityProviderConfigs serves GET /v2/idps
// (Node.ListIdentityProviderConfigs).
func (a *API) ListIdentityProviderConfigs(ctx context.Context) (ListIdentityProviderConfigsResponse, error) {
	all, err := a.Node.ListIdentityProviderConfigs(ctx)
	if err != nil {
		return ListIdentityProviderConfigsResponse{}, err
	}
	return ListIdentityProviderConfigsResponse{IdentityProviderConfigs: nonNil(all)}, nil
}

// UpdateIdentityProviderConfig serves PATCH /v2/idps/{idp-id}
// (Node.UpdateIdentityProviderConfig).
func (a *API) UpdateIdentityProviderConfig(ctx context.Context, req UpdateIdentityProviderConfigRequest) (IdentityProviderConfigResponse, error) {
	c, err := a.Node.UpdateIdentityProviderConfig(ctx, req.IdentityProviderConfig, req.UpdateMask.Paths)
	if err != nil {
		return IdentityProviderConfigResponse{}, err
	}
	return IdentityProviderConfigResponse{IdentityProviderConfig: c}, nil
}

// DeleteIdentityProviderConfig serves DELETE /v2/idps/{idp-id}
// (Node.DeleteIdentityProviderConfig).
func (a *API) DeleteIdentityProviderConfig(ctx context.Context, id string) (Empty, error) {
	return Empty{}, a.Node.DeleteIdentityProviderConfig(ctx, id)
}
