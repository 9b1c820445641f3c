package engine

import (
	"context"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// The benchmarks below measure the machine's per-step cost and
// allocation on small Daml programs shaped like the Splice Amulet
// scripts' hot paths (BENCHMARKS.md, "Daml Script speed, issue 21:
// engine core").

// benchFold runs FOLDL step over [1..n] from 0 and checks the result.
func benchFold(b *testing.B, step lf.Expr, n int, want Value) {
	b.Helper()
	benchFoldOn(b, newTestEngine(map[string]lf.Expr{"step": step}, Options{MaxSteps: -1}), n, want)
}

// benchFoldOn is benchFold with the engine e, which defines step.
func benchFoldOn(b *testing.B, e *Engine, n int, want Value) {
	b.Helper()
	ctx := context.Background()
	f, err := e.EvalValue(ctx, tid("step"))
	if err != nil {
		b.Fatal(err)
	}
	xs := intList(n)
	b.ReportAllocs()
	for b.Loop() {
		got, err := e.Apply(ctx, builtinPAPs[lf.BuiltinFoldL], f, Int64(0), xs)
		if err != nil || got != want {
			b.Fatalf("got %v, %v; want %v", got, err, want)
		}
	}
}

// BenchmarkFoldL is FOLDL of a Daml closure (\acc x -> acc + x): the
// builtin's frame and the call's arguments per element.
func BenchmarkFoldL(b *testing.B) {
	const n = 1000
	benchFold(b, lam(add(v("acc"), v("x")), "acc", "x"), n, Int64(n*(n+1)/2))
}

// BenchmarkStructProj is a dictionary-style struct built and projected
// per element: (STRUCT {m_a = x, m_b = acc + x, m_c = acc}).m_b — the
// struct's allocation and the projection's field lookup.
func BenchmarkStructProj(b *testing.B) {
	const n = 1000
	st := &lf.EStructCon{Fields: []lf.FieldExpr{
		{Name: "m_c", Expr: v("acc")}, {Name: "m_a", Expr: v("x")}, {Name: "m_b", Expr: add(v("acc"), v("x"))},
	}}
	benchFold(b, lam(&lf.EStructProj{Field: "m_b", Struct: st}, "acc", "x"), n, Int64(n*(n+1)/2))
}

// BenchmarkListLiteral builds a three-element list literal per element
// and keeps its head: the cons cells' allocation.
func BenchmarkListLiteral(b *testing.B) {
	const n = 1000
	l := cons(nilE(), add(v("acc"), v("x")), v("x"), v("acc"))
	head := caseE(l, alt(&lf.PCons{Head: "h", Tail: "t"}, v("h")), alt(&lf.PDefault{}, i64(0)))
	benchFold(b, lam(head, "acc", "x"), n, Int64(n*(n+1)/2))
}

// BenchmarkMethodCall calls a dictionary method per element, as Daml
// code calls a class method: (dict.m_f) () acc x, the method being
// \_ -> impl, a function of () whose body is a top-level function — an
// over-application of a call that returns at once.
func BenchmarkMethodCall(b *testing.B) {
	const n = 1000
	dict := &lf.EStructCon{Fields: []lf.FieldExpr{{Name: "m_f", Expr: lam(val("impl"), "u")}}}
	step := lam(app(&lf.EStructProj{Field: "m_f", Struct: val("dict")}, unit(), v("acc"), v("x")), "acc", "x")
	e := newTestEngine(map[string]lf.Expr{
		"step": step, "dict": dict, "impl": lam(add(v("acc"), v("x")), "acc", "x"),
	}, Options{MaxSteps: -1})
	benchFoldOn(b, e, n, Int64(n*(n+1)/2))
}

// BenchmarkConstCall calls per element a function whose body is a
// variable or a constant (const-like helpers, method selectors):
// (\a b -> a) acc x + 1.
func BenchmarkConstCall(b *testing.B) {
	const n = 1000
	first := lam(v("a"), "a", "b")
	step := lam(add(app(val("first"), v("acc"), v("x")), i64(1)), "acc", "x")
	e := newTestEngine(map[string]lf.Expr{"step": step, "first": first}, Options{MaxSteps: -1})
	benchFoldOn(b, e, n, Int64(n))
}

// BenchmarkFoldLPartial is FOLDL of a partial application, as Daml code
// folds or maps with a function given some of its arguments (f . g,
// flip f x, a method's PAP): (\c acc x -> acc + x + c) 0 — the PAP's
// arguments and the call's go into the closure's environment.
func BenchmarkFoldLPartial(b *testing.B) {
	const n = 1000
	f := lam(add(add(v("acc"), v("x")), v("c")), "c", "acc", "x")
	e := newTestEngine(map[string]lf.Expr{"step": app(f, i64(0))}, Options{MaxSteps: -1})
	benchFoldOn(b, e, n, Int64(n*(n+1)/2))
}

// BenchmarkClosureCall builds and calls a closure capturing one value
// per element, as Daml code passes a lambda over a local (map (\y -> y +
// x) …): (\y -> y + x) acc — the closure, its PAP and its captured value
// in one allocation.
func BenchmarkClosureCall(b *testing.B) {
	const n = 1000
	benchFold(b, lam(app(lam(add(v("y"), v("x")), "y"), v("acc")), "acc", "x"), n, Int64(n*(n+1)/2))
}
