package grpcadapter

import (
	"context"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/ledgernode/ledgernode/apierr"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/grpcadapter/pb/v2/admin"
	ledgertesting "github.com/ledgernode/ledgernode/grpcadapter/pb/v2/testing"
)

// services lists the Ledger API services the adapter serves. The testing
// TimeService is there only on static time, as in Canton (ApiServices
// registers ApiTimeService only with a static time backend).
func (a *Adapter) services() []service {
	svcs := []service{
		{&ledgerv2.VersionService_ServiceDesc, &versionService{a: a}},
		{&ledgerv2.StateService_ServiceDesc, &stateService{a: a}},
		{&ledgerv2.ContractService_ServiceDesc, &contractService{a: a}},
		{&ledgerv2.EventQueryService_ServiceDesc, &eventQueryService{a: a}},
		{&ledgerv2.PackageService_ServiceDesc, &packageService{a: a}},
		{&admin.PartyManagementService_ServiceDesc, &partyService{a: a}},
		{&admin.UserManagementService_ServiceDesc, &userService{a: a}},
		{&admin.IdentityProviderConfigService_ServiceDesc, &idpService{a: a}},
		{&admin.PackageManagementService_ServiceDesc, &packageManagementService{a: a}},
		{&admin.ParticipantPruningService_ServiceDesc, &pruningService{a: a}},
		{&admin.CommandInspectionService_ServiceDesc, &inspectionService{a: a}},
	}
	if a.node.StaticTime() {
		svcs = append(svcs, service{&ledgertesting.TimeService_ServiceDesc, &timeService{a: a}})
	}
	return svcs
}

// versionService is VersionService.
type versionService struct {
	ledgerv2.UnimplementedVersionServiceServer
	a *Adapter
}

func (s *versionService) GetLedgerApiVersion(ctx context.Context, _ *ledgerv2.GetLedgerApiVersionRequest) (*ledgerv2.GetLedgerApiVersionResponse, error) {
	v, err := s.a.node.Version(ctx)
	if err != nil {
		return nil, err
	}
	return &ledgerv2.GetLedgerApiVersionResponse{
		Version: v.Version,
		Features: &ledgerv2.FeaturesDescriptor{
			Experimental: &ledgerv2.ExperimentalFeatures{
				StaticTime:               &ledgerv2.ExperimentalStaticTime{Supported: v.StaticTime},
				CommandInspectionService: &ledgerv2.ExperimentalCommandInspectionService{Supported: v.CommandInspection},
			},
			UserManagement: &ledgerv2.UserManagementFeature{
				Supported:        true,
				MaxRightsPerUser: int32(v.MaxRightsPerUser),
				MaxUsersPageSize: int32(v.MaxUsersPageSize),
			},
			PartyManagement:  &ledgerv2.PartyManagementFeature{MaxPartiesPageSize: int32(v.MaxPartiesPageSize)},
			OffsetCheckpoint: &ledgerv2.OffsetCheckpointFeature{MaxOffsetCheckpointEmissionDelay: durationpb.New(v.MaxOffsetCheckpointEmissionDelay)},
			PackageFeature:   &ledgerv2.PackageFeature{MaxVettedPackagesPageSize: int32(v.MaxVettedPackagesPageSize)},
		},
	}, nil
}

// stateService is StateService's RPCs that read no contracts.
type stateService struct {
	ledgerv2.UnimplementedStateServiceServer
	a *Adapter
}

func (s *stateService) GetLedgerEnd(ctx context.Context, _ *ledgerv2.GetLedgerEndRequest) (*ledgerv2.GetLedgerEndResponse, error) {
	end, err := s.a.node.LedgerEnd(ctx)
	if err != nil {
		return nil, err
	}
	return &ledgerv2.GetLedgerEndResponse{Offset: end}, nil
}

func (s *stateService) GetConnectedSynchronizers(ctx context.Context, req *ledgerv2.GetConnectedSynchronizersRequest) (*ledgerv2.GetConnectedSynchronizersResponse, error) {
	// The request's identity provider id does not change the answer:
	// every party the participant knows is hosted on every synchronizer.
	res, err := s.a.node.ConnectedSynchronizers(ctx, req.GetParty(), req.GetParticipantId())
	if err != nil {
		return nil, err
	}
	out := &ledgerv2.GetConnectedSynchronizersResponse{}
	for _, c := range res {
		out.ConnectedSynchronizers = append(out.ConnectedSynchronizers, &ledgerv2.GetConnectedSynchronizersResponse_ConnectedSynchronizer{
			SynchronizerAlias: c.Alias,
			SynchronizerId:    c.ID,
			Permission:        ledgerv2.ParticipantPermission(ledgerv2.ParticipantPermission_value[string(c.Permission)]),
		})
	}
	return out, nil
}

func (s *stateService) GetLatestPrunedOffsets(ctx context.Context, _ *ledgerv2.GetLatestPrunedOffsetsRequest) (*ledgerv2.GetLatestPrunedOffsetsResponse, error) {
	participant, divulged, err := s.a.node.LatestPrunedOffsets(ctx)
	if err != nil {
		return nil, err
	}
	return &ledgerv2.GetLatestPrunedOffsetsResponse{
		ParticipantPrunedUpToInclusive:          participant,
		AllDivulgedContractsPrunedUpToInclusive: divulged,
	}, nil
}

// timeService is the testing TimeService (static time only).
type timeService struct {
	ledgertesting.UnimplementedTimeServiceServer
	a *Adapter
}

func (s *timeService) GetTime(ctx context.Context, _ *ledgertesting.GetTimeRequest) (*ledgertesting.GetTimeResponse, error) {
	t, err := s.a.node.Time(ctx)
	if err != nil {
		return nil, err
	}
	return &ledgertesting.GetTimeResponse{CurrentTime: timestamppb.New(t)}, nil
}

func (s *timeService) SetTime(ctx context.Context, req *ledgertesting.SetTimeRequest) (*emptypb.Empty, error) {
	// A missing time is the zero time, which the Node refuses with
	// MISSING_FIELD.
	err := s.a.node.SetTimeFrom(ctx, protoTime(req.GetCurrentTime()), protoTime(req.GetNewTime()))
	if err != nil {
		return nil, err
	}
	return &emptypb.Empty{}, nil
}

// protoTime is ts as a time.Time, the zero time when absent.
func protoTime(ts *timestamppb.Timestamp) time.Time {
	if ts == nil {
		return time.Time{}
	}
	return ts.AsTime()
}

// validTime is ts as a time.Time, INVALID_FIELD naming field when ts is
// out of the Timestamp's range.
func validTime(ts *timestamppb.Timestamp, field string) (time.Time, error) {
	if err := ts.CheckValid(); err != nil {
		return time.Time{}, apierr.InvalidField.New("%s: %v", field, err)
	}
	return ts.AsTime(), nil
}

// missingField is Canton's MISSING_FIELD for an absent message field
// (FieldValidator.requirePresence).
func missingField(name string) error { return apierr.MissingField.New("%s", name) }
