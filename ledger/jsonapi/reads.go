package jsonapi

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"github.com/ledgernode/ledgernode/ledger/internal/wirepage"

	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/internal/rawjson"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// The JSON reads of pages (JsUpdateService's get-updates-page,
// JsStateService's active-contracts-page) over the typed reads: the
// request's wire checks and conversion to the typed format
// (reads_format.go), the typed read with the stored values
// (rawjson.WithStoredValues: no decoding of Daml values), and the
// emitters (emit.go) for the answer's bytes.

// Body is a JSON answer as the emitters wrote it. httpadapter writes it
// as it is; MarshalJSON gives the same bytes to encoding/json.
type Body []byte

// MarshalJSON returns the body.
func (b Body) MarshalJSON() ([]byte, error) { return b, nil }

// DecodeAnswer decodes the answer of a method that returns a Body into its
// wire type T (e.g. SubmitAndWaitForTransactionResponse), for Go callers
// of the JSON API that want the answer's fields; it passes err through.
// Callers that only forward the answer should write the Body as it is.
func DecodeAnswer[T any](b Body, err error) (T, error) {
	var out T
	if err != nil {
		return out, err
	}
	err = json.Unmarshal(b, &out)
	return out, err
}

// public makes the node's first check of every read: it is ready and
// ctx is live.
func (a *API) public(ctx context.Context) error {
	if err := a.Node.Ready(); err != nil {
		return err
	}
	return ctx.Err()
}

// pageToken is a request's page token as the typed reads take it: its
// bytes, or for text that is not base64 the text itself (which is no
// token either, so the read refuses it where it refuses a stale one).
func pageToken(s string) []byte {
	if s == "" {
		return nil
	}
	if b, err := base64.StdEncoding.DecodeString(s); err == nil {
		return b
	}
	return []byte(s)
}

// UpdatesPage returns one page of updates (POST
// /v2/updates/get-updates-page): Node.UpdatesPage with the
// request's format, its range (no end: up to the ledger end, with a
// token to ask again), size and token.
func (a *API) UpdatesPage(ctx context.Context, req GetUpdatesPageRequest) (Body, error) {
	if err := a.public(ctx); err != nil {
		return nil, err
	}
	if err := checkUpdateFormatShape(req.UpdateFormat, "updateFormat."); err != nil {
		return nil, err
	}
	if err := checkUpdateFormat(req.UpdateFormat); err != nil {
		return nil, err
	}
	f := updateReadFormat(req.UpdateFormat)
	r := ledger.OffsetRange{After: req.BeginOffsetExclusive, Descending: req.DescendingOrder}
	if req.EndOffsetInclusive == nil {
		r.Tail = true
	} else {
		r.Through = req.EndOffsetInclusive
	}
	// The updates are written as they are read, lent by the node: each
	// is written out, and nothing of it kept, before the next is read.
	// The node writes those it can from their stored entries itself
	// (ledger/internal/wirepage), the others are visited.
	wp := &wirepage.Page{Out: append(updatesPageBuffer(), `{"updates":[`...)}
	p, err := a.Node.VisitUpdatesPage(wirepage.With(rawjson.WithStoredValues(ctx), wp), f, r, req.MaxPageSize, pageToken(req.PageToken), func(u update.Update) error {
		wp.Sep()
		wp.Out = AppendUpdateResponse(wp.Out, u)
		return nil
	})
	out := wp.Out
	if err != nil {
		release(out)
		return nil, err
	}
	out = appendUpdatesPageEnd(out, p)
	noteUpdatesPage(len(out))
	return out, nil
}

// ActiveContractsPage returns one page of the active contracts at an
// offset (POST and GET /v2/state/active-contracts-page):
// Node.ActiveContractEventsPage with the request's format, offset, size
// and token.
func (a *API) ActiveContractsPage(ctx context.Context, req GetActiveContractsPageRequest) (Body, error) {
	if err := a.public(ctx); err != nil {
		return nil, err
	}
	if err := checkEventFormatShape(&req.EventFormat, "eventFormat."); err != nil {
		return nil, err
	}
	f := readFormat(&req.EventFormat, ledger.ACSDelta)
	p, err := a.Node.ActiveContractEventsPage(rawjson.WithStoredValues(ctx), f,
		ledger.PageRequest{At: req.ActiveAtOffset, Size: req.MaxPageSize, Token: pageToken(req.PageToken)})
	if err != nil {
		return nil, err
	}
	return AppendContractPage(pageBuffer(1024*len(p.Contracts)+128), p), nil
}
