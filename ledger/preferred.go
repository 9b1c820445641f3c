package ledger

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger/apierr"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
	"github.com/ledgernode/ledgernode/vetting"
)

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

// GetPreferredPackageVersionRequest is the deprecated single-name query
// (GET /v2/interactive-submission/preferred-package-version).
type GetPreferredPackageVersionRequest struct {
	Parties        []string
	PackageName    string
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

// PreferredPackages computes, for each requirement, the highest-versioned
// package of its name that is vetted (valid at VettingValidAt, default
// now) by every participant hosting its parties — on ledgernode the one
// participant, which hosts exactly the parties it knows. The first
// synchronizer (the requested one, else in connection order) that
// satisfies every requirement is used; PACKAGE_SELECTION_FAILED
// (FAILED_PRECONDITION) when none does. Any authenticated caller may ask.
func (n *Node) PreferredPackages(ctx context.Context, req GetPreferredPackagesRequest) (GetPreferredPackagesResponse, error) {
	if err := n.public(ctx); err != nil {
		return GetPreferredPackagesResponse{}, err
	}
	if len(req.PackageVettingRequirements) == 0 {
		return GetPreferredPackagesResponse{}, apierr.MissingField.New("package_vetting_requirements")
	}
	for _, r := range req.PackageVettingRequirements {
		if r.PackageName == "" {
			return GetPreferredPackagesResponse{}, apierr.MissingField.New("package_vetting_requirements.package_name")
		}
		if len(r.Parties) == 0 {
			return GetPreferredPackagesResponse{}, apierr.MissingField.New("package_vetting_requirements.parties")
		}
	}
	return n.preferredPackages(req)
}

// PreferredPackageVersion is PreferredPackages for one package name and
// optional parties (deprecated). When no synchronizer satisfies the query
// the response has no preference (PackagePreference nil), as Canton's.
func (n *Node) PreferredPackageVersion(ctx context.Context, req GetPreferredPackageVersionRequest) (GetPreferredPackageVersionResponse, error) {
	if err := n.public(ctx); err != nil {
		return GetPreferredPackageVersionResponse{}, err
	}
	if req.PackageName == "" {
		return GetPreferredPackageVersionResponse{}, apierr.MissingField.New("package_name")
	}
	resp, err := n.preferredPackages(GetPreferredPackagesRequest{
		PackageVettingRequirements: []PackageVettingRequirement{{Parties: req.Parties, PackageName: req.PackageName}},
		SynchronizerID:             req.SynchronizerID, VettingValidAt: req.VettingValidAt})
	if errors.Is(err, apierr.PackageSelectionFailed) {
		return GetPreferredPackageVersionResponse{}, nil
	}
	if err != nil {
		return GetPreferredPackageVersionResponse{}, err
	}
	return GetPreferredPackageVersionResponse{PackagePreference: &PackagePreference{
		PackageReference: resp.PackageReferences[0], SynchronizerID: resp.SynchronizerID}}, nil
}

func (n *Node) preferredPackages(req GetPreferredPackagesRequest) (GetPreferredPackagesResponse, error) {
	at := n.now()
	if req.VettingValidAt != "" {
		t, err := time.Parse(time.RFC3339Nano, req.VettingValidAt)
		if err != nil {
			return GetPreferredPackagesResponse{}, apierr.InvalidField.New("vetting_valid_at: %q is not a timestamp", apierr.Quote(req.VettingValidAt))
		}
		at = t
	}
	for _, r := range req.PackageVettingRequirements {
		for _, p := range r.Parties {
			if err := identity.ValidatePartyString(p); err != nil {
				return GetPreferredPackagesResponse{}, apierr.InvalidField.New("parties: %v", err)
			}
		}
	}
	syncs := n.syncs
	if req.SynchronizerID != "" {
		if !slices.Contains(n.syncs, req.SynchronizerID) {
			return GetPreferredPackagesResponse{}, apierr.PackageSelectionFailed.New("The participant is not connected to synchronizer %s", apierr.Quote(req.SynchronizerID)).
				WithResource("SYNCHRONIZER_ID", req.SynchronizerID)
		}
		syncs = []string{req.SynchronizerID}
	}
	var resp GetPreferredPackagesResponse
	var reasons []string
	err := n.st.View(func(r *store.Reader) error {
		for _, rq := range req.PackageVettingRequirements {
			for _, p := range rq.Parties {
				hosted, err := hasKey(r, store.PartyKey(p))
				if err != nil {
					return err
				}
				if !hosted {
					reasons = append(reasons, fmt.Sprintf("party %s is not hosted on any participant", apierr.Quote(p)))
					return nil
				}
			}
		}
		known, err := n.knownPackages(r)
		if err != nil {
			return err
		}
		lookup := lookupIn(known)
		for _, sync := range syncs {
			st, err := loadVetting(r, sync)
			if err != nil {
				return err
			}
			refs, missing := preferredIn(st.Packages, lookup, req.PackageVettingRequirements, at)
			if missing != "" {
				reasons = append(reasons, fmt.Sprintf("%s: no vetted package for package-name %s", sync, apierr.Quote(missing)))
				continue
			}
			resp = GetPreferredPackagesResponse{PackageReferences: refs, SynchronizerID: sync}
			return nil
		}
		return nil
	})
	if err != nil {
		return GetPreferredPackagesResponse{}, storeErr(err)
	}
	if resp.SynchronizerID == "" {
		return GetPreferredPackagesResponse{}, apierr.PackageSelectionFailed.New("No synchronizers satisfy the topology requirements for the package vetting requirements: %s", strings.Join(reasons, "; "))
	}
	return resp, nil
}

// preferredIn picks, for each requirement, the highest version of its
// package name among the vetted packages valid at t. It returns the first
// name without a vetted package when one is missing.
func preferredIn(vetted []vetting.VettedPackage, lookup func(string) *lf.Package, reqs []PackageVettingRequirement, t time.Time) ([]PackageReference, string) {
	var refs []PackageReference
	for _, req := range reqs {
		var best *lf.Package
		for _, v := range vetted {
			if v.ValidFrom != nil && t.Before(*v.ValidFrom) || v.ValidUntil != nil && !t.Before(*v.ValidUntil) {
				continue
			}
			p := lookup(v.PackageID)
			if p != nil && p.Name == req.PackageName && (best == nil || lf.CompareVersions(p.Version, best.Version) > 0) {
				best = p
			}
		}
		if best == nil {
			return nil, req.PackageName
		}
		refs = append(refs, PackageReference{PackageID: best.ID, PackageName: best.Name, PackageVersion: best.Version})
	}
	return refs, ""
}
