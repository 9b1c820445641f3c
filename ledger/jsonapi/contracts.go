package jsonapi

import (
	"context"

	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/internal/rawjson"
)

// The JSON reads of one contract (JsEventService's events-by-contract-id,
// JsContractService's contract-by-id) over the typed reads.

// EventsByContractID returns a contract's create (and archive) events as
// the format shows them (POST /v2/events/events-by-contract-id):
// Node.ContractEvents.
func (a *API) EventsByContractID(ctx context.Context, req GetEventsByContractIDRequest) (Body, error) {
	if err := a.public(ctx); err != nil {
		return nil, err
	}
	// The format's shape first: over JSON it is part of decoding the body,
	// which Canton's JSON API does before the request validator runs.
	if err := checkEventFormatShape(&req.EventFormat, "eventFormat."); err != nil {
		return nil, err
	}
	f := readFormat(&req.EventFormat, ledger.ACSDelta)
	e, err := a.Node.ContractEvents(rawjson.WithStoredValues(ctx), value.ContractID(req.ContractID), f)
	if err != nil {
		return nil, err
	}
	return AppendContractEvents(make([]byte, 0, 2048), e), nil
}

// ContractByID returns the created event of a contract this participant
// stores, active or archived, as the querying parties see it (POST
// /v2/contracts/contract-by-id): Node.Contract.
func (a *API) ContractByID(ctx context.Context, req GetContractRequest) (Body, error) {
	e, err := a.Node.Contract(rawjson.WithStoredValues(ctx), value.ContractID(req.ContractID), req.QueryingParties)
	if err != nil {
		return nil, err
	}
	return AppendContractResponse(make([]byte, 0, 2048), e), nil
}
