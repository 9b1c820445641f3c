package grpcadapter

import (
	"context"

	"google.golang.org/protobuf/types/known/timestamppb"

	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/grpcadapter/pb/v2/admin"
	"github.com/ledgernode/ledgernode/ledger"
)

// packageService is PackageService.
type packageService struct {
	ledgerv2.UnimplementedPackageServiceServer
	a *Adapter
}

func (s *packageService) ListPackages(ctx context.Context, _ *ledgerv2.ListPackagesRequest) (*ledgerv2.ListPackagesResponse, error) {
	res, err := s.a.node.ListPackages(ctx)
	if err != nil {
		return nil, err
	}
	return &ledgerv2.ListPackagesResponse{PackageIds: res}, nil
}

func (s *packageService) GetPackage(ctx context.Context, req *ledgerv2.GetPackageRequest) (*ledgerv2.GetPackageResponse, error) {
	res, err := s.a.node.GetPackage(ctx, req.GetPackageId())
	if err != nil {
		return nil, err
	}
	// SHA256 is the only hash function (HASH_FUNCTION_SHA256 = 0).
	return &ledgerv2.GetPackageResponse{HashFunction: ledgerv2.HashFunction_HASH_FUNCTION_SHA256, ArchivePayload: res.Payload, Hash: res.Hash}, nil
}

func (s *packageService) GetPackageStatus(ctx context.Context, req *ledgerv2.GetPackageStatusRequest) (*ledgerv2.GetPackageStatusResponse, error) {
	registered, err := s.a.node.PackageStatus(ctx, req.GetPackageId())
	if err != nil {
		return nil, err
	}
	status := ledgerv2.PackageStatus_PACKAGE_STATUS_UNSPECIFIED
	if registered {
		status = ledgerv2.PackageStatus_PACKAGE_STATUS_REGISTERED
	}
	return &ledgerv2.GetPackageStatusResponse{PackageStatus: status}, nil
}

// packageManagementService is PackageManagementService.
type packageManagementService struct {
	admin.UnimplementedPackageManagementServiceServer
	a *Adapter
}

func (s *packageManagementService) UploadDarFile(ctx context.Context, req *admin.UploadDarFileRequest) (*admin.UploadDarFileResponse, error) {
	// VETTING_CHANGE_UNSPECIFIED vets, as VET_ALL_PACKAGES does.
	err := s.a.node.UploadDAR(ctx, ledger.UploadDARRequest{
		DAR:            req.GetDarFile(),
		DontVet:        req.GetVettingChange() == admin.UploadDarFileRequest_VETTING_CHANGE_DONT_VET_ANY_PACKAGES,
		SynchronizerID: req.GetSynchronizerId(),
	})
	if err != nil {
		return nil, err
	}
	return &admin.UploadDarFileResponse{}, nil
}

func (s *packageManagementService) ValidateDarFile(ctx context.Context, req *admin.ValidateDarFileRequest) (*admin.ValidateDarFileResponse, error) {
	if err := s.a.node.ValidateDAR(ctx, req.GetDarFile(), req.GetSynchronizerId()); err != nil {
		return nil, err
	}
	return &admin.ValidateDarFileResponse{}, nil
}

func (s *packageManagementService) ListKnownPackages(ctx context.Context, _ *admin.ListKnownPackagesRequest) (*admin.ListKnownPackagesResponse, error) {
	res, err := s.a.node.ListKnownPackages(ctx)
	if err != nil {
		return nil, err
	}
	out := &admin.ListKnownPackagesResponse{PackageDetails: make([]*admin.PackageDetails, len(res))}
	for i, p := range res {
		out.PackageDetails[i] = &admin.PackageDetails{
			PackageId:   p.PackageID,
			PackageSize: uint64(p.PackageSize),
			KnownSince:  timestamppb.New(p.KnownSince),
			Name:        p.Name,
			Version:     p.Version,
		}
	}
	return out, nil
}
