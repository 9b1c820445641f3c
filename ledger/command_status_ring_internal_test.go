package ledger

import (
	"slices"
	"strconv"
	"testing"
)

// TestStatusRingKeepsTheLastNewestFirst: the ring yields the statuses
// pushed, newest first, and only the last bound of them, before and after
// it wraps around.
func TestStatusRingKeepsTheLastNewestFirst(t *testing.T) {
	t.Parallel()
	const bound = 5
	for _, pushed := range []int{0, 1, 4, 5, 6, 9, 10, 11, 23} {
		var r statusRing
		for i := range pushed {
			r.push(&trackedCommand{status: CommandStatus{CommandID: strconv.Itoa(i)}}, bound)
		}
		var got, want []string
		for s := range r.newestFirst {
			got = append(got, s.CommandID)
		}
		for i := pushed - 1; i >= max(0, pushed-bound); i-- {
			want = append(want, strconv.Itoa(i))
		}
		if !slices.Equal(got, want) {
			t.Errorf("after %d pushes: %v, want %v", pushed, got, want)
		}
		// Stopping early stops.
		n := 0
		for range r.newestFirst {
			n++
			break
		}
		if n != min(1, pushed) {
			t.Errorf("after %d pushes: a loop that breaks at once saw %d", pushed, n)
		}
	}
}
