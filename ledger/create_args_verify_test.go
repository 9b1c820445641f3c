package ledger

import (
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"

	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/value"
)

// Every argument the tests' commands type is checked against
// engine.IsLedgerValueOf; benchmarks measure commands without the check.
func init() {
	if !slices.ContainsFunc(os.Args[1:], func(a string) bool { return strings.HasPrefix(a, "-test.bench") }) {
		checkCreateArg = verifyCreateArg
		checkKeptArg = verifyKeptArg
	}
}

// verifyCreateArg panics unless engine.IsLedgerValueOf(rv, v) tells
// whether v is what engine.ToValue gives for rv.
func verifyCreateArg(rv engine.Value, v value.Value) {
	want, err := engine.ToValue(rv)
	eq := err == nil && reflect.DeepEqual(want, v)
	if got := engine.IsLedgerValueOf(rv, v); got != eq {
		panic(fmt.Sprintf("ledger: IsLedgerValueOf(%#v) = %v, but its normalized value is %#v", v, got, want))
	}
}

// verifyKeptArg panics unless engine.FromValueKept kept v (converted to
// rv) exactly when engine.IsLedgerValueOf(rv, v).
func verifyKeptArg(rv engine.Value, v, kept value.Value) {
	if want := engine.IsLedgerValueOf(rv, v); (kept != nil) != want || (kept != nil && !reflect.DeepEqual(kept, v)) {
		panic(fmt.Sprintf("ledger: FromValueKept(%#v) kept %#v, IsLedgerValueOf says %v", v, kept, want))
	}
}
