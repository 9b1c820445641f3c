package grpcadapter

import (
	"context"

	"google.golang.org/protobuf/types/known/fieldmaskpb"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/grpcadapter/pb/v2/admin"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
)

// partyService is PartyManagementService.
type partyService struct {
	admin.UnimplementedPartyManagementServiceServer
	a *Adapter
}

func (s *partyService) GetParticipantId(ctx context.Context, _ *admin.GetParticipantIdRequest) (*admin.GetParticipantIdResponse, error) {
	res, err := s.a.node.ParticipantID(ctx)
	if err != nil {
		return nil, err
	}
	return &admin.GetParticipantIdResponse{ParticipantId: res}, nil
}

func (s *partyService) GetParties(ctx context.Context, req *admin.GetPartiesRequest) (*admin.GetPartiesResponse, error) {
	res, err := s.a.node.GetParties(ctx, req.GetParties(), req.GetIdentityProviderId())
	if err != nil {
		return nil, err
	}
	return &admin.GetPartiesResponse{PartyDetails: partiesToProto(res)}, nil
}

func (s *partyService) ListKnownParties(ctx context.Context, req *admin.ListKnownPartiesRequest) (*admin.ListKnownPartiesResponse, error) {
	parties, next, err := s.a.node.ListParties(ctx, ledger.ListPartiesRequest{
		IdentityProviderID: req.GetIdentityProviderId(),
		FilterParty:        req.GetFilterParty(),
		PageSize:           req.GetPageSize(),
		PageToken:          req.GetPageToken(),
	})
	if err != nil {
		return nil, err
	}
	return &admin.ListKnownPartiesResponse{PartyDetails: partiesToProto(parties), NextPageToken: next}, nil
}

func (s *partyService) AllocateParty(ctx context.Context, req *admin.AllocatePartyRequest) (*admin.AllocatePartyResponse, error) {
	r := ledger.AllocatePartyRequest{
		PartyIDHint:        req.GetPartyIdHint(),
		IdentityProviderID: req.GetIdentityProviderId(),
		SynchronizerID:     req.GetSynchronizerId(),
		UserID:             req.GetUserId(),
	}
	if m := req.GetLocalMetadata(); m != nil {
		meta := metaFromProto(m)
		r.LocalMetadata = &meta
	}
	res, err := s.a.node.AllocateParty(ctx, r)
	if err != nil {
		return nil, err
	}
	return &admin.AllocatePartyResponse{PartyDetails: partyToProto(res)}, nil
}

func (s *partyService) UpdatePartyDetails(ctx context.Context, req *admin.UpdatePartyDetailsRequest) (*admin.UpdatePartyDetailsResponse, error) {
	pd := req.GetPartyDetails()
	if pd == nil {
		return nil, missingField("party_details")
	}
	if req.GetUpdateMask() == nil {
		return nil, missingField("update_mask")
	}
	res, err := s.a.node.UpdatePartyDetails(ctx, identity.Party{
		Party:              pd.GetParty(),
		IsLocal:            pd.GetIsLocal(),
		LocalMetadata:      metaFromProto(pd.GetLocalMetadata()),
		IdentityProviderID: pd.GetIdentityProviderId(),
	}, maskPaths(req.GetUpdateMask()))
	if err != nil {
		return nil, err
	}
	return &admin.UpdatePartyDetailsResponse{PartyDetails: partyToProto(res)}, nil
}

func (s *partyService) UpdatePartyIdentityProviderId(ctx context.Context, req *admin.UpdatePartyIdentityProviderIdRequest) (*admin.UpdatePartyIdentityProviderIdResponse, error) {
	err := s.a.node.UpdatePartyIdentityProvider(ctx, req.GetParty(), req.GetSourceIdentityProviderId(), req.GetTargetIdentityProviderId())
	if err != nil {
		return nil, err
	}
	return &admin.UpdatePartyIdentityProviderIdResponse{}, nil
}

func partyToProto(p identity.Party) *admin.PartyDetails {
	return &admin.PartyDetails{
		Party:              p.Party,
		IsLocal:            p.IsLocal,
		LocalMetadata:      metaToProto(p.LocalMetadata),
		IdentityProviderId: p.IdentityProviderID,
	}
}

func partiesToProto(ps []identity.Party) []*admin.PartyDetails {
	out := make([]*admin.PartyDetails, len(ps))
	for i, p := range ps {
		out[i] = partyToProto(p)
	}
	return out
}

func metaToProto(m identity.ObjectMeta) *admin.ObjectMeta {
	return &admin.ObjectMeta{ResourceVersion: m.ResourceVersion, Annotations: m.Annotations}
}

// metaFromProto reads an ObjectMeta; an absent one is the empty one.
func metaFromProto(m *admin.ObjectMeta) identity.ObjectMeta {
	out := identity.ObjectMeta{ResourceVersion: m.GetResourceVersion(), Annotations: m.GetAnnotations()}
	if out.Annotations == nil {
		out.Annotations = map[string]string{}
	}
	return out
}

// maskPaths returns the paths of an update mask (never nil).
func maskPaths(m *fieldmaskpb.FieldMask) []string {
	paths := m.GetPaths()
	if paths == nil {
		paths = []string{}
	}
	return paths
}

// userService is UserManagementService.
type userService struct {
	admin.UnimplementedUserManagementServiceServer
	a *Adapter
}

func (s *userService) CreateUser(ctx context.Context, req *admin.CreateUserRequest) (*admin.CreateUserResponse, error) {
	u := req.GetUser()
	if u == nil {
		return nil, missingField("user")
	}
	rights, err := rightsFromProto(req.GetRights())
	if err != nil {
		return nil, err
	}
	res, err := s.a.node.CreateUser(ctx, userFromProto(u), rights)
	if err != nil {
		return nil, err
	}
	return &admin.CreateUserResponse{User: userToProto(res)}, nil
}

func (s *userService) GetUser(ctx context.Context, req *admin.GetUserRequest) (*admin.GetUserResponse, error) {
	res, err := s.a.node.GetUser(ctx, req.GetUserId(), req.GetIdentityProviderId())
	if err != nil {
		return nil, err
	}
	return &admin.GetUserResponse{User: userToProto(res)}, nil
}

func (s *userService) UpdateUser(ctx context.Context, req *admin.UpdateUserRequest) (*admin.UpdateUserResponse, error) {
	u := req.GetUser()
	if u == nil {
		return nil, missingField("user")
	}
	if req.GetUpdateMask() == nil {
		return nil, missingField("update_mask")
	}
	res, err := s.a.node.UpdateUser(ctx, userFromProto(u), maskPaths(req.GetUpdateMask()))
	if err != nil {
		return nil, err
	}
	return &admin.UpdateUserResponse{User: userToProto(res)}, nil
}

func (s *userService) DeleteUser(ctx context.Context, req *admin.DeleteUserRequest) (*admin.DeleteUserResponse, error) {
	if err := s.a.node.DeleteUser(ctx, req.GetUserId(), req.GetIdentityProviderId()); err != nil {
		return nil, err
	}
	return &admin.DeleteUserResponse{}, nil
}

func (s *userService) ListUsers(ctx context.Context, req *admin.ListUsersRequest) (*admin.ListUsersResponse, error) {
	users, next, err := s.a.node.ListUsers(ctx, req.GetPageSize(), req.GetPageToken(), req.GetIdentityProviderId())
	if err != nil {
		return nil, err
	}
	out := &admin.ListUsersResponse{Users: make([]*admin.User, len(users)), NextPageToken: next}
	for i, u := range users {
		out.Users[i] = userToProto(u)
	}
	return out, nil
}

func (s *userService) GrantUserRights(ctx context.Context, req *admin.GrantUserRightsRequest) (*admin.GrantUserRightsResponse, error) {
	rights, err := rightsFromProto(req.GetRights())
	if err != nil {
		return nil, err
	}
	res, err := s.a.node.GrantUserRights(ctx, req.GetUserId(), req.GetIdentityProviderId(), rights)
	if err != nil {
		return nil, err
	}
	return &admin.GrantUserRightsResponse{NewlyGrantedRights: rightsToProto(res)}, nil
}

func (s *userService) RevokeUserRights(ctx context.Context, req *admin.RevokeUserRightsRequest) (*admin.RevokeUserRightsResponse, error) {
	rights, err := rightsFromProto(req.GetRights())
	if err != nil {
		return nil, err
	}
	res, err := s.a.node.RevokeUserRights(ctx, req.GetUserId(), req.GetIdentityProviderId(), rights)
	if err != nil {
		return nil, err
	}
	return &admin.RevokeUserRightsResponse{NewlyRevokedRights: rightsToProto(res)}, nil
}

func (s *userService) ListUserRights(ctx context.Context, req *admin.ListUserRightsRequest) (*admin.ListUserRightsResponse, error) {
	res, err := s.a.node.ListUserRights(ctx, req.GetUserId(), req.GetIdentityProviderId())
	if err != nil {
		return nil, err
	}
	return &admin.ListUserRightsResponse{Rights: rightsToProto(res)}, nil
}

func (s *userService) UpdateUserIdentityProviderId(ctx context.Context, req *admin.UpdateUserIdentityProviderIdRequest) (*admin.UpdateUserIdentityProviderIdResponse, error) {
	err := s.a.node.UpdateUserIdentityProvider(ctx, req.GetUserId(), req.GetSourceIdentityProviderId(), req.GetTargetIdentityProviderId())
	if err != nil {
		return nil, err
	}
	return &admin.UpdateUserIdentityProviderIdResponse{}, nil
}

func userFromProto(u *admin.User) identity.User {
	return identity.User{
		ID:                         u.GetId(),
		PrimaryParty:               u.GetPrimaryParty(),
		IsDeactivated:              u.GetIsDeactivated(),
		Metadata:                   metaFromProto(u.GetMetadata()),
		IdentityProviderID:         u.GetIdentityProviderId(),
		PrimaryPartyAuthentication: u.GetPrimaryPartyAuthentication(),
	}
}

func userToProto(u identity.User) *admin.User {
	return &admin.User{
		Id:                         u.ID,
		PrimaryParty:               u.PrimaryParty,
		IsDeactivated:              u.IsDeactivated,
		Metadata:                   metaToProto(u.Metadata),
		IdentityProviderId:         u.IdentityProviderID,
		PrimaryPartyAuthentication: u.PrimaryPartyAuthentication,
	}
}

// rightsFromProto reads user rights; a right with no kind set is
// refused as Canton's ApiUserManagementService.fromProtoRight does.
func rightsFromProto(rs []*admin.Right) ([]identity.Right, error) {
	out := make([]identity.Right, 0, len(rs))
	for _, r := range rs {
		var x identity.Right
		switch k := r.GetKind().(type) {
		case *admin.Right_ParticipantAdmin_:
			x.Kind = identity.RightParticipantAdmin
		case *admin.Right_IdentityProviderAdmin_:
			x.Kind = identity.RightIdentityProviderAdmin
		case *admin.Right_CanActAs_:
			x = identity.Right{Kind: identity.RightCanActAs, Party: k.CanActAs.GetParty()}
		case *admin.Right_CanReadAs_:
			x = identity.Right{Kind: identity.RightCanReadAs, Party: k.CanReadAs.GetParty()}
		case *admin.Right_CanReadAsAnyParty_:
			x.Kind = identity.RightCanReadAsAnyParty
		case *admin.Right_CanExecuteAs_:
			x = identity.Right{Kind: identity.RightCanExecuteAs, Party: k.CanExecuteAs.GetParty()}
		case *admin.Right_CanExecuteAsAnyParty_:
			x.Kind = identity.RightCanExecuteAsAnyParty
		default:
			return nil, apierr.InvalidArgument.New("unknown kind of right - check that the Ledger API version of the server is recent enough")
		}
		out = append(out, x)
	}
	return out, nil
}

func rightsToProto(rs []identity.Right) []*admin.Right {
	out := make([]*admin.Right, 0, len(rs))
	for _, r := range rs {
		var k admin.Right
		switch r.Kind {
		case identity.RightParticipantAdmin:
			k.Kind = &admin.Right_ParticipantAdmin_{ParticipantAdmin: &admin.Right_ParticipantAdmin{}}
		case identity.RightIdentityProviderAdmin:
			k.Kind = &admin.Right_IdentityProviderAdmin_{IdentityProviderAdmin: &admin.Right_IdentityProviderAdmin{}}
		case identity.RightCanActAs:
			k.Kind = &admin.Right_CanActAs_{CanActAs: &admin.Right_CanActAs{Party: r.Party}}
		case identity.RightCanReadAs:
			k.Kind = &admin.Right_CanReadAs_{CanReadAs: &admin.Right_CanReadAs{Party: r.Party}}
		case identity.RightCanReadAsAnyParty:
			k.Kind = &admin.Right_CanReadAsAnyParty_{CanReadAsAnyParty: &admin.Right_CanReadAsAnyParty{}}
		case identity.RightCanExecuteAs:
			k.Kind = &admin.Right_CanExecuteAs_{CanExecuteAs: &admin.Right_CanExecuteAs{Party: r.Party}}
		case identity.RightCanExecuteAsAnyParty:
			k.Kind = &admin.Right_CanExecuteAsAnyParty_{CanExecuteAsAnyParty: &admin.Right_CanExecuteAsAnyParty{}}
		default:
			continue // the Node stores only the seven kinds
		}
		out = append(out, &k)
	}
	return out
}

// idpService is IdentityProviderConfigService.
type idpService struct {
	admin.UnimplementedIdentityProviderConfigServiceServer
	a *Adapter
}

func (s *idpService) CreateIdentityProviderConfig(ctx context.Context, req *admin.CreateIdentityProviderConfigRequest) (*admin.CreateIdentityProviderConfigResponse, error) {
	c := req.GetIdentityProviderConfig()
	if c == nil {
		return nil, missingField("identity_provider_config")
	}
	res, err := s.a.node.CreateIdentityProviderConfig(ctx, idpFromProto(c))
	if err != nil {
		return nil, err
	}
	return &admin.CreateIdentityProviderConfigResponse{IdentityProviderConfig: idpToProto(res)}, nil
}

func (s *idpService) GetIdentityProviderConfig(ctx context.Context, req *admin.GetIdentityProviderConfigRequest) (*admin.GetIdentityProviderConfigResponse, error) {
	res, err := s.a.node.GetIdentityProviderConfig(ctx, req.GetIdentityProviderId())
	if err != nil {
		return nil, err
	}
	return &admin.GetIdentityProviderConfigResponse{IdentityProviderConfig: idpToProto(res)}, nil
}

func (s *idpService) UpdateIdentityProviderConfig(ctx context.Context, req *admin.UpdateIdentityProviderConfigRequest) (*admin.UpdateIdentityProviderConfigResponse, error) {
	c := req.GetIdentityProviderConfig()
	if c == nil {
		return nil, missingField("identity_provider_config")
	}
	if req.GetUpdateMask() == nil {
		return nil, missingField("update_mask")
	}
	res, err := s.a.node.UpdateIdentityProviderConfig(ctx, idpFromProto(c), maskPaths(req.GetUpdateMask()))
	if err != nil {
		return nil, err
	}
	return &admin.UpdateIdentityProviderConfigResponse{IdentityProviderConfig: idpToProto(res)}, nil
}

func (s *idpService) ListIdentityProviderConfigs(ctx context.Context, _ *admin.ListIdentityProviderConfigsRequest) (*admin.ListIdentityProviderConfigsResponse, error) {
	res, err := s.a.node.ListIdentityProviderConfigs(ctx)
	if err != nil {
		return nil, err
	}
	out := &admin.ListIdentityProviderConfigsResponse{IdentityProviderConfigs: make([]*admin.IdentityProviderConfig, len(res))}
	for i, c := range res {
		out.IdentityProviderConfigs[i] = idpToProto(c)
	}
	return out, nil
}

func (s *idpService) DeleteIdentityProviderConfig(ctx context.Context, req *admin.DeleteIdentityProviderConfigRequest) (*admin.DeleteIdentityProviderConfigResponse, error) {
	if err := s.a.node.DeleteIdentityProviderConfig(ctx, req.GetIdentityProviderId()); err != nil {
		return nil, err
	}
	return &admin.DeleteIdentityProviderConfigResponse{}, nil
}

func idpFromProto(c *admin.IdentityProviderConfig) identity.IdentityProviderConfig {
	return identity.IdentityProviderConfig{
		IdentityProviderID: c.GetIdentityProviderId(),
		IsDeactivated:      c.GetIsDeactivated(),
		Issuer:             c.GetIssuer(),
		JWKSURL:            c.GetJwksUrl(),
		Audience:           c.GetAudience(),
	}
}

func idpToProto(c identity.IdentityProviderConfig) *admin.IdentityProviderConfig {
	return &admin.IdentityProviderConfig{
		IdentityProviderId: c.IdentityProviderID,
		IsDeactivated:      c.IsDeactivated,
		Issuer:             c.Issuer,
		JwksUrl:            c.JWKSURL,
		Audience:           c.Audience,
	}
}
