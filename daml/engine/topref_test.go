package engine

import (
	"context"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// nTopRef evaluates a topRef, as a jet does.
type nTopRef struct{ r *topRef }

func (n *nTopRef) eval(m *Machine) { n.r.eval(m) }

// evalTopRef evaluates r on a machine of e.
func evalTopRef(e *Engine, r *topRef) (Value, error) {
	m := e.newMachine(context.Background())
	m.ctrl = &nTopRef{r: r}
	return e.runOnce(m)
}

// TestTopRefEngines evaluates one jet's reference (topRef) in engines
// sharing a Cache, alternately: it gives each engine the definition that
// engine finds (Engine.valueDef), "unknown package" in an engine lacking
// the package even after another engine found it, and the value once
// the package reaches that engine's source.
func TestTopRefEngines(t *testing.T) {
	cache := NewCache()
	has := New(PackageMap{testPkg: testPackage(map[string]lf.Expr{"x": i64(7)})}, Options{Cache: cache})
	lacksSrc := PackageMap{}
	lacks := New(lacksSrc, Options{Cache: cache})
	r := &topRef{id: tid("x")}
	for i := range 2 {
		if got, err := evalTopRef(has, r); err != nil || got != Int64(7) {
			t.Fatalf("round %d, engine with the package: %v, %v; want 7", i, got, err)
		}
		if r.def(has.newMachine(context.Background())) != has.valueDef(r.id) {
			t.Fatalf("round %d: the definition differs from the engine's", i)
		}
		if got, err := evalTopRef(lacks, r); errKind(err) != ErrPackage {
			t.Fatalf("round %d, engine without the package: %v, %v; want ErrPackage", i, got, err)
		}
	}
	lacksSrc[testPkg] = testPackage(map[string]lf.Expr{"x": i64(7)})
	if got, err := evalTopRef(lacks, r); err != nil || got != Int64(7) {
		t.Errorf("after the package: %v, %v; want 7", got, err)
	}
}

// TestTopRefHitAllocates checks that a jet's reference to a top-level
// value its engine has used allocates nothing.
func TestTopRefHitAllocates(t *testing.T) {
	e := newTestEngine(map[string]lf.Expr{"x": i64(1)}, Options{})
	r := &topRef{id: tid("x")}
	m := e.newMachine(context.Background())
	d := r.def(m)
	if got := testing.AllocsPerRun(100, func() {
		if r.def(m) != d {
			t.Fatal("another definition")
		}
	}); got != 0 {
		t.Errorf("topRef.def: %v allocations, want 0", got)
	}
}

// BenchmarkTopRefHit looks up a top-level value through a jet's
// reference, as the call-stack jets do at every call (compare
// BenchmarkValueDefHit, the lookup by name).
func BenchmarkTopRefHit(b *testing.B) {
	e := newTestEngine(map[string]lf.Expr{"x": i64(1)}, Options{})
	r := &topRef{id: tid("x")}
	m := e.newMachine(context.Background())
	r.def(m)
	b.ReportAllocs()
	for b.Loop() {
		r.def(m)
	}
}
