package jsonapi

import (
	"context"
	"fmt"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/vetting"
)

// The preferred-package queries of the interactive submission service
// (Canton's JsInteractiveSubmissionService).

// PackageVettingRequirement asks for the newest package of a name vetted
// by every participant hosting the parties.
type PackageVettingRequirement struct {
	Parties     []string `json:"parties"`
	PackageName string   `json:"packageName"`
}

// GetPreferredPackagesRequest is the body of POST
// /v2/interactive-submission/preferred-packages.
type GetPreferredPackagesRequest struct {
	PackageVettingRequirements []PackageVettingRequirement `json:"packageVettingRequirements"`
	// SynchronizerID restricts the search to one connected synchronizer;
	// "" searches them all, in connection order.
	SynchronizerID string `json:"synchronizerId"`
	// VettingValidAt is the time the vetting must be valid at (RFC 3339);
	// "" means now.
	VettingValidAt string `json:"vettingValidAt"`
}

// PackageReference names a package by id, name and version.
type PackageReference struct {
	PackageID      string `json:"packageId"`
	PackageName    string `json:"packageName"`
	PackageVersion string `json:"packageVersion"`
}

// GetPreferredPackagesResponse holds one reference per requirement, in the
// requirements' order, and the synchronizer they were computed for.
type GetPreferredPackagesResponse struct {
	PackageReferences []PackageReference `json:"packageReferences"`
	SynchronizerID    string             `json:"synchronizerId"`
}

// GetPreferredPackageVersionRequest is the query of the deprecated GET
// /v2/interactive-submission/preferred-package-version.
type GetPreferredPackageVersionRequest struct {
	Parties     []string
	PackageName string
	// VettingValidAt is RFC 3339; "" means now.
	VettingValidAt string
	SynchronizerID string
}

// PackagePreference is a preferred package and its synchronizer.
type PackagePreference struct {
	PackageReference PackageReference `json:"packageReference"`
	SynchronizerID   string           `json:"synchronizerId"`
}

// GetPreferredPackageVersionResponse holds the preference, nil when no
// package satisfies the query.
type GetPreferredPackageVersionResponse struct {
	PackagePreference *PackagePreference `json:"packagePreference"`
}

// PreferredPackages serves POST
// /v2/interactive-submission/preferred-packages (Node.PreferredPackages).
func (a *API) PreferredPackages(ctx context.Context, req GetPreferredPackagesRequest) (GetPreferredPackagesResponse, error) {
	at, err := vettingValidAt(req.VettingValidAt)
	if err != nil {
		return GetPreferredPackagesResponse{}, err
	}
	reqs := make([]vetting.Requirement, len(req.PackageVettingRequirements))
	for i, r := range req.PackageVettingRequirements {
		reqs[i] = vetting.Requirement(r)
	}
	refs, sync, err := a.Node.PreferredPackages(ctx, reqs, req.SynchronizerID, at)
	if err != nil {
		return GetPreferredPackagesResponse{}, err
	}
	out := GetPreferredPackagesResponse{PackageReferences: make([]PackageReference, len(refs)), SynchronizerID: sync}
	for i, r := range refs {
		out.PackageReferences[i] = PackageReference(r)
	}
	return out, nil
}

// PreferredPackageVersion serves GET
// /v2/interactive-submission/preferred-package-version
// (Node.PreferredPackageVersion).
func (a *API) PreferredPackageVersion(ctx context.Context, req GetPreferredPackageVersionRequest) (GetPreferredPackageVersionResponse, error) {
	at, err := vettingValidAt(req.VettingValidAt)
	if err != nil {
		return GetPreferredPackageVersionResponse{}, err
	}
	ref, sync, err := a.Node.PreferredPackageVersion(ctx, vetting.Requirement{Parties: req.Parties, PackageName: req.PackageName}, req.SynchronizerID, at)
	if err != nil || ref == nil {
		return GetPreferredPackageVersionResponse{}, err
	}
	return GetPreferredPackageVersionResponse{PackagePreference: &PackagePreference{
		PackageReference: PackageReference(*ref), SynchronizerID: sync}}, nil
}

// vettingValidAt parses a request's vetting time ("" is the zero time, now
// for the Node): a malformed one is Canton's INVALID_FIELD
// vetting_valid_at/vettingValidAt, its input quoted truncated.
func vettingValidAt(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, apierr.InvalidField.New("Invalid field %s: %s", "vetting_valid_at/vettingValidAt", fmt.Sprintf("%q is not a timestamp", apierr.Quote(s)))
	}
	return t, nil
}
