package httpadapter

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/julienschmidt/httprouter"

	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// handlerFunc decodes a request, calls one Node method and returns what to
// encode: a value written as JSON, a plainText, a binary, or an error (a decodeError
// for a 400 text/plain, anything else rendered as a JsCantonError).
type handlerFunc func(a *adapter, rq *request) (any, error)

// route is one row of the route table.
type route struct {
	method string
	// path is the OpenAPI path in httprouter syntax ({party} is :party).
	path    string
	auth    authMode
	handler handlerFunc
}

// routes is the route table, in the OpenAPI document's terms. New paths
// are added here; the helpers below (call, callBody, callWith) keep each
// row a one-liner.
var routes = []route{
	{http.MethodGet, "/livez", authOptional, livez},
	{http.MethodGet, "/readyz", authOptional, readyz},

	{http.MethodGet, "/v2/version", authRequired, call((*jsonapi.API).Version)},

	{http.MethodGet, "/v2/parties", authRequired, callWith(decodeListParties, (*jsonapi.API).ListParties)},
	{http.MethodPost, "/v2/parties", authRequired, callBody((*jsonapi.API).AllocateParty)},
	{http.MethodGet, "/v2/parties/participant-id", authRequired, call((*jsonapi.API).ParticipantID)},
	{http.MethodGet, "/v2/parties/:party", authRequired, callWith(decodeGetParties, (*jsonapi.API).GetParties)},
	{http.MethodPatch, "/v2/parties/:party", authRequired, callWith(decodeUpdatePartyDetails, (*jsonapi.API).UpdatePartyDetails)},

	{http.MethodPost, "/v2/users", authRequired, callBody((*jsonapi.API).CreateUser)},
	{http.MethodGet, "/v2/users", authRequired, callWith(decodeListUsers, (*jsonapi.API).ListUsers)},
	{http.MethodGet, "/v2/users/:user-id", authRequired, callWith(decodeGetUser, (*jsonapi.API).GetUser)},
	{http.MethodDelete, "/v2/users/:user-id", authRequired, callWith(decodeUserPath, (*jsonapi.API).DeleteUser)},
	{http.MethodPatch, "/v2/users/:user-id", authRequired, callWith(decodeUpdateUser, (*jsonapi.API).UpdateUser)},
	{http.MethodGet, "/v2/users/:user-id/rights", authRequired, callWith(decodeUserPath, (*jsonapi.API).ListUserRights)},
	{http.MethodPost, "/v2/users/:user-id/rights", authRequired, callWith(decodeUserRights, (*jsonapi.API).GrantUserRights)},
	{http.MethodPatch, "/v2/users/:user-id/rights", authRequired, callWith(decodeUserRights, (*jsonapi.API).RevokeUserRights)},
	{http.MethodPatch, "/v2/users/:user-id/identity-provider-id", authRequired, callWith(decodeUpdateUserIdentityProvider, (*jsonapi.API).UpdateUserIdentityProvider)},
	{http.MethodGet, "/v2/authenticated-user", authRequired, callWith(decodeAuthenticatedUser, (*jsonapi.API).GetUser)},

	{http.MethodPost, "/v2/idps", authRequired, callBody((*jsonapi.API).CreateIdentityProviderConfig)},
	{http.MethodGet, "/v2/idps", authRequired, call((*jsonapi.API).ListIdentityProviderConfigs)},
	{http.MethodGet, "/v2/idps/:idp-id", authRequired, callWith(decodeIDPPath, (*jsonapi.API).GetIdentityProviderConfig)},
	{http.MethodPatch, "/v2/idps/:idp-id", authRequired, callWith(decodeUpdateIDP, (*jsonapi.API).UpdateIdentityProviderConfig)},
	{http.MethodDelete, "/v2/idps/:idp-id", authRequired, callWith(decodeIDPPath, (*jsonapi.API).DeleteIdentityProviderConfig)},

	{http.MethodPost, "/v2/commands/submit-and-wait", authRequired, submitAndWait},
	{http.MethodPost, "/v2/commands/submit-and-wait-for-transaction", authRequired, callBody((*jsonapi.API).SubmitAndWaitForTransaction)},
	{http.MethodPost, "/v2/commands/submit-and-wait-for-transaction-tree", authRequired, callBody((*jsonapi.API).SubmitAndWaitForTransactionTree)},
	{http.MethodPost, "/v2/commands/submit-and-wait-for-reassignment", authRequired, callBody((*jsonapi.API).SubmitAndWaitForReassignment)},
	{http.MethodPost, "/v2/commands/async/submit", authRequired, callBody((*jsonapi.API).SubmitAsync)},
	{http.MethodPost, "/v2/commands/async/submit-reassignment", authRequired, callBody((*jsonapi.API).SubmitReassignment)},

	{http.MethodPost, "/v2/commands/completions", authRequired, callList(decodeBody[jsonapi.CompletionStreamRequest], (*jsonapi.API).CompletionsList)},
	{http.MethodPost, "/v2/commands/command-completions", authRequired, callList(decodeGetCompletions, (*jsonapi.API).CompletionsList)},
	{http.MethodPost, "/v2/updates", authRequired, callList(decodeBody[jsonapi.GetUpdatesRequest], (*jsonapi.API).UpdatesList)},
	{http.MethodPost, "/v2/updates/flats", authRequired, callList(decodeBody[jsonapi.GetUpdatesRequest], (*jsonapi.API).FlatsList)},
	{http.MethodPost, "/v2/updates/trees", authRequired, callList(decodeBody[jsonapi.GetUpdatesRequest], (*jsonapi.API).TreeList)},
	{http.MethodPost, "/v2/updates/get-updates-page", authRequired, callWith(decodeUpdatesPage, (*jsonapi.API).UpdatesPage)},
	{http.MethodPost, "/v2/updates/update-by-id", authRequired, callBody((*jsonapi.API).UpdateByID)},
	{http.MethodPost, "/v2/updates/update-by-offset", authRequired, callBody((*jsonapi.API).UpdateByOffset)},
	{http.MethodGet, "/v2/updates/transaction-tree-by-id/:update-id", authRequired, callWith(decodeTreeByID, treeByID)},
	{http.MethodGet, "/v2/updates/transaction-tree-by-offset/:offset", authRequired, callWith(decodeTreeByOffset, treeByOffset)},

	{http.MethodGet, "/v2/state/ledger-end", authRequired, call((*jsonapi.API).LedgerEnd)},
	{http.MethodPost, "/v2/state/active-contracts", authRequired, callList(decodeActiveContracts, (*jsonapi.API).ActiveContracts)},
	{http.MethodPost, "/v2/state/active-contracts-page", authRequired, callWith(decodeActiveContractsPage, (*jsonapi.API).ActiveContractsPage)},
	{http.MethodGet, "/v2/state/active-contracts-page", authRequired, callWith(decodeActiveContractsPage, (*jsonapi.API).ActiveContractsPage)},
	{http.MethodGet, "/v2/state/connected-synchronizers", authRequired, callWith(decodeConnectedSynchronizers, (*jsonapi.API).ConnectedSynchronizers)},
	{http.MethodPost, "/v2/events/events-by-contract-id", authRequired, callBody((*jsonapi.API).EventsByContractID)},

	{http.MethodPost, "/v2/dars/validate", authRequired, callWith(decodeValidateDAR, (*jsonapi.API).ValidateDAR)},
	{http.MethodPost, "/v2/dars", authRequired, callWith(decodeUploadDAR, (*jsonapi.API).UploadDAR)},
	{http.MethodGet, "/v2/packages", authRequired, call((*jsonapi.API).ListPackages)},
	{http.MethodPost, "/v2/packages", authRequired, callWith(decodeUploadDAR, (*jsonapi.API).UploadDAR)},
	{http.MethodGet, "/v2/packages/:package-id", authRequired, getPackage},
	{http.MethodGet, "/v2/packages/:package-id/status", authRequired, callWith(decodePackageID, (*jsonapi.API).PackageStatus)},
	{http.MethodGet, "/v2/package-vetting", authRequired, callWith(decodeListVettedPackagesGet, (*jsonapi.API).ListVettedPackages)},
	{http.MethodPost, "/v2/package-vetting", authRequired, callBody((*jsonapi.API).UpdateVettedPackages)},
	{http.MethodPost, "/v2/package-vetting/list", authRequired, callBody((*jsonapi.API).ListVettedPackages)},
	{http.MethodPost, "/v2/package-vetting/update", authRequired, callBody((*jsonapi.API).UpdateVettedPackages)},

	{http.MethodPost, "/v2/parties/external/generate-topology", authRequired, callBody((*jsonapi.API).GenerateExternalPartyTopology)},
	{http.MethodPost, "/v2/parties/external/allocate", authRequired, callBody((*jsonapi.API).AllocateExternalParty)},

	{http.MethodPost, "/v2/interactive-submission/prepare", authRequired, callBody((*jsonapi.API).PrepareSubmission)},
	{http.MethodPost, "/v2/interactive-submission/execute", authRequired, callBody((*jsonapi.API).ExecuteSubmission)},
	{http.MethodPost, "/v2/interactive-submission/executeAndWait", authRequired, callBody((*jsonapi.API).ExecuteSubmissionAndWait)},
	{http.MethodPost, "/v2/interactive-submission/executeAndWaitForTransaction", authRequired, callBody((*jsonapi.API).ExecuteSubmissionAndWaitForTransaction)},

	// Issue 13 item 6: the remaining operations of the 3.5 document.
	{http.MethodGet, "/v2/state/latest-pruned-offsets", authRequired, call((*jsonapi.API).LatestPrunedOffsets)},
	{http.MethodPost, "/v2/updates/transaction-by-id", authRequired, callBody((*jsonapi.API).TransactionByID)},
	{http.MethodPost, "/v2/updates/transaction-by-offset", authRequired, callBody((*jsonapi.API).TransactionByOffset)},
	{http.MethodPost, "/v2/contracts/contract-by-id", authRequired, callBody((*jsonapi.API).ContractByID)},
	{http.MethodGet, "/v2/interactive-submission/preferred-package-version", authRequired, callWith(decodePreferredPackageVersion, (*jsonapi.API).PreferredPackageVersion)},
	{http.MethodPost, "/v2/interactive-submission/preferred-packages", authRequired, callBody((*jsonapi.API).PreferredPackages)},

	// ledgernode's own admin routes (time.go), not part of Canton's API.
	{http.MethodGet, "/ledgernode/v1/time", authRequired, getTime},
	{http.MethodPost, "/ledgernode/v1/time", authRequired, postTime},
}

// call adapts a JSON API method without input.
func call[Resp any](m func(*jsonapi.API, context.Context) (Resp, error)) handlerFunc {
	return func(a *adapter, rq *request) (any, error) {
		return m(a.api, rq.ctx)
	}
}

// callBody adapts a JSON API method whose input is the JSON request body.
func callBody[Req, Resp any](m func(*jsonapi.API, context.Context, Req) (Resp, error)) handlerFunc {
	return callWith(decodeBody[Req], m)
}

// callWith adapts a JSON API method whose input decode builds from the
// request (path, query and/or body).
func callWith[Req, Resp any](decode func(*request) (Req, error), m func(*jsonapi.API, context.Context, Req) (Resp, error)) handlerFunc {
	return func(a *adapter, rq *request) (any, error) {
		req, err := decode(rq)
		if err != nil {
			return nil, err
		}
		return m(a.api, rq.ctx, req)
	}
}

// submitAndWait is callBody((*jsonapi.API).SubmitAndWait), its answer
// written in rq's reply (appendSubmitAndWait) when it can be: every Ping
// create comes here.
func submitAndWait(a *adapter, rq *request) (any, error) {
	var c jsonapi.JsCommands
	if err := decodeBodyInto(rq, &c); err != nil {
		return nil, err
	}
	resp, err := a.api.SubmitAndWait(rq.ctx, c)
	if err != nil {
		return nil, err
	}
	if body, ok := appendSubmitAndWait(rq.reply.buf[:0], resp); ok {
		rq.reply.body = body
		return &rq.reply, nil
	}
	return resp, nil
}

// livez answers 200 with "{}" (Canton's body is empty, but clients reject
// an empty 2xx).
func livez(*adapter, *request) (any, error) { return struct{}{}, nil }

// readyz reports the node's readiness as text, like Canton's gRPC health
// check: 200 while it serves, 503 once it is closed.
func readyz(a *adapter, _ *request) (any, error) {
	if err := a.node.Ready(); err != nil {
		return plainText{http.StatusServiceUnavailable, fmt.Sprintf("[-] ledger failed (%v)\nreadyz check failed\n", err)}, nil
	}
	return plainText{http.StatusOK, "[+] ledger ok (SERVING)\nreadyz check passed\n"}, nil
}

// decodeListParties reads GET /v2/parties' query parameters.
func decodeListParties(rq *request) (ledger.ListPartiesRequest, error) {
	size, err := rq.queryInt32("pageSize")
	if err != nil {
		return ledger.ListPartiesRequest{}, err
	}
	return ledger.ListPartiesRequest{
		IdentityProviderID: rq.query("identity-provider-id"),
		FilterParty:        rq.query("filter-party"),
		PageSize:           size,
		PageToken:          rq.query("pageToken"),
	}, nil
}

// decodeGetParties reads GET /v2/parties/{party}: the path party followed
// by the repeated "parties" query values, and identity-provider-id. The
// party strings and the provider id are format-checked here (a decode
// failure, 400 text/plain).
func decodeGetParties(rq *request) (jsonapi.GetPartiesRequest, error) {
	party, err := rq.pathParam("party")
	if err != nil {
		return jsonapi.GetPartiesRequest{}, err
	}
	if err := identity.ValidatePartyString(party); err != nil {
		return jsonapi.GetPartiesRequest{}, invalidPath("party", err.Error())
	}
	parties := []string{party}
	for _, p := range rq.queryAll("parties") {
		if err := identity.ValidatePartyString(p); err != nil {
			return jsonapi.GetPartiesRequest{}, invalidQuery("parties", err.Error())
		}
		parties = append(parties, p)
	}
	idp := rq.query("identity-provider-id")
	if err := identity.ValidateIdentityProviderID(idp); err != nil {
		return jsonapi.GetPartiesRequest{}, invalidQuery("identity-provider-id", err.Error())
	}
	return jsonapi.GetPartiesRequest{Parties: parties, IdentityProviderID: idp}, nil
}

// register adds the routes to the router. Every handler first decodes
// the query string (checkQuery).
//
// httprouter v1.3.0 (the latest release) panics when a static segment and
// a parameter share a position in one method's tree, as GET
// /v2/parties/participant-id and GET /v2/parties/:party do. Such a static
// route is therefore not registered itself: the parameterised route of the
// same method and length that also matches it serves it, trying its static
// siblings first on the exact (unescaped) path. That is Canton's order too
// (participant-id is matched before {party}), and 405 answers stay right
// because the parameterised route stands for both paths in the tree.
func register(r *httprouter.Router, rs []route, handle func(route) httprouter.Handle) {
	statics := map[int][]int{} // index of a parameterised route -> its static siblings
	shadowed := map[int]bool{}
	for i, s := range rs {
		if !isStatic(s.path) {
			continue
		}
		for j, p := range rs {
			if p.method == s.method && !isStatic(p.path) && matchesPattern(p.path, s.path) {
				statics[j] = append(statics[j], i)
				shadowed[i] = true
				break
			}
		}
	}
	rs = slices.Clone(rs)
	for i := range rs {
		rs[i].handler = checkQuery(rs[i].handler)
	}
	for j, rt := range rs {
		if shadowed[j] {
			continue
		}
		h := handle(rt)
		if sib := statics[j]; len(sib) > 0 {
			paths := make([]string, len(sib))
			handles := make([]httprouter.Handle, len(sib))
			for k, i := range sib {
				paths[k], handles[k] = rs[i].path, handle(rs[i])
			}
			param := h
			h = func(w http.ResponseWriter, req *http.Request, ps httprouter.Params) {
				// Compare unescaped: participant%2Did is participant-id.
				path, err := url.PathUnescape(req.URL.Path)
				for k, p := range paths {
					if err == nil && path == p {
						handles[k](w, req, nil)
						return
					}
				}
				param(w, req, ps)
			}
		}
		r.Handle(rt.method, rt.path, h)
	}
}

// isStatic reports whether an httprouter path has no parameter.
func isStatic(path string) bool { return !strings.ContainsAny(path, ":*") }

// matchesPattern reports whether the static path matches the httprouter
// pattern with named parameters (same number of segments, equal static
// segments, non-empty parameter segments).
func matchesPattern(pattern, path string) bool {
	ps, ss := strings.Split(pattern, "/"), strings.Split(path, "/")
	if len(ps) != len(ss) {
		return false
	}
	for i := range ps {
		if strings.HasPrefix(ps[i], ":") {
			if ss[i] == "" {
				return false
			}
		} else if ps[i] != ss[i] {
			return false
		}
	}
	return true
}
