package jsonapi

import (
	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger"
)

// The JSON read formats (EventFormat, TransactionFormat, UpdateFormat) as
// the typed ones (ledger.ReadFormat, ledger.UpdateReadFormat): the wire's
// shape rules first (what Canton's JSON codecs check while decoding a
// body), then the format's own checks the typed reads make in the same
// order (transaction shape), then the conversion.

// checkUpdateFormatShape checks an UpdateFormat at prefix.
func checkUpdateFormatShape(f *UpdateFormat, prefix string) error {
	if f == nil {
		return nil
	}
	if err := checkTransactionFormatShape(f.IncludeTransactions, prefix+"includeTransactions."); err != nil {
		return err
	}
	if f.IncludeReassignments == nil {
		return nil
	}
	return checkEventFormatShape(f.IncludeReassignments, prefix+"includeReassignments.")
}

// checkUpdateFormat makes the checks of an update format the typed
// format cannot carry: it is given (nil: MISSING_FIELD, Canton's
// requirePresence(req.updateFormat, "update_format")), and its
// transaction shape is one of the two. A format that selects nothing
// ({}) is valid, as in Canton: its reads show nothing.
func checkUpdateFormat(f *UpdateFormat) error {
	if f == nil {
		return apierr.MissingField.New("update_format")
	}
	if t := f.IncludeTransactions; t != nil && t.TransactionShape != ShapeACSDelta && t.TransactionShape != ShapeLedgerEffects {
		return apierr.InvalidField.New("transaction_shape: %q is not %s or %s", apierr.Quote(t.TransactionShape),
			ShapeACSDelta, ShapeLedgerEffects)
	}
	return nil
}

// readFormat converts a (shape-checked) JSON event format. An identifier
// filter with no variant is a NoneFilter; an id that does not print back
// as written (a trailing ':', or no identifier) is kept as written
// (TemplateFilterText), for the read to check and quote.
func readFormat(f *EventFormat, s ledger.Shape) ledger.ReadFormat {
	out := ledger.ReadFormat{Parties: make(map[string][]ledger.Filter, len(f.FiltersByParty)), Verbose: f.Verbose, Shape: s}
	for p, fs := range f.FiltersByParty {
		out.Parties[p] = filters(fs)
	}
	if f.FiltersForAnyParty != nil {
		out.AnyParty = filters(*f.FiltersForAnyParty)
		if out.AnyParty == nil {
			out.AnyParty = []ledger.Filter{}
		}
	}
	return out
}

func filters(fs Filters) []ledger.Filter {
	if len(fs.Cumulative) == 0 {
		return nil
	}
	out := make([]ledger.Filter, 0, len(fs.Cumulative))
	for _, c := range fs.Cumulative {
		switch f := c.IdentifierFilter; {
		case f.WildcardFilter != nil:
			out = append(out, ledger.WildcardFilter(f.WildcardFilter.Value.IncludeCreatedEventBlob))
		case f.TemplateFilter != nil:
			v := f.TemplateFilter.Value
			if r, ok := filterRef(v.TemplateID); ok {
				out = append(out, ledger.TemplateFilter(r, v.IncludeCreatedEventBlob))
			} else {
				out = append(out, ledger.TemplateFilterText(v.TemplateID, v.IncludeCreatedEventBlob))
			}
		case f.InterfaceFilter != nil:
			v := f.InterfaceFilter.Value
			if r, ok := filterRef(v.InterfaceID); ok {
				out = append(out, ledger.InterfaceFilter(r, v.IncludeInterfaceView, v.IncludeCreatedEventBlob))
			} else {
				out = append(out, ledger.InterfaceFilterText(v.InterfaceID, v.IncludeInterfaceView, v.IncludeCreatedEventBlob))
			}
		case f.Empty != nil:
			out = append(out, ledger.WildcardFilter(false))
		default:
			// No variant set: selects nothing.
			out = append(out, ledger.NoneFilter())
		}
	}
	return out
}

// filterRef is a filter's id as a reference (templateRef), and whether
// it prints back as written (the node quotes the filters' ids in its
// refusals).
func filterRef(s string) (ledger.TemplateRef, bool) {
	r := templateRef(s)
	return r, r.String() == s
}

// updateReadFormat converts a checked JSON update format (checkUpdateFormat).
func updateReadFormat(f *UpdateFormat) ledger.UpdateReadFormat {
	var out ledger.UpdateReadFormat
	if t := f.IncludeTransactions; t != nil {
		s := ledger.ACSDelta
		if t.TransactionShape == ShapeLedgerEffects {
			s = ledger.LedgerEffects
		}
		rf := readFormat(&t.EventFormat, s)
		out.Transactions = &rf
	}
	if f.IncludeReassignments != nil {
		rf := readFormat(f.IncludeReassignments, ledger.ACSDelta)
		out.Reassignments = &rf
	}
	if t := f.IncludeTopologyEvents; t != nil {
		out.Topology = &ledger.TopologyReadFormat{}
		if a := t.IncludeParticipantAuthorizationEvents; a != nil {
			out.Topology.ParticipantAuthorizations = a.Parties
			if a.Parties == nil {
				out.Topology.ParticipantAuthorizations = []string{}
			}
		}
	}
	return out
}
