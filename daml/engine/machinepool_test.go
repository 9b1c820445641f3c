package engine_test

import (
	"context"
	"runtime/debug"
	"testing"

	"github.com/ledgernode/ledgernode/daml/engine"
)

// TestApplyReusesMachines: an evaluation reuses an idle machine of the
// engine's, its continuation stack and frames, rather than allocating
// them: applying the identity allocates only the application node.
func TestApplyReusesMachines(t *testing.T) {
	e := engine.New(engine.PackageMap{}, engine.Options{})
	ctx := context.Background()
	id := engine.Identity()
	arg := engine.Value(engine.Int64(7))
	if v, err := e.Apply(ctx, id, arg); err != nil || v != arg {
		t.Fatalf("Apply = %v, %v", v, err)
	}
	// With the collector off, and not under the race detector: a
	// collection can empty the pool of idle machines, and the race
	// detector's sync.Pool drops pooled items at random; the new
	// machine's allocations would count.
	if engine.RaceEnabled {
		t.Skip("allocation counts: the race detector's sync.Pool drops pooled machines at random")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := e.Apply(ctx, id, arg); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 2 {
		t.Errorf("%v allocations per Apply, want at most 2", allocs)
	}
}
