package grpcadapter_test

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/grpcadapter"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/grpcadapter/pb/v2/admin"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/vetting"
)

// vettedIDs returns the vetted package ids of a page with their bounds.
func vettedIDs(vs []*ledgerv2.VettedPackages) map[string]*ledgerv2.VettedPackage {
	out := map[string]*ledgerv2.VettedPackage{}
	for _, v := range vs {
		for _, p := range v.Packages {
			out[p.PackageId] = p
		}
	}
	return out
}

// TestVettedPackages: a package uploaded without vetting is vetted with
// bounds through UpdateVettedPackages (a dry run first changes nothing),
// ListVettedPackages shows it as the Node does, and it is unvetted again;
// a stale expected topology serial is refused as by the Node.
func TestVettedPackages(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, grpcadapter.Options{})
	ctx := as(e.admin)
	pm := admin.NewPackageManagementServiceClient(e.conn)
	ps := ledgerv2.NewPackageServiceClient(e.conn)
	dar, ids := lftest.DAR(lftest.IouPackage("1.0.0"))
	if _, err := pm.UploadDarFile(ctx, &admin.UploadDarFileRequest{DarFile: dar, VettingChange: admin.UploadDarFileRequest_VETTING_CHANGE_DONT_VET_ANY_PACKAGES}); err != nil {
		t.Fatal(err)
	}
	list := func() map[string]*ledgerv2.VettedPackage {
		t.Helper()
		res, err := ps.ListVettedPackages(ctx, &ledgerv2.ListVettedPackagesRequest{PackageMetadataFilter: &ledgerv2.PackageMetadataFilter{PackageIds: []string{ids[0]}}})
		if err != nil {
			t.Fatal(err)
		}
		return vettedIDs(res.VettedPackages)
	}
	if v := list(); v[ids[0]] != nil {
		t.Fatalf("vetted before the update: %v", v)
	}
	from := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	vet := &admin.VettedPackagesChange{Operation: &admin.VettedPackagesChange_Vet_{Vet: &admin.VettedPackagesChange_Vet{
		Packages:              []*admin.VettedPackagesRef{{PackageId: ids[0]}},
		NewValidFromInclusive: timestamppb.New(from),
	}}}
	dry, err := pm.UpdateVettedPackages(ctx, &admin.UpdateVettedPackagesRequest{Changes: []*admin.VettedPackagesChange{vet}, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if v := vettedIDs([]*ledgerv2.VettedPackages{dry.NewVettedPackages}); v[ids[0]] == nil {
		t.Errorf("the dry run's new state lacks %s: %v", ids[0], dry)
	}
	if v := list(); v[ids[0]] != nil {
		t.Fatalf("vetted by a dry run: %v", v)
	}
	res, err := pm.UpdateVettedPackages(ctx, &admin.UpdateVettedPackagesRequest{Changes: []*admin.VettedPackagesChange{vet}})
	if err != nil {
		t.Fatal(err)
	}
	p := list()[ids[0]]
	if p == nil || !p.ValidFromInclusive.AsTime().Equal(from) || p.ValidUntilExclusive != nil || p.PackageName != "iou" || p.PackageVersion != "1.0.0" {
		t.Fatalf("vetted package %v, want iou 1.0.0 from %v", p, from)
	}
	nodeList, _, err := e.node.ListVettedPackages(context.Background(), ledger.ListVettedPackagesRequest{})
	if err != nil || len(nodeList) != 1 || int(nodeList[0].Serial) != int(res.NewVettedPackages.TopologySerial) {
		t.Fatalf("the Node's vetting state %v, %v; the update answered serial %d", nodeList, err, res.NewVettedPackages.TopologySerial)
	}

	stale := &ledgerv2.PriorTopologySerial{Serial: &ledgerv2.PriorTopologySerial_NoPrior{NoPrior: &emptypb.Empty{}}}
	unvet := &admin.VettedPackagesChange{Operation: &admin.VettedPackagesChange_Unvet_{Unvet: &admin.VettedPackagesChange_Unvet{
		Packages: []*admin.VettedPackagesRef{{PackageId: ids[0]}},
	}}}
	_, err = pm.UpdateVettedPackages(ctx, &admin.UpdateVettedPackagesRequest{Changes: []*admin.VettedPackagesChange{unvet}, ExpectedTopologySerial: stale})
	_, _, nodeErr := e.node.UpdateVettedPackages(context.Background(), ledger.UpdateVettedPackagesRequest{
		Changes:        []vetting.Change{{Op: vetting.Unvet, Refs: []vetting.Ref{{PackageID: ids[0]}}}},
		ExpectedSerial: vetting.NoPriorSerial{},
	})
	sameRefusal(t, err, nodeErr)
	_, err = pm.UpdateVettedPackages(ctx, &admin.UpdateVettedPackagesRequest{})
	wantCode(t, err, codes.InvalidArgument, "MISSING_FIELD")
	if list()[ids[0]] == nil {
		t.Fatal("the refusals unvetted the package")
	}
	if _, err := pm.UpdateVettedPackages(ctx, &admin.UpdateVettedPackagesRequest{Changes: []*admin.VettedPackagesChange{unvet}}); err != nil {
		t.Fatal(err)
	}
	if v := list(); v[ids[0]] != nil {
		t.Errorf("still vetted after the unvet: %v", v)
	}
}
