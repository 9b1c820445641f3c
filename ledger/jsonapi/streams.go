package jsonapi

import (
	"context"
	"iter"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/internal/rawjson"
	"github.com/ledgernode/ledgernode/ledger/internal/wirepage"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// The WebSocket streams of updates (/v2/updates, /v2/updates/flats,
// /v2/updates/trees) over Node.Updates (stored values, offset
// checkpoints when idle) and the emitters, with the Node's JSON streams'
// checks in their order.

// listKind is which list a GetUpdatesRequest is read for: it decides how
// a legacy filter reads and the transactions' shape.
type listKind int

const (
	kindUpdates listKind = iota
	kindFlats
	kindTrees
)

// updatesFormat checks a list request's shape and resolves its format as
// the Node's lists do: exactly one of updateFormat and filter (+verbose);
// a legacy filter reads transactions (ACS delta, ledger effects for
// trees) and reassignments; flats read every transaction in the ACS-delta
// shape; trees read no topology events.
func updatesFormat(req *GetUpdatesRequest, kind listKind) (UpdateFormat, error) {
	if req.Filter != nil {
		if err := checkEventFormatShape(req.Filter, "filter."); err != nil {
			return UpdateFormat{}, err
		}
	}
	if err := checkUpdateFormatShape(req.UpdateFormat, "updateFormat."); err != nil {
		return UpdateFormat{}, err
	}
	var f UpdateFormat
	switch {
	case req.UpdateFormat != nil && req.Filter != nil:
		return f, apierr.InvalidArgument.New("Both update_format and filter are set. Please use either backwards compatible arguments (filter and verbose) or update_format, but not both.")
	case req.UpdateFormat != nil:
		f = *req.UpdateFormat
		if kind == kindFlats && f.IncludeTransactions != nil {
			t := *f.IncludeTransactions
			t.TransactionShape = ShapeACSDelta
			f.IncludeTransactions = &t
		}
	case req.Filter != nil:
		ef := *req.Filter
		ef.Verbose = req.Verbose
		s := ShapeACSDelta
		if kind == kindTrees {
			s = ShapeLedgerEffects
		}
		f = UpdateFormat{IncludeTransactions: &TransactionFormat{EventFormat: ef, TransactionShape: s}, IncludeReassignments: &ef}
	default:
		return f, apierr.InvalidArgument.New("Either filter/verbose or update_format is required. Please use either backwards compatible arguments (filter and verbose) or update_format.")
	}
	if kind == kindTrees {
		f.IncludeTopologyEvents = nil
	}
	return f, nil
}

// typedList resolves a list request for the typed read: its format and
// range. A refusal is err.
func typedList(req *GetUpdatesRequest, kind listKind) (ledger.UpdateReadFormat, ledger.OffsetRange, error) {
	uf, err := updatesFormat(req, kind)
	if err != nil {
		return ledger.UpdateReadFormat{}, ledger.OffsetRange{}, err
	}
	if err := checkUpdateFormat(&uf); err != nil {
		return ledger.UpdateReadFormat{}, ledger.OffsetRange{}, err
	}
	f := updateReadFormat(&uf)
	if kind == kindTrees && f.Transactions != nil {
		// The trees show every transaction as a tree, whatever shape
		// the format names.
		f.Transactions.Shape = ledger.LedgerEffects
	}
	r := ledger.OffsetRange{After: req.BeginExclusive, Descending: req.DescendingOrder}
	if req.EndInclusive == nil {
		r.Tail = true
	} else {
		r.Through = req.EndInclusive
	}
	return f, r, nil
}

// appendElement returns the emitter of a list's elements.
func appendElement(kind listKind) func([]byte, update.Update) []byte {
	if kind == kindTrees {
		return AppendTreeUpdateResponse
	}
	return AppendUpdateResponse
}

// StreamUpdates yields the updates of a list request one by one, each as
// an element of the list (the WebSocket form of /v2/updates):
// Node.Updates with checkpoints. It ends after the end offset, or,
// open-ended, follows the ledger, yielding an offset checkpoint when
// idle, until ctx ends, then yields ctx.Err().
func (a *API) StreamUpdates(ctx context.Context, req GetUpdatesRequest) iter.Seq2[Body, error] {
	return streamOf(a, ctx, req, kindUpdates)
}

// StreamFlats is StreamUpdates for /v2/updates/flats (ACS-delta shape).
func (a *API) StreamFlats(ctx context.Context, req GetUpdatesRequest) iter.Seq2[Body, error] {
	return streamOf(a, ctx, req, kindFlats)
}

// StreamTrees is StreamUpdates for /v2/updates/trees (transaction trees).
func (a *API) StreamTrees(ctx context.Context, req GetUpdatesRequest) iter.Seq2[Body, error] {
	return streamOf(a, ctx, req, kindTrees)
}

func streamOf(a *API, ctx context.Context, req GetUpdatesRequest, kind listKind) iter.Seq2[Body, error] {
	return func(yield func(Body, error) bool) {
		if err := a.public(ctx); err != nil {
			yield(nil, err)
			return
		}
		f, r, err := typedList(&req, kind)
		if err != nil {
			yield(nil, err)
			return
		}
		// A stream's range checks (the pages it reads make a page's).
		if err := a.Node.CheckUpdatesRange(ctx, r); err != nil {
			yield(nil, err)
			return
		}
		r.Checkpoints = true
		emit := appendElement(kind)
		read := rawjson.WithStoredValues(ctx)
		var done bool
		if r, done = a.streamPages(read, f, r, emit, kind, yield); done {
			return
		}
		for u, err := range a.Node.Updates(read, f, r) {
			if err != nil {
				yield(nil, err)
				return
			}
			if !yield(emit(make([]byte, 0, 2048), u), nil) {
				return
			}
		}
	}
}

// streamPages yields, one by one, the elements of the updates of r up to
// the ledger end (all of a bounded range), read a page at a time as a
// list reads them (API.pages: lent by the node, which writes those it can
// from their stored entries), each copied into its own message. It
// returns done when the stream ended (the range, an error, or yield
// asked to stop); else the range of the updates that follow (after the
// ledger end the pages read through), which Node.Updates reads as they
// commit.
func (a *API) streamPages(ctx context.Context, f ledger.UpdateReadFormat, r ledger.OffsetRange, emit func([]byte, update.Update) []byte,
	kind listKind, yield func(Body, error) bool) (rest ledger.OffsetRange, done bool) {
	// The pages are written into one buffer, of the free list's
	// (pagebuf.go), which the messages are copied out of.
	wp := &wirepage.Page{Out: updatesPageBuffer(), Ends: make([]wirepage.End, 0, listPage)}
	defer func() { release(wp.Out) }()
	if kind != kindTrees {
		ctx = wirepage.With(ctx, wp)
	}
	size := int32(listPage)
	var token []byte
	for {
		wp.Out, wp.N, wp.Ends = wp.Out[:0], 0, wp.Ends[:0]
		p, err := a.writePage(ctx, f, r, &size, token, emit, wp)
		if err != nil {
			yield(nil, err)
			return r, true
		}
		start := 0
		for _, e := range wp.Ends {
			m := wp.Out[start:e.At]
			if start > 0 {
				m = m[1:] // the comma before it
			}
			start = e.At
			if !yield(append(make([]byte, 0, len(m)), m...), nil) {
				return r, true
			}
		}
		if p.NextToken == nil {
			return r, true
		}
		if len(wp.Ends) == 0 {
			// Caught up with the ledger end (an open-ended range's pages
			// always have a next token).
			r.After = max(r.After, p.Highest)
			return r, false
		}
		token = p.NextToken
	}
}
