package engine

import (
	"context"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// TestValueDefHitAllocates checks that looking up a top-level value the
// engine has looked up before (as the call-stack jets do at every call)
// allocates nothing.
func TestValueDefHitAllocates(t *testing.T) {
	e := newTestEngine(map[string]lf.Expr{"x": i64(1)}, Options{})
	d := e.valueDef(tid("x"))
	if got := testing.AllocsPerRun(100, func() {
		if e.valueDef(tid("x")) != d {
			t.Fatal("another definition")
		}
	}); got != 0 {
		t.Errorf("valueDef of a known value: %v allocations, want 0", got)
	}
}

// BenchmarkValueDefHit looks up a top-level value the engine knows.
func BenchmarkValueDefHit(b *testing.B) {
	e := newTestEngine(map[string]lf.Expr{"x": i64(1)}, Options{})
	ref := tid("x")
	e.valueDef(ref)
	b.ReportAllocs()
	for b.Loop() {
		e.valueDef(ref)
	}
}

// TestValueDefUnknownPackageNotKept looks up a value before and after its
// package reaches the engine's source: the first lookup's "unknown
// package" is not kept.
func TestValueDefUnknownPackageNotKept(t *testing.T) {
	src := PackageMap{}
	e := New(src, Options{Cache: NewCache()})
	ctx := context.Background()
	if _, err := e.EvalValue(ctx, tid("x")); errKind(err) != ErrPackage {
		t.Fatalf("before the package: %v, want ErrPackage", err)
	}
	src[testPkg] = testPackage(map[string]lf.Expr{"x": i64(7)})
	got, err := e.EvalValue(ctx, tid("x"))
	if err != nil || got != Int64(7) {
		t.Errorf("after the package: %v, %v; want 7", got, err)
	}
}
