package store

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// TestToSpillBound checks that toSpill, given an upper bound of the
// writes' bytes (Tx.bytes), picks what it picks without one.
func TestToSpillBound(t *testing.T) {
	for _, sp := range []Spill{DiskSpill, InMemorySpill, {Above: 4 << 10}, {Inline: 8 << 10}} {
		for _, sizes := range [][]int{{10, 900}, {2 << 10, 3 << 10, 4 << 10}, {70 << 10}, {300 << 10, 300 << 10}, {600 << 10, 600 << 10}} {
			var tx Tx
			for i, n := range sizes {
				tx.SetOwned(fmt.Appendf(nil, "k/%d", i), make([]byte, n))
			}
			got, want := sp.toSpill(tx.writes, tx.bytes), sp.toSpill(tx.writes, math.MaxInt)
			if !slices.Equal(got, want) {
				t.Errorf("%+v %v: toSpill = %v, want %v", sp, sizes, got, want)
			}
		}
	}
}
