package jsonapi

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger/internal/shape"
)

// The rules of a request's shape that Canton's JSON codecs check while
// decoding a body, checked here, in the JSON layer, before the typed Node
// method is called: an identifier splits into three parts, a Js* ADT
// holds exactly one variant and a proto one-of at most one, an enum is
// one of its names, a timestamp parses. A violation is an apierr.Malformed
// error, its path the request's JSON path (prefix is where the checked
// value sits in it, e.g. "commands."): a 400 text/plain "Invalid value
// for: body (<detail> at '<path>')" over HTTP, tapir's decode-failure
// response, which Canton's ledger-json-api serves
// (http/json/v2/V2Routes.scala). Values of other rules (required fields,
// id syntaxes, parties, offsets, authorization, Daml values) are checked
// by the Node methods, with Canton's codes.

// commandVariants are the variants of the Command ADT, in the order
// Canton's codec lists them.
var commandVariants = []string{"CreateAndExerciseCommand", "CreateCommand", "ExerciseByKeyCommand", "ExerciseCommand"}

// checkJsCommandsShape checks a JsCommands at prefix.
func checkJsCommandsShape(c *JsCommands, prefix string) error {
	if err := checkCommandListShape(c.Commands, prefix); err != nil {
		return err
	}
	if d := c.DeduplicationPeriod; d != nil {
		if n := shape.CountSet(d.DeduplicationDuration != nil, d.DeduplicationOffset != nil, d.Empty != nil); n > 1 {
			return apierr.Malformed("a one-of holds %d variants, expected one at '%sdeduplicationPeriod'", n, prefix)
		}
	}
	if bad := shape.BadTimestamp(c.MinLedgerTimeAbs); bad != "" {
		return apierr.Malformed("%s at '%sminLedgerTimeAbs'", bad, prefix)
	}
	return nil
}

// checkCommandListShape checks each command of a list at prefix.
func checkCommandListShape(cmds []JsCommand, prefix string) error {
	for i, cmd := range cmds {
		// The path is built only for an error.
		at := func() string { return fmt.Sprintf("%scommands[%d]", prefix, i) }
		switch n := shape.CountSet(cmd.CreateCommand != nil, cmd.ExerciseCommand != nil,
			cmd.CreateAndExerciseCommand != nil, cmd.ExerciseByKeyCommand != nil); {
		case n == 0:
			return apierr.Malformed("expected one of %s at '%s'", strings.Join(commandVariants, ", "), at())
		case n > 1:
			return apierr.Malformed("a one-of holds %d variants, expected one at '%s'", n, at())
		}
		var variant, tid string
		switch {
		case cmd.CreateCommand != nil:
			variant, tid = "CreateCommand", cmd.CreateCommand.TemplateID
		case cmd.ExerciseCommand != nil:
			variant, tid = "ExerciseCommand", cmd.ExerciseCommand.TemplateID
		case cmd.CreateAndExerciseCommand != nil:
			variant, tid = "CreateAndExerciseCommand", cmd.CreateAndExerciseCommand.TemplateID
		default:
			variant, tid = "ExerciseByKeyCommand", cmd.ExerciseByKeyCommand.TemplateID
		}
		if err := shape.Identifier(tid, func() string { return at() + "." + variant + ".templateId" }); err != nil {
			return err
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

// checkEventFormatShape checks the filters of an EventFormat at prefix,
// parties in sorted order.
func checkEventFormatShape(f *EventFormat, prefix string) error {
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
			if err := shape.Identifier(f.TemplateFilter.Value.TemplateID, func() string { return path + ".TemplateFilter.value.templateId" }); err != nil {
				return err
			}
		case f.InterfaceFilter != nil:
			if err := shape.Identifier(f.InterfaceFilter.Value.InterfaceID, func() string { return path + ".InterfaceFilter.value.interfaceId" }); err != nil {
				return err
			}
		}
	}
	return nil
}
