package jsonapi

import (
	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger"
)

// The JSON read formats (EventFormat, TransactionFormat, UpdateFormat) as
// the typed ones (ledger.ReadFormat, ledger.UpdateReadFormat): the wire's
// shape rules first (what Canton's JSON codecs check while decoding a
// body), then the format's own checks the typed reads make in the same
// order (selects nothing, transaction shape), then the conversion.

// checkUpdateFormatShape checks an UpdateFormat at prefix.
func checkUpdateFormatShape(f *ledger.UpdateFormat, prefix string) error {
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
// format cannot carry, in the node's order: it selects something, and
// its transaction shape is one of the two.
func checkUpdateFormat(f *ledger.UpdateFormat) error {
	if f.IncludeTransactions == nil && f.IncludeReassignments == nil && f.IncludeTopologyEvents == nil {
		return apierr.InvalidArgument.New("the update format selects nothing: set includeTransactions, includeReassignments or includeTopologyEvents")
	}
	if t := f.IncludeTransactions; t != nil && t.TransactionShape != ledger.ShapeACSDelta && t.TransactionShape != ledger.ShapeLedgerEffects {
		return apierr.InvalidField.New("transaction_shape: %q is not %s or %s", apierr.Quote(t.TransactionShape),
			ledger.ShapeACSDelta, ledger.ShapeLedgerEffects)
	}
	return nil
}

// readFormat converts a (shape-checked) JSON event format. ok is false
// for what the typed format does not express: an id that does not print
// back as written (a trailing ':'). An identifier filter with no variant
// is a NoneFilter.
func readFormat(f *ledger.EventFormat, s ledger.Shape) (_ ledger.ReadFormat, ok bool) {
	out := ledger.ReadFormat{Parties: make(map[string][]ledger.Filter, len(f.FiltersByParty)), Verbose: f.Verbose, Shape: s}
	for p, fs := range f.FiltersByParty {
		if out.Parties[p], ok = filters(fs); !ok {
			return out, false
		}
	}
	if f.FiltersForAnyParty != nil {
		if out.AnyParty, ok = filters(*f.FiltersForAnyParty); !ok {
			return out, false
		}
		if out.AnyParty == nil {
			out.AnyParty = []ledger.Filter{}
		}
	}
	return out, true
}

func filters(fs ledger.Filters) ([]ledger.Filter, bool) {
	if len(fs.Cumulative) == 0 {
		return nil, true
	}
	out := make([]ledger.Filter, 0, len(fs.Cumulative))
	for _, c := range fs.Cumulative {
		switch f := c.IdentifierFilter; {
		case f.WildcardFilter != nil:
			out = append(out, ledger.WildcardFilter(f.WildcardFilter.Value.IncludeCreatedEventBlob))
		case f.TemplateFilter != nil:
			r, ok := filterRef(f.TemplateFilter.Value.TemplateID)
			if !ok {
				return nil, false
			}
			out = append(out, ledger.TemplateFilter(r, f.TemplateFilter.Value.IncludeCreatedEventBlob))
		case f.InterfaceFilter != nil:
			v := f.InterfaceFilter.Value
			r, ok := filterRef(v.InterfaceID)
			if !ok {
				return nil, false
			}
			out = append(out, ledger.InterfaceFilter(r, v.IncludeInterfaceView, v.IncludeCreatedEventBlob))
		case f.Empty != nil:
			out = append(out, ledger.WildcardFilter(false))
		default:
			// No variant set: selects nothing.
			out = append(out, ledger.NoneFilter())
		}
	}
	return out, true
}

// filterRef is a filter's id as a reference (templateRef), and whether
// it prints back as written (the node quotes the filters' ids in its
// refusals).
func filterRef(s string) (ledger.TemplateRef, bool) {
	r := templateRef(s)
	return r, r.String() == s
}

// updateReadFormat converts a checked JSON update format (checkUpdateFormat).
// ok is false for what the typed format does not express (readFormat's
// cases).
func updateReadFormat(f *ledger.UpdateFormat) (_ ledger.UpdateReadFormat, ok bool) {
	var out ledger.UpdateReadFormat
	if t := f.IncludeTransactions; t != nil {
		s := ledger.ACSDelta
		if t.TransactionShape == ledger.ShapeLedgerEffects {
			s = ledger.LedgerEffects
		}
		rf, ok := readFormat(&t.EventFormat, s)
		if !ok {
			return out, false
		}
		out.Transactions = &rf
	}
	if f.IncludeReassignments != nil {
		rf, ok := readFormat(f.IncludeReassignments, ledger.ACSDelta)
		if !ok {
			return out, false
		}
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
	return out, true
}
