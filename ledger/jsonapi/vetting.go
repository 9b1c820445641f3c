package jsonapi

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/internal/shape"
	"github.com/ledgernode/ledgernode/ledger/internal/wiretime"
	"github.com/ledgernode/ledgernode/vetting"
)

// The package vetting service: Canton's JsPackageService
// (/v2/package-vetting) in the protobuf JSON form of
// UpdateVettedPackagesRequest and ListVettedPackagesRequest.

// The vetting force flags (UpdateVettedPackagesForceFlag's names).
const (
	ForceFlagAllowVetIncompatibleUpgrades = "UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_VET_INCOMPATIBLE_UPGRADES"
	ForceFlagAllowUnvettedDependencies    = "UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES"
	forceFlagUnspecified                  = "UPDATE_VETTED_PACKAGES_FORCE_FLAG_UNSPECIFIED"
)

// VettedPackage is one vetted package with its bounds (RFC 3339), name and
// version.
type VettedPackage struct {
	PackageID           string  `json:"packageId"`
	ValidFromInclusive  *string `json:"validFromInclusive"`
	ValidUntilExclusive *string `json:"validUntilExclusive"`
	PackageName         string  `json:"packageName"`
	PackageVersion      string  `json:"packageVersion"`
}

// VettedPackages is a participant's vetting state on one synchronizer.
type VettedPackages struct {
	Packages       []VettedPackage `json:"packages"`
	ParticipantID  string          `json:"participantId"`
	SynchronizerID string          `json:"synchronizerId"`
	TopologySerial int32           `json:"topologySerial"`
}

// VettedPackagesRef names packages; empty fields are wildcards.
type VettedPackagesRef struct {
	PackageID      string `json:"packageId"`
	PackageName    string `json:"packageName"`
	PackageVersion string `json:"packageVersion"`
}

// VetOperation vets packages with new bounds.
type VetOperation struct {
	Packages               []VettedPackagesRef `json:"packages"`
	NewValidFromInclusive  *string             `json:"newValidFromInclusive"`
	NewValidUntilExclusive *string             `json:"newValidUntilExclusive"`
}

// UnvetOperation unvets packages.
type UnvetOperation struct {
	Packages []VettedPackagesRef `json:"packages"`
}

// VettedPackagesChange is one change: {"operation": {"Vet"|"Unvet": {"value": …}}}.
type VettedPackagesChange struct {
	Operation VettingOperation `json:"operation"`
}

// VettingOperation holds the variant of a change; Empty is {"Empty": {}}.
type VettingOperation struct {
	Vet   *Wrapped[VetOperation]   `json:"Vet,omitempty"`
	Unvet *Wrapped[UnvetOperation] `json:"Unvet,omitempty"`
	Empty *struct{}                `json:"Empty,omitempty"`
}

// PriorTopologySerial is the serial a change set expects: {"serial":
// {"Prior": {"value": n}}}, {"serial": {"NoPrior": {}}} or {"serial":
// {"Empty": {}}} (no check).
type PriorTopologySerial struct {
	Serial SerialKind `json:"serial"`
}

// SerialKind holds the variant of a PriorTopologySerial.
type SerialKind struct {
	Prior   *Wrapped[int32] `json:"Prior,omitempty"`
	NoPrior *struct{}       `json:"NoPrior,omitempty"`
	Empty   *struct{}       `json:"Empty,omitempty"`
}

// UpdateVettedPackagesRequest changes the vetting state of a synchronizer.
type UpdateVettedPackagesRequest struct {
	Changes                        []VettedPackagesChange `json:"changes"`
	DryRun                         bool                   `json:"dryRun"`
	SynchronizerID                 string                 `json:"synchronizerId"`
	ExpectedTopologySerial         *PriorTopologySerial   `json:"expectedTopologySerial"`
	UpdateVettedPackagesForceFlags []string               `json:"updateVettedPackagesForceFlags"`
}

// UpdateVettedPackagesResponse holds the state before (nil when there was
// none) and after the change.
type UpdateVettedPackagesResponse struct {
	PastVettedPackages *VettedPackages `json:"pastVettedPackages"`
	NewVettedPackages  VettedPackages  `json:"newVettedPackages"`
}

// PackageMetadataFilter keeps packages whose id is listed or whose name
// starts with a listed prefix (no entries: all).
type PackageMetadataFilter struct {
	PackageIDs          []string `json:"packageIds"`
	PackageNamePrefixes []string `json:"packageNamePrefixes"`
}

// TopologyStateFilter keeps the listed participants and synchronizers (no
// entries: all).
type TopologyStateFilter struct {
	ParticipantIDs  []string `json:"participantIds"`
	SynchronizerIDs []string `json:"synchronizerIds"`
}

// ListVettedPackagesRequest selects vetting states, one per synchronizer.
type ListVettedPackagesRequest struct {
	PackageMetadataFilter *PackageMetadataFilter `json:"packageMetadataFilter"`
	TopologyStateFilter   *TopologyStateFilter   `json:"topologyStateFilter"`
	PageToken             string                 `json:"pageToken"`
	// PageSize bounds the number of states (0: 100; at most 100).
	PageSize int32 `json:"pageSize"`
}

// ListVettedPackagesResponse is a page of vetting states.
type ListVettedPackagesResponse struct {
	VettedPackages []VettedPackages `json:"vettedPackages"`
	NextPageToken  string           `json:"nextPageToken"`
}

// UpdateVettedPackages serves POST /v2/package-vetting/update (and the
// deprecated POST /v2/package-vetting): the request's JSON rules (one
// variant per one-of, enum names, timestamps) are checked, then it is
// converted and Node.UpdateVettedPackages answers.
func (a *API) UpdateVettedPackages(ctx context.Context, req UpdateVettedPackagesRequest) (UpdateVettedPackagesResponse, error) {
	if err := checkVettingUpdateShape(&req); err != nil {
		return UpdateVettedPackagesResponse{}, err
	}
	in := ledger.UpdateVettedPackagesRequest{DryRun: req.DryRun, SynchronizerID: req.SynchronizerID}
	for _, f := range req.UpdateVettedPackagesForceFlags {
		switch f {
		case ForceFlagAllowVetIncompatibleUpgrades:
			in.Flags.AllowVetIncompatibleUpgrades = true
		case ForceFlagAllowUnvettedDependencies:
			in.Flags.AllowUnvettedDependencies = true
		case forceFlagUnspecified:
		default:
			return UpdateVettedPackagesResponse{}, apierr.InvalidField.New("update_vetted_packages_force_flags: unknown flag %q", apierr.Quote(f))
		}
	}
	for _, c := range req.Changes {
		switch op := c.Operation; {
		case op.Vet != nil:
			in.Changes = append(in.Changes, vetting.Change{Op: vetting.Vet, Refs: vettingRefs(op.Vet.Value.Packages),
				ValidFrom: bound(op.Vet.Value.NewValidFromInclusive), ValidUntil: bound(op.Vet.Value.NewValidUntilExclusive)})
		case op.Unvet != nil:
			in.Changes = append(in.Changes, vetting.Change{Op: vetting.Unvet, Refs: vettingRefs(op.Unvet.Value.Packages)})
		default:
			in.Changes = append(in.Changes, vetting.Change{}) // no operation: the Node's MISSING_FIELD changes[i].operation
		}
	}
	if exp := req.ExpectedTopologySerial; exp != nil {
		switch s := exp.Serial; {
		case s.Prior != nil:
			in.ExpectedSerial = vetting.PriorSerial(s.Prior.Value)
		case s.NoPrior != nil:
			in.ExpectedSerial = vetting.NoPriorSerial{}
		}
	}
	past, next, err := a.Node.UpdateVettedPackages(ctx, in)
	if err != nil {
		return UpdateVettedPackagesResponse{}, err
	}
	out := UpdateVettedPackagesResponse{NewVettedPackages: wireVetting(next)}
	if past != nil {
		p := wireVetting(*past)
		out.PastVettedPackages = &p
	}
	return out, nil
}

// ListVettedPackages serves POST /v2/package-vetting/list (and the
// deprecated GET /v2/package-vetting) over Node.ListVettedPackages.
func (a *API) ListVettedPackages(ctx context.Context, req ListVettedPackagesRequest) (ListVettedPackagesResponse, error) {
	in := ledger.ListVettedPackagesRequest{PageToken: req.PageToken, PageSize: int(req.PageSize)}
	if f := req.PackageMetadataFilter; f != nil {
		in.PackageIDs, in.PackageNamePrefixes = f.PackageIDs, f.PackageNamePrefixes
	}
	if f := req.TopologyStateFilter; f != nil {
		in.ParticipantIDs, in.SynchronizerIDs = f.ParticipantIDs, f.SynchronizerIDs
	}
	states, next, err := a.Node.ListVettedPackages(ctx, in)
	if err != nil {
		return ListVettedPackagesResponse{}, err
	}
	out := ListVettedPackagesResponse{VettedPackages: make([]VettedPackages, len(states)), NextPageToken: next}
	for i, s := range states {
		out.VettedPackages[i] = wireVetting(s)
	}
	return out, nil
}

func vettingRefs(rs []VettedPackagesRef) []vetting.Ref {
	out := make([]vetting.Ref, len(rs))
	for i, r := range rs {
		out[i] = vetting.Ref(r)
	}
	return out
}

// bound reads a Vet bound that checkVettingUpdateShape accepted (nil or ""
// is no bound).
func bound(s *string) *time.Time {
	if s == nil || *s == "" {
		return nil
	}
	t, err := time.Parse(time.RFC3339Nano, *s)
	if err != nil {
		return nil
	}
	return &t
}

func wireVetting(v vetting.State) VettedPackages {
	out := VettedPackages{Packages: make([]VettedPackage, len(v.Packages)), ParticipantID: v.ParticipantID,
		SynchronizerID: v.SynchronizerID, TopologySerial: v.Serial}
	for i, p := range v.Packages {
		w := VettedPackage{PackageID: p.PackageID, PackageName: p.PackageName, PackageVersion: p.PackageVersion}
		if p.ValidFrom != nil {
			s := wiretime.Format(*p.ValidFrom)
			w.ValidFromInclusive = &s
		}
		if p.ValidUntil != nil {
			s := wiretime.Format(*p.ValidUntil)
			w.ValidUntilExclusive = &s
		}
		out.Packages[i] = w
	}
	return out
}

// vettingForceFlags are the names of the UpdateVettedPackagesForceFlag
// enum; "UNRECOGNIZED" decodes as in Canton's enum codec.
var vettingForceFlags = []string{
	forceFlagUnspecified,
	ForceFlagAllowVetIncompatibleUpgrades,
	ForceFlagAllowUnvettedDependencies,
	"UNRECOGNIZED",
}

// checkVettingUpdateShape checks an UpdateVettedPackagesRequest as Canton's
// JSON decoder does (a failure is apierr.Malformed, "<detail> at
// '<path>'"): each one-of holds at most one variant, the force flags are
// enum names, and the bounds of a Vet are timestamps.
func checkVettingUpdateShape(req *UpdateVettedPackagesRequest) error {
	for i, c := range req.Changes {
		op := c.Operation
		if n := shape.CountSet(op.Vet != nil, op.Unvet != nil, op.Empty != nil); n > 1 {
			return apierr.Malformed("a one-of holds %d variants, expected one at 'changes[%d].operation'", n, i)
		}
		if op.Vet == nil {
			continue
		}
		bounds := []struct {
			field string
			ts    *string
		}{
			{"newValidFromInclusive", op.Vet.Value.NewValidFromInclusive},
			{"newValidUntilExclusive", op.Vet.Value.NewValidUntilExclusive},
		}
		for _, b := range bounds {
			if bad := shape.BadTimestamp(b.ts); bad != "" {
				return apierr.Malformed("%s at 'changes[%d].operation.Vet.value.%s'", bad, i, b.field)
			}
		}
	}
	if exp := req.ExpectedTopologySerial; exp != nil {
		s := exp.Serial
		if n := shape.CountSet(s.Prior != nil, s.NoPrior != nil, s.Empty != nil); n > 1 {
			return apierr.Malformed("a one-of holds %d variants, expected one at 'expectedTopologySerial.serial'", n)
		}
	}
	for i, f := range req.UpdateVettedPackagesForceFlags {
		if !slices.Contains(vettingForceFlags, f) {
			return apierr.Malformed("unknown enum value %q, expected one of %s at 'updateVettedPackagesForceFlags[%d]'",
				apierr.Quote(f), strings.Join(vettingForceFlags[:3], ", "), i)
		}
	}
	return nil
}
