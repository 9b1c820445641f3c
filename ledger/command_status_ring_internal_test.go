package ledger

import (
	"fmt"
	"slices"
	"strconv"
	"sync"
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

// TestStatusRingLatePushYields: a push that reaches its slot after a
// later push to the same slot (one bound of pushes later) took it leaves
// the later push's command there.
func TestStatusRingLatePushYields(t *testing.T) {
	t.Parallel()
	const bound = 3
	var r statusRing
	later, earlier := &trackedCommand{status: CommandStatus{CommandID: "later"}}, &trackedCommand{status: CommandStatus{CommandID: "earlier"}}
	r.n.Store(bound) // the next push is the first slot's second
	r.push(later, bound)
	r.n.Store(0) // the first slot's first push, late
	r.push(earlier, bound)
	if got := r.slots[0].h.Load(); got != later {
		t.Errorf("the slot keeps %q, want %q", got.status.CommandID, "later")
	}
	if got := r.slots[0].claim.Load(); got != bound+1 {
		t.Errorf("the slot's claim is %d, want %d", got, bound+1)
	}
}

// TestStatusRingConcurrentPushes: pushes at once leave every slot full,
// claimed by one of the last bound pushes, the one its place in the ring
// gives it. (Which command a push kept is TestStatusRingLatePushYields'.)
func TestStatusRingConcurrentPushes(t *testing.T) {
	t.Parallel()
	const bound, pushers, each = 7, 8, 200
	var r statusRing
	var wg sync.WaitGroup
	for g := range pushers {
		wg.Go(func() {
			for i := range each {
				r.push(&trackedCommand{status: CommandStatus{CommandID: fmt.Sprint(g, "-", i)}}, bound)
			}
		})
	}
	wg.Wait()
	n := r.n.Load()
	for k := range uint64(bound) {
		h := r.slots[k].h.Load()
		if h == nil {
			t.Fatalf("slot %d is empty", k)
		}
		if c := r.slots[k].claim.Load(); c+bound <= n || (c-1)%bound != k {
			t.Errorf("slot %d was claimed by push %d of %d", k, c, n)
		}
	}
}
