// Package wirepage lets the JSON Ledger API layer (ledger/jsonapi) have
// package ledger write the updates of a JSON page straight from their
// stored entries, without typed events between them.
//
// A JSON page of transactions is mostly copied text: ids, parties,
// names, times and stored Daml values. Built as typed events and then
// written out, each update's strings are scanned for bytes to escape and
// its times parsed and formatted again; written from the stored entry,
// they are copied (the entry says when its strings need no escaping).
// ledger/jsonapi asks for that with a context made by With, holding the
// page it writes: Node.VisitUpdatesPage then appends to it, itself, each
// update it can write so (a transaction, read with stored values, of a
// page whose filters ask for no blob and name no interface), and calls
// its visit function with the others, which jsonapi appends to the same
// page. Both write an update as jsonapi.AppendUpdateResponse does, a
// comma before each but the first (TestWirePageSameAsTyped in
// ledger/jsonapi compares them byte for byte).
//
// The package is internal to ledger: a Go user of the typed reads always
// sees every update as a typed one.
package wirepage

import "context"

// Page is a JSON page being written: the answer so far and the number of
// updates in it.
type Page struct {
	// Out is the answer so far; each update is appended to it.
	Out []byte
	// N is the number of updates appended, by either writer.
	N int
	// Direct is the number of updates package ledger wrote itself (for
	// tests: the page's bytes are the same either way).
	Direct int
	// Ends holds, when not nil, for each update appended (by either
	// writer, Done), where it ends in Out and its offset: a list cuts a
	// page at the update it takes last. Its user resets it as it likes.
	Ends []End
}

// End is where an update of a page ends in Out, and its offset.
type End struct {
	At     int
	Offset int64
}

// Done records the end of the update just appended, at offset, when Ends
// is not nil.
func (p *Page) Done(offset int64) {
	if p.Ends != nil {
		p.Ends = append(p.Ends, End{At: len(p.Out), Offset: offset})
	}
}

// Sep appends the comma that goes before every update but the first,
// and counts the update.
func (p *Page) Sep() {
	if p.N++; p.N > 1 {
		p.Out = append(p.Out, ',')
	}
}

type pageKey struct{}

// With returns a context whose updates page writes the updates it can
// into p.
func With(ctx context.Context, p *Page) context.Context {
	return context.WithValue(ctx, pageKey{}, p)
}

// From returns the page of ctx, nil when it has none.
func From(ctx context.Context) *Page {
	p, _ := ctx.Value(pageKey{}).(*Page)
	return p
}
