package engine

import (
	"context"
	"runtime/debug"
	"slices"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// TestEnvironmentsFromBlocks: a loop's calls cut their environments from
// shared blocks (newEnv) rather than allocating one each: a countdown of
// 1000 iterations, which allocated about 2.5 objects per iteration (its
// environment, and its boxed Int64 counters), allocates about 1.5, and
// counts right.
func TestEnvironmentsFromBlocks(t *testing.T) {
	const n = 1000
	e := newTestEngine(map[string]lf.Expr{"countdown": countdown}, Options{MaxSteps: -1})
	ctx := context.Background()
	f, err := e.EvalValue(ctx, tid("countdown"))
	if err != nil {
		t.Fatal(err)
	}
	allocs := allocsPerRun(t, 10, func() {
		got, err := e.Apply(ctx, f, Int64(n), Int64(0))
		if err != nil || got != Int64(n) {
			t.Fatalf("countdown %d = %v, %v", n, got, err)
		}
	})
	if limit := float64(n * 8 / 5); allocs > limit {
		t.Errorf("%v allocations for %d iterations, want at most %v", allocs, n, limit)
	}
}

// TestNewEnv: environments are zeroed, of the size asked, and never
// share a slot: appending to one does not write another's.
func TestNewEnv(t *testing.T) {
	m := &Machine{}
	var envs [][]Value
	for i := range 3 * envBlock {
		n := i%9 + 1 // up to 9: the largest cut from a block is envBlock/8
		env := m.newEnv(n)
		if len(env) != n || cap(env) != n {
			t.Fatalf("newEnv(%d): len %d cap %d", n, len(env), cap(env))
		}
		for j, v := range env {
			if v != nil {
				t.Fatalf("newEnv(%d)[%d] = %v, want nil", n, j, v)
			}
			env[j] = Int64(i)
		}
		_ = append(env, Int64(-1))
		envs = append(envs, env)
	}
	for i, env := range envs {
		for j, v := range env {
			if v != Int64(i) {
				t.Fatalf("environment %d slot %d = %v, want %d", i, j, v, i)
			}
		}
	}
}

// TestRecordOneAllocation: a record of few fields is built in one
// allocation, its fields with it: applying \a b -> R {a, b} (in and out
// of order) allocates the record only, and gives the right fields.
func TestRecordOneAllocation(t *testing.T) {
	outOfOrder := &lf.ERecCon{Type: lf.TypeConApp{ID: tid("R")}, Fields: []lf.FieldExpr{{Name: "b", Expr: v("y")}, {Name: "a", Expr: v("x")}}}
	for name, body := range map[string]lf.Expr{"in order": rec(v("x"), v("y")), "out of order": outOfOrder} {
		t.Run(name, func(t *testing.T) {
			e := newTestEngine(map[string]lf.Expr{"mk": lam(body, "x", "y")}, Options{})
			ctx := context.Background()
			f, err := e.EvalValue(ctx, tid("mk"))
			if err != nil {
				t.Fatal(err)
			}
			a, b := Value(Text("a")), Value(Text("b"))
			got, err := e.Apply(ctx, f, a, b)
			if err != nil {
				t.Fatal(err)
			}
			if r, ok := got.(*Record); !ok || r.Type.ID != tid("R") || !slices.Equal(r.Fields, []Value{a, b}) {
				t.Fatalf("mk a b = %s, want %s", show(got), show(recV(a, b)))
			}
			// Apply itself allocates its application node and arguments.
			base := allocsPerRun(t, 100, func() { _, _ = e.Apply(ctx, Identity(), a) })
			allocs := allocsPerRun(t, 100, func() { _, _ = e.Apply(ctx, f, a, b) })
			if allocs-base > 1 {
				t.Errorf("%v allocations beyond Apply's own, want 1 (the record)", allocs-base)
			}
		})
	}
}

// TestFewerAllocations: a function whose body is a variant of a constant
// (V.L 7) returns one value built once, and a let whose bound
// expression needs the machine (a call) reuses its frame: neither
// allocates beyond what Apply itself does, the let's result right.
func TestFewerAllocations(t *testing.T) {
	variant := &lf.EVariantCon{Type: lf.TypeConApp{ID: tid("V")}, Con: "L", Arg: i64(7)}
	id := lam(v("z"), "z")
	let := &lf.ELet{Bindings: []lf.Binding{{Var: lf.VarWithType{Name: "y"}, Bound: app(val("id"), v("x"))}}, Body: v("y")}
	e := newTestEngine(map[string]lf.Expr{"variant": lam(variant, "x"), "id": id, "let": lam(let, "x")}, Options{})
	ctx := context.Background()
	arg := Value(Text("x"))
	base := allocsPerRun(t, 100, func() { _, _ = e.Apply(ctx, Identity(), arg) })
	for _, c := range []struct {
		name string
		want Value
	}{{"variant", &Variant{ID: tid("V"), Con: "L", Rank: 0, Value: Int64(7)}}, {"let", arg}} {
		f, err := e.EvalValue(ctx, tid(c.name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := e.Apply(ctx, f, arg)
		if err != nil {
			t.Fatal(err)
		}
		if ok, err := Equal(got, c.want); !ok || err != nil {
			t.Errorf("%s = %s, want %s", c.name, show(got), show(c.want))
		}
		// The closure's environment is cut from a block: less than one
		// allocation per call.
		if allocs := allocsPerRun(t, 100, func() { _, _ = e.Apply(ctx, f, arg) }); allocs-base >= 1 {
			t.Errorf("%s: %v allocations beyond Apply's own, want none", c.name, allocs-base)
		}
	}
}

// allocsPerRun is testing.AllocsPerRun with the garbage collector off,
// and skips tb under the race detector. The engine reuses machines from a
// sync.Pool: a collection during the runs can empty it, and the race
// detector's sync.Pool drops a quarter of what is put back on purpose;
// either way a new machine's allocations would count against f (CI saw
// TestFewerAllocations count one allocation too many under -race).
func allocsPerRun(tb testing.TB, runs int, f func()) float64 {
	tb.Helper()
	if raceEnabled {
		tb.Skip("allocation counts: the race detector's sync.Pool drops pooled machines at random")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	return testing.AllocsPerRun(runs, f)
}
