package engine

import (
	"os"
	"slices"
	"strings"
)

// Every create the tests run checks its normalized argument
// (finishCreate, checkLedgerValue); benchmarks measure creates without
// the check.
func init() {
	verifyLedgerValues = !slices.ContainsFunc(os.Args[1:], func(a string) bool { return strings.HasPrefix(a, "-test.bench") })
}
