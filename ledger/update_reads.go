package ledger

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"iter"
	"strings"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger/internal/wirepage"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// Reads: the updates and active contracts with typed values. Their
// formats compile to read specs (event_filter_spec.go) that the checks,
// rights, errors, page tokens and the one visibility pass (visibility.go:
// which events a reader sees, witnesses, acsDelta, blobs, interface
// views) work on; render.go renders the stored entries as typed
// events. The JSON Ledger API's reads are a layer over these
// (ledger/jsonapi).

// Shape is the shape of the transactions a typed read returns (Canton's
// TransactionShape).
type Shape uint8

// Transaction shapes.
const (
	// ACSDelta shows the creates and archives that change the active
	// contracts of the reading parties (update.CreatedEvent,
	// update.ArchivedEvent).
	ACSDelta Shape = iota
	// LedgerEffects shows every create and exercise the reading parties
	// witness (update.CreatedEvent, update.ExercisedEvent).
	LedgerEffects
)

// Filter is one cumulative filter of a party (Canton's CumulativeFilter):
// every template (WildcardFilter), one template (TemplateFilter) or the
// templates implementing an interface (InterfaceFilter), each with its
// own flags, or none (NoneFilter). Build it with those functions; the zero Filter is the
// wildcard without blobs.
type Filter struct {
	kind    filterKind
	ref     TemplateRef
	text    string // the id as written, when written (TemplateFilterText, InterfaceFilterText)
	written bool
	blobs   bool
	views   bool
}

type filterKind uint8

const (
	wildcardFilter filterKind = iota
	templateFilter
	interfaceFilter
	noneFilter
)

// WildcardFilter selects every template; blobs includes each created
// contract's blob (update.CreatedEvent.Blob).
func WildcardFilter(blobs bool) Filter { return Filter{kind: wildcardFilter, blobs: blobs} }

// TemplateFilter selects the contracts of a template (by package id:
// that package's name, every version); blobs includes their blobs.
func TemplateFilter(t TemplateRef, blobs bool) Filter {
	return Filter{kind: templateFilter, ref: t, blobs: blobs}
}

// InterfaceFilter selects the contracts of the templates implementing an
// interface; views computes their views of it
// (update.CreatedEvent.InterfaceViews), blobs includes their blobs.
func InterfaceFilter(i TemplateRef, views, blobs bool) Filter {
	return Filter{kind: interfaceFilter, ref: i, blobs: blobs, views: views}
}

// TemplateFilterText is TemplateFilter naming the template by its text
// ("pkg:Module:Entity" or "#name:Module:Entity") as a client wrote it,
// for a reader relaying a client's filter: the read checks the text as
// the JSON API's filters (INVALID_ARGUMENT when it is not an
// identifier) and its refusals quote it as written, where TemplateFilter's
// quote the reference's String (which drops, say, a trailing ':').
func TemplateFilterText(id string, blobs bool) Filter {
	return Filter{kind: templateFilter, text: id, written: true, blobs: blobs}
}

// InterfaceFilterText is InterfaceFilter naming the interface by its
// text as a client wrote it (TemplateFilterText).
func InterfaceFilterText(id string, views, blobs bool) Filter {
	return Filter{kind: interfaceFilter, text: id, written: true, blobs: blobs, views: views}
}

// NoneFilter is an identifier filter with no variant set, as Canton's
// FormatValidator (ledger-api-core) reads one: among a party's other
// filters it adds nothing and is dropped, and a party whose filters are
// all NoneFilter reads every template, as with no filters. It is what the
// JSON API makes of an identifier filter that is Empty or has no variant.
func NoneFilter() Filter { return Filter{kind: noneFilter} }

// Equal reports whether two filters are the same (for go-cmp).
func (f Filter) Equal(o Filter) bool { return f == o }

// ReadFormat selects what a typed read shows (Canton's EventFormat, with
// the transaction shape of a TransactionFormat): the parties it reads
// as, each with its filters, the filters for any party, and the shape of
// transactions.
type ReadFormat struct {
	// Parties reads as these parties (each needs CanReadAs or CanActAs),
	// each with its filters, cumulative; no filter selects every
	// template, without blobs.
	Parties map[string][]Filter
	// AnyParty, when not nil, reads as every party
	// (CanReadAsAnyParty) with these filters; empty (but not nil), every
	// template.
	AnyParty []Filter
	// Verbose is the reader's wish to see record ids and field labels
	// (Canton's verbose). The typed values always carry them; adapters
	// whose wire can drop them (gRPC) read it.
	Verbose bool
	// Shape is the shape of transactions (not used by the reads of
	// contracts and reassignments).
	Shape Shape
}

// ReadAs is the format that reads as the parties every template, without
// blobs, in the ACS-delta shape.
func ReadAs(parties ...string) ReadFormat {
	f := ReadFormat{Parties: make(map[string][]Filter, len(parties))}
	for _, p := range parties {
		f.Parties[p] = nil
	}
	return f
}

// UpdateReadFormat selects the updates a typed read of updates shows
// (Canton's UpdateFormat): at least one kind must be asked for.
type UpdateReadFormat struct {
	// Transactions, when not nil, shows transactions in this format.
	Transactions *ReadFormat
	// Reassignments, when not nil, shows reassignments in this format
	// (its Shape is not used).
	Reassignments *ReadFormat
	// Topology, when not nil, shows topology events in this format.
	Topology *TopologyReadFormat
}

// TopologyReadFormat selects the topology events a typed read shows
// (Canton's TopologyFormat, topology_format.proto).
type TopologyReadFormat struct {
	// ParticipantAuthorizations, when not nil, shows the participant
	// authorization events of these parties; empty (but not nil), of
	// every party (which needs CanReadAsAnyParty). nil shows none (the
	// proto's TopologyFormat without include_participant_authorization_events),
	// yet the format still asks for topology events: with nothing else
	// it is not refused as selecting nothing.
	ParticipantAuthorizations []string
}

// OffsetRange is the range (After, Through] of a read of updates.
type OffsetRange struct {
	// After starts the range (0: the ledger's beginning).
	After int64
	// Through ends it; nil is the ledger end at the time of the call.
	// A given end must be positive, as Canton's (NON_POSITIVE_OFFSET),
	// and not before After.
	Through *int64
	// Tail ignores Through and keeps reading as updates commit, until
	// ctx ends. In descending order a walk refuses it
	// (DESCENDING_ORDER_MISSING_END) and a page reads down from the
	// ledger end at the time of the call, as the JSON API does without
	// an end.
	Tail bool
	// Descending reads from the end of the range down.
	Descending bool
	// Checkpoints makes a tailing walk (Updates with Tail) yield a
	// *update.OffsetCheckpoint when it has read everything up to the
	// ledger end and no update arrived for Options.CheckpointDelay: the
	// reader may resume from its offset. One per ledger end: an idle ledger gives one.
	Checkpoints bool
}

// refString is a reference in the form of the JSON filters: by package
// name, the name of the package ID.PackageID when PackageName is "".
func (n *Node) refString(r TemplateRef) string {
	if r.ByPackageName && r.PackageName == "" {
		if name := n.pkgNameOf(r.ID.PackageID); name != "" {
			r.PackageName = name
		} else if p := n.cachedPackage(r.ID.PackageID); p != nil {
			r.PackageName = p.Name
		}
	}
	return r.String()
}

// UpdatePage is one page of updates: the updates of
// (Lowest, Highest] the format shows, in the requested order.
type UpdatePage struct {
	Updates         []update.Update
	Lowest, Highest int64
	// NextToken asks for the next page (same format and range); nil when
	// the range is read. The JSON API writes it as base64 text, as
	// Canton's does with the gRPC bytes.
	NextToken []byte
}

// pageQuery is the page query of a typed read of a range.
func (n *Node) pageQuery(f UpdateReadFormat, r OffsetRange, size *int32, token []byte) pageQuery {
	q := pageQuery{Begin: r.After, Format: n.typedUpdateSpec(f), Size: size, Desc: r.Descending}
	if !r.Tail {
		var end int64
		if r.Through != nil {
			end, q.endGiven = *r.Through, true
		} else {
			end = n.st.LedgerEnd()
			if r.After > end {
				end = r.After // checkPageRange refuses the begin
			}
		}
		q.End = &end
	}
	if token != nil {
		q.token = base64.StdEncoding.EncodeToString(token)
	}
	return q
}

// UpdatesPage returns one page of the updates of a range as the
// format shows them, with typed values (UpdatesPage: its checks, rights,
// tokens and errors; INVALID_UPDATES_PAGE_TOKEN for a token of another
// request, INVALID_FIELD for one that is no token: ErrMalformedPageToken).
// size is 1 to MaxUpdatesPageSize, nil DefaultUpdatesPageSize; token is
// the NextToken of the previous page, nil for the first. With
// r.Tail an ascending page always has a next token (to ask again later).
func (n *Node) UpdatesPage(ctx context.Context, f UpdateReadFormat, r OffsetRange, size *int32, token []byte) (*UpdatePage, error) {
	q := n.pageQuery(f, r, size, token)
	updates := make([]update.Update, 0, pageCap(q.Size))
	p, err := n.typedPage(ctx, q, n.typedRendererFor(ctx), nil, func(u update.Update) error {
		updates = append(updates, u)
		return nil
	})
	if err != nil {
		return nil, err
	}
	p.Updates = updates
	return p, nil
}

// VisitUpdatesPage is UpdatesPage calling visit with each update of the
// page, in order, as it is read, instead of collecting them: the page it
// returns has the bounds and token, and no Updates. An error of visit
// ends the read and is returned as it is.
//
// The update is lent to visit for the call only, which spares copying it
// out of the store: an encoder writing each update out (the JSON API's
// page does) keeps nothing of it. Rules for visit:
//   - Keep nothing of the update after the call: not the update, nor any
//     string, slice or value it holds. Its ids (update, command,
//     workflow, contract and reassignment ids), its stored values and
//     its lists are the store's bytes or memory reused for the next
//     update; a string kept (a map key, say) would change under its
//     holder. Copy what must be kept (strings.Clone, value.Clone).
//   - Change nothing of it: its bytes may be a read-only mapping of a
//     file or memory shared with other nodes (a Prepared snapshot).
//   - Return soon, and do not call the node's Close: visit runs inside
//     the page's read transaction, which pins the store's snapshot and
//     which Close waits for.
//
// UpdatesPage returns copies, for callers that keep the updates.
//
// Under a context of ledger/internal/wirepage (ledger/jsonapi's JSON
// page), the updates the page can write from their stored entries are
// appended to it instead of visited.
func (n *Node) VisitUpdatesPage(ctx context.Context, f UpdateReadFormat, r OffsetRange, size *int32, token []byte, visit func(update.Update) error) (*UpdatePage, error) {
	q := n.pageQuery(f, r, size, token)
	q.lend = true
	tr := n.typedRendererFor(ctx)
	tr.lend = true
	return n.typedPage(ctx, q, tr, wirepage.From(ctx), visit)
}

// pageCap is the number of updates a page of size may hold.
func pageCap(size *int32) int {
	if size != nil && *size > 0 {
		return min(int(*size), MaxUpdatesPageSize)
	}
	return DefaultUpdatesPageSize
}

// typedPage reads a page with tr, calling visit with each update (a
// visit error is returned as it is); the page returned has no updates.
// With wp (a read of stored values), the transactions wirePage writes
// are appended to wp instead.
func (n *Node) typedPage(ctx context.Context, q pageQuery, tr *typedRenderer, wp *wirepage.Page, visit func(update.Update) error) (*UpdatePage, error) {
	var visitErr error
	var wire *wirePage
	// Only for filters without blobs or interfaces: the wire page would
	// leave most of such a page's events to the typed renderer, each
	// entry decoded twice (and interface filters match the event's
	// template against packages looked up, and cached, by its id).
	if wp != nil && tr.stored && q.lend && q.Format.Tx != nil && q.Format.Tx.Events.plain() {
		wire = &wirePage{p: wp}
		// The wire page keeps no name: the entries' names are interned
		// only for those the typed renderer writes (interned).
		q.rawNames = true
	}
	resp, err := n.updatesPage(ctx, q, func(e *logEntry, rd *renderer) (bool, error) {
		if wire != nil && e.Kind == kindTransaction && rd.tx != nil {
			switch wire.transaction(e, rd.format.Tx.effects(), rd.tx) {
			case wireWritten:
				return true, nil
			case wireInvisible:
				return false, nil
			}
		}
		if e.raw != nil {
			var err error
			if e, err = wire.interned(e.raw); err != nil {
				return false, decodeErr(err)
			}
		}
		u, err := tr.update(e, rd)
		if err != nil {
			return false, decodeErr(err)
		}
		if u == nil {
			return false, nil
		}
		if visitErr = visit(u); visitErr != nil {
			return false, visitErr
		}
		return true, nil
	})
	if visitErr != nil {
		return nil, visitErr
	}
	if err != nil {
		return nil, err
	}
	out := &UpdatePage{Lowest: resp.lowest, Highest: resp.highest}
	if resp.next != nil {
		if out.NextToken, err = base64.StdEncoding.DecodeString(*resp.next); err != nil {
			return nil, apierr.InternalError.Wrap(err, "decoding a page token")
		}
	}
	return out, nil
}

// typedWalkPage is the page size of the typed walks.
const typedWalkPage = 500

// Updates walks the updates of a range as the format shows them,
// with typed values, in offset order (descending with r.Descending),
// fetching pages as the loop goes (UpdatesPage: the same checks, rights
// and errors; DESCENDING_ORDER_MISSING_END for r.Tail with
// r.Descending, as the JSON stream). With r.Tail it waits for new updates
// until ctx ends, then yields ctx.Err() as its last element. A refusal
// is the one element yielded.
func (n *Node) Updates(ctx context.Context, f UpdateReadFormat, r OffsetRange) iter.Seq2[update.Update, error] {
	return func(yield func(update.Update, error) bool) {
		size := int32(typedWalkPage)
		if err := n.CheckUpdatesRange(ctx, r); err != nil {
			yield(nil, err)
			return
		}
		q := n.pageQuery(f, r, &size, nil)
		tr := n.typedRendererFor(ctx)
		checkpointed := int64(-1) // the offset of the last checkpoint yielded
		for {
			if err := ctx.Err(); err != nil {
				yield(nil, err)
				return
			}
			changed := n.st.Changed()
			updates := make([]update.Update, 0, typedWalkPage)
			page, err := n.typedPage(ctx, q, tr, nil, func(u update.Update) error {
				updates = append(updates, u)
				return nil
			})
			if err != nil {
				yield(nil, err)
				return
			}
			for _, u := range updates {
				if !yield(u, nil) {
					return
				}
			}
			if page.NextToken == nil {
				return
			}
			if len(updates) == 0 {
				// Caught up through page.Highest. With checkpoints, an idle
				// wait at a ledger end not yet checkpointed ends with one.
				var delay time.Duration
				if r.Checkpoints && page.Highest > checkpointed {
					delay = n.opts.CheckpointDelay
				}
				idle, err := waitChange(ctx, changed, delay)
				if err != nil {
					yield(nil, err)
					return
				}
				if idle {
					checkpointed = page.Highest
					if !yield(n.checkpoint(page.Highest), nil) {
						return
					}
				}
			}
			q.token = base64.StdEncoding.EncodeToString(page.NextToken)
		}
	}
}

// UpdateByID returns the update with that id as the format shows it
// (UpdateByID: UPDATE_NOT_FOUND when there is none or nothing of it is
// visible, PERMISSION_DENIED without the right to read as the format's
// parties).
func (n *Node) UpdateByID(ctx context.Context, updateID string, f UpdateReadFormat) (update.Update, error) {
	if err := CheckUpdateID(updateID); err != nil {
		return nil, err
	}
	return n.typedUpdateBy(ctx, updateID, 0, f)
}

// CheckUpdateID checks an update id as Canton's update lookup does
// (UpdateServiceRequestValidator.validateUpdateById, before the format):
// MISSING_FIELD when empty, INVALID_ARGUMENT when it is not the
// lower-case hex of a SHA-256 multihash (0x12, 0x20 and 32 bytes, as
// UpdateId.fromLedgerString reads it), with Canton's words for each case.
// UpdateByID checks its id so; an adapter that must check the id before
// other fields calls it first.
func CheckUpdateID(id string) error {
	if id == "" {
		return apierr.MissingField.New("update_id")
	}
	invalid := func(format string, args ...any) error {
		return apierr.InvalidArgument.New(format, args...)
	}
	// HexString: lower-case digits, two a byte.
	if len(id)%2 != 0 || strings.IndexFunc(id, func(r rune) bool { return !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') }) >= 0 {
		return invalid("Failed to parse hex string: %s", apierr.Quote(id))
	}
	// Lower-case hex: its length and the first two bytes tell the rest
	// (no decoding of the whole id, which the node's lookups repeat).
	if len(id) < 4 {
		return invalid("Failed to parse hex string: %s", apierr.Quote(id))
	}
	var head [2]byte
	_, _ = hex.Decode(head[:], []byte(id[:4]))
	switch {
	case head[0] != 0x12:
		return invalid("Invalid hash algorithm: Unknown hash algorithm for index: %d", head[0])
	case head[1] != 0x20:
		return invalid("Invalid hash algorithm: Mismatch of lengths for SHA-256: given %d, expected 32", head[1])
	case len(id) != 68:
		return invalid("Size of given hash %d does not match expected size 32 for SHA-256", len(id)/2-2)
	}
	return nil
}

// UpdateByOffset returns the update at an offset as the format shows
// it (UpdateByOffset: NON_POSITIVE_OFFSET for an offset ≤ 0, else as
// UpdateByID).
func (n *Node) UpdateByOffset(ctx context.Context, offset int64, f UpdateReadFormat) (update.Update, error) {
	if err := CheckUpdateOffset(offset); err != nil {
		return nil, err
	}
	return n.typedUpdateBy(ctx, "", offset, f)
}

// CheckUpdateOffset checks the offset of an update lookup as Canton's
// validateUpdateByOffset does: NON_POSITIVE_OFFSET for an offset ≤ 0.
func CheckUpdateOffset(offset int64) error {
	if offset <= 0 {
		return nonPositiveOffset("offset", offset, false)
	}
	return nil
}

func (n *Node) typedUpdateBy(ctx context.Context, id string, off int64, f UpdateReadFormat) (update.Update, error) {
	uf := n.typedUpdateSpec(f)
	e, err := n.entryFor(ctx, id, off, &uf)
	if err != nil {
		return nil, err
	}
	u, err := n.typedRendererFor(ctx).update(e, newRenderer(uf, n))
	if err != nil {
		return nil, decodeErr(err)
	}
	if u == nil {
		return nil, updateNotFound(e.UpdateID)
	}
	return u, nil
}

// Transaction returns the transaction with that update id as the format
// shows it, with typed values (UpdateByID for transactions):
// MISSING_FIELD for an empty id, UPDATE_NOT_FOUND when there is no such
// transaction or nothing of it is visible, PERMISSION_DENIED without the
// right to read as the parties.
func (n *Node) Transaction(ctx context.Context, updateID string, f ReadFormat) (*update.Transaction, error) {
	if updateID == "" {
		if err := n.public(ctx); err != nil {
			return nil, err
		}
		return nil, apierr.MissingField.New("update_id")
	}
	u, err := n.UpdateByID(ctx, updateID, UpdateReadFormat{Transactions: &f})
	if err != nil {
		return nil, err
	}
	t, ok := u.(*update.Transaction)
	if !ok {
		return nil, updateNotFound("the update is not a transaction")
	}
	return t, nil
}

// Transactions walks the transactions of a range as the format shows
// them (Updates for transactions).
func (n *Node) Transactions(ctx context.Context, f ReadFormat, r OffsetRange) iter.Seq2[*update.Transaction, error] {
	return func(yield func(*update.Transaction, error) bool) {
		for u, err := range n.Updates(ctx, UpdateReadFormat{Transactions: &f}, r) {
			if err != nil {
				yield(nil, err)
				return
			}
			if t, ok := u.(*update.Transaction); ok && !yield(t, nil) {
				return
			}
		}
	}
}

// ActiveContractEvents walks the contracts active at an offset (0: the
// ledger end at the time of the call) that the format shows, as their
// typed created events, in contract-id order, fetching pages as the loop
// goes (ActiveContractEventsPage: the same checks, rights and errors).
// Contracts in transit between synchronizers (unassigned, not yet
// assigned) are not part of it (ActiveContractEventsPage has them). The
// format's Shape is not used.
func (n *Node) ActiveContractEvents(ctx context.Context, f ReadFormat, at int64) iter.Seq2[*update.CreatedEvent, error] {
	return func(yield func(*update.CreatedEvent, error) bool) {
		p := PageRequest{}
		if at != 0 {
			p.At = &at
		}
		tr := n.typedRendererFor(ctx)
		for {
			page, err := n.contractPage(ctx, f, p, tr)
			if err != nil {
				yield(nil, err)
				return
			}
			for _, c := range page.Contracts {
				if c.Unassigned != nil {
					continue
				}
				if !yield(c.Created, nil) {
					return
				}
			}
			if page.NextToken == nil {
				return
			}
			p.Token, p.At = page.NextToken, &page.At
		}
	}
}
