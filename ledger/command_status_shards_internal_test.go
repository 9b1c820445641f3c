package ledger

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// TestCommandTrackerConcurrent tracks and finishes commands from several
// goroutines while others list them: every command ends succeeded once,
// none stays pending, and a listing sees no command twice.
func TestCommandTrackerConcurrent(t *testing.T) {
	t.Parallel()
	var tr commandTracker
	clock := func() time.Time { return time.Unix(1, 0) }
	const goroutines, each = 8, 40
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range each {
				s := &submission{c: &Commands{CommandID: fmt.Sprint("c", g, "-", i), UserID: "u", ActAs: []string{"a"}}}
				tr.track(clock(), s)
				tr.interpreted(s, nil)
				e := &logEntry{Offset: int64(i)}
				var err error
				tr.done(clock, s, &e, &err)
			}
		})
	}
	for range 2 {
		wg.Go(func() {
			for range 50 {
				seen := map[string]bool{}
				for _, st := range tr.find("", CommandStateUnspecified, 5000) {
					if seen[st.CommandID] {
						t.Errorf("%s listed twice", st.CommandID)
					}
					seen[st.CommandID] = true
				}
			}
		})
	}
	wg.Wait()
	if got := tr.find("", CommandStatePending, 5000); len(got) != 0 {
		t.Errorf("%d commands left pending", len(got))
	}
	if got := tr.npending.Load(); got != 0 {
		t.Errorf("npending = %d", got)
	}
	if got := tr.find("", CommandStateSucceeded, 5000); len(got) != trackMaxSucceeded {
		t.Errorf("%d succeeded kept, want %d", len(got), trackMaxSucceeded)
	}
}

// TestTrackShardSpread: the commands in flight at once on a busy node —
// ids of a counter, or UUIDs — spread over the tracker's shards.
func TestTrackShardSpread(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		id   func(i int) string
	}{
		{"counter", func(i int) string { return fmt.Sprint("c", 12300+i) }},
		{"uuid", func(i int) string { return fmt.Sprintf("%08x-4e1d-8a2b-%012x", i*2654435761%(1<<32), i*40503) }},
	} {
		shards := map[int]bool{}
		for i := range trackShards {
			shards[trackShard(tc.id(i))] = true
		}
		if len(shards) < trackShards/2 {
			t.Errorf("%s: %d ids in flight in %d shards, want at least %d", tc.name, trackShards, len(shards), trackShards/2)
		}
	}
}

// TestCommandTrackerPendingBoundConcurrent: commands registering at once
// on every shard, near the bound, never leave more than trackMaxPending
// pending, and fill it.
func TestCommandTrackerPendingBoundConcurrent(t *testing.T) {
	t.Parallel()
	clock := func() time.Time { return time.Unix(1, 0) }
	for round := range 5 {
		var tr commandTracker
		for i := range trackMaxPending - trackShards/2 {
			tr.track(clock(), &submission{c: &Commands{CommandID: fmt.Sprint("fill", i), UserID: "u"}})
		}
		start := make(chan struct{})
		var wg sync.WaitGroup
		for g := range 4 * trackShards {
			wg.Go(func() {
				<-start
				tr.track(clock(), &submission{c: &Commands{CommandID: fmt.Sprint("r", round, "-", g), UserID: "u"}})
			})
		}
		close(start)
		wg.Wait()
		if n, listed := tr.npending.Load(), len(tr.find("", CommandStatePending, 5000)); n != trackMaxPending || listed != trackMaxPending {
			t.Fatalf("round %d: %d pending counted, %d listed, want %d", round, n, listed, trackMaxPending)
		}
	}
}
