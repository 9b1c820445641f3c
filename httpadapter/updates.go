package httpadapter

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// Decoders of the update routes (JsUpdateService), the state routes
// (JsStateService) and events-by-contract-id (JsEventService).

// callList adapts a blocking list ("asList") Node method: the list options
// come from the query parameters limit and stream_idle_timeout_ms (decoded
// first, as tapir does), the request from decode. The method runs under
// the request context, so a client that goes away ends it. Shutdown ends
// only its wait for new elements (ListOptions.Stop): the list answers
// what it has, as at its idle timeout, rather than holding
// http.Server.Shutdown for up to its idle timeout.
func callList[Req, Resp any](decode func(*request) (Req, error), m func(*jsonapi.API, context.Context, Req, ledger.ListOptions) (Resp, error)) handlerFunc {
	return func(a *adapter, rq *request) (any, error) {
		opts, err := decodeListOptions(rq)
		if err != nil {
			return nil, err
		}
		a.timeouts.capIdle(&opts)
		req, err := decode(rq)
		if err != nil {
			return nil, err
		}
		opts.Stop = a.streams.down
		return m(a.api, rq.ctx, req, opts)
	}
}

// decodeListOptions reads the query parameters of the list endpoints
// (Canton's http/json/v2/Endpoints.scala): limit (int64) and
// stream_idle_timeout_ms (int64 milliseconds). An absent parameter is nil,
// so that the Node applies its defaults; an idle timeout too large for a
// time.Duration is the largest one.
func decodeListOptions(rq *request) (ledger.ListOptions, error) {
	var opts ledger.ListOptions
	if rq.has("limit") {
		v, err := rq.queryInt64("limit")
		if err != nil {
			return opts, err
		}
		opts.Limit = &v
	}
	if rq.has("stream_idle_timeout_ms") {
		ms, err := rq.queryInt64("stream_idle_timeout_ms")
		if err != nil {
			return opts, err
		}
		d := time.Duration(math.MaxInt64)
		if ms < int64(math.MaxInt64/time.Millisecond) {
			d = time.Duration(ms) * time.Millisecond
		}
		opts.IdleTimeout = &d
	}
	return opts, nil
}

// decodeUpdatesPage reads a GetUpdatesPageRequest body.
func decodeUpdatesPage(rq *request) (jsonapi.GetUpdatesPageRequest, error) {
	req, err := decodeBody[jsonapi.GetUpdatesPageRequest](rq)
	if err != nil {
		return req, err
	}
	req.PageToken, err = canonicalBase64(req.PageToken, "pageToken")
	return req, err
}

// treeRequest is a transaction-tree lookup: by update id, or by offset when
// the id is "".
type treeRequest struct {
	updateID string
	offset   int64
	parties  []string
}

// decodeTreeByID reads GET /v2/updates/transaction-tree-by-id/{update-id}
// with the repeated parties query parameter.
func decodeTreeByID(rq *request) (treeRequest, error) {
	id, err := rq.pathParam("update-id")
	if err != nil {
		return treeRequest{}, err
	}
	return treeRequest{updateID: id, parties: rq.queryAll("parties")}, nil
}

// decodeTreeByOffset reads GET
// /v2/updates/transaction-tree-by-offset/{offset} (an int64) with the
// repeated parties query parameter.
func decodeTreeByOffset(rq *request) (treeRequest, error) {
	s, err := rq.pathParam("offset")
	if err != nil {
		return treeRequest{}, err
	}
	off, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return treeRequest{}, invalidPath("offset", fmt.Sprintf("For input string: %q", apierr.Quote(s)))
	}
	return treeRequest{offset: off, parties: rq.queryAll("parties")}, nil
}

func treeByID(a *jsonapi.API, ctx context.Context, r treeRequest) (jsonapi.Body, error) {
	return a.TransactionTreeByID(ctx, r.updateID, r.parties)
}

func treeByOffset(a *jsonapi.API, ctx context.Context, r treeRequest) (jsonapi.Body, error) {
	return a.TransactionTreeByOffset(ctx, r.offset, r.parties)
}

// decodeActiveContracts reads a GetActiveContractsRequest body.
func decodeActiveContracts(rq *request) (jsonapi.GetActiveContractsRequest, error) {
	req, err := decodeBody[jsonapi.GetActiveContractsRequest](rq)
	if err != nil {
		return req, err
	}
	req.StreamContinuationToken, err = canonicalBase64(req.StreamContinuationToken, "streamContinuationToken")
	return req, err
}

// decodeActiveContractsPage reads a GetActiveContractsPageRequest body,
// for POST /v2/state/active-contracts-page and the deprecated GET with a
// body.
func decodeActiveContractsPage(rq *request) (jsonapi.GetActiveContractsPageRequest, error) {
	req, err := decodeBody[jsonapi.GetActiveContractsPageRequest](rq)
	if err != nil {
		return req, err
	}
	req.PageToken, err = canonicalBase64(req.PageToken, "pageToken")
	return req, err
}

// decodeConnectedSynchronizers reads GET
// /v2/state/connected-synchronizers' query parameters (camelCase names).
func decodeConnectedSynchronizers(rq *request) (jsonapi.ConnectedSynchronizersRequest, error) {
	return jsonapi.ConnectedSynchronizersRequest{
		Party:              rq.query("party"),
		ParticipantID:      rq.query("participantId"),
		IdentityProviderID: rq.query("identityProviderId"),
	}, nil
}

// decodePreferredPackageVersion reads GET
// /v2/interactive-submission/preferred-package-version's query: parties
// (repeated), package-name (required), vetting_valid_at (a date-time) and
// synchronizer-id.
func decodePreferredPackageVersion(rq *request) (jsonapi.GetPreferredPackageVersionRequest, error) {
	if !rq.has("package-name") {
		return jsonapi.GetPreferredPackageVersionRequest{}, invalidQuery("package-name", "missing")
	}
	at := rq.query("vetting_valid_at")
	if rq.has("vetting_valid_at") {
		if _, err := time.Parse(time.RFC3339Nano, at); err != nil {
			return jsonapi.GetPreferredPackageVersionRequest{}, invalidQuery("vetting_valid_at", fmt.Sprintf("Text '%s' could not be parsed", apierr.Quote(at)))
		}
	}
	return jsonapi.GetPreferredPackageVersionRequest{
		Parties:        rq.queryAll("parties"),
		PackageName:    rq.query("package-name"),
		VettingValidAt: at,
		SynchronizerID: rq.query("synchronizer-id"),
	}, nil
}
