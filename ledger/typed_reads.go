package ledger

import (
	"context"
	"iter"

	"github.com/ledgernode/ledgernode/apierr"
)

// Typed reads: the transactions and active contracts of the JSON reads
// (UpdateByID, Updates, ActiveContractsPage) with typed values. They go
// through the same methods — the same checks, rights, filters and
// visibility rules, the same errors — and decode the rendered events with
// the node's packages (typedDecoder).
//
// Naming: the JSON reads hold the plain names today (TransactionByID,
// Updates, ActiveContracts) and move to the JSON layer later; the typed
// reads are named so as not to collide with them: Transaction,
// Transactions and ActiveContractEvents.

// Shape is the shape of the transactions a typed read returns (Canton's
// TransactionShape).
type Shape uint8

// Transaction shapes.
const (
	// ACSDelta shows the creates and archives that change the active
	// contracts of the reading parties (CreatedEvent, ArchivedEvent).
	ACSDelta Shape = iota
	// LedgerEffects shows every create and exercise the reading parties
	// witness (CreatedEvent, ExercisedEvent).
	LedgerEffects
)

// ReadFormat selects what a typed read shows: the parties it reads as,
// the templates and interfaces, and the shape of transactions.
type ReadFormat struct {
	// Parties read as these parties (each needs CanReadAs or CanActAs).
	Parties []string
	// AnyParty reads as every party (CanReadAsAnyParty).
	AnyParty bool
	// Templates and Interfaces limit the events to contracts of these
	// templates, or of templates implementing these interfaces; none
	// shows every template.
	Templates, Interfaces []TemplateRef
	// InterfaceViews computes the views of the Interfaces for each
	// created contract (CreatedEvent.InterfaceViews).
	InterfaceViews bool
	// Blobs includes each created contract's blob (CreatedEvent.Blob).
	Blobs bool
	// Shape is the shape of transactions (not used by
	// ActiveContractEvents).
	Shape Shape
}

// OffsetRange is the range (After, Through] of a read of transactions.
type OffsetRange struct {
	// After starts the range (0: the ledger's beginning).
	After int64
	// Through ends it (0: the ledger end at the time of the call).
	Through int64
	// Tail ignores Through and keeps reading as transactions commit,
	// until ctx ends.
	Tail bool
}

// eventFormat is the format of the JSON reads the typed format stands for.
func (n *Node) eventFormat(f ReadFormat) EventFormat {
	var cs []CumulativeFilter
	for _, t := range f.Templates {
		cs = append(cs, CumulativeFilter{IdentifierFilter: IdentifierFilter{TemplateFilter: &Wrapped[TemplateFilterValue]{
			Value: TemplateFilterValue{TemplateID: n.refString(t), IncludeCreatedEventBlob: f.Blobs}}}})
	}
	for _, i := range f.Interfaces {
		cs = append(cs, CumulativeFilter{IdentifierFilter: IdentifierFilter{InterfaceFilter: &Wrapped[InterfaceFilterValue]{
			Value: InterfaceFilterValue{InterfaceID: n.refString(i), IncludeInterfaceView: f.InterfaceViews, IncludeCreatedEventBlob: f.Blobs}}}})
	}
	if len(cs) == 0 && f.Blobs {
		cs = append(cs, CumulativeFilter{IdentifierFilter: IdentifierFilter{WildcardFilter: &Wrapped[WildcardFilterValue]{
			Value: WildcardFilterValue{IncludeCreatedEventBlob: true}}}})
	}
	ef := EventFormat{FiltersByParty: map[string]Filters{}, Verbose: true}
	for _, p := range f.Parties {
		ef.FiltersByParty[p] = Filters{Cumulative: cs}
	}
	if f.AnyParty {
		ef.FiltersForAnyParty = &Filters{Cumulative: cs}
	}
	return ef
}

// transactionFormat is eventFormat with the shape.
func (n *Node) transactionFormat(f ReadFormat) *TransactionFormat {
	shape := ShapeACSDelta
	if f.Shape == LedgerEffects {
		shape = ShapeLedgerEffects
	}
	return &TransactionFormat{EventFormat: n.eventFormat(f), TransactionShape: shape}
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

func (n *Node) typedDecoder() typedDecoder { return typedDecoder{lookup: n.cachedPackage} }

// decodeErr reports a stored event that could not be decoded.
func decodeErr(err error) error {
	return apierr.InternalError.Wrap(err, "decoding a stored event")
}

// Transaction returns the transaction with that update id as the format
// shows it, with typed values. It is the JSON read TransactionByID with
// the format's parties: UPDATE_NOT_FOUND when there is no such
// transaction or nothing of it is visible, PERMISSION_DENIED without the
// right to read as the parties.
func (n *Node) Transaction(ctx context.Context, updateID string, f ReadFormat) (*Transaction, error) {
	resp, err := n.TransactionByID(ctx, GetTransactionByIDRequest{UpdateID: updateID, TransactionFormat: n.transactionFormat(f)})
	if err != nil {
		return nil, err
	}
	t, err := n.typedDecoder().transaction(&resp.Transaction)
	if err != nil {
		return nil, decodeErr(err)
	}
	return t, nil
}

// Transactions walks the transactions of a range as the format shows
// them, with typed values, in offset order, fetching pages as the loop
// goes (Updates). With r.Tail it waits for new transactions until ctx
// ends, then yields ctx.Err() as its last element. A refusal (the
// format's checks and rights, the offsets) is the one element yielded.
func (n *Node) Transactions(ctx context.Context, f ReadFormat, r OffsetRange) iter.Seq2[*Transaction, error] {
	return func(yield func(*Transaction, error) bool) {
		req := GetUpdatesPageRequest{BeginOffsetExclusive: r.After,
			UpdateFormat: UpdateFormat{IncludeTransactions: n.transactionFormat(f)}}
		if !r.Tail {
			end := r.Through
			if end == 0 {
				end = n.st.LedgerEnd()
				if r.After > end {
					end = r.After // checkOffsets refuses the begin
				}
			}
			req.EndOffsetInclusive = &end
		}
		d := n.typedDecoder()
		for u, err := range n.Updates(ctx, req) {
			if err != nil {
				yield(nil, err)
				return
			}
			if u.Transaction == nil {
				continue
			}
			t, err := d.transaction(&u.Transaction.Value)
			if err != nil {
				yield(nil, decodeErr(err))
				return
			}
			if !yield(t, nil) {
				return
			}
		}
	}
}

// ActiveContractEvents walks the contracts active at an offset (0: the
// ledger end at the time of the call) that the format shows, as their
// typed created events, in contract-id order, fetching pages as the loop
// goes (ActiveContractsPage: the same checks, rights and errors).
// Contracts in transit between synchronizers (unassigned, not yet
// assigned) are not part of it. The format's Shape is not used.
func (n *Node) ActiveContractEvents(ctx context.Context, f ReadFormat, at int64) iter.Seq2[*CreatedEvent, error] {
	return func(yield func(*CreatedEvent, error) bool) {
		req := GetActiveContractsPageRequest{EventFormat: n.eventFormat(f)}
		if at != 0 {
			req.ActiveAtOffset = &at
		}
		d := n.typedDecoder()
		for {
			page, err := n.ActiveContractsPage(ctx, req)
			if err != nil {
				yield(nil, err)
				return
			}
			for _, c := range page.ActiveContracts {
				ac := c.ContractEntry.JsActiveContract
				if ac == nil {
					continue
				}
				ev, err := d.created(&ac.CreatedEvent)
				if err != nil {
					yield(nil, decodeErr(err))
					return
				}
				if !yield(ev, nil) {
					return
				}
			}
			if page.NextPageToken == nil {
				return
			}
			req.PageToken = *page.NextPageToken
			req.ActiveAtOffset = &page.ActiveAtOffset
		}
	}
}
