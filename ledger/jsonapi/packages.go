package jsonapi

import (
	"context"

	"github.com/ledgernode/ledgernode/ledger"
)

// The package service and the DAR routes of the package management
// service (Canton's JsPackageService).

// Package statuses of GET /v2/packages/{id}/status.
const (
	PackageStatusUnspecified = "PACKAGE_STATUS_UNSPECIFIED"
	PackageStatusRegistered  = "PACKAGE_STATUS_REGISTERED"
)

// ValidateDARRequest is POST /v2/dars/validate: the DAR body and the
// synchronizerId query parameter.
type ValidateDARRequest struct {
	// DAR is the DAR file's bytes.
	DAR []byte
	// SynchronizerID is the synchronizerId query parameter ("" for the
	// node's default).
	SynchronizerID string
}

// UploadDARRequest is POST /v2/dars (and POST /v2/packages): the DAR body
// and the vetAllPackages and synchronizerId query parameters.
type UploadDARRequest = ledger.UploadDARRequest

// ListPackagesResponse lists the stored package ids.
type ListPackagesResponse struct {
	PackageIDs []string `json:"packageIds"`
}

// PackageStatusResponse is the answer of GET /v2/packages/{id}/status.
type PackageStatusResponse struct {
	PackageStatus string `json:"packageStatus"`
}

// ValidateDAR serves POST /v2/dars/validate (Node.ValidateDAR).
func (a *API) ValidateDAR(ctx context.Context, req ValidateDARRequest) (Empty, error) {
	return Empty{}, a.Node.ValidateDAR(ctx, req.DAR, req.SynchronizerID)
}

// UploadDAR serves POST /v2/dars and POST /v2/packages (Node.UploadDAR).
func (a *API) UploadDAR(ctx context.Context, req UploadDARRequest) (Empty, error) {
	return Empty{}, a.Node.UploadDAR(ctx, req)
}

// ListPackages serves GET /v2/packages (Node.ListPackages).
func (a *API) ListPackages(ctx context.Context) (ListPackagesResponse, error) {
	ids, err := a.Node.ListPackages(ctx)
	if err != nil {
		return ListPackagesResponse{}, err
	}
	return ListPackagesResponse{PackageIDs: nonNil(ids)}, nil
}

// PackageStatus serves GET /v2/packages/{package-id}/status
// (Node.PackageStatus).
func (a *API) PackageStatus(ctx context.Context, id string) (PackageStatusResponse, error) {
	registered, err := a.Node.PackageStatus(ctx, id)
	if err != nil {
		return PackageStatusResponse{}, err
	}
	if registered {
		return PackageStatusResponse{PackageStatus: PackageStatusRegistered}, nil
	}
	return PackageStatusResponse{PackageStatus: PackageStatusUnspecified}, nil
}
