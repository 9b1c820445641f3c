package engine

import (
	"context"
	"testing"
)

// TestApplyReusesMachines: an evaluation reuses an idle machine of the
// engine's, its continuation stack and frames, rather than allocating
// them: applying the identity allocates only the application node.
func TestApplyReusesMachines(t *testing.T) {
	e := New(PackageMap{}, Options{})
	ctx := context.Background()
	id := Identity()
	arg := Value(Int64(7))
	if v, err := e.Apply(ctx, id, arg); err != nil || v != arg {
		t.Fatalf("Apply = %v, %v", v, err)
	}
	allocs := allocsPerRun(t, 100, func() {
		if _, err := e.Apply(ctx, id, arg); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 2 {
		t.Errorf("%v allocations per Apply, want at most 2", allocs)
	}
}
