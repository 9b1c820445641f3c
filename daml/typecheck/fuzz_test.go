package typecheck

import (
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
)

// fuzzSeeds are small packages encoded by lftest: well-typed ones and
// ill-typed variants.
func fuzzSeeds() [][]byte {
	i64 := &lf.TBuiltin{Builtin: lf.BuiltinInt64}
	badValue := lftest.Package{Name: "bad", Version: "1.0.0", Imports: []string{}, Modules: []lftest.Module{{Name: "Main",
		Values: []lftest.Value{
			{Name: "x", Type: lftest.B(lftest.Bool), Expr: &lf.EBuiltinCon{Con: lf.ConUnit}},
			{Name: "f", Type: lftest.Fn(lftest.B(lftest.Int64), lftest.B(lftest.Int64)),
				Expr: &lf.EAbs{Params: []lf.VarWithType{{Name: "n", Type: i64}}, Body: &lf.EApp{Fun: &lf.EBuiltinFun{Fun: lf.BuiltinAddInt64},
					Args: []lf.Expr{&lf.EVar{Name: "n"}, &lf.EInt64{Value: 1}}}}},
		},
	}}}
	var seeds [][]byte
	for _, p := range []lftest.Package{
		lftest.IouPackage("1.0.0"),
		lftest.HeavyPackage(),
		lftest.TemplatePackage("t", "1.0.0", nil, lftest.Field{Name: "p", Type: lftest.B(lftest.Party)}, lftest.Field{Name: "n", Type: lftest.B(lftest.Int64)}),
		badValue,
	} {
		_, dalf := lftest.Dalf(p)
		seeds = append(seeds, dalf)
	}
	return seeds
}

// TestFuzzSeeds: the well-typed seeds check, the ill-typed one does not
// (so the fuzz target starts from both sides of the checker).
func TestFuzzSeeds(t *testing.T) {
	t.Parallel()
	seeds := fuzzSeeds()
	for i, s := range seeds {
		p, err := lf.DecodeArchive(s, lf.ReadOptions{})
		if err != nil {
			t.Fatalf("seed %d: %v", i, err)
		}
		err = Check(p, nil)
		if bad := i == len(seeds)-1; (err != nil) != bad {
			t.Errorf("seed %d (%s): Check = %v, want refused %v", i, p.Name, err, bad)
		}
	}
}

// FuzzCheck: whatever the decoder accepts, Check returns (an error or
// nil) without panicking and in bounded time.
func FuzzCheck(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := lf.DecodeArchive(data, lf.ReadOptions{AllowDevLF: true})
		if err != nil {
			return
		}
		_ = Check(p, func(id string) *lf.Package {
			if id == p.ID {
				return p
			}
			return nil
		})
	})
}

// sharedStructs is e(n) = ⟨a = e(n-1), b = e(n-1)⟩ with e(0) = 1: n
// nodes as a DAG, 2^n as a tree, with a type of the same sizes.
func sharedStructs(n int) lf.Expr {
	var e lf.Expr = &lf.EInt64{Value: 1}
	for range n {
		e = &lf.EStructCon{Fields: []lf.FieldExpr{{Name: "a", Expr: e}, {Name: "b", Expr: e}}}
	}
	return e
}

// hostileInput is a package built to make the checker work hard: an
// exponentially shared expression or deep nesting, and the error kind
// the check must end with.
type hostileInput struct {
	name    string
	typ     lf.Type
	expr    lf.Expr
	payload int
	want    ErrorKind
}

// hostileInputs are TestHostileInput's and BenchmarkHostileInput's cases.
func hostileInputs() []hostileInput {
	deepLambda := func(n int) lf.Expr {
		var e lf.Expr = &lf.EBuiltinCon{Con: lf.ConUnit}
		for range n {
			e = lam("x", tyUnit, e)
		}
		return e
	}
	deepType := func(n int) lf.Type {
		var t lf.Type = tyInt64
		for range n {
			t = tlist(t)
		}
		return t
	}
	return []hostileInput{
		{"exponential DAG in a 1 KB archive", tyUnit, sharedStructs(80), 1000, ETooComplex},
		{"exponential DAG built in memory", tyUnit, sharedStructs(80), 0, ETooComplex},
		{"moderately shared DAG", tyUnit, sharedStructs(12), 1000, ETypeMismatch},
		{"lambdas nested beyond the depth bound", tyUnit, deepLambda(maxDepth + 1), 0, ETooComplex},
		{"type nested beyond the depth bound", tyUnit, lam("x", deepType(2*maxDepth), unitE), 0, ETooComplex},
		{"lambdas nested as deep as the decoder allows", tyUnit, deepLambda(10_000), 0, ETypeMismatch},
	}
}

// TestHostileInput: exponentially shared expressions and deep nesting are
// refused with ETooComplex, without exhausting the stack, and with a
// bounded message. How quickly is BenchmarkHostileInput's to measure: the
// checker's step budget (check.go) is what bounds the time.
func TestHostileInput(t *testing.T) {
	t.Parallel()
	for _, tt := range hostileInputs() {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := withValue(tt.typ, tt.expr)
			p.Payload = make([]byte, tt.payload)
			e := checkErr(t, p)
			if kindOfErr(e) != tt.want {
				t.Fatalf("kind %v, want %v (%.200v)", kindOfErr(e), tt.want, e)
			}
			if len(e.Error()) > 3*maxPrinted {
				t.Errorf("message of %d bytes", len(e.Error()))
			}
		})
	}
}

// BenchmarkHostileInput times the check of each hostile package up to its
// refusal (or, for the two well-formed-but-ill-typed ones, its type error).
func BenchmarkHostileInput(b *testing.B) {
	for _, tt := range hostileInputs() {
		p := withValue(tt.typ, tt.expr)
		p.Payload = make([]byte, tt.payload)
		b.Run(tt.name, func(b *testing.B) {
			for b.Loop() {
				if err := Check(p, Lookup(lookupDATypes)); err == nil {
					b.Fatal("accepted")
				}
			}
		})
	}
}
