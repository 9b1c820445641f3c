package engine

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestListSlice checks List.Slice's elements, first first, and that it
// allocates the slice once (FOLDR takes its list's elements with it).
func TestListSlice(t *testing.T) {
	for _, n := range []int{0, 1, 100} {
		vs := make([]Value, n)
		for i := range vs {
			vs[i] = Int64(i)
		}
		l := ListOf(vs...)
		if n == 0 {
			vs = nil
		}
		if diff := cmp.Diff(vs, l.Slice()); diff != "" {
			t.Errorf("Slice of %d elements (-want +got):\n%s", n, diff)
		}
		want := 1.0
		if n == 0 {
			want = 0
		}
		if got := testing.AllocsPerRun(20, func() { sliceSink = l.Slice() }); got != want {
			t.Errorf("Slice of %d elements: %v allocations, want %v", n, got, want)
		}
	}
}

// sliceSink keeps what TestListSlice's Slice calls return on the heap.
var sliceSink []Value
