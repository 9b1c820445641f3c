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
