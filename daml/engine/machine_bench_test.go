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
	e := newTestEngine(map[string]lf.Expr{"step": step}, Options{MaxSteps: -1})
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
