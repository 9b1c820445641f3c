package ledger

import (
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
