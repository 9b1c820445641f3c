package ledger

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ledgernode/ledgernode/ledger/internal/shape"

	"github.com/ledgernode/ledgernode/apierr"
)

// The rules of a request's shape: what Canton's JSON codecs check while
// decoding a body, applied here, at the start of the Node methods, so that
// Go, HTTP and WebSocket callers meet the same rules. A violation is an
// apierr.Malformed error: INVALID_ARGUMENT for a Go caller (and as a
// WebSocket error frame), a 400 text/plain "Invalid value for: body
// (<detail> at '<path>')" over HTTP (tapir's decode-failure response,
// which Canton's ledger-json-api serves: http/json/v2/V2Routes.scala), as
// in Canton:
//
//   - an identifier (templateId, interfaceId) is split on ':' into exactly
//     three parts ("Invalid identifier format (…) not matching the expected
//     format (<package>:<moduleName>:<entityName>)");
//   - a Canton Js* ADT (Command) holds exactly one variant, and a proto
//     one-of (DeduplicationPeriod, ReassignmentCommand.command,
//     IdentifierFilter) at most one;
//   - an enum (transactionShape) is one of its names;
//   - a timestamp (minLedgerTimeAbs) parses.
//
// The paths are the JSON paths of the request (prefix is where the checked
// value sits in it, e.g. "commands."). Values of other rules (required
// fields, id syntaxes, parties, offsets, authorization, Daml values) are
// checked by each method after these, with Canton's codes.

// checkReassignmentCommandsShape checks the one-of of each reassignment
// command at prefix.
func checkReassignmentCommandsShape(rc *ReassignmentCommands, prefix string) error {
	for i, c := range rc.Commands {
		k := c.Command
		if n := shape.CountSet(k.AssignCommand != nil, k.UnassignCommand != nil, k.Empty != nil); n > 1 {
			return apierr.Malformed("a one-of holds %d variants, expected one at '%scommands[%d].command'", n, prefix, i)
		}
	}
	return nil
}

// transactionShapes are the names of the TransactionShape enum.
// "UNRECOGNIZED" is what Canton's enum codec maps to -1; it decodes, and
// the node refuses it, as it refuses the unspecified shape.
var transactionShapes = []string{
	"TRANSACTION_SHAPE_UNSPECIFIED",
	ShapeACSDelta,
	ShapeLedgerEffects,
	"UNRECOGNIZED",
}

// checkTransactionFormatShape checks a TransactionFormat at prefix.
func checkTransactionFormatShape(f *TransactionFormat, prefix string) error {
	if f == nil {
		return nil
	}
	if s := f.TransactionShape; s != "" && !slices.Contains(transactionShapes, s) {
		return apierr.Malformed("unknown enum value %q, expected one of %s at '%stransactionShape'",
			apierr.Quote(s), strings.Join(transactionShapes[:3], ", "), prefix)
	}
	return checkEventFormatShape(&f.EventFormat, prefix+"eventFormat.")
}

// checkUpdateFormatShape checks an UpdateFormat at prefix.
func checkUpdateFormatShape(f *UpdateFormat, prefix string) error {
	if f == nil {
		return nil
	}
	if err := checkTransactionFormatShape(f.IncludeTransactions, prefix+"includeTransactions."); err != nil {
		return err
	}
	return checkEventFormatShape(f.IncludeReassignments, prefix+"includeReassignments.")
}

// checkEventFormatShape checks the filters of an EventFormat (or a legacy
// TransactionFilter) at prefix, parties in sorted order.
func checkEventFormatShape(f *EventFormat, prefix string) error {
	if f == nil {
		return nil
	}
	parties := make([]string, 0, len(f.FiltersByParty))
	for p := range f.FiltersByParty {
		parties = append(parties, p)
	}
	slices.Sort(parties)
	for _, p := range parties {
		if err := checkFiltersShape(f.FiltersByParty[p], prefix+"filtersByParty."+apierr.Quote(p)); err != nil {
			return err
		}
	}
	if f.FiltersForAnyParty != nil {
		return checkFiltersShape(*f.FiltersForAnyParty, prefix+"filtersForAnyParty")
	}
	return nil
}

// checkFiltersShape checks each identifier filter of a party's filters.
func checkFiltersShape(fs Filters, at string) error {
	for i, c := range fs.Cumulative {
		f := c.IdentifierFilter
		path := fmt.Sprintf("%s.cumulative[%d].identifierFilter", at, i)
		if n := shape.CountSet(f.WildcardFilter != nil, f.TemplateFilter != nil, f.InterfaceFilter != nil, f.Empty != nil); n > 1 {
			return apierr.Malformed("a one-of holds %d variants, expected one at '%s'", n, path)
		}
		switch {
		case f.TemplateFilter != nil:
			if err := shape.Identifier(f.TemplateFilter.Value.TemplateID, path+".TemplateFilter.value.templateId"); err != nil {
				return err
			}
		case f.InterfaceFilter != nil:
			if err := shape.Identifier(f.InterfaceFilter.Value.InterfaceID, path+".InterfaceFilter.value.interfaceId"); err != nil {
				return err
			}
		}
	}
	return nil
}

// notSupported is the error of a request field that ledgernode does not
// honour yet.
func notSupported(field string) error {
	return apierr.InvalidArgument.New("%s is not supported by ledgernode", field)
}

// checkTapsMaxPasses refuses a tapsMaxPasses that is set but not strictly
// positive, as Canton's CommandsValidator (validateTapsMaxPasses) does
// for submissions and prepare requests alike (a set value), after the other field
// checks. A value above the participant's limit is not an error there (it
// is capped), and ledgernode selects packages in one pass anyway.
func checkTapsMaxPasses(v int64) error {
	if v <= 0 {
		return apierr.InvalidArgument.New("taps_max_passes must be strictly positive, but got %d.", v)
	}
	return nil
}
