package ledger

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// Update page sizes (UpdateServiceConfig).
const (
	DefaultUpdatesPageSize = 100
	MaxUpdatesPageSize     = 2000
	// DefaultListIdleTimeout is how long a blocking list waits for a new
	// element before it returns what it has (http-list-wait-time).
	DefaultListIdleTimeout = 500 * time.Millisecond
)

// pageToken is the decoded form of a page token: where the next page
// starts, bound to the request it continues.
type pageToken struct {
	Cursor  int64  `json:"c"`
	Request string `json:"r"`
}

// ErrMalformedPageToken is the cause (errors.Is) of the refusal of a
// page token that is no token the node wrote: Canton's refusal of a
// token that does not parse, INVALID_FIELD page_token. A token of
// another request is refused with INVALID_UPDATES_PAGE_TOKEN or
// INVALID_ACS_PAGE_TOKEN instead.
var ErrMalformedPageToken = errors.New("malformed page token")

// decodePageToken decodes a page token (base64 of its JSON) into tok, or
// refuses it as Canton refuses a token that does not parse, naming the
// request (GetUpdatesPageRequest, GetActiveContractsPageRequest).
func decodePageToken(token string, tok any, request string) error {
	raw, err := base64.StdEncoding.DecodeString(token)
	if err == nil {
		err = json.Unmarshal(raw, tok)
	}
	if err != nil {
		return apierr.InvalidField.Wrap(ErrMalformedPageToken, "Invalid field page_token: Invalid page token for %s", request)
	}
	return nil
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
	// lend reads the entries lent (scanEntries): the page's visit uses
	// each entry at once and keeps nothing of it.
	lend bool
	// rawNames reads them with scanRawNames.
	rawNames bool
	// endGiven is set when End is the request's (OffsetRange.Through),
	// not the ledger end the query was made at.
	endGiven bool
}

// fingerprint identifies the parameters a page token is bound to.
func (q *pageQuery) fingerprint() string { return fingerprint(q) }

// pageBounds are a page's bounds and its next token (base64), nil when
// the range is read.
type pageBounds struct {
	lowest, highest int64
	next            *string
}

// fingerprint identifies the parameters a page token is bound to.
func fingerprint(params any) string {
	h := sha256.Sum256(mustJSON(params))
	return hex.EncodeToString(h[:12])
}

// checkUpdateSpec checks an update format's event formats and
// authorizes reading it (the shape is typed, ledger.Shape): every
// filtered party needs CanReadAs (or CanActAs), any-party filters
// CanReadAsAnyParty. A format that selects no kind of update is valid,
// as in Canton (FormatValidator takes each part as optional): its reads
// show nothing.
func checkUpdateSpec(ctx context.Context, f *updateSpec) error {
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
	for _, party := range parties {
		if err := identity.ValidatePartyString(party); err != nil {
			return apierr.InvalidField.New("filters_by_party: %v", err)
		}
	}
	return authorizeReadRights(ctx, parties, anyParty)
}

// authorizeReadRights is authorizeRead without the check of the party
// strings, for a request whose parties Canton validates after the
// authorization and otherwise (Contract).
func authorizeReadRights(ctx context.Context, parties []string, anyParty bool) error {
	p := caller(ctx)
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
// The entry fn gets is only valid during the call (the next entry is
// decoded into it): fn keeps what it needs of it, its fields' values,
// never the entry itself. With scanLend, the entry is lent
// (decodeBinaryLogEntry): fn keeps nothing of it at all, not even its
// fields' values, and spares the copies.
//
// With scanDense (a reader whose fn shows nothing of an entry that does
// not involve the party, such as a page's), an ascending scan of a
// party's index that reads denseRun entries in a row at consecutive
// offsets reads the log itself from there, skipping the entries that do
// not involve the party, and goes back to the index after sparseRun such
// entries in a row: a party in most updates is read at the cost of the
// log alone, one in few at the cost of its own updates (and sparseRun
// more per run).
func scanEntries(r *store.Reader, lo, hi int64, desc bool, party string, how scanHow, fn func(e *logEntry) (bool, error)) error {
	if hi <= lo {
		return nil
	}
	// The entries of a scan share their repeated strings, one entry
	// (the decoder writes each anew) and one key buffer.
	names := &internTable{}
	e := new(logEntry)
	var lent *lentEntries
	if how&scanLend != 0 {
		lent = new(lentEntries)
	}
	var key []byte
	updateKey := func(off int64) []byte {
		key = store.AppendUpdateKey(key[:0], off)
		return key
	}
	decode := func(v []byte) error {
		*e = logEntry{}
		if how&scanRawNames != 0 && len(v) > 0 && v[0] == binlogV1 {
			err := decodeLogEntryLent(v, e, nil, lent)
			e.raw = v
			return err
		}
		return decodeLogEntryLent(v, e, names, lent)
	}
	if party != "" {
		prefix := append([]byte(store.PrefixPartyUpdate+party), '/')
		if desc {
			return r.ScanReverse(prefix, append(slices.Clone(prefix), store.OffsetBytes(hi)...), func(k, _ []byte) (bool, error) {
				off := store.DecodeOffset(k[len(prefix):])
				if off <= lo || off > hi {
					return false, nil // the scan starts inside the range: out of it is past its end
				}
				raw, err := r.Get(updateKey(off))
				if err == nil {
					err = decode(raw)
				}
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
		from := lo // the offsets through from are read
		done := false
		for !done {
			// The party's index, until it lists a run of denseRun
			// consecutive offsets (with scanDense).
			run, direct := 0, false
			done = true
			err := r.Scan(prefix, append(slices.Clone(prefix), store.OffsetBytes(from+1)...), func(k, _ []byte) (bool, error) {
				off := store.DecodeOffset(k[len(prefix):])
				if off > hi {
					return false, nil
				}
				if off == from+1 {
					run++
				} else {
					run = 0
				}
				from = off
				// fn sees the entry inside the value's callback: a lent
				// entry is the value's bytes, valid during it only.
				var more bool
				err := log.Visit(updateKey(off), func(v []byte) error {
					err := decode(v)
					if err == nil {
						more, err = fn(e)
					}
					return err
				})
				if more && err == nil && how&scanDense != 0 && run >= denseRun {
					direct, done = true, false
					return false, nil
				}
				return more, err
			})
			if err != nil || !direct {
				return err
			}
			// The log itself, until sparseRun entries in a row do not
			// involve the party: every entry the index lists involves it
			// (logEntry.involves), and fn sees nothing of the others.
			misses := 0
			done = true
			err = r.Scan([]byte(store.PrefixUpdate), store.UpdateKey(from+1), func(_, v []byte) (bool, error) {
				if err := decode(v); err != nil {
					return false, err
				}
				if e.Offset > hi {
					return false, nil
				}
				from = e.Offset
				if !e.involves(party) {
					if misses++; misses == sparseRun {
						done = false // back to the index
						return false, nil
					}
					return true, nil
				}
				misses = 0
				return fn(e)
			})
			if err != nil {
				return err
			}
		}
		return nil
	}
	visit := func(_, v []byte) (bool, error) {
		if err := decode(v); err != nil {
			return false, err
		}
		if e.Offset <= lo || e.Offset > hi {
			return false, nil
		}
		return fn(e)
	}
	if desc {
		return r.ScanReverse([]byte(store.PrefixUpdate), store.UpdateKey(hi), visit)
	}
	return r.Scan([]byte(store.PrefixUpdate), store.UpdateKey(lo+1), visit)
}

// scanHow says how scanEntries reads: scanLend lends the entries,
// scanDense reads the log itself through runs of a party's updates, and
// scanRawNames (with scanLend) leaves a binary entry's names lent, not
// interned, and sets its raw: for a reader that keeps none of them and
// decodes raw again, with interned names, for a reader that does (the
// wire page and its typed fallback).
type scanHow uint8

const (
	scanLend scanHow = 1 << iota
	scanDense
	scanRawNames
)

// denseRun and sparseRun are the runs at which scanEntries goes from a
// party's index to the log and back.
const (
	denseRun  = 16
	sparseRun = 16
)

// indexParty returns the single party whose index can serve a format, or "".
func indexParty(f *updateSpec) string {
	parties, anyParty := f.readingParties()
	if anyParty || len(parties) != 1 {
		return ""
	}
	return parties[0]
}

// negativeOffset is Canton's refusal of an offset field that must not be
// negative (ParticipantOffsetValidator.validateNonNegative).
func negativeOffset(field string, v int64) error {
	return apierr.NegativeOffset.New("Offset %d in %s is a negative integer: the offset in %s field has to be a non-negative integer (>=0)", v, field, field)
}

// nonPositiveOffset is Canton's refusal of an offset field that must be
// positive (validatePositive; with optional, validateOptionalPositive of
// a field that may be left out).
func nonPositiveOffset(field string, v int64, optional bool) error {
	why := "the offset has to be a positive integer (>0)"
	if optional {
		why = "the offset has to be either a positive integer (>0) or not defined at all"
	}
	return apierr.NonPositiveOffset.New("Offset %d in %s is not a positive integer: %s", v, field, why)
}

// afterLedgerEnd is Canton's refusal of an offset past the ledger end
// (offsetIsBeforeEnd), what naming it as Canton does ("Begin", "End").
func afterLedgerEnd(what string, v, ledgerEnd int64) error {
	return apierr.OffsetAfterLedgerEnd.New("%s offset (%d) is after ledger end (%d)", what, v, ledgerEnd)
}

// checkStreamRange checks the range of an updates stream (or of a
// completions stream: After only, Tail) as Canton's GetUpdates does, in
// its order (UpdateServiceRequestValidator: begin_exclusive not
// negative, an end when descending, end_inclusive positive, both at most
// the ledger end; then the stream's between: the end not before the
// begin).
func checkStreamRange(r OffsetRange, ledgerEnd int64) error {
	if r.After < 0 {
		return negativeOffset("begin_exclusive", r.After)
	}
	end := r.Through
	if r.Tail {
		end = nil
	}
	if r.Tail && r.Descending {
		return apierr.DescendingOrderMissingEnd.New("end_inclusive is not provided when descending_order is true")
	}
	if end != nil && *end <= 0 {
		return nonPositiveOffset("end_inclusive", *end, !r.Descending)
	}
	if r.After > ledgerEnd {
		return afterLedgerEnd("Begin", r.After, ledgerEnd)
	}
	if end != nil && *end > ledgerEnd {
		return afterLedgerEnd("End", *end, ledgerEnd)
	}
	if end != nil && *end < r.After {
		return apierr.OffsetOutOfRange.New("End offset %d is before begin offset %d.", *end, r.After)
	}
	return nil
}

// CheckUpdatesRange makes the checks of an updates stream's range that
// Updates makes before it reads (Canton's, for GetUpdates; see
// checkStreamRange), for a stream read otherwise — the JSON API's lists
// and WebSocket streams read theirs a page at a time (VisitUpdatesPage,
// whose checks are those of a page request).
func (n *Node) CheckUpdatesRange(ctx context.Context, r OffsetRange) error {
	if err := n.public(ctx); err != nil {
		return err
	}
	return checkStreamRange(r, n.st.LedgerEnd())
}

// checkPageRange checks the range of a page request as Canton's
// GetUpdatesPage does (validateUpdatesPageRequest: endOffsetInclusive
// positive, beginOffsetExclusive not negative, the end at most the
// ledger end, the begin not after the end). A begin after the ledger end
// with no end is refused as a stream's is.
func checkPageRange(q *pageQuery, ledgerEnd int64) error {
	if q.endGiven && *q.End <= 0 {
		return nonPositiveOffset("endOffsetInclusive", *q.End, false)
	}
	if q.Begin < 0 {
		return negativeOffset("beginOffsetExclusive", q.Begin)
	}
	if q.endGiven && *q.End > ledgerEnd {
		return afterLedgerEnd("endOffsetInclusive", *q.End, ledgerEnd)
	}
	if !q.endGiven && q.Begin > ledgerEnd {
		return afterLedgerEnd("Begin", q.Begin, ledgerEnd)
	}
	if q.End != nil && q.Begin > *q.End {
		return apierr.InvalidArgument.New("beginOffsetExclusive is after endOffsetInclusive")
	}
	return nil
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
	fp := q.fingerprint()
	// The token is read before the page size and the offsets are
	// checked, as Canton's UpdateServiceRequestValidator does (after the
	// authorization by the format's parties); where it continues is
	// checked against the range in the snapshot below.
	var tok pageToken
	if q.token != "" {
		if err := decodePageToken(q.token, &tok, "GetUpdatesPageRequest"); err != nil {
			return pageBounds{}, err
		}
		if tok.Request != fp {
			return pageBounds{}, apierr.InvalidUpdatesPageToken.New("Next page token was obtained with different request parameters")
		}
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
	var resp pageBounds
	err := n.st.View(func(r *store.Reader) error {
		ledgerEnd := n.st.LedgerEnd()
		if err := checkPageRange(&q, ledgerEnd); err != nil {
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
			if tok.Cursor < lo || tok.Cursor > hi {
				// Only a token made up (its request's parameters bound
				// where it may continue) lands here.
				return apierr.InvalidUpdatesPageToken.New("Next page token was obtained with different request parameters")
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
		how := scanDense
		if q.lend {
			how |= scanLend
			if q.rawNames {
				how |= scanRawNames
			}
		}
		err := scanEntries(r, lo, hi, q.Desc, indexParty(&q.Format), how, func(e *logEntry) (bool, error) {
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

// ListOptions bound a blocking list: Limit caps the number of elements (nil:
// the node's list limit), IdleTimeout is how long it waits for a new
// element (nil: 500 ms, and only when the request is open-ended).
type ListOptions struct {
	Limit       *int64
	IdleTimeout *time.Duration
	// Stop, when it ends, ends the list's wait for new elements as the
	// idle timeout does (a server shutting down); the reads before the
	// wait go on. nil: never.
	Stop context.Context
}

// collect gathers the rendered log entries of (begin, end] as one list
// under the list limit (413 beyond it). When waits, it blocks for new
// entries — woken by the committer — until none arrived for the idle
// timeout, the limit is reached, or ctx ends; an open-ended ascending list
// then closes with an OffsetCheckpoint when the ledger end moved past the
// last entry it could see.
func collect[T any](n *Node, ctx context.Context, begin int64, end *int64, desc bool, party string, opts ListOptions, waits bool,
	render func(*logEntry) (T, bool), checkpoint func(*update.OffsetCheckpoint) T) ([]T, error) {
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
			out = append(out, checkpoint(n.checkpoint(cursor)))
		}
		return out
	}
	var stopped <-chan struct{} // nil: never ready
	if opts.Stop != nil {
		stopped = opts.Stop.Done()
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
			return scanEntries(r, lo, hi, desc, party, 0, func(e *logEntry) (bool, error) {
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
		case <-stopped:
			return finish(), nil
		case <-ctx.Done():
			return finish(), nil
		}
	}
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

// ListLimit is the most elements a blocking list returns
// (Options.ListLimit, http-list-max-elements-limit); the JSON layer's
// lists refuse more with JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED.
func (n *Node) ListLimit() int { return n.opts.ListLimit }
