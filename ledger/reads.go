package ledger

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"iter"
	"slices"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// Update page sizes (UpdateServiceConfig).
const (
	DefaultUpdatesPageSize = 100
	MaxUpdatesPageSize     = 2000
	// DefaultListIdleTimeout is how long a blocking list waits for a new
	// element before it returns what it has (http-list-wait-time).
	DefaultListIdleTimeout = 500 * time.Millisecond
)

// GetUpdatesPageRequest asks for one page of updates.
type GetUpdatesPageRequest struct {
	// BeginOffsetExclusive starts the range (0: the ledger's beginning).
	BeginOffsetExclusive int64 `json:"beginOffsetExclusive"`
	// EndOffsetInclusive ends the range; nil means the ledger end at the
	// time of the request: an ascending page then always carries a next
	// page token (for tailing), and a descending one starts from that
	// ledger end (its tokens continue downwards).
	EndOffsetInclusive *int64 `json:"endOffsetInclusive"`
	// MaxPageSize is 1 to 2000; nil means 100.
	MaxPageSize *int32 `json:"maxPageSize"`
	// UpdateFormat selects what is read.
	UpdateFormat UpdateFormat `json:"updateFormat"`
	// DescendingOrder reads from the end down.
	DescendingOrder bool `json:"descendingOrder"`
	// PageToken continues a previous page of the same request (base64).
	PageToken string `json:"pageToken"`
}

// GetUpdateResponse carries one update.
type GetUpdateResponse struct {
	Update Update `json:"update"`
}

// GetUpdatesPageResponse is one page of updates: the updates in
// (LowestPageOffsetExclusive, HighestPageOffsetInclusive] that the format
// selects, in the requested order.
type GetUpdatesPageResponse struct {
	Updates                    []GetUpdateResponse `json:"updates"`
	LowestPageOffsetExclusive  int64               `json:"lowestPageOffsetExclusive"`
	HighestPageOffsetInclusive int64               `json:"highestPageOffsetInclusive"`
	NextPageToken              *string             `json:"nextPageToken"`
}

// pageToken is the decoded form of a page token: where the next page
// starts, bound to the request it continues.
type pageToken struct {
	Cursor  int64  `json:"c"`
	Request string `json:"r"`
}

// pageQuery is a compiled page request: the parameters its page token is
// bound to (exported for the fingerprint) and the token (base64).
type pageQuery struct {
	Begin  int64
	End    *int64
	Size   *int32
	Format updateSpec
	Desc   bool
	token  string
}

// fingerprint identifies the parameters a page token is bound to.
func (q *pageQuery) fingerprint() string { return fingerprint(q) }

// pageBounds are a page's bounds and its next token (base64), nil when
// the range is read.
type pageBounds struct {
	lowest, highest int64
	next            *string
}

// jsonPageQuery compiles a JSON page request.
func jsonPageQuery(req GetUpdatesPageRequest) pageQuery {
	return pageQuery{Begin: req.BeginOffsetExclusive, End: req.EndOffsetInclusive, Size: req.MaxPageSize,
		Format: jsonUpdateSpec(req.UpdateFormat), Desc: req.DescendingOrder, token: req.PageToken}
}

// fingerprint identifies the parameters a page token is bound to.
func fingerprint(params any) string {
	h := sha256.Sum256(mustJSON(params))
	return hex.EncodeToString(h[:12])
}

// checkFormatSelects checks that an update format selects something and
// names a known transaction shape, and authorizes reading it: every
// filtered party needs CanReadAs (or CanActAs), any-party filters
// CanReadAsAnyParty.
func checkFormatSelects(ctx context.Context, f *updateSpec) error {
	if f.Tx == nil && f.Ra == nil && !f.Topo {
		return apierr.InvalidArgument.New("the update format selects nothing: set includeTransactions, includeReassignments or includeTopologyEvents")
	}
	if t := f.Tx; t != nil && t.Shape != ShapeACSDelta && t.Shape != ShapeLedgerEffects {
		return apierr.InvalidField.New("transaction_shape: %q is not %s or %s", apierr.Quote(t.Shape), ShapeACSDelta, ShapeLedgerEffects)
	}
	if t := f.Tx; t != nil {
		if err := checkEventFormat(&t.Events, "include_transactions.event_format"); err != nil {
			return err
		}
	}
	if err := checkEventFormat(f.Ra, "include_reassignments"); err != nil {
		return err
	}
	parties, anyParty := f.readingParties()
	return authorizeRead(ctx, parties, anyParty)
}

// checkEventFormat refuses an event format that selects no party: it needs
// filters by party or filters for any party.
func checkEventFormat(f *eventSpec, field string) error {
	if f != nil && len(f.ByParty) == 0 && !f.HasAny {
		return apierr.InvalidArgument.New("%s: filters_by_party and filters_for_any_party cannot both be empty", field)
	}
	return nil
}

func authorizeRead(ctx context.Context, parties []string, anyParty bool) error {
	p := caller(ctx)
	for _, party := range parties {
		if err := identity.ValidatePartyString(party); err != nil {
			return apierr.InvalidField.New("filters_by_party: %v", err)
		}
	}
	// As in Canton, ParticipantAdmin grants no read rights: reading needs
	// CanReadAs/CanActAs per party, CanReadAsAnyParty for any party.
	if anyParty && !p.Has(identity.Right{Kind: identity.RightCanReadAsAnyParty}) {
		return denied("reading as any party needs CanReadAsAnyParty")
	}
	for _, party := range parties {
		if !p.CanReadAs(party) {
			return denied("the caller may not read as %s", party)
		}
	}
	return nil
}

// pkgNameOf resolves a package id to its name from the decoded-package
// cache (packages referenced by template filters are normally loaded).
func (n *Node) pkgNameOf(id string) string {
	n.pkgCache.mu.Lock()
	defer n.pkgCache.mu.Unlock()
	if p := n.pkgCache.pkgs[id]; p != nil {
		return p.Name
	}
	return ""
}

// scanEntries visits the log entries with offsets in (lo, hi], ascending or
// descending, until fn returns false. With exactly one reading party and
// no any-party filter it walks that party's index instead of the whole log.
func scanEntries(r *store.Reader, lo, hi int64, desc bool, party string, fn func(e *logEntry) (bool, error)) error {
	if hi <= lo {
		return nil
	}
	// The entries of a scan share their repeated strings.
	names := &internTable{}
	load := func(off int64) (*logEntry, error) {
		raw, err := r.Get(store.UpdateKey(off))
		if err != nil {
			return nil, err
		}
		var e logEntry
		return &e, decodeLogEntryWith(raw, &e, names)
	}
	if party != "" {
		prefix := append([]byte(store.PrefixPartyUpdate+party), '/')
		if desc {
			return r.ScanReverse(prefix, append(slices.Clone(prefix), store.OffsetBytes(hi)...), func(k, _ []byte) (bool, error) {
				off := store.DecodeOffset(k[len(prefix):])
				if off <= lo || off > hi {
					return false, nil // the scan starts inside the range: out of it is past its end
				}
				e, err := load(off)
				if err != nil {
					return false, err
				}
				return fn(e)
			})
		}
		// Ascending, the entries are read with a cursor over the log: a
		// party that sees most updates steps through it instead of
		// looking each entry up.
		log := r.Cursor([]byte(store.PrefixUpdate))
		defer log.Close()
		return r.Scan(prefix, append(slices.Clone(prefix), store.OffsetBytes(lo+1)...), func(k, _ []byte) (bool, error) {
			off := store.DecodeOffset(k[len(prefix):])
			if off > hi {
				return false, nil
			}
			var e logEntry
			if err := log.Visit(store.UpdateKey(off), func(v []byte) error { return decodeLogEntryWith(v, &e, names) }); err != nil {
				return false, err
			}
			return fn(&e)
		})
	}
	visit := func(_, v []byte) (bool, error) {
		var e logEntry
		if err := decodeLogEntryWith(v, &e, names); err != nil {
			return false, err
		}
		if e.Offset <= lo || e.Offset > hi {
			return false, nil
		}
		return fn(&e)
	}
	if desc {
		return r.ScanReverse([]byte(store.PrefixUpdate), store.UpdateKey(hi), visit)
	}
	return r.Scan([]byte(store.PrefixUpdate), store.UpdateKey(lo+1), visit)
}

// indexParty returns the single party whose index can serve a format, or "".
func indexParty(f *updateSpec) string {
	parties, anyParty := f.readingParties()
	if anyParty || len(parties) != 1 {
		return ""
	}
	return parties[0]
}

func checkOffsets(begin int64, end *int64, ledgerEnd int64) error {
	if begin < 0 {
		return apierr.NegativeOffset.New("Offset %d in begin_exclusive is a negative integer", begin)
	}
	if begin > ledgerEnd {
		return apierr.OffsetAfterLedgerEnd.New("Begin offset (%d) is after ledger end (%d)", begin, ledgerEnd)
	}
	if end != nil {
		if *end < 0 {
			return apierr.NegativeOffset.New("Offset %d in end_inclusive is a negative integer", *end)
		}
		if *end > ledgerEnd {
			return apierr.OffsetAfterLedgerEnd.New("End offset (%d) is after ledger end (%d)", *end, ledgerEnd)
		}
		if *end < begin {
			return apierr.InvalidArgument.New("end_inclusive (%d) is before begin_exclusive (%d)", *end, begin)
		}
	}
	return nil
}

// UpdatesPage returns one page of updates read from one consistent
// snapshot. A descending page is filled from the end of the range down:
// from EndOffsetInclusive, or from the current ledger end when it is
// absent. Page tokens are bound to the request: a token used with other
// parameters fails with INVALID_UPDATES_PAGE_TOKEN.
func (n *Node) UpdatesPage(ctx context.Context, req GetUpdatesPageRequest) (GetUpdatesPageResponse, error) {
	if err := n.public(ctx); err != nil {
		return GetUpdatesPageResponse{}, err
	}
	if err := checkUpdateFormatShape(&req.UpdateFormat, "updateFormat."); err != nil {
		return GetUpdatesPageResponse{}, err
	}
	updates := []GetUpdateResponse{}
	b, err := n.updatesPage(ctx, jsonPageQuery(req), func(e *logEntry, rd *renderer) (bool, error) {
		u, ok := rd.update(e)
		if ok {
			updates = append(updates, GetUpdateResponse{Update: u})
		}
		return ok, nil
	})
	if err != nil {
		return GetUpdatesPageResponse{}, err
	}
	return GetUpdatesPageResponse{Updates: updates, LowestPageOffsetExclusive: b.lowest, HighestPageOffsetInclusive: b.highest,
		NextPageToken: b.next}, nil
}

// updatesPage is UpdatesPage with the rendering left to visit: it checks
// the request, scans the page's entries and calls visit with each entry
// and the format's filters; visit emits the update (JSON or typed) and
// reports whether the entry showed anything. The response has the page's
// bounds and token, not its updates.
func (n *Node) updatesPage(ctx context.Context, q pageQuery, visit func(e *logEntry, rd *renderer) (bool, error)) (pageBounds, error) {
	if err := n.public(ctx); err != nil {
		return pageBounds{}, err
	}
	if err := n.checkSpec(ctx, &q.Format); err != nil {
		return pageBounds{}, err
	}
	size := DefaultUpdatesPageSize
	if q.Size != nil {
		switch s := int(*q.Size); {
		case s <= 0:
			return pageBounds{}, apierr.InvalidArgument.New("Requested page size must be positive")
		case s > MaxUpdatesPageSize:
			return pageBounds{}, apierr.InvalidArgument.New("Requested page size must not exceed %d", MaxUpdatesPageSize)
		default:
			size = s
		}
	}
	fp := q.fingerprint()
	var resp pageBounds
	err := n.st.View(func(r *store.Reader) error {
		ledgerEnd := n.st.LedgerEnd()
		if err := checkOffsets(q.Begin, q.End, ledgerEnd); err != nil {
			return err
		}
		if err := n.checkUpdatesNotPruned(q.Begin, q.End); err != nil { // prune.go
			return err
		}
		end := ledgerEnd
		if q.End != nil {
			end = *q.End
		}
		lo, hi := q.Begin, end
		if q.token != "" {
			var tok pageToken
			raw, err := base64.StdEncoding.DecodeString(q.token)
			if err == nil {
				err = json.Unmarshal(raw, &tok)
			}
			if err != nil || tok.Request != fp || tok.Cursor < lo || tok.Cursor > hi {
				return apierr.InvalidUpdatesPageToken.New("the page token does not belong to this request")
			}
			if q.Desc {
				hi = tok.Cursor
			} else {
				lo = tok.Cursor
			}
		}
		rd := newRenderer(q.Format, n)
		last := int64(-1)
		count := 0
		err := scanEntries(r, lo, hi, q.Desc, indexParty(&q.Format), func(e *logEntry) (bool, error) {
			ok, err := visit(e, rd)
			if err != nil {
				return false, err
			}
			if ok {
				if count++; count == size {
					last = e.Offset
					return false, nil
				}
			}
			return true, nil
		})
		if err != nil {
			return err
		}
		token := func(cursor int64) *string {
			s := base64.StdEncoding.EncodeToString(mustJSON(pageToken{Cursor: cursor, Request: fp}))
			return &s
		}
		switch {
		case !q.Desc && last >= 0:
			resp.lowest, resp.highest = lo, last
			resp.next = token(last)
		case !q.Desc:
			resp.lowest, resp.highest = lo, hi
			if q.End == nil {
				resp.next = token(hi) // tailing: ask again later
			}
		case last >= 0:
			resp.lowest, resp.highest = last-1, hi
			if last-1 > lo {
				resp.next = token(last - 1)
			}
		default:
			resp.lowest, resp.highest = lo, hi
		}
		return nil
	})
	if err != nil {
		return pageBounds{}, storeErr(err)
	}
	return resp, nil
}

// Updates walks every update of the request page by page. Without an end
// offset in ascending order it tails the ledger: when it has caught up it
// waits (woken by the committer) for new updates until ctx ends, then
// yields ctx.Err() as its last element (the package's cancellation
// contract, see streams.go). Stopping the loop releases everything.
func (n *Node) Updates(ctx context.Context, req GetUpdatesPageRequest) iter.Seq2[Update, error] {
	return func(yield func(Update, error) bool) {
		for {
			if err := ctx.Err(); err != nil {
				yield(Update{}, err)
				return
			}
			changed := n.st.Changed()
			page, err := n.UpdatesPage(ctx, req)
			if err != nil {
				yield(Update{}, err)
				return
			}
			for _, u := range page.Updates {
				if !yield(u.Update, nil) {
					return
				}
			}
			if page.NextPageToken == nil {
				return
			}
			if len(page.Updates) == 0 {
				select {
				case <-changed:
				case <-ctx.Done():
					yield(Update{}, ctx.Err())
					return
				}
			}
			req.PageToken = *page.NextPageToken
		}
	}
}

// GetUpdatesRequest is the body of the list endpoints (/v2/updates,
// /v2/updates/flats, /v2/updates/trees): exactly one of UpdateFormat or the
// legacy Filter (+Verbose) is given.
type GetUpdatesRequest struct {
	BeginExclusive  int64         `json:"beginExclusive"`
	EndInclusive    *int64        `json:"endInclusive"`
	Filter          *EventFormat  `json:"filter"`
	Verbose         bool          `json:"verbose"`
	UpdateFormat    *UpdateFormat `json:"updateFormat"`
	DescendingOrder bool          `json:"descendingOrder"`
}

// ListOptions bound a blocking list: Limit caps the number of elements (nil:
// the node's list limit), IdleTimeout is how long it waits for a new
// element (nil: 500 ms, and only when the request is open-ended).
type ListOptions struct {
	Limit       *int64
	IdleTimeout *time.Duration
}

// GetUpdatesResponse is one element of an updates list.
type GetUpdatesResponse struct {
	Update Update `json:"update"`
}

// GetUpdateTreesResponse is one element of the trees list.
type GetUpdateTreesResponse struct {
	Update TreeUpdate `json:"update"`
}

// listShape is how a list endpoint reads a legacy filter.
type listShape int

const (
	listUpdates listShape = iota
	listFlats
	listTrees
)

// checkShape checks the shape of the request's filter and update format.
func (req *GetUpdatesRequest) checkShape() error {
	if err := checkEventFormatShape(req.Filter, "filter."); err != nil {
		return err
	}
	return checkUpdateFormatShape(req.UpdateFormat, "updateFormat.")
}

// format resolves the request's format: exactly one of updateFormat and
// filter; a legacy filter reads transactions (ACS delta, or ledger effects
// for trees) and reassignments.
func (req GetUpdatesRequest) format(shape listShape) (UpdateFormat, error) {
	switch {
	case req.UpdateFormat != nil && req.Filter != nil:
		return UpdateFormat{}, apierr.InvalidArgument.New("Both update_format and filter are set. Please use either backwards compatible arguments (filter and verbose) or update_format, but not both.")
	case req.UpdateFormat != nil:
		f := *req.UpdateFormat
		if shape == listFlats && f.IncludeTransactions != nil {
			t := *f.IncludeTransactions
			t.TransactionShape = ShapeACSDelta
			f.IncludeTransactions = &t
		}
		return f, nil
	case req.Filter != nil:
		ef := *req.Filter
		ef.Verbose = req.Verbose
		s := ShapeACSDelta
		if shape == listTrees {
			s = ShapeLedgerEffects
		}
		return UpdateFormat{IncludeTransactions: &TransactionFormat{EventFormat: ef, TransactionShape: s}, IncludeReassignments: &ef}, nil
	}
	return UpdateFormat{}, apierr.InvalidArgument.New("Either filter/verbose or update_format is required. Please use either backwards compatible arguments (filter and verbose) or update_format.")
}

// UpdatesList returns the updates of the request as one list (POST
// /v2/updates). An open-ended ascending list that ends while the ledger end
// is past the last update the reader could see closes with an
// OffsetCheckpoint at that ledger end. It takes at most min(limit, L+1) elements, where L is the
// node's list limit, and fails with JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED
// (413) when more than L match. An open-ended request (no end) blocks for
// new updates — woken by the committer — and returns once no new element
// arrived for the idle timeout, the limit is reached, or ctx ends.
func (n *Node) UpdatesList(ctx context.Context, req GetUpdatesRequest, opts ListOptions) ([]GetUpdatesResponse, error) {
	return listUpdatesOf(n, ctx, req, opts, listUpdates, func(rd *renderer, e *logEntry) (GetUpdatesResponse, bool) {
		u, ok := rd.update(e)
		return GetUpdatesResponse{Update: u}, ok
	}, updateCheckpoint)
}

func updateCheckpoint(c OffsetCheckpoint) GetUpdatesResponse {
	return GetUpdatesResponse{Update: Update{OffsetCheckpoint: &Wrapped[OffsetCheckpoint]{Value: c}}}
}

// FlatsList is UpdatesList for the deprecated /v2/updates/flats: every
// transaction is read in the ACS-delta shape.
func (n *Node) FlatsList(ctx context.Context, req GetUpdatesRequest, opts ListOptions) ([]GetUpdatesResponse, error) {
	return listUpdatesOf(n, ctx, req, opts, listFlats, func(rd *renderer, e *logEntry) (GetUpdatesResponse, bool) {
		u, ok := rd.update(e)
		return GetUpdatesResponse{Update: u}, ok
	}, updateCheckpoint)
}

// TreeList is UpdatesList for the deprecated /v2/updates/trees: transactions
// as trees (ledger effects); topology transactions are not part of it.
func (n *Node) TreeList(ctx context.Context, req GetUpdatesRequest, opts ListOptions) ([]GetUpdateTreesResponse, error) {
	return listUpdatesOf(n, ctx, req, opts, listTrees, func(rd *renderer, e *logEntry) (GetUpdateTreesResponse, bool) {
		u, ok := rd.tree(e)
		return GetUpdateTreesResponse{Update: u}, ok
	}, treeCheckpoint)
}

func treeCheckpoint(c OffsetCheckpoint) GetUpdateTreesResponse {
	return GetUpdateTreesResponse{Update: TreeUpdate{OffsetCheckpoint: &Wrapped[OffsetCheckpoint]{Value: c}}}
}

func listUpdatesOf[T any](n *Node, ctx context.Context, req GetUpdatesRequest, opts ListOptions, shape listShape,
	render func(*renderer, *logEntry) (T, bool), checkpoint func(OffsetCheckpoint) T) ([]T, error) {
	if err := n.public(ctx); err != nil {
		return nil, err
	}
	if err := req.checkShape(); err != nil {
		return nil, err
	}
	f, err := req.format(shape)
	if err != nil {
		return nil, err
	}
	if shape == listTrees {
		f.IncludeTopologyEvents = nil
	}
	spec := jsonUpdateSpec(f)
	if err := n.checkSpec(ctx, &spec); err != nil {
		return nil, err
	}
	if req.DescendingOrder && req.EndInclusive == nil {
		return nil, apierr.DescendingOrderMissingEnd.New("descending order needs end_inclusive")
	}
	if err := checkOffsets(req.BeginExclusive, req.EndInclusive, n.st.LedgerEnd()); err != nil {
		return nil, err
	}
	if err := n.checkUpdatesNotPruned(req.BeginExclusive, req.EndInclusive); err != nil { // prune.go
		return nil, err
	}
	rd := newRenderer(spec, n)
	waits := req.EndInclusive == nil || opts.IdleTimeout != nil
	return collect(n, ctx, req.BeginExclusive, req.EndInclusive, req.DescendingOrder, indexParty(&spec), opts, waits,
		func(e *logEntry) (T, bool) { return render(rd, e) }, checkpoint)
}

// collect gathers the rendered log entries of (begin, end] as one list
// under the list limit (413 beyond it). When waits, it blocks for new
// entries — woken by the committer — until none arrived for the idle
// timeout, the limit is reached, or ctx ends; an open-ended ascending list
// then closes with an OffsetCheckpoint when the ledger end moved past the
// last entry it could see.
func collect[T any](n *Node, ctx context.Context, begin int64, end *int64, desc bool, party string, opts ListOptions, waits bool,
	render func(*logEntry) (T, bool), checkpoint func(OffsetCheckpoint) T) ([]T, error) {
	limitL := int64(n.opts.ListLimit)
	take := limitL + 1
	if opts.Limit != nil && *opts.Limit < take {
		take = max(*opts.Limit, 0) // a negative limit takes nothing, as pekko's take does
	}
	if take == 0 {
		return []T{}, nil
	}
	idle := DefaultListIdleTimeout
	if opts.IdleTimeout != nil {
		idle = *opts.IdleTimeout
	}
	out := []T{}
	cursor := begin
	lastSeen := begin // the last update the reader could see
	// finish ends an open-ended list: when the ledger end moved past the
	// last visible update, an OffsetCheckpoint at the ledger end tells the
	// reader it may resume from there (if the list has room for it).
	finish := func() []T {
		if end == nil && !desc && cursor > lastSeen && int64(len(out)) < min(take, limitL) {
			out = append(out, checkpoint(n.checkpoint(cursor).wire()))
		}
		return out
	}
	var timer *time.Timer
	for {
		changed := n.st.Changed()
		hi := n.st.LedgerEnd()
		if end != nil {
			hi = *end
		}
		before := len(out)
		err := n.st.View(func(r *store.Reader) error {
			lo := cursor
			if desc {
				lo = begin
			}
			return scanEntries(r, lo, hi, desc, party, func(e *logEntry) (bool, error) {
				if v, ok := render(e); ok {
					out = append(out, v)
					lastSeen = max(lastSeen, e.Offset)
				}
				return int64(len(out)) < take, nil
			})
		})
		if err != nil {
			return nil, storeErr(err)
		}
		cursor = hi
		if int64(len(out)) > limitL {
			return nil, apierr.MaximumListElementsReached.New("The number of matching elements (%d) is greater than the node limit (%d).", len(out), limitL).
				WithDefiniteAnswer(false)
		}
		if int64(len(out)) >= take || !waits || end != nil && cursor >= *end {
			return finish(), nil
		}
		if timer == nil || len(out) > before {
			if timer != nil {
				timer.Stop()
			}
			timer = time.NewTimer(idle)
			defer timer.Stop()
		}
		select {
		case <-changed:
		case <-timer.C:
			return finish(), nil
		case <-ctx.Done():
			return finish(), nil
		}
	}
}

// GetUpdateByIDRequest looks an update up by id.
type GetUpdateByIDRequest struct {
	UpdateID     string       `json:"updateId"`
	UpdateFormat UpdateFormat `json:"updateFormat"`
}

// GetUpdateByOffsetRequest looks an update up by offset.
type GetUpdateByOffsetRequest struct {
	Offset       int64        `json:"offset"`
	UpdateFormat UpdateFormat `json:"updateFormat"`
}

// TransactionTreeResponse carries a transaction tree.
type TransactionTreeResponse struct {
	Transaction JsTransactionTree `json:"transaction"`
}

func updateNotFound(what string) error {
	return apierr.UpdateNotFound.New("Update not found, or not visible: %s", what)
}

// entryAt loads the entry at an offset, or by update id when id is set.
func (n *Node) entryAt(id string, off int64) (*logEntry, error) {
	var e logEntry
	err := n.st.View(func(r *store.Reader) error {
		if id != "" {
			raw, err := r.Get(store.UpdateIDKey(id))
			if err != nil {
				return err
			}
			off = store.DecodeOffset(raw)
		}
		raw, err := r.Get(store.UpdateKey(off))
		if err != nil {
			return err
		}
		return decodeLogEntry(raw, &e)
	})
	if errors.Is(err, store.ErrNotFound) {
		if id != "" {
			return nil, updateNotFound("update id "+apierr.Quote(id)).(*apierr.Error).WithResource("UPDATE_ID", id)
		}
		return nil, updateNotFound("offset")
	}
	return &e, storeErr(err)
}

// UpdateByID returns the update with that id as the format shows it;
// UPDATE_NOT_FOUND when it does not exist or nothing of it is visible.
func (n *Node) UpdateByID(ctx context.Context, req GetUpdateByIDRequest) (GetUpdateResponse, error) {
	if err := checkUpdateFormatShape(&req.UpdateFormat, "updateFormat."); err != nil {
		return GetUpdateResponse{}, err
	}
	return n.updateBy(ctx, req.UpdateID, 0, jsonUpdateSpec(req.UpdateFormat))
}

// UpdateByOffset returns the update at an offset (see UpdateByID).
func (n *Node) UpdateByOffset(ctx context.Context, req GetUpdateByOffsetRequest) (GetUpdateResponse, error) {
	if err := checkUpdateFormatShape(&req.UpdateFormat, "updateFormat."); err != nil {
		return GetUpdateResponse{}, err
	}
	if req.Offset <= 0 {
		return GetUpdateResponse{}, apierr.NonPositiveOffset.New("Offset %d is not a positive integer", req.Offset)
	}
	return n.updateBy(ctx, "", req.Offset, jsonUpdateSpec(req.UpdateFormat))
}

func (n *Node) updateBy(ctx context.Context, id string, off int64, f updateSpec) (GetUpdateResponse, error) {
	e, err := n.entryFor(ctx, id, off, &f)
	if err != nil {
		return GetUpdateResponse{}, err
	}
	u, ok := newRenderer(f, n).update(e)
	if !ok {
		return GetUpdateResponse{}, updateNotFound(e.UpdateID)
	}
	return GetUpdateResponse{Update: u}, nil
}

// entryFor checks a format and loads the entry with that update id (or
// at that offset) for a read by id: the checks of updateBy.
func (n *Node) entryFor(ctx context.Context, id string, off int64, f *updateSpec) (*logEntry, error) {
	if err := n.public(ctx); err != nil {
		return nil, err
	}
	if err := n.checkSpec(ctx, f); err != nil {
		return nil, err
	}
	return n.entryAt(id, off)
}

// TransactionTreeByID returns a transaction as a tree (ledger effects),
// seen by the parties; UPDATE_NOT_FOUND when absent or invisible to them.
func (n *Node) TransactionTreeByID(ctx context.Context, updateID string, parties []string) (TransactionTreeResponse, error) {
	return n.treeBy(ctx, updateID, 0, parties)
}

// TransactionTreeByOffset is TransactionTreeByID by offset.
func (n *Node) TransactionTreeByOffset(ctx context.Context, offset int64, parties []string) (TransactionTreeResponse, error) {
	if offset <= 0 {
		return TransactionTreeResponse{}, apierr.NonPositiveOffset.New("Offset %d is not a positive integer", offset)
	}
	return n.treeBy(ctx, "", offset, parties)
}

func (n *Node) treeBy(ctx context.Context, id string, off int64, parties []string) (TransactionTreeResponse, error) {
	if err := n.public(ctx); err != nil {
		return TransactionTreeResponse{}, err
	}
	if len(parties) == 0 {
		return TransactionTreeResponse{}, apierr.MissingField.New("requesting_parties")
	}
	if err := authorizeRead(ctx, parties, false); err != nil {
		return TransactionTreeResponse{}, err
	}
	e, err := n.entryAt(id, off)
	if err != nil {
		return TransactionTreeResponse{}, err
	}
	ef := partiesSpec(parties, false)
	if e.Kind == kindTransaction {
		if t := renderTree(e, newSpecFilter(&ef, n)); t != nil {
			return TransactionTreeResponse{Transaction: *t}, nil
		}
	}
	return TransactionTreeResponse{}, updateNotFound(e.UpdateID)
}

// GetTransactionByIDRequest is the deprecated lookup of a transaction by
// update id: exactly one of RequestingParties and TransactionFormat.
type GetTransactionByIDRequest struct {
	UpdateID          string             `json:"updateId"`
	RequestingParties []string           `json:"requestingParties"`
	TransactionFormat *TransactionFormat `json:"transactionFormat"`
}

// GetTransactionByOffsetRequest is GetTransactionByIDRequest by offset.
type GetTransactionByOffsetRequest struct {
	Offset            int64              `json:"offset"`
	RequestingParties []string           `json:"requestingParties"`
	TransactionFormat *TransactionFormat `json:"transactionFormat"`
}

// GetTransactionResponse carries one transaction (JsGetTransactionResponse).
type GetTransactionResponse struct {
	Transaction JsTransaction `json:"transaction"`
}

// legacyTransactionFormat resolves the format of a deprecated transaction
// lookup: the transaction format, or for requesting parties a wildcard
// filter per party, verbose, in the ACS-delta shape. Exactly one of the
// two must be given.
func legacyTransactionFormat(parties []string, f *TransactionFormat) (TransactionFormat, error) {
	if err := checkTransactionFormatShape(f, "transactionFormat."); err != nil {
		return TransactionFormat{}, err
	}
	switch {
	case f != nil && len(parties) > 0:
		return TransactionFormat{}, apierr.InvalidArgument.New("Both transaction_format and requesting_parties are set. Please use either backwards compatible arguments (requesting_parties) or transaction_format, but not both.")
	case f != nil:
		return *f, nil
	case len(parties) > 0:
		ef := EventFormat{FiltersByParty: map[string]Filters{}, Verbose: true}
		for _, p := range parties {
			ef.FiltersByParty[p] = Filters{}
		}
		return TransactionFormat{EventFormat: ef, TransactionShape: ShapeACSDelta}, nil
	}
	return TransactionFormat{}, apierr.InvalidArgument.New("Either transaction_format or requesting_parties is required. Please use either backwards compatible arguments (requesting_parties) or transaction_format.")
}

// TransactionByID returns the transaction with that update id as the
// format shows it (deprecated POST /v2/updates/transaction-by-id). Reading
// needs CanReadAs on the requesting parties (or on the format's parties).
// UPDATE_NOT_FOUND when there is no such update, it is not a
// transaction, or nothing of it is visible.
func (n *Node) TransactionByID(ctx context.Context, req GetTransactionByIDRequest) (GetTransactionResponse, error) {
	f, err := legacyTransactionFormat(req.RequestingParties, req.TransactionFormat)
	if err != nil {
		return GetTransactionResponse{}, err
	}
	if req.UpdateID == "" {
		return GetTransactionResponse{}, apierr.MissingField.New("update_id")
	}
	return n.transactionBy(ctx, req.UpdateID, 0, f)
}

// TransactionByOffset is TransactionByID by offset (a positive integer,
// NON_POSITIVE_OFFSET otherwise).
func (n *Node) TransactionByOffset(ctx context.Context, req GetTransactionByOffsetRequest) (GetTransactionResponse, error) {
	f, err := legacyTransactionFormat(req.RequestingParties, req.TransactionFormat)
	if err != nil {
		return GetTransactionResponse{}, err
	}
	if req.Offset <= 0 {
		return GetTransactionResponse{}, apierr.NonPositiveOffset.New("Offset %d is not a positive integer", req.Offset)
	}
	return n.transactionBy(ctx, "", req.Offset, f)
}

func (n *Node) transactionBy(ctx context.Context, id string, off int64, f TransactionFormat) (GetTransactionResponse, error) {
	resp, err := n.updateBy(ctx, id, off, updateSpec{Tx: jsonTxSpec(&f)})
	if err != nil {
		return GetTransactionResponse{}, err
	}
	if resp.Update.Transaction == nil {
		return GetTransactionResponse{}, updateNotFound("the update is not a transaction")
	}
	return GetTransactionResponse{Transaction: resp.Update.Transaction.Value}, nil
}

// ListLimit is the most elements a blocking list returns
// (Options.ListLimit, http-list-max-elements-limit); the JSON layer's
// lists refuse more with JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED.
func (n *Node) ListLimit() int { return n.opts.ListLimit }
