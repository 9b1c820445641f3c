package grpcadapter

import (
	"context"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/grpcadapter/pb/v2/admin"
	"github.com/ledgernode/ledgernode/ledger"
)

func (s *packageService) ListVettedPackages(ctx context.Context, req *ledgerv2.ListVettedPackagesRequest) (*ledgerv2.ListVettedPackagesResponse, error) {
	r := ledger.ListVettedPackagesRequest{PageToken: req.GetPageToken(), PageSize: int32(min(req.GetPageSize(), 1<<31-1))}
	if f := req.GetPackageMetadataFilter(); f != nil {
		r.PackageMetadataFilter = &ledger.PackageMetadataFilter{PackageIDs: f.GetPackageIds(), PackageNamePrefixes: f.GetPackageNamePrefixes()}
	}
	if f := req.GetTopologyStateFilter(); f != nil {
		r.TopologyStateFilter = &ledger.TopologyStateFilter{ParticipantIDs: f.GetParticipantIds(), SynchronizerIDs: f.GetSynchronizerIds()}
	}
	res, err := s.a.node.ListVettedPackages(ctx, r)
	if err != nil {
		return nil, err
	}
	out := &ledgerv2.ListVettedPackagesResponse{NextPageToken: res.NextPageToken}
	for _, v := range res.VettedPackages {
		out.VettedPackages = append(out.VettedPackages, vettedToProto(v))
	}
	return out, nil
}

func (s *packageManagementService) UpdateVettedPackages(ctx context.Context, req *admin.UpdateVettedPackagesRequest) (*admin.UpdateVettedPackagesResponse, error) {
	r := ledger.UpdateVettedPackagesRequest{DryRun: req.GetDryRun(), SynchronizerID: req.GetSynchronizerId()}
	for _, c := range req.GetChanges() {
		var op ledger.VettingOperation
		switch o := c.GetOperation().(type) {
		case *admin.VettedPackagesChange_Vet_:
			op.Vet = &ledger.Wrapped[ledger.VetOperation]{Value: ledger.VetOperation{
				Packages:               refsFromProto(o.Vet.GetPackages()),
				NewValidFromInclusive:  boundString(o.Vet.GetNewValidFromInclusive()),
				NewValidUntilExclusive: boundString(o.Vet.GetNewValidUntilExclusive()),
			}}
		case *admin.VettedPackagesChange_Unvet_:
			op.Unvet = &ledger.Wrapped[ledger.UnvetOperation]{Value: ledger.UnvetOperation{Packages: refsFromProto(o.Unvet.GetPackages())}}
		default:
			op.Empty = &struct{}{}
		}
		r.Changes = append(r.Changes, ledger.VettedPackagesChange{Operation: op})
	}
	if s := req.GetExpectedTopologySerial(); s != nil {
		var k ledger.SerialKind
		switch x := s.GetSerial().(type) {
		case *ledgerv2.PriorTopologySerial_Prior:
			k.Prior = &ledger.Wrapped[int32]{Value: int32(min(x.Prior, 1<<31-1))}
		case *ledgerv2.PriorTopologySerial_NoPrior:
			k.NoPrior = &struct{}{}
		default:
			k.Empty = &struct{}{}
		}
		r.ExpectedTopologySerial = &ledger.PriorTopologySerial{Serial: k}
	}
	for _, f := range req.GetUpdateVettedPackagesForceFlags() {
		r.UpdateVettedPackagesForceFlags = append(r.UpdateVettedPackagesForceFlags, f.String())
	}
	res, err := s.a.node.UpdateVettedPackages(ctx, r)
	if err != nil {
		return nil, err
	}
	out := &admin.UpdateVettedPackagesResponse{NewVettedPackages: vettedToProto(res.NewVettedPackages)}
	if res.PastVettedPackages != nil {
		out.PastVettedPackages = vettedToProto(*res.PastVettedPackages)
	}
	return out, nil
}

func refsFromProto(rs []*admin.VettedPackagesRef) []ledger.VettedPackagesRef {
	out := make([]ledger.VettedPackagesRef, len(rs))
	for i, r := range rs {
		out[i] = ledger.VettedPackagesRef{PackageID: r.GetPackageId(), PackageName: r.GetPackageName(), PackageVersion: r.GetPackageVersion()}
	}
	return out
}

// boundString is a vetting bound in the RFC 3339 form the Node's request
// carries (nil when absent).
func boundString(ts *timestamppb.Timestamp) *string {
	if ts == nil {
		return nil
	}
	s := timeString(ts)
	return &s
}

func vettedToProto(v ledger.VettedPackages) *ledgerv2.VettedPackages {
	out := &ledgerv2.VettedPackages{ParticipantId: v.ParticipantID, SynchronizerId: v.SynchronizerID, TopologySerial: uint32(max(v.TopologySerial, 0))}
	for _, p := range v.Packages {
		out.Packages = append(out.Packages, &ledgerv2.VettedPackage{
			PackageId:           p.PackageID,
			ValidFromInclusive:  boundTime(p.ValidFromInclusive),
			ValidUntilExclusive: boundTime(p.ValidUntilExclusive),
			PackageName:         p.PackageName,
			PackageVersion:      p.PackageVersion,
		})
	}
	return out
}

// boundTime reads a bound the Node prints in RFC 3339 (nil when absent).
func boundTime(s *string) *timestamppb.Timestamp {
	if s == nil || *s == "" {
		return nil
	}
	t, err := time.Parse(time.RFC3339Nano, *s)
	if err != nil {
		return nil // the Node prints only valid times
	}
	return timestamppb.New(t)
}
