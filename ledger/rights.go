package ledger

import "context"

// CheckReadAs checks that the caller may read as each of the parties,
// in the order given: the first party that is not a valid party id
// (INVALID_FIELD, every party checked first) or that the caller may not read as
// (PERMISSION_DENIED) is the one the error names. The typed reads check
// a format's parties in sorted order; a reader whose request lists
// parties (the deprecated tree reads) calls it first to refuse the one
// its request names first.
func CheckReadAs(ctx context.Context, parties ...string) error {
	return authorizeRead(ctx, parties, false)
}
