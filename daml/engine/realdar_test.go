package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/numeric"
)

// darDir holds the real DARs of ../shared, relative to this package.
func darDir() string {
	for _, d := range []string{"../../../shared/testdata/dars", "../../../../shared/testdata/dars"} {
		if _, err := os.Stat(d); err == nil {
			return d
		}
	}
	return "../../../shared/testdata/dars"
}

var (
	pingOnce sync.Once
	pingDAR  *lf.DAR
	pingErr  error
)

// realPing decodes canton-builtin-admin-workflow-ping.dar (it carries
// daml-prim and daml-stdlib 2.2), skipping without ../shared.
func realPing(tb testing.TB) *lf.DAR {
	tb.Helper()
	path := filepath.Join(darDir(), "canton-builtin-admin-workflow-ping.dar")
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Skipf("real DAR not found (%v): the shared test data is not checked out next to this repository", err)
	}
	pingOnce.Do(func() { pingDAR, pingErr = lf.ReadDAR(data, lf.ReadOptions{}) })
	if pingErr != nil {
		tb.Fatal(pingErr)
	}
	return pingDAR
}

// ref finds the value Module:name in the package named pkgName.
func ref(tb testing.TB, d *lf.DAR, pkgName, module, name string) lf.TypeConID {
	tb.Helper()
	for _, p := range d.Packages {
		if p.Name != pkgName {
			continue
		}
		if m := p.Module(module); m != nil && m.Value(name) != nil {
			return lf.TypeConID{PackageID: p.ID, Module: module, Name: name}
		}
	}
	tb.Fatalf("no value %s:%s in %s", module, name, pkgName)
	return lf.TypeConID{}
}

// realEval returns, for e, an engine over d, get (the value of the
// top-level definition pkg:mod:name, where pkg is a package name) and
// call (fn applied to args); both fail t on an error.
func realEval(t *testing.T, e *Engine, d *lf.DAR) (get func(pkg, mod, name string) Value, call func(fn Value, args ...Value) Value) {
	ctx := context.Background()
	get = func(pkg, mod, name string) Value {
		t.Helper()
		v, err := e.EvalValue(ctx, ref(t, d, pkg, mod, name))
		if err != nil {
			t.Fatalf("%s:%s: %v", mod, name, err)
		}
		return v
	}
	call = func(fn Value, args ...Value) Value {
		t.Helper()
		v, err := e.Apply(ctx, fn, args...)
		if err != nil {
			t.Fatalf("apply: %v", err)
		}
		return v
	}
	return get, call
}

func TestRealStdlib(t *testing.T) {
	d := realPing(t)
	e := New(d, Options{})
	ctx := context.Background()
	get, call := realEval(t, e, d)
	const n = 100_000
	foldr := get("daml-prim", "GHC.Base", "foldr")
	if got := call(foldr, builtinPAPs[lf.BuiltinAddInt64], Int64(0), intList(n)); got != Int64(n*(n+1)/2) {
		t.Errorf("GHC.Base:foldr (+) 0 [1..%d] = %v", n, got)
	}
	addInt := get("daml-prim", "GHC.Num", "$$fAdditiveInt")
	sum := get("daml-stdlib", "DA.Internal.Prelude", "sum")
	if got := call(sum, addInt, intList(n)); got != Int64(n*(n+1)/2) {
		t.Errorf("sum [1..%d] = %v", n, got)
	}
	length := get("daml-stdlib", "DA.Internal.Prelude", "length")
	if got := call(length, intList(n)); got != Int64(n) {
		t.Errorf("length = %v", got)
	}
	reverse := get("daml-stdlib", "DA.Internal.Prelude", "reverse")
	if got := call(reverse, intList(3)); !valueEq(got, ListOf(Int64(3), Int64(2), Int64(1))) {
		t.Errorf("reverse = %s", show(got))
	}
	showF := get("daml-prim", "GHC.Show", "show")
	showInt := get("daml-prim", "GHC.Show", "$$fShowInt")
	for _, tc := range []struct {
		in   int64
		want string
	}{{42, "42"}, {-7, "-7"}} {
		if got := call(showF, showInt, Int64(tc.in)); got != Text(tc.want) {
			t.Errorf("show %d = %v, want %q", tc.in, got, tc.want)
		}
	}
	intercalate := get("daml-stdlib", "DA.Text", "intercalate")
	if got := call(intercalate, Text(", "), ListOf(Text("a"), Text("b"), Text("c"))); got != Text("a, b, c") {
		t.Errorf("intercalate = %v", got)
	}
	tlen := get("daml-stdlib", "DA.Text", "length")
	if got := call(tlen, Text("héllo")); got != Int64(5) {
		t.Errorf("DA.Text.length = %v", got)
	}
	sort := get("daml-stdlib", "DA.List", "sort")
	ordInt := get("daml-prim", "GHC.Classes", "$$fOrdInt")
	if got := call(sort, ordInt, ListOf(Int64(3), Int64(1), Int64(2))); !valueEq(got, ListOf(Int64(1), Int64(2), Int64(3))) {
		t.Errorf("sort = %s", show(got))
	}
	// show of a Numeric through the real Show instance.
	found := false
	for _, p := range d.Packages {
		if p.Name != "daml-prim" {
			continue
		}
		if m := p.Module("GHC.Show"); m != nil {
			for _, v := range m.Values {
				if strings.HasPrefix(v.Name, "$$fShowNumeric") {
					found = true
					showNum, err := e.EvalValue(ctx, lf.TypeConID{PackageID: p.ID, Module: "GHC.Show", Name: v.Name})
					if err != nil {
						t.Fatal(err)
					}
					if got := call(showF, showNum, Numeric{numeric.MustParse("1.5000000000")}); got != Text("1.5") {
						t.Errorf("show 1.5 = %v", got)
					}
				}
			}
		}
	}
	if !found {
		t.Error("no Show Numeric instance in daml-prim")
	}
}

func valueEq(a, b Value) bool {
	eq, err := Equal(a, b)
	return err == nil && eq
}

// TestCompileAll compiles every top-level value, template part, choice
// and interface instance of every package of the real DARs.
func TestCompileAll(t *testing.T) {
	for _, name := range []string{"canton-builtin-admin-workflow-ping.dar", "splice-amulet-0.1.8.dar", "splice-wallet-0.1.8.dar"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(darDir(), name))
			if err != nil {
				t.Skipf("real DAR not found (%v): the shared test data is not checked out next to this repository", err)
			}
			d, err := lf.ReadDAR(data, lf.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			e := New(d, Options{})
			n := 0
			check := func(def *topDef) {
				t.Helper()
				n++
				if _, _, err := def.compiled(e); err != nil {
					t.Errorf("%v: %v", def.key, err)
				}
			}
			for _, p := range d.Packages {
				for _, m := range p.Modules {
					for _, v := range m.Values {
						check(e.valueDef(lf.TypeConID{PackageID: p.ID, Module: m.Name, Name: v.Name}))
					}
					for _, x := range m.ExceptionDefs {
						id := lf.TypeConID{PackageID: p.ID, Module: m.Name, Name: x.Name}
						check(e.def(defKey{kind: defExceptionMessage, id: id}, func(*Engine) (lf.Expr, *Error) { return x.Message, nil }))
					}
					for _, tp := range m.Templates {
						id := lf.TypeConID{PackageID: p.ID, Module: m.Name, Name: tp.Name}
						for _, part := range []string{"precond", "signatories", "observers"} {
							check(e.templateFn(defKey{kind: defTemplatePart, id: id, a: part}))
						}
						for _, ch := range tp.Choices {
							for _, part := range []string{"controllers", "observers", "update"} {
								check(e.choiceFn(id, ch.Name, part))
							}
						}
						for _, in := range tp.Instances {
							check(e.templateFn(defKey{kind: defView, id: id, iface: in.Interface}))
							for _, meth := range in.Methods {
								check(e.templateFn(defKey{kind: defMethod, id: id, iface: in.Interface, a: meth.Name}))
							}
						}
					}
					for _, i := range m.Interfaces {
						id := lf.TypeConID{PackageID: p.ID, Module: m.Name, Name: i.Name}
						for _, ch := range i.Choices {
							for _, part := range []string{"controllers", "observers", "update"} {
								check(e.choiceFn(id, ch.Name, part))
							}
						}
					}
				}
			}
			t.Logf("%d definitions compiled", n)
		})
	}
}

func TestRealStdlibMore(t *testing.T) {
	d := realPing(t)
	e := New(d, Options{})
	ctx := context.Background()
	get, call := realEval(t, e, d)
	texts := func(ss ...string) *List {
		vs := make([]Value, len(ss))
		for i, s := range ss {
			vs[i] = Text(s)
		}
		return ListOf(vs...)
	}
	check := func(name string, got, want Value) {
		t.Helper()
		if !valueEq(got, want) {
			t.Errorf("%s = %s, want %s", name, show(got), show(want))
		}
	}
	check("splitOn", call(get("daml-stdlib", "DA.Text", "splitOn"), Text(","), Text("a,b,,c")), texts("a", "b", "", "c"))
	check("words", call(get("daml-stdlib", "DA.Text", "words"), Text("hello  world")), texts("hello", "world"))
	ordInt := get("daml-prim", "GHC.Classes", "$$fOrdInt")
	check("dedup", call(get("daml-stdlib", "DA.List", "dedup"), ordInt, ListOf(Int64(3), Int64(1), Int64(3), Int64(2))), ListOf(Int64(3), Int64(1), Int64(2)))
	showOpt := call(get("daml-stdlib", "DA.Internal.Prelude", "$$fShowOptional"), get("daml-prim", "GHC.Show", "$$fShowInt"))
	check("show (Some 5)", call(get("daml-prim", "GHC.Show", "show"), showOpt, Some(Int64(5))), Text("Some 5"))

	var tuple lf.TypeConID
	for _, p := range d.Packages {
		if p.Name == "daml-prim-DA-Types" {
			tuple = lf.TypeConID{PackageID: p.ID, Module: "DA.Types", Name: "Tuple2"}
		}
	}
	pair := func(k string, v int64) Value {
		r, err := e.NewRecord(tuple, Text(k), Int64(v))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	ordText := get("daml-prim", "GHC.Classes", "$$fOrdText")
	m := call(get("daml-stdlib", "DA.Map", "fromList"), ordText, ListOf(pair("b", 1), pair("a", 2), pair("b", 3)))
	check("DA.Map round trip", call(get("daml-stdlib", "DA.Map", "toList"), m), ListOf(pair("a", 2), pair("b", 3)))

	_, err := e.Apply(ctx, get("daml-prim", "GHC.Err", "error"), Text("boom"))
	ee, ok := err.(*Error)
	if !ok || ee.Kind != ErrFailureStatus || ee.ErrorID != "UNHANDLED_EXCEPTION/DA.Exception.GeneralError:GeneralError" || ee.Message != "boom" || ee.Category != 9 {
		t.Errorf("error \"boom\": got %v", err)
	}
}
