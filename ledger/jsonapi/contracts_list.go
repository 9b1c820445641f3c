package jsonapi

import (
	"context"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/internal/rawjson"
)

// ActiveContracts returns the active contracts at an offset as one list
// (POST /v2/state/active-contracts): at most min(limit, L+1) elements,
// JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED (413) when more than the
// node's list limit L match. It reads them with
// Node.ActiveContractEventsPage, at the offset of the request.
func (a *API) ActiveContracts(ctx context.Context, req GetActiveContractsRequest, opts ledger.ListOptions) (Body, error) {
	if err := a.public(ctx); err != nil {
		return nil, err
	}
	if err := checkActiveContractsShape(&req); err != nil {
		return nil, err
	}
	var ef *EventFormat
	switch {
	case req.EventFormat != nil && req.Filter != nil:
		return nil, apierr.InvalidArgument.New("Both event_format and filter are set. Please use either backwards compatible arguments (filter and verbose) or event_format, but not both.")
	case req.EventFormat != nil:
		ef = req.EventFormat
	case req.Filter != nil:
		ef = req.Filter
	default:
		return nil, apierr.InvalidArgument.New("Either filter/verbose or event_format is required. Please use either backwards compatible arguments (filter and verbose) or event_format.")
	}
	f := readFormat(ef, ledger.ACSDelta)
	limitL, take := a.listTake(opts)
	// One page size for the whole list (the pages' tokens are bound to
	// it); with nothing to take, one page of one makes the checks.
	size := int32(min(max(take, 1), ledger.MaxACSPageSize))
	at := req.ActiveAtOffset
	p := ledger.PageRequest{At: &at, Size: &size}
	read := rawjson.WithStoredValues(ctx)
	// A buffer of the free list, or one with room for the last updates
	// pages (pagebuf.go): growing one from a few KB to a list of 1000
	// contracts (~1.5 MB) would allocate and copy it twice over.
	out := append(updatesPageBuffer(), '[')
	n := int64(0)
	for {
		page, err := a.Node.ActiveContractEventsPage(read, f, p)
		if err != nil {
			return nil, err
		}
		for i := range page.Contracts {
			if n == take {
				break
			}
			if n > 0 {
				out = append(out, ',')
			}
			out = AppendActiveContract(out, &page.Contracts[i])
			n++
		}
		if n == take || page.NextToken == nil {
			break
		}
		p.Token = page.NextToken
	}
	if n > limitL {
		return nil, tooMany(n, limitL)
	}
	return append(out, ']'), nil
}
