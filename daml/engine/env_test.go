package engine

import (
	"context"
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
	allocs := testing.AllocsPerRun(10, func() {
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
