package jsonapi

import (
	"context"
	"errors"
	"iter"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/internal/rawjson"
	"github.com/ledgernode/ledgernode/ledger/internal/wirepage"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// The blocking lists of updates (POST /v2/updates, /v2/updates/flats,
// /v2/updates/trees, Canton's "asList" endpoints) over the typed reads
// and the emitters: the Node's lists' checks in their order, limit and
// 413, the wait for new updates up to the idle timeout, and the closing
// offset checkpoint.

// UpdatesList returns the updates of the request as one list (POST
// /v2/updates): at most min(limit, L+1) elements, where L is the node's
// list limit, JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED (413) when
// more than L match. An open-ended request waits for new updates and
// returns once none arrived for the idle timeout (default
// ledger.DefaultListIdleTimeout), the limit is reached or ctx ends; it
// closes with an offset checkpoint when the ledger end it read through
// lies past the last update it shows.
func (a *API) UpdatesList(ctx context.Context, req GetUpdatesRequest, opts ledger.ListOptions) (Body, error) {
	return listOf(a, ctx, req, opts, kindUpdates)
}

// FlatsList is UpdatesList for the deprecated /v2/updates/flats (every
// transaction in the ACS-delta shape).
func (a *API) FlatsList(ctx context.Context, req GetUpdatesRequest, opts ledger.ListOptions) (Body, error) {
	return listOf(a, ctx, req, opts, kindFlats)
}

// TreeList is UpdatesList for the deprecated /v2/updates/trees
// (transactions as trees, no topology transactions).
func (a *API) TreeList(ctx context.Context, req GetUpdatesRequest, opts ledger.ListOptions) (Body, error) {
	return listOf(a, ctx, req, opts, kindTrees)
}

// listPage is the page size of a list's reads up to the ledger end.
const listPage = 500

func listOf(a *API, ctx context.Context, req GetUpdatesRequest, opts ledger.ListOptions, kind listKind) (Body, error) {
	if err := a.public(ctx); err != nil {
		return nil, err
	}
	f, r, err := typedList(&req, kind)
	if err != nil {
		return nil, err
	}
	// A stream's range checks (the pages it reads make a page's).
	if err := a.Node.CheckUpdatesRange(ctx, r); err != nil {
		return nil, err
	}
	limitL, take := a.listTake(opts)
	// A list is written as an updates page is, into a buffer of the
	// free list or one with room for the last pages (pagebuf.go).
	l := list{kind: kind, emit: appendElement(kind), take: take, out: append(updatesPageBuffer(), '[')}
	read := rawjson.WithStoredValues(ctx)
	switch {
	case take == 0:
		// Nothing to take: the read's checks only.
		if err := a.checkOnly(read, f, r); err != nil {
			return nil, err
		}
	case !r.Tail:
		// A bounded range, read without waiting.
		if _, _, err := a.pages(read, f, r, &l); err != nil {
			return nil, err
		}
	default:
		if err := a.tail(read, f, r, opts, &l); err != nil {
			return nil, err
		}
	}
	if l.n > limitL {
		release(l.out)
		return nil, tooMany(l.n, limitL)
	}
	if l.cursor > l.lastSeen && l.n < min(take, limitL) {
		l.add(a.Node.CheckpointAt(l.cursor))
	}
	out := append(l.out, ']')
	noteUpdatesPage(len(out))
	return out, nil
}

// listTake returns the node's list limit L and how many elements a list
// takes: min(limit, L+1), L+1 telling a list over the limit.
func (a *API) listTake(opts ledger.ListOptions) (limitL, take int64) {
	limitL = int64(a.Node.ListLimit())
	take = limitL + 1
	if opts.Limit != nil && *opts.Limit < take {
		take = max(*opts.Limit, 0) // a negative limit takes nothing, as pekko's take does
	}
	return limitL, take
}

// tooMany is the refusal of a list of n elements over the node's limit.
func tooMany(n, limitL int64) error {
	return apierr.MaximumListElementsReached.New("The number of matching elements (%d) is greater than the node limit (%d).", n, limitL).
		WithDefiniteAnswer(false)
}

// list is a list being written: its elements, how many, and for an
// open-ended one the ledger end it has read through (cursor) and the
// offset of its last update (lastSeen).
type list struct {
	kind             listKind
	emit             func([]byte, update.Update) []byte
	take, n          int64
	out              []byte
	cursor, lastSeen int64
}

// pages writes the updates of r into l, a page at a time, until the
// range ends (for an open-ended range: the ledger end, a page that finds
// no update), the list has all it takes or a read fails, and returns the
// highest offset the complete pages read through (0 when none did) and
// how many pages it read. The updates are written as they are read, lent
// by the node (Node.VisitUpdatesPage), which writes those it can from
// their stored entries itself (ledger/internal/wirepage), as the JSON
// page (UpdatesPage) does; the trees' elements are all written here
// (wirepage writes the other shape). The updates a failed page wrote stay
// in l. ctx is the read's (its values as stored).
func (a *API) pages(ctx context.Context, f ledger.UpdateReadFormat, r ledger.OffsetRange, l *list) (highest int64, pages int, err error) {
	wp := &wirepage.Page{Out: l.out, N: int(l.n), Ends: make([]wirepage.End, 0, listPage)}
	if l.kind != kindTrees {
		ctx = wirepage.With(ctx, wp)
	}
	// One size for every page: a page token is bound to it. The last
	// page is cut at the update the list takes last.
	size := int32(min(listPage, l.take))
	var token []byte
	for l.n < l.take {
		wp.Ends = wp.Ends[:0]
		p, err := a.writePage(ctx, f, r, &size, token, l.emit, wp)
		read := len(wp.Ends)
		if over := int64(wp.N) - l.take; over > 0 {
			wp.Out, wp.N = wp.Out[:wp.Ends[read-int(over)-1].At], int(l.take)
			wp.Ends = wp.Ends[:read-int(over)]
		}
		l.out, l.n = wp.Out, int64(wp.N)
		if len(wp.Ends) > 0 {
			l.lastSeen = max(l.lastSeen, wp.Ends[len(wp.Ends)-1].Offset)
		}
		if err != nil {
			return highest, pages, err
		}
		pages++
		highest = max(highest, p.Highest)
		if p.NextToken == nil || r.Tail && read == 0 {
			break
		}
		token = p.NextToken
	}
	return highest, pages, nil
}

// writePage reads one page of r into wp, the updates lent by the node:
// under wirepage.With(ctx, wp) it writes those it can itself, emit
// writes the others; the end of each is recorded (wp.Done).
func (a *API) writePage(ctx context.Context, f ledger.UpdateReadFormat, r ledger.OffsetRange, size *int32, token []byte,
	emit func([]byte, update.Update) []byte, wp *wirepage.Page) (*ledger.UpdatePage, error) {
	return a.Node.VisitUpdatesPage(ctx, f, r, size, token, func(u update.Update) error {
		wp.Sep()
		wp.Out = emit(wp.Out, u)
		wp.Done(u.UpdateOffset())
		return nil
	})
}

// add writes an update; false once the list has all it takes.
func (l *list) add(u update.Update) bool {
	if l.n > 0 {
		l.out = append(l.out, ',')
	}
	l.out = l.emit(l.out, u)
	l.n++
	if _, ok := u.(*update.OffsetCheckpoint); !ok {
		l.lastSeen = max(l.lastSeen, u.UpdateOffset())
	}
	return l.n < l.take
}

// checkOnly makes the checks of a read of f over r without reading.
func (a *API) checkOnly(ctx context.Context, f ledger.UpdateReadFormat, r ledger.OffsetRange) error {
	one := int32(1)
	_, err := a.Node.UpdatesPage(ctx, f, r, &one, nil)
	return err
}

// tail reads an open-ended ascending list: the pages up to the ledger
// end, then the updates that commit until none came for the idle
// timeout, the list is full or ctx ends. ctx is the read's (its values
// as stored).
func (a *API) tail(ctx context.Context, f ledger.UpdateReadFormat, r ledger.OffsetRange, opts ledger.ListOptions, l *list) error {
	l.cursor, l.lastSeen = r.After, r.After
	highest, pages, err := a.pages(ctx, f, r, l)
	l.cursor = max(l.cursor, highest)
	if err != nil {
		if ctx.Err() != nil && pages > 0 {
			return nil // ctx ended: the list as it is, as when waiting
		}
		return err
	}
	if l.n >= l.take {
		return nil
	}
	idle := ledger.DefaultListIdleTimeout
	if opts.IdleTimeout != nil {
		idle = *opts.IdleTimeout
	}
	wait, stop := context.WithCancel(ctx)
	defer stop()
	if opts.Stop != nil {
		defer context.AfterFunc(opts.Stop, stop)()
	}
	timer := time.AfterFunc(idle, stop)
	defer timer.Stop()
	next, done := iter.Pull2(a.Node.Updates(wait, f, ledger.OffsetRange{After: l.cursor, Tail: true}))
	defer done()
	for {
		u, err, ok := next()
		if !ok {
			return nil
		}
		if err != nil {
			if wait.Err() != nil && errors.Is(err, wait.Err()) {
				break // idle, or ctx ended: the list as it is
			}
			return err
		}
		if !l.add(u) {
			return nil
		}
		l.cursor = max(l.cursor, u.UpdateOffset())
		timer.Reset(idle)
	}
	// The ledger end now, when nothing the list would show came since
	// its last update: the checkpoint may say so.
	one := int32(1)
	p, err := a.Node.UpdatesPage(context.WithoutCancel(ctx), f, ledger.OffsetRange{After: l.cursor, Tail: true}, &one, nil)
	if err == nil && len(p.Updates) == 0 {
		l.cursor = max(l.cursor, p.Highest)
	}
	return nil
}
