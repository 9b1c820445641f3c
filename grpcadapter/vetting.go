package grpcadapter

import (
	"context"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/ledgernode/ledgernode/apierr"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/grpcadapter/pb/v2/admin"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/vetting"
)

func (s *packageService) ListVettedPackages(ctx context.Context, req *ledgerv2.ListVettedPackagesRequest) (*ledgerv2.ListVettedPackagesResponse, error) {
	r := ledger.ListVettedPackagesRequest{PageToken: req.GetPageToken(), PageSize: int(req.GetPageSize())}
	if f := req.GetPackageMetadataFilter(); f != nil {
		r.PackageIDs, r.PackageNamePrefixes = f.GetPackageIds(), f.GetPackageNamePrefixes()
	}
	if f := req.GetTopologyStateFilter(); f != nil {
		r.ParticipantIDs, r.SynchronizerIDs = f.GetParticipantIds(), f.GetSynchronizerIds()
	}
	states, next, err := s.a.node.ListVettedPackages(ctx, r)
	if err != nil {
		return nil, err
	}
	out := &ledgerv2.ListVettedPackagesResponse{NextPageToken: next}
	for _, v := range states {
		out.VettedPackages = append(out.VettedPackages, vettedToProto(v))
	}
	return out, nil
}

func (s *packageManagementService) UpdateVettedPackages(ctx context.Context, req *admin.UpdateVettedPackagesRequest) (*admin.UpdateVettedPackagesResponse, error) {
	r := ledger.UpdateVettedPackagesRequest{DryRun: req.GetDryRun(), SynchronizerID: req.GetSynchronizerId()}
	for _, c := range req.GetChanges() {
		switch o := c.GetOperation().(type) {
		case *admin.VettedPackagesChange_Vet_:
			r.Changes = append(r.Changes, vetting.Change{Op: vetting.Vet,
				Refs:       refsFromProto(o.Vet.GetPackages()),
				ValidFrom:  boundTime(o.Vet.GetNewValidFromInclusive()),
				ValidUntil: boundTime(o.Vet.GetNewValidUntilExclusive()),
			})
		case *admin.VettedPackagesChange_Unvet_:
			r.Changes = append(r.Changes, vetting.Change{Op: vetting.Unvet, Refs: refsFromProto(o.Unvet.GetPackages())})
		default:
			r.Changes = append(r.Changes, vetting.Change{}) // no operation: the Node's MISSING_FIELD changes[i].operation
		}
	}
	if s := req.GetExpectedTopologySerial(); s != nil {
		switch x := s.GetSerial().(type) {
		case *ledgerv2.PriorTopologySerial_Prior:
			r.ExpectedSerial = vetting.PriorSerial(min(x.Prior, 1<<31-1))
		case *ledgerv2.PriorTopologySerial_NoPrior:
			r.ExpectedSerial = vetting.NoPriorSerial{}
		}
	}
	for _, f := range req.GetUpdateVettedPackagesForceFlags() {
		switch f {
		case admin.UpdateVettedPackagesForceFlag_UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_VET_INCOMPATIBLE_UPGRADES:
			r.Flags.AllowVetIncompatibleUpgrades = true
		case admin.UpdateVettedPackagesForceFlag_UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES:
			r.Flags.AllowUnvettedDependencies = true
		case admin.UpdateVettedPackagesForceFlag_UPDATE_VETTED_PACKAGES_FORCE_FLAG_UNSPECIFIED:
		default:
			return nil, apierr.InvalidField.New("update_vetted_packages_force_flags: unknown flag %d", f)
		}
	}
	past, next, err := s.a.node.UpdateVettedPackages(ctx, r)
	if err != nil {
		return nil, err
	}
	out := &admin.UpdateVettedPackagesResponse{NewVettedPackages: vettedToProto(next)}
	if past != nil {
		out.PastVettedPackages = vettedToProto(*past)
	}
	return out, nil
}

func refsFromProto(rs []*admin.VettedPackagesRef) []vetting.Ref {
	out := make([]vetting.Ref, len(rs))
	for i, r := range rs {
		out[i] = vetting.Ref{PackageID: r.GetPackageId(), PackageName: r.GetPackageName(), PackageVersion: r.GetPackageVersion()}
	}
	return out
}

// boundTime is a vetting bound as the Node takes it (nil when absent).
func boundTime(ts *timestamppb.Timestamp) *time.Time {
	if ts == nil {
		return nil
	}
	t := ts.AsTime()
	return &t
}

func vettedToProto(v vetting.State) *ledgerv2.VettedPackages {
	out := &ledgerv2.VettedPackages{ParticipantId: v.ParticipantID, SynchronizerId: v.SynchronizerID, TopologySerial: uint32(max(v.Serial, 0))}
	for _, p := range v.Packages {
		out.Packages = append(out.Packages, &ledgerv2.VettedPackage{
			PackageId:           p.PackageID,
			ValidFromInclusive:  protoBound(p.ValidFrom),
			ValidUntilExclusive: protoBound(p.ValidUntil),
			PackageName:         p.PackageName,
			PackageVersion:      p.PackageVersion,
		})
	}
	return out
}

// protoBound is a bound of a vetted package (nil when unbounded).
func protoBound(t *time.Time) *timestamppb.Timestamp {
	if t == nil {
		return nil
	}
	return timestamppb.New(*t)
}
