package httpadapter

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/ledger"
)

// Decoders of the command routes (JsCommandService) and the checks that
// Canton's JSON codecs make while decoding the bodies of the command,
// update and state routes. A failing check is a decode failure, a 400
// text/plain "Invalid value for: body (<detail> at '<path>')" (wire.md
// §3.4), as in Canton, where these values never reach the ledger:
//
//   - an identifier (templateId, interfaceId) is split on ':' into exactly
//     three parts ("Invalid identifier format (…) not matching the expected
//     format (<package>:<moduleName>:<entityName>)");
//   - a Canton Js* ADT (Command) holds exactly one variant, and a proto
//     one-of (DeduplicationPeriod, ReassignmentCommand.command,
//     IdentifierFilter) at most one;
//   - an enum (transactionShape) is one of its names;
//   - a timestamp (minLedgerTimeAbs) parses;
//   - a bytes field (pageToken, streamContinuationToken) is base64.
//
// Everything else (required fields, parties, offsets, authorization,
// Daml values) is validated by the Node.

// decodeJsCommands reads a JsCommands body (submit-and-wait,
// submit-and-wait-for-transaction-tree, async/submit).
func decodeJsCommands(rq *request) (ledger.JsCommands, error) {
	c, err := decodeBody[ledger.JsCommands](rq)
	if err != nil {
		return c, err
	}
	return c, checkJsCommands(&c, "")
}

// decodeSubmitAndWaitForTransaction reads a
// JsSubmitAndWaitForTransactionRequest body.
func decodeSubmitAndWaitForTransaction(rq *request) (ledger.SubmitAndWaitForTransactionRequest, error) {
	req, err := decodeBody[ledger.SubmitAndWaitForTransactionRequest](rq)
	if err != nil {
		return req, err
	}
	if err := checkJsCommands(&req.Commands, "commands."); err != nil {
		return req, err
	}
	if req.TransactionFormat != nil {
		return req, checkTransactionFormat(req.TransactionFormat, "transactionFormat.")
	}
	return req, nil
}

// decodeSubmitReassignment reads a SubmitReassignmentRequest body.
func decodeSubmitReassignment(rq *request) (ledger.SubmitReassignmentRequest, error) {
	req, err := decodeBody[ledger.SubmitReassignmentRequest](rq)
	if err != nil {
		return req, err
	}
	return req, checkReassignmentCommands(&req.ReassignmentCommands, "reassignmentCommands.")
}

// decodeSubmitAndWaitForReassignment reads a
// SubmitAndWaitForReassignmentRequest body.
func decodeSubmitAndWaitForReassignment(rq *request) (ledger.SubmitAndWaitForReassignmentRequest, error) {
	req, err := decodeBody[ledger.SubmitAndWaitForReassignmentRequest](rq)
	if err != nil {
		return req, err
	}
	if err := checkReassignmentCommands(&req.ReassignmentCommands, "reassignmentCommands."); err != nil {
		return req, err
	}
	return req, checkEventFormat(req.EventFormat, "eventFormat.")
}

// commandVariants are the variants of the Command ADT, in the order
// Canton's codec lists them.
var commandVariants = []string{"CreateAndExerciseCommand", "CreateCommand", "ExerciseByKeyCommand", "ExerciseCommand"}

// checkJsCommands checks a JsCommands at prefix (e.g. "commands.").
func checkJsCommands(c *ledger.JsCommands, prefix string) error {
	for i, cmd := range c.Commands {
		at := fmt.Sprintf("%scommands[%d]", prefix, i)
		switch n := countSet(cmd.CreateCommand != nil, cmd.ExerciseCommand != nil,
			cmd.CreateAndExerciseCommand != nil, cmd.ExerciseByKeyCommand != nil); {
		case n == 0:
			return invalidBody(fmt.Sprintf("expected one of %s at '%s'", strings.Join(commandVariants, ", "), at))
		case n > 1:
			return invalidBody(fmt.Sprintf("a one-of holds %d variants, expected one at '%s'", n, at))
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
		if err := checkIdentifier(tid, at+"."+variant+".templateId"); err != nil {
			return err
		}
	}
	if d := c.DeduplicationPeriod; d != nil {
		if n := countSet(d.DeduplicationDuration != nil, d.DeduplicationOffset != nil, d.Empty != nil); n > 1 {
			return invalidBody(fmt.Sprintf("a one-of holds %d variants, expected one at '%sdeduplicationPeriod'", n, prefix))
		}
	}
	if bad := badTimestamp(c.MinLedgerTimeAbs); bad != "" {
		return invalidBody(fmt.Sprintf("%s at '%sminLedgerTimeAbs'", bad, prefix))
	}
	return nil
}

// checkReassignmentCommands checks the one-of of each reassignment command.
func checkReassignmentCommands(rc *ledger.ReassignmentCommands, prefix string) error {
	for i, c := range rc.Commands {
		k := c.Command
		if n := countSet(k.AssignCommand != nil, k.UnassignCommand != nil, k.Empty != nil); n > 1 {
			return invalidBody(fmt.Sprintf("a one-of holds %d variants, expected one at '%scommands[%d].command'", n, prefix, i))
		}
	}
	return nil
}

// checkIdentifier checks the format of a template or interface identifier
// as Canton's codec does (lf.SplitIdentifier: exactly three parts).
// Package names ("#name") pass; whether the parts are valid and name
// anything is for the Node.
func checkIdentifier(id, at string) error {
	if _, err := lf.SplitIdentifier(id); err != nil {
		return invalidBody(fmt.Sprintf("%v at '%s'", err, at))
	}
	return nil
}

// transactionShapes are the names of the TransactionShape enum.
// "UNRECOGNIZED" is what Canton's enum codec maps to -1; it decodes, and the
// node refuses it, as it refuses the unspecified shape.
var transactionShapes = []string{
	"TRANSACTION_SHAPE_UNSPECIFIED",
	ledger.ShapeACSDelta,
	ledger.ShapeLedgerEffects,
	"UNRECOGNIZED",
}

// checkTransactionFormat checks a TransactionFormat at prefix.
func checkTransactionFormat(f *ledger.TransactionFormat, prefix string) error {
	if s := f.TransactionShape; s != "" && !slices.Contains(transactionShapes, s) {
		return invalidBody(fmt.Sprintf("unknown enum value %q, expected one of %s at '%stransactionShape'",
			s, strings.Join(transactionShapes[:3], ", "), prefix))
	}
	return checkEventFormat(&f.EventFormat, prefix+"eventFormat.")
}

// checkUpdateFormat checks an UpdateFormat at prefix.
func checkUpdateFormat(f *ledger.UpdateFormat, prefix string) error {
	if f == nil {
		return nil
	}
	if f.IncludeTransactions != nil {
		if err := checkTransactionFormat(f.IncludeTransactions, prefix+"includeTransactions."); err != nil {
			return err
		}
	}
	return checkEventFormat(f.IncludeReassignments, prefix+"includeReassignments.")
}

// checkEventFormat checks the filters of an EventFormat (or a legacy
// TransactionFilter) at prefix, parties in sorted order.
func checkEventFormat(f *ledger.EventFormat, prefix string) error {
	if f == nil {
		return nil
	}
	parties := make([]string, 0, len(f.FiltersByParty))
	for p := range f.FiltersByParty {
		parties = append(parties, p)
	}
	slices.Sort(parties)
	for _, p := range parties {
		if err := checkFilters(f.FiltersByParty[p], prefix+"filtersByParty."+p); err != nil {
			return err
		}
	}
	if f.FiltersForAnyParty != nil {
		return checkFilters(*f.FiltersForAnyParty, prefix+"filtersForAnyParty")
	}
	return nil
}

// checkFilters checks each identifier filter of a party's filters.
func checkFilters(fs ledger.Filters, at string) error {
	for i, c := range fs.Cumulative {
		f := c.IdentifierFilter
		path := fmt.Sprintf("%s.cumulative[%d].identifierFilter", at, i)
		if n := countSet(f.WildcardFilter != nil, f.TemplateFilter != nil, f.InterfaceFilter != nil, f.Empty != nil); n > 1 {
			return invalidBody(fmt.Sprintf("a one-of holds %d variants, expected one at '%s'", n, path))
		}
		switch {
		case f.TemplateFilter != nil:
			if err := checkIdentifier(f.TemplateFilter.Value.TemplateID, path+".TemplateFilter.value.templateId"); err != nil {
				return err
			}
		case f.InterfaceFilter != nil:
			if err := checkIdentifier(f.InterfaceFilter.Value.InterfaceID, path+".InterfaceFilter.value.interfaceId"); err != nil {
				return err
			}
		}
	}
	return nil
}

// canonicalBase64 checks a bytes field (a page or continuation token) and
// returns it in the padded standard form the Node reads. Like Java's
// Base64 decoder, it accepts the standard alphabet with or without
// padding; "" is no token.
func canonicalBase64(s, at string) (string, error) {
	if s == "" {
		return "", nil
	}
	b, err := base64.StdEncoding.Strict().DecodeString(s)
	if err != nil {
		var rawErr error
		if b, rawErr = base64.RawStdEncoding.Strict().DecodeString(s); rawErr != nil {
			return "", invalidBody(fmt.Sprintf("The string is not a valid Base64: %v at '%s'", err, at))
		}
	}
	return base64.StdEncoding.EncodeToString(b), nil
}
