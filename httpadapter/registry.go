package httpadapter

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/julienschmidt/httprouter"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/registry"
)

// registryRoutes serve the token-standard registry metadata API
// (splice-api-token-metadata-v1). Their errors are the registry's
// {"error": "…"} bodies, never JsCantonError, and they need no token unless
// Options.RegistryRequireAuth is set (their auth mode in this table is
// replaced by the adapter's registry mode).
var registryRoutes = []route{
	{http.MethodGet, "/registry/metadata/v1/info", authOptional, call(registryInfo)},
	{http.MethodGet, "/registry/metadata/v1/instruments", authOptional, callWith(decodeListInstruments, listInstruments)},
	{http.MethodGet, "/registry/metadata/v1/instruments/:instrumentId", authOptional, callWith(decodeInstrumentID, getInstrument)},
}

// listInstrumentsQuery is the query of GET /registry/metadata/v1/instruments.
type listInstrumentsQuery struct {
	pageSize  int32
	pageToken string
}

// instrumentsPage is the registry's page of instruments; nextPageToken is
// absent on the last page.
type instrumentsPage struct {
	Instruments   []registry.Instrument `json:"instruments"`
	NextPageToken string                `json:"nextPageToken,omitempty"`
}

// decodeListInstruments reads pageSize (a positive int32 when present; the
// node caps it) and pageToken.
func decodeListInstruments(rq *request) (listInstrumentsQuery, error) {
	size, err := rq.queryInt32("pageSize")
	if err != nil {
		return listInstrumentsQuery{}, err
	}
	if rq.values().Has("pageSize") && size <= 0 {
		return listInstrumentsQuery{}, invalidQuery("pageSize", "must be between 1 and 100")
	}
	return listInstrumentsQuery{pageSize: size, pageToken: rq.query("pageToken")}, nil
}

// registryInfo serves Node.RegistryInfo (the registry's answers are its
// own JSON, not the Ledger API's: the JSON API's Node answers them).
func registryInfo(a *jsonapi.API, ctx context.Context) (registry.Info, error) {
	return a.Node.RegistryInfo(ctx)
}

// getInstrument serves Node.GetInstrument.
func getInstrument(a *jsonapi.API, ctx context.Context, id string) (registry.Instrument, error) {
	return a.Node.GetInstrument(ctx, id)
}

// listInstruments serves a page of Node.ListInstruments.
func listInstruments(a *jsonapi.API, ctx context.Context, q listInstrumentsQuery) (instrumentsPage, error) {
	ins, next, err := a.Node.ListInstruments(ctx, q.pageSize, q.pageToken)
	return instrumentsPage{Instruments: ins, NextPageToken: next}, err
}

func decodeInstrumentID(rq *request) (string, error) { return rq.pathParam("instrumentId") }

// registryError is the registry API's error body.
type registryError struct {
	Error string `json:"error"`
}

// handleRegistry is handle for the registry routes: the registry's auth
// mode, CORS headers and {"error"} bodies.
func (a *adapter) handleRegistry(rt route) httprouter.Handle {
	return func(w http.ResponseWriter, r *http.Request, ps httprouter.Params) {
		a.corsHeaders(w, r)
		ctx, err := a.authenticate(r, a.registryAuth, nil)
		if err != nil {
			a.failRegistry(w, r, err)
			return
		}
		resp, err := rt.handler(a, &request{w: w, r: r, ctx: ctx, params: ps, maxBody: a.maxBody})
		if err != nil {
			a.failRegistry(w, r, err)
			return
		}
		a.respond(w, r, resp)
	}
}

// failRegistry answers an error with the registry's {"error": "…"} body:
// 400 for bad input, 404 for unknown instruments, 401/403 when a token is
// required and missing or insufficient, 500 for anything else (its detail
// logged, not sent).
func (a *adapter) failRegistry(w http.ResponseWriter, r *http.Request, err error) {
	var de *decodeError
	if errors.As(err, &de) {
		writeJSON(w, http.StatusBadRequest, registryError{de.Error()})
		return
	}
	e := apierr.From(err)
	status := e.HTTPStatus()
	msg := e.Cause
	switch {
	case status >= 500:
		a.log.Error("httpadapter: registry request failed", "method", r.Method, "path", r.URL.Path, "err", e)
		status, msg = http.StatusInternalServerError, "internal error"
	case e.Category().Redacted():
		a.log.Warn("httpadapter: registry request refused", "method", r.Method, "path", r.URL.Path, "err", e)
		msg = strings.ToLower(http.StatusText(status))
	}
	writeJSON(w, status, registryError{msg})
}

// corsHeaders allows a configured origin to read the response.
func (a *adapter) corsHeaders(w http.ResponseWriter, r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" || len(a.cors) == 0 {
		return false
	}
	h := w.Header()
	h.Add("Vary", "Origin")
	switch {
	case slices.Contains(a.cors, "*"):
		h.Set("Access-Control-Allow-Origin", "*")
	case slices.Contains(a.cors, origin):
		h.Set("Access-Control-Allow-Origin", origin)
	default:
		return false
	}
	return true
}

// registryPreflight answers a CORS preflight for a registry route: GET with
// the Authorization header allowed, cached for 10 minutes.
func (a *adapter) registryPreflight(w http.ResponseWriter, r *http.Request, _ httprouter.Params) {
	if !a.corsHeaders(w, r) {
		writeJSON(w, http.StatusForbidden, registryError{"origin not allowed"})
		return
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Methods", "GET, OPTIONS")
	h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type")
	h.Set("Access-Control-Max-Age", "600")
	writeJSON(w, http.StatusOK, struct{}{})
}
