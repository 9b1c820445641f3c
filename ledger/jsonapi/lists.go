package jsonapi

import (
	"context"
	"errors"
	"iter"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/internal/rawjson"
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
	limitL, take := a.listTake(opts)
	l := list{emit: appendElement(kind), take: take, out: append(make([]byte, 0, 4096), '[')}
	read := rawjson.WithStoredValues(ctx)
	switch {
	case take == 0:
		// Nothing to take: the read's checks only.
		if err := a.checkOnly(read, f, r); err != nil {
			return nil, err
		}
	case !r.Tail || r.Descending:
		// A bounded range (or the refusal of a descending one without
		// an end), read without waiting.
		for u, err := range a.Node.Updates(read, f, r) {
			if err != nil {
				return nil, err
			}
			if !l.add(u) {
				break
			}
		}
	default:
		if err := a.tail(read, f, r, opts, &l); err != nil {
			return nil, err
		}
	}
	if l.n > limitL {
		return nil, tooMany(l.n, limitL)
	}
	if l.cursor > l.lastSeen && l.n < min(take, limitL) {
		l.add(a.Node.CheckpointAt(l.cursor))
	}
	return append(l.out, ']'), nil
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
	emit             func([]byte, update.Update) []byte
	take, n          int64
	out              []byte
	cursor, lastSeen int64
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
	if r.Tail && r.Descending {
		for _, err := range a.Node.Updates(ctx, f, r) {
			return err
		}
		return nil
	}
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
	size := int32(listPage)
	var token []byte
	for {
		p, err := a.Node.UpdatesPage(ctx, f, r, &size, token)
		if err != nil && ctx.Err() != nil && token != nil {
			return nil // ctx ended: the list as it is, as when waiting
		}
		if err != nil {
			return err
		}
		for _, u := range p.Updates {
			if !l.add(u) {
				return nil
			}
		}
		l.cursor = max(l.cursor, p.Highest)
		if len(p.Updates) == 0 || p.NextToken == nil {
			break
		}
		token = p.NextToken
	}
	idle := ledger.DefaultListIdleTimeout
	if opts.IdleTimeout != nil {
		idle = *opts.IdleTimeout
	}
	wait, stop := context.WithCancel(ctx)
	defer stop()
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
