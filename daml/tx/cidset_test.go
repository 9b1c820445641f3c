package tx

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/value"
)

// TestCIDSet checks the small (list) and large (indexed) forms of cidSet
// against a map: membership, no duplicates, insertion order.
func TestCIDSet(t *testing.T) {
	for _, n := range []int{0, 1, cidSetListMax, cidSetListMax + 1, 3 * cidSetListMax} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var s cidSet
			ref := map[value.ContractID]bool{}
			var order []value.ContractID
			for i := range 2 * n {
				c := value.ContractID(fmt.Sprint("c", (i*7)%(n+1)))
				if !ref[c] {
					order = append(order, c)
				}
				ref[c] = true
				s.add(c)
			}
			if diff := cmp.Diff(order, s.list); diff != "" {
				t.Errorf("list (-want +got):\n%s", diff)
			}
			for i := range n + 3 {
				c := value.ContractID(fmt.Sprint("c", i))
				if s.has(c) != ref[c] {
					t.Errorf("has(%s) = %v, want %v", c, s.has(c), ref[c])
				}
			}
		})
	}
}
