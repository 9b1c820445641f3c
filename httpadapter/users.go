package httpadapter

import (
	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// The decoders of the user, identity-provider and party-update routes.
//
// Two checks here are JSON-layer decoding, as in Canton's
// JsUserManagementService, JsIdentityProviderService and
// JsPartyManagementService (community/ledger/ledger-json-api,
// http/json/v2), not business rules:
//
//   - the id in the path of an update must equal the id in the body, else a
//     400 INVALID_ARGUMENT JsCantonError "<path> does not match <what> in
//     body: …" with definiteAnswer false;
//   - the user id in the path of GET/DELETE /v2/users/{user-id} and GET
//     /v2/users/{user-id}/rights must be a well-formed user id, else a 400
//     INVALID_ARGUMENT JsCantonError "Malformed user-id: …" (definiteAnswer
//     false).
//
// Everything else (field formats, masks, rights) is validated by the Node.

// pathMismatch is the JSON layer's answer to an update whose path id
// differs from the body's. body is printed as Canton prints the body value:
// Some(<id>) for an id inside an optional message, the bare id for a
// top-level string field.
func pathMismatch(path, what, body string) error {
	return apierr.InvalidArgument.New("%s does not match %s in body: %s", apierr.Quote(path), what, apierr.Quote(body)).WithDefiniteAnswer(false)
}

// userPathParam returns the {user-id} path parameter, percent-decoded.
func userPathParam(rq *request) (string, error) { return rq.pathParam("user-id") }

// wellFormedUserPath returns the {user-id} path parameter, which must be a
// well-formed user id.
func wellFormedUserPath(rq *request) (string, error) {
	id, err := userPathParam(rq)
	if err != nil {
		return "", err
	}
	if err := identity.ValidateUserID(id); err != nil {
		return "", apierr.InvalidArgument.New("Malformed user-id: %v", err).WithDefiniteAnswer(false)
	}
	return id, nil
}

// decodeUserPath reads DELETE /v2/users/{user-id} and GET
// /v2/users/{user-id}/rights: the user in the default provider scope, as
// Canton's JSON layer sends identityProviderId "" (an identity-provider
// admin is scoped to its own provider by the Node).
func decodeUserPath(rq *request) (jsonapi.GetUserRequest, error) {
	id, err := wellFormedUserPath(rq)
	if err != nil {
		return jsonapi.GetUserRequest{}, err
	}
	return jsonapi.GetUserRequest{UserID: id}, nil
}

// decodeGetUser reads GET /v2/users/{user-id}?identity-provider-id=….
func decodeGetUser(rq *request) (jsonapi.GetUserRequest, error) {
	id, err := wellFormedUserPath(rq)
	if err != nil {
		return jsonapi.GetUserRequest{}, err
	}
	return jsonapi.GetUserRequest{UserID: id, IdentityProviderID: rq.query("identity-provider-id")}, nil
}

// decodeAuthenticatedUser reads GET /v2/authenticated-user: GetUser with
// an empty user id (the caller's own user).
func decodeAuthenticatedUser(rq *request) (jsonapi.GetUserRequest, error) {
	return jsonapi.GetUserRequest{IdentityProviderID: rq.query("identity-provider-id")}, nil
}

// decodeListUsers reads GET /v2/users' query parameters. The 3.5 document
// (and Canton's endpoint) has no identity-provider-id parameter: the
// request names the default provider, which the Node reads as the caller's
// own provider for an identity-provider admin.
func decodeListUsers(rq *request) (jsonapi.ListUsersRequest, error) {
	size, err := rq.queryInt32("pageSize")
	if err != nil {
		return jsonapi.ListUsersRequest{}, err
	}
	return jsonapi.ListUsersRequest{PageSize: size, PageToken: rq.query("pageToken")}, nil
}

// decodeUpdateUser reads PATCH /v2/users/{user-id}; user.id must equal the
// path.
func decodeUpdateUser(rq *request) (jsonapi.UpdateUserRequest, error) {
	id, err := userPathParam(rq)
	if err != nil {
		return jsonapi.UpdateUserRequest{}, err
	}
	req, err := decodeBody[jsonapi.UpdateUserRequest](rq)
	if err != nil {
		return jsonapi.UpdateUserRequest{}, err
	}
	if req.User.ID != id {
		return jsonapi.UpdateUserRequest{}, pathMismatch(id, "user", "Some("+req.User.ID+")")
	}
	return req, nil
}

// decodeUserRights reads POST (grant) and PATCH (revoke)
// /v2/users/{user-id}/rights; userId must equal the path.
func decodeUserRights(rq *request) (jsonapi.UserRightsRequest, error) {
	id, err := userPathParam(rq)
	if err != nil {
		return jsonapi.UserRightsRequest{}, err
	}
	req, err := decodeBody[jsonapi.UserRightsRequest](rq)
	if err != nil {
		return jsonapi.UserRightsRequest{}, err
	}
	if req.UserID != id {
		return jsonapi.UserRightsRequest{}, pathMismatch(id, "user", req.UserID)
	}
	return req, nil
}

// decodeUpdateUserIdentityProvider reads PATCH
// /v2/users/{user-id}/identity-provider-id; userId must equal the path.
func decodeUpdateUserIdentityProvider(rq *request) (jsonapi.UpdateUserIdentityProviderRequest, error) {
	id, err := userPathParam(rq)
	if err != nil {
		return jsonapi.UpdateUserIdentityProviderRequest{}, err
	}
	req, err := decodeBody[jsonapi.UpdateUserIdentityProviderRequest](rq)
	if err != nil {
		return jsonapi.UpdateUserIdentityProviderRequest{}, err
	}
	if req.UserID != id {
		return jsonapi.UpdateUserIdentityProviderRequest{}, pathMismatch(id, "user", req.UserID)
	}
	return req, nil
}

// decodeIDPPath reads the {idp-id} of GET and DELETE /v2/idps/{idp-id}.
func decodeIDPPath(rq *request) (string, error) { return rq.pathParam("idp-id") }

// decodeUpdateIDP reads PATCH /v2/idps/{idp-id};
// identityProviderConfig.identityProviderId must equal the path.
func decodeUpdateIDP(rq *request) (jsonapi.UpdateIdentityProviderConfigRequest, error) {
	id, err := rq.pathParam("idp-id")
	if err != nil {
		return jsonapi.UpdateIdentityProviderConfigRequest{}, err
	}
	req, err := decodeBody[jsonapi.UpdateIdentityProviderConfigRequest](rq)
	if err != nil {
		return jsonapi.UpdateIdentityProviderConfigRequest{}, err
	}
	if got := req.IdentityProviderConfig.IdentityProviderID; got != id {
		return jsonapi.UpdateIdentityProviderConfigRequest{}, pathMismatch(id, "identity provider config", "Some("+got+")")
	}
	return req, nil
}

// decodeUpdatePartyDetails reads PATCH /v2/parties/{party};
// partyDetails.party must equal the path.
func decodeUpdatePartyDetails(rq *request) (jsonapi.UpdatePartyDetailsRequest, error) {
	party, err := rq.pathParam("party")
	if err != nil {
		return jsonapi.UpdatePartyDetailsRequest{}, err
	}
	req, err := decodeBody[jsonapi.UpdatePartyDetailsRequest](rq)
	if err != nil {
		return jsonapi.UpdatePartyDetailsRequest{}, err
	}
	if req.PartyDetails.Party != party {
		return jsonapi.UpdatePartyDetailsRequest{}, pathMismatch(party, "party", "Some("+req.PartyDetails.Party+")")
	}
	return req, nil
}
