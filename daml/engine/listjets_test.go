package engine_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
)

// listJetEnv is the Daml side of the list jet tests: an engine that
// interprets the list functions (daml) and one that runs their jets
// (jets), each with the trace it has received.
type listJetEnv struct {
	d          *lf.DAR
	prim, std  *lf.Package
	ordering   lf.TypeConID
	engines    [2]*engine.Engine
	mu         sync.Mutex
	traces     [2][]string
	daml, jets int
}

func newListJetEnv(t testing.TB, d *lf.DAR) *listJetEnv {
	x := &listJetEnv{d: d, daml: 0, jets: 1}
	for _, p := range d.Packages {
		switch p.Name {
		case "daml-prim":
			x.prim = p
		case "daml-stdlib":
			x.std = p
		}
		for _, m := range p.Modules {
			if m.Name != "GHC.Types" {
				continue
			}
			for _, dt := range m.DataTypes {
				if dt.Name == "Ordering" {
					x.ordering = lf.TypeConID{PackageID: p.ID, Module: m.Name, Name: dt.Name}
				}
			}
		}
	}
	if x.prim == nil || x.std == nil || x.ordering.PackageID == "" {
		t.Fatal("no daml-prim, daml-stdlib or GHC.Types:Ordering in the DAR")
	}
	for i := range x.engines {
		i := i
		x.engines[i] = engine.New(d, engine.Options{NoListJets: i == x.daml, Trace: func(msg string) {
			x.mu.Lock()
			x.traces[i] = append(x.traces[i], msg)
			x.mu.Unlock()
		}})
	}
	return x
}

func (x *listJetEnv) ref(p *lf.Package, module, name string) lf.TypeConID {
	return lf.TypeConID{PackageID: p.ID, Module: module, Name: name}
}

// run applies the top-level value ref to the values of args on engine i,
// giving the result or the error's text, and the trace.
func (x *listJetEnv) run(t *testing.T, i int, ref lf.TypeConID, args ...lf.Expr) (engine.Value, string, []string) {
	t.Helper()
	ctx := context.Background()
	e := x.engines[i]
	x.mu.Lock()
	x.traces[i] = nil
	x.mu.Unlock()
	fn, err := e.EvalValue(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	vs := make([]engine.Value, len(args))
	for j, a := range args {
		if vs[j], err = e.Eval(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	v, err := e.Apply(ctx, fn, vs...)
	x.mu.Lock()
	defer x.mu.Unlock()
	if err != nil {
		return nil, err.Error(), x.traces[i]
	}
	return v, "", x.traces[i]
}

// LF shorthands of the list jet tests (package engine_test).
func lj(n int64) lf.Expr   { return &lf.EInt64{Value: n} }
func ljv(n string) lf.Expr { return &lf.EVar{Name: n} }
func ljb(f lf.BuiltinFunction, args ...lf.Expr) lf.Expr {
	return &lf.EApp{Fun: &lf.EBuiltinFun{Fun: f}, Args: args}
}
func ljLam(body lf.Expr, ps ...string) lf.Expr {
	vs := make([]lf.VarWithType, len(ps))
	for i, p := range ps {
		vs[i] = lf.VarWithType{Name: p}
	}
	return &lf.EAbs{Params: vs, Body: body}
}
func ljIf(c, then, els lf.Expr) lf.Expr {
	return &lf.ECase{Scrut: c, Alts: []lf.CaseAlt{
		{Pattern: &lf.PBuiltinCon{Con: lf.ConTrue}, Body: then},
		{Pattern: &lf.PBuiltinCon{Con: lf.ConFalse}, Body: els}}}
}

// ljTrace is TRACE (tag <> " " <> show x [<> " " <> show y]) v.
func ljTrace(tag string, v lf.Expr, xs ...lf.Expr) lf.Expr {
	msg := lf.Expr(&lf.EText{Value: tag})
	for _, x := range xs {
		msg = ljb(lf.BuiltinAppendText, ljb(lf.BuiltinAppendText, msg, &lf.EText{Value: " "}), ljb(lf.BuiltinInt64ToText, x))
	}
	return ljb(lf.BuiltinTrace, msg, v)
}

// ljList is the list of ns.
func ljList(ns []int64) lf.Expr {
	if len(ns) == 0 {
		return &lf.ENil{}
	}
	front := make([]lf.Expr, len(ns))
	for i, n := range ns {
		front[i] = lj(n)
	}
	return &lf.ECons{Front: front, Tail: &lf.ENil{}}
}

// ljLists are the lists the tests run on: empty, short, with equal
// elements, long (stack-safety: the jets and FOLDR alike).
func ljLists() map[string][]int64 {
	long := make([]int64, 5000)
	for i := range long {
		long[i] = int64((i * 7919) % 1009)
	}
	return map[string][]int64{
		"empty": nil, "one": {3}, "two": {4, 1}, "three": {2, 3, 1},
		"mixed": {5, 3, 9, 1, 3, 7, 2, 8, 6, 4, 0, 12, 11, 3},
		"dups":  {31, 12, 35, 14, 33, 10, 17, 38, 16},
		"long":  long,
	}
}

// TestListJet: each list jet gives what the Daml definition it replaces
// gives, interpreted, on lists of every shape, with functions that trace
// every call (the calls happen in the same order), and with ones that
// fail on an element (the same error, after the same calls).
func TestListJet(t *testing.T) {
	x := newListJetEnv(t, loadDAR(t, amuletTestDARName))
	lt, eq, gt := &lf.EEnumCon{ID: x.ordering, Con: "LT"}, &lf.EEnumCon{ID: x.ordering, Con: "EQ"}, &lf.EEnumCon{ID: x.ordering, Con: "GT"}
	// div3 x is 100 / (x - 3): it fails on 3.
	div3 := func(v lf.Expr) lf.Expr { return ljb(lf.BuiltinDivInt64, lj(100), ljb(lf.BuiltinSubInt64, v, lj(3))) }
	// cmpTens compares x / 10 with y / 10: elements of equal tens compare
	// EQ (sortBy is stable).
	tens := func(v lf.Expr) lf.Expr { return ljb(lf.BuiltinDivInt64, v, lj(10)) }
	cmpTens := ljIf(ljb(lf.BuiltinLess, tens(ljv("x")), tens(ljv("y"))), lt,
		ljIf(ljb(lf.BuiltinEqual, tens(ljv("x")), tens(ljv("y"))), eq, gt))
	funs := map[string]lf.Expr{
		"double":     ljLam(ljTrace("f", ljb(lf.BuiltinMulInt64, ljv("x"), lj(2)), ljv("x")), "x"),
		"divide":     ljLam(ljTrace("f", div3(ljv("x")), ljv("x")), "x"),
		"less5":      ljLam(ljTrace("p", ljb(lf.BuiltinLess, ljv("x"), lj(5)), ljv("x")), "x"),
		"greater0":   ljLam(ljTrace("p", ljb(lf.BuiltinGreater, ljv("x"), lj(-1)), ljv("x")), "x"),
		"divideLess": ljLam(ljTrace("p", ljb(lf.BuiltinLess, div3(ljv("x")), lj(30)), ljv("x")), "x"),
		"pair":       ljLam(ljTrace("f", &lf.ECons{Front: []lf.Expr{ljv("x"), ljb(lf.BuiltinMulInt64, ljv("x"), lj(10))}, Tail: &lf.ENil{}}, ljv("x")), "x"),
		"dividePair": ljLam(ljTrace("f", &lf.ECons{Front: []lf.Expr{ljv("x"), div3(ljv("x"))}, Tail: &lf.ENil{}}, ljv("x")), "x"),
		"oddEmpty":   ljLam(ljIf(ljb(lf.BuiltinEqual, ljb(lf.BuiltinModInt64, ljv("x"), lj(2)), lj(1)), &lf.ENil{}, &lf.ECons{Front: []lf.Expr{ljv("x")}, Tail: &lf.ENil{}}), "x"),
		"cmpTens":    ljLam(ljTrace("cmp", cmpTens, ljv("x"), ljv("y")), "x", "y"),
		"cmpDivide":  ljLam(ljTrace("cmp", ljIf(ljb(lf.BuiltinLess, div3(ljv("x")), ljv("y")), lt, gt), ljv("x"), ljv("y")), "x", "y"),
	}
	type jetCase struct {
		p      *lf.Package
		module string
		name   string
		funs   []string
	}
	const prelude = "DA.Internal.Prelude"
	cases := []jetCase{
		{x.prim, "GHC.Base", "map", []string{"double", "divide"}},
		{x.std, prelude, "filter", []string{"less5", "greater0", "divideLess"}},
		{x.std, prelude, "all", []string{"less5", "greater0", "divideLess"}},
		{x.std, prelude, "any", []string{"less5", "greater0", "divideLess"}},
		{x.std, prelude, "concatMap", []string{"pair", "dividePair", "oddEmpty"}},
		{x.std, "DA.List", "sortBy", []string{"cmpTens", "cmpDivide"}},
		{x.std, prelude, "length", nil},
		{x.std, prelude, "$u002b$u002b", nil},
	}
	for _, c := range cases {
		ref := x.ref(c.p, c.module, c.name)
		if _, ok := engine.ListJet(x.d.Package, ref); !ok {
			t.Fatalf("no jet for %s:%s", c.module, c.name)
		}
		for listName, ns := range ljLists() {
			var argSets [][]lf.Expr
			var names []string
			switch {
			case c.name == "length":
				argSets, names = [][]lf.Expr{{ljList(ns)}}, []string{""}
			case c.name == "$u002b$u002b":
				for other, ms := range map[string][]int64{"empty": nil, "short": {8, 9}} {
					argSets = append(argSets, []lf.Expr{ljList(ns), ljList(ms)}, []lf.Expr{ljList(ms), ljList(ns)})
					names = append(names, "++"+other, other+"++")
				}
			default:
				for _, f := range c.funs {
					argSets = append(argSets, []lf.Expr{funs[f], ljList(ns)})
					names = append(names, f)
				}
			}
			for k, args := range argSets {
				t.Run(fmt.Sprintf("%s/%s/%s", c.name, listName, names[k]), func(t *testing.T) {
					want, wantErr, wantTrace := x.run(t, x.daml, ref, args...)
					got, gotErr, gotTrace := x.run(t, x.jets, ref, args...)
					if gotErr != wantErr {
						t.Fatalf("the jet fails with %q, the Daml definition with %q", gotErr, wantErr)
					}
					if diff := cmp.Diff(wantTrace, gotTrace); diff != "" {
						t.Fatalf("trace (-Daml +jet):\n%s", firstLines(diff, 20))
					}
					if diff := cmp.Diff(want, got); diff != "" {
						t.Fatalf("value (-Daml +jet):\n%s", firstLines(diff, 20))
					}
				})
			}
		}
	}
}

// TestListJetNotBool: a predicate that gives a non-Bool (as a Daml
// predicate cannot) fails filter, all and any, interpreted and as jets,
// each with an error of its own.
func TestListJetNotBool(t *testing.T) {
	x := newListJetEnv(t, loadDAR(t, amuletTestDARName))
	notBool := ljLam(lj(1), "x")
	for _, name := range []string{"filter", "all", "any"} {
		ref := x.ref(x.std, "DA.Internal.Prelude", name)
		for i, engineName := range []string{"daml", "jets"} {
			if got, err, _ := x.run(t, i, ref, notBool, ljList([]int64{1, 2})); err == "" {
				t.Errorf("%s on %s: %v, want a failure", name, engineName, got)
			}
		}
	}
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

// TestListJetRefusals: no jet for a list function of another body, nor
// for one whose body uses a changed definition (foldr, foldl, ++,
// mergeBy); such a definition runs interpreted, with its own results.
func TestListJetRefusals(t *testing.T) {
	for _, c := range []struct {
		name          string
		fn, changed   [2]string
		changedInPrim bool
		fnInPrim      bool
	}{
		{"map's body", [2]string{"GHC.Base", "map"}, [2]string{"GHC.Base", "map"}, true, true},
		{"foldr", [2]string{"GHC.Base", "map"}, [2]string{"GHC.Base", "foldr"}, true, true},
		{"foldr of filter", [2]string{"DA.Internal.Prelude", "filter"}, [2]string{"GHC.Base", "foldr"}, true, false},
		{"foldl", [2]string{"DA.Internal.Prelude", "all"}, [2]string{"DA.Internal.Prelude", "foldl"}, false, false},
		{"++ of concatMap", [2]string{"DA.Internal.Prelude", "concatMap"}, [2]string{"DA.Internal.Prelude", "$u002b$u002b"}, false, false},
		{"mergeBy", [2]string{"DA.List", "sortBy"}, [2]string{"DA.List", "mergeBy"}, false, false},
		{"combinePairs", [2]string{"DA.List", "sortBy"}, [2]string{"DA.List", "combinePairs"}, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			// A DAR of the test's own: its definitions are changed.
			d := ownAmuletDAR(t)
			x := newListJetEnv(t, d)
			fp, cp := x.std, x.std
			if c.fnInPrim {
				fp = x.prim
			}
			if c.changedInPrim {
				cp = x.prim
			}
			ref := x.ref(fp, c.fn[0], c.fn[1])
			if _, ok := engine.ListJet(d.Package, ref); !ok {
				t.Fatal("no jet before the change")
			}
			def := cp.Value(c.changed[0], c.changed[1])
			def.SetBody(x.changedBody(c.changed[1], def.Body()))
			if v, ok := engine.ListJet(d.Package, ref); ok {
				t.Fatalf("a jet %v", v)
			}
			if c.name != "map's body" {
				return
			}
			// The changed map (\f -> foldr (\x xs -> xs) []) runs
			// interpreted on the engine with jets: it gives [].
			x.engines = [2]*engine.Engine{engine.New(d, engine.Options{}), engine.New(d, engine.Options{})}
			got, err, _ := x.run(t, x.jets, ref, ljLam(ljv("x"), "x"), ljList([]int64{1, 2}))
			if err != "" || got != engine.Value((*engine.List)(nil)) {
				t.Fatalf("the changed map gives %v, %q; want []", got, err)
			}
		})
	}
}

// changedBody returns a body of the same meaning but another text for
// the definitions the refusal tests change (foldr, foldl: eta-expanded),
// and for map one that drops every element.
func (x *listJetEnv) changedBody(name string, body lf.Expr) lf.Expr {
	if name == "map" {
		foldr := &lf.EVal{Ref: x.ref(x.prim, "GHC.Base", "foldr")}
		return ljLam(&lf.EApp{Fun: foldr, Args: []lf.Expr{ljLam(ljv("xs"), "x", "xs"), &lf.ENil{}}}, "f")
	}
	return ljLam(&lf.EApp{Fun: body, Args: []lf.Expr{ljv("eta")}}, "eta")
}

// BenchmarkListJet: map, filter, all and sortBy (the comparison of
// Int64s) on a list of 100 Int64s, interpreted (daml) and with the jets.
// Skipped without ../shared.
func BenchmarkListJet(b *testing.B) {
	x := newListJetEnv(b, loadDAR(b, amuletTestDARName))
	ctx := context.Background()
	ns := make([]int64, 100)
	for i := range ns {
		ns[i] = int64((i * 37) % 101)
	}
	lt, gt := &lf.EEnumCon{ID: x.ordering, Con: "LT"}, &lf.EEnumCon{ID: x.ordering, Con: "GT"}
	for _, c := range []struct {
		name string
		ref  lf.TypeConID
		fn   lf.Expr
	}{
		{"map", x.ref(x.prim, "GHC.Base", "map"), ljLam(ljb(lf.BuiltinAddInt64, ljv("x"), lj(1)), "x")},
		{"filter", x.ref(x.std, "DA.Internal.Prelude", "filter"), ljLam(ljb(lf.BuiltinLess, ljv("x"), lj(50)), "x")},
		{"all", x.ref(x.std, "DA.Internal.Prelude", "all"), ljLam(ljb(lf.BuiltinLess, ljv("x"), lj(500)), "x")},
		{"sortBy", x.ref(x.std, "DA.List", "sortBy"), ljLam(ljIf(ljb(lf.BuiltinLess, ljv("x"), ljv("y")), lt, gt), "x", "y")},
	} {
		for i, kind := range []string{"daml", "jets"} {
			b.Run(c.name+"/"+kind, func(b *testing.B) {
				e := x.engines[i]
				fn, err := e.EvalValue(ctx, c.ref)
				if err != nil {
					b.Fatal(err)
				}
				f, err := e.Eval(ctx, c.fn)
				if err != nil {
					b.Fatal(err)
				}
				xs, err := e.Eval(ctx, ljList(ns))
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					if _, err := e.Apply(ctx, fn, f, xs); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
