package grpcadapter

import (
	"context"

	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/grpcadapter/pb/v2/interactive"
	"github.com/ledgernode/ledgernode/vetting"
)

// interactiveService is InteractiveSubmissionService: its package
// preference queries (here) and its prepare and execute RPCs
// (interactive_submission.go).
type interactiveService struct {
	interactive.UnimplementedInteractiveSubmissionServiceServer
	a *Adapter
}

// GetPreferredPackageVersion is the Node's PreferredPackageVersion, the
// query of GET /v2/interactive-submission/preferred-package-version: a
// response without a preference when no synchronizer satisfies it.
func (s *interactiveService) GetPreferredPackageVersion(ctx context.Context, req *interactive.GetPreferredPackageVersionRequest) (*interactive.GetPreferredPackageVersionResponse, error) {
	ref, sync, err := s.a.node.PreferredPackageVersion(ctx, vetting.Requirement{Parties: req.GetParties(), PackageName: req.GetPackageName()},
		req.GetSynchronizerId(), protoTime(req.GetVettingValidAt()))
	if err != nil {
		return nil, err
	}
	out := &interactive.GetPreferredPackageVersionResponse{}
	if ref != nil {
		out.PackagePreference = &interactive.PackagePreference{PackageReference: packageRefToProto(*ref), SynchronizerId: sync}
	}
	return out, nil
}

// GetPreferredPackages is the Node's PreferredPackages (POST
// /v2/interactive-submission/preferred-packages).
func (s *interactiveService) GetPreferredPackages(ctx context.Context, req *interactive.GetPreferredPackagesRequest) (*interactive.GetPreferredPackagesResponse, error) {
	var reqs []vetting.Requirement
	for _, r := range req.GetPackageVettingRequirements() {
		reqs = append(reqs, vetting.Requirement{Parties: r.GetParties(), PackageName: r.GetPackageName()})
	}
	refs, sync, err := s.a.node.PreferredPackages(ctx, reqs, req.GetSynchronizerId(), protoTime(req.GetVettingValidAt()))
	if err != nil {
		return nil, err
	}
	out := &interactive.GetPreferredPackagesResponse{SynchronizerId: sync}
	for _, r := range refs {
		out.PackageReferences = append(out.PackageReferences, packageRefToProto(r))
	}
	return out, nil
}

func packageRefToProto(r vetting.Ref) *ledgerv2.PackageReference {
	return &ledgerv2.PackageReference{PackageId: r.PackageID, PackageName: r.PackageName, PackageVersion: r.PackageVersion}
}
