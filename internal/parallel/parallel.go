// Package parallel runs independent jobs on several goroutines with the
// result of running them in order.
package parallel

import (
	"cmp"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// FirstError runs do(i) for every i in [0, n) on up to GOMAXPROCS
// goroutines and returns what a loop over i in order that stops at the
// first failure returns: the error of the lowest index that fails, or the
// panic of the lowest index that panics when no lower index failed (the
// panic is raised again in the caller's goroutine). An index above one
// known to have failed is not started. Jobs start in the order of
// decreasing cost(i), which balances the workers when costs vary a lot.
// With one worker (GOMAXPROCS 1 or n == 1) it is that loop.
func FirstError(n int, cost func(i int) int64, do func(i int) error) error {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			if err := do(i); err != nil {
				return err
			}
		}
		return nil
	}
	order := make([]int, n)
	costs := make([]int64, n)
	for i := range order {
		order[i], costs[i] = i, cost(i)
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(costs[b], costs[a]) })

	type outcome struct {
		err      error
		panicked bool
		value    any
	}
	outs := make([]outcome, n)
	var next atomic.Int64
	var failed atomic.Int64 // lowest failed index (n: none)
	failed.Store(int64(n))
	run := func(i int) {
		defer func() {
			if r := recover(); r != nil {
				outs[i] = outcome{panicked: true, value: r}
			}
		}()
		outs[i].err = do(i)
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				k := int(next.Add(1) - 1)
				if k >= n {
					return
				}
				i := order[k]
				if int64(i) > failed.Load() {
					continue
				}
				run(i)
				if outs[i].err == nil && !outs[i].panicked {
					continue
				}
				for f := failed.Load(); int64(i) < f && !failed.CompareAndSwap(f, int64(i)); f = failed.Load() {
				}
			}
		})
	}
	wg.Wait()
	for _, o := range outs {
		if o.panicked {
			panic(o.value)
		}
		if o.err != nil {
			return o.err
		}
	}
	return nil
}
