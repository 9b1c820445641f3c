package httpadapter

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"
)

// TestDeadlineQueue: requests of several request timeouts at once, in
// and out of their start order, each get their 503 at their own deadline
// when they outlive it and none when they answer in time; the queue is
// empty once they all returned.
func TestDeadlineQueue(t *testing.T) {
	type tc struct {
		timeout, work time.Duration
	}
	cases := []tc{
		{time.Minute, 0},
		{40 * time.Millisecond, 120 * time.Millisecond},
		{time.Minute, 10 * time.Millisecond},
		{80 * time.Millisecond, 0},
		{20 * time.Millisecond, 120 * time.Millisecond},
		{200 * time.Millisecond, 20 * time.Millisecond},
		{60 * time.Millisecond, 150 * time.Millisecond},
	}
	var q deadlineQueue // every request's, as an adapter's
	var wg sync.WaitGroup
	for round := range 3 {
		for i, c := range cases {
			wg.Add(1)
			go func() {
				defer wg.Done()
				start := time.Now()
				var timedOut time.Duration
				ctx, code := serveCtxIn(&q, c.timeout, context.Background(), func(ctx context.Context) {
					// Polling Err, as the engine does: only the queue's
					// timer ends the context (Done would make a timer of
					// its own).
					for time.Since(start) < c.work {
						if ctx.Err() != nil {
							timedOut = time.Since(start)
							break
						}
						time.Sleep(time.Millisecond)
					}
				})
				outlived := c.work > c.timeout
				switch {
				case outlived && code != http.StatusServiceUnavailable:
					t.Errorf("round %d, request %d (%v for %v): status %d, want 503", round, i, c.work, c.timeout, code)
				case outlived && (timedOut < c.timeout || timedOut > c.timeout+time.Second/2):
					t.Errorf("round %d, request %d: ended after %v, want %v", round, i, timedOut, c.timeout)
				case !outlived && code != http.StatusTeapot:
					t.Errorf("round %d, request %d (%v for %v): status %d, want 418", round, i, c.work, c.timeout, code)
				}
				if ctx.Err() == nil {
					t.Errorf("round %d, request %d: the context lives on", round, i)
				}
			}()
		}
		time.Sleep(5 * time.Millisecond)
	}
	wg.Wait()
	if !q.empty() {
		t.Errorf("requests queued after they all returned")
	}
}

// TestDeadlineQueueLanes: requests starting at different instants spread
// over the queue's lanes (so that requests on different cores seldom share
// a lock), and each leaves the lane it joined.
func TestDeadlineQueueLanes(t *testing.T) {
	var q deadlineQueue
	base := time.Now().Add(time.Hour)
	cs := make([]*requestCtx, 4*deadlineLanes)
	for i := range cs {
		// Ends 64 ns apart: the lanes take the bits above the lowest six.
		cs[i] = &requestCtx{end: base.Add(time.Duration(i) * 64)}
		q.add(cs[i])
	}
	used := map[*deadlineLane]bool{}
	for _, c := range cs {
		used[c.lane] = true
	}
	if len(used) != deadlineLanes {
		t.Errorf("requests in %d lanes, want %d", len(used), deadlineLanes)
	}
	for _, c := range cs {
		q.remove(c)
	}
	if !q.empty() {
		t.Errorf("requests queued after they all left")
	}
	for i := range q.lanes {
		if tm := q.lanes[i].timer; tm != nil {
			tm.Stop()
		}
	}
}

// empty reports whether no request is queued.
func (q *deadlineQueue) empty() bool {
	for i := range q.lanes {
		l := &q.lanes[i]
		l.mu.Lock()
		none := l.head == nil && l.tail == nil
		l.mu.Unlock()
		if !none {
			return false
		}
	}
	return true
}
