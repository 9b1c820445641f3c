// Package shape holds the small checks of a request's shape that both
// package ledger (commands, filters, prepare) and its JSON layer
// (ledger/jsonapi: vetting updates) apply as Canton's JSON codecs do.
package shape

import (
	"fmt"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
)

// BadTimestamp describes why an optional ISO-8601 timestamp of the wire
// ("2025-01-28T14:49:33.525551Z") does not parse, or returns "". An
// absent or empty value is no bound.
func BadTimestamp(s *string) string {
	if s == nil || *s == "" {
		return ""
	}
	if _, err := time.Parse(time.RFC3339Nano, *s); err != nil {
		return fmt.Sprintf("text %q could not be parsed as a timestamp", apierr.Quote(*s))
	}
	return ""
}

// CountSet counts the true values: the variants set in a one-of.
func CountSet(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// Identifier checks the format of a template or interface identifier at
// the JSON path at() as Canton's codec does: Java's String.split(":")
// (trailing empty parts dropped) must give exactly three parts. Package
// names ("#name") pass; whether the parts name anything is checked later.
// The path is built only for the error (every command of a submission
// is checked).
func Identifier(id string, at func() string) error {
	if _, err := lf.SplitIdentifier(id); err != nil {
		return apierr.Malformed("Invalid identifier format (%s) not matching the expected format (<package>:<moduleName>:<entityName>) at '%s'", apierr.Quote(id), at())
	}
	return nil
}
