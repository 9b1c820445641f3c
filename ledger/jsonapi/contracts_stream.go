package jsonapi

import (
	"context"
	"iter"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/internal/rawjson"
)

// contractStreamPage is how many contracts the active-contracts stream
// reads a page at a time (one snapshot each).
const contractStreamPage = 500

// StreamActiveContracts yields the active contracts at an offset one by
// one, each as an element of the active contracts (the WebSocket form of
// /v2/state/active-contracts): Node.ActiveContractEventsPage a page at a
// time. The stream ends by itself after the last contract, or yields
// ctx.Err() when ctx ends first.
func (a *API) StreamActiveContracts(ctx context.Context, req GetActiveContractsRequest) iter.Seq2[Body, error] {
	return func(yield func(Body, error) bool) {
		if err := a.public(ctx); err != nil {
			yield(nil, err)
			return
		}
		if err := checkActiveContractsShape(&req); err != nil {
			yield(nil, err)
			return
		}
		ef := req.EventFormat
		if ef == nil {
			ef = req.Filter
		}
		if ef == nil {
			ef = &EventFormat{}
		}
		f := readFormat(ef, ledger.ACSDelta)
		at, size := req.ActiveAtOffset, int32(contractStreamPage)
		p := ledger.PageRequest{At: &at, Size: &size}
		read := rawjson.WithStoredValues(ctx)
		for {
			if err := ctx.Err(); err != nil {
				yield(nil, err)
				return
			}
			page, err := a.Node.ActiveContractEventsPage(read, f, p)
			if err != nil {
				yield(nil, err)
				return
			}
			for i := range page.Contracts {
				if !yield(AppendActiveContract(make([]byte, 0, 1024), &page.Contracts[i]), nil) {
					return
				}
			}
			if page.NextToken == nil {
				return
			}
			p.Token = page.NextToken
		}
	}
}

// checkActiveContractsShape checks the shape of a request's event format
// and filter, and refuses a stream continuation token, which ledgernode
// does not honour yet.
func checkActiveContractsShape(req *GetActiveContractsRequest) error {
	if req.EventFormat != nil {
		if err := checkEventFormatShape(req.EventFormat, "eventFormat."); err != nil {
			return err
		}
	}
	if req.Filter != nil {
		if err := checkEventFormatShape(req.Filter, "filter."); err != nil {
			return err
		}
	}
	if req.StreamContinuationToken != "" {
		return apierr.InvalidArgument.New("%s is not supported by ledgernode", "streamContinuationToken")
	}
	return nil
}
