package lf

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// realPackages decodes every real DAR of darDir (2.dev allowed) and
// returns its packages, each once, by id. What it asserts holds for any
// real DAR, whatever else the shared folder comes to hold: each decodes,
// or is refused for its language version (LF 1.x, as dummy-1.15.dar).
func realPackages(tb testing.TB) map[string]*Package {
	tb.Helper()
	paths, _ := filepath.Glob(filepath.Join(darDir, "*.dar"))
	if len(paths) == 0 {
		tb.Skipf("no real DARs in %s (the shared test data is not checked out next to this repository)", darDir)
	}
	pkgs := map[string]*Package{}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			tb.Fatal(err)
		}
		dar, err := ReadDAR(data, ReadOptions{AllowDevLF: true})
		if code(err) == "ALLOWED_LANGUAGE_VERSIONS" {
			continue
		}
		if err != nil {
			tb.Fatalf("%s: %v", path, err)
		}
		for _, p := range dar.Packages {
			pkgs[p.ID] = p
		}
	}
	return pkgs
}

// splicePackages returns the Splice packages (named splice-*) of the
// named real DARs, each once.
func splicePackages(tb testing.TB, files ...string) []*Package {
	tb.Helper()
	byID := map[string]*Package{}
	for _, f := range files {
		dar, err := ReadDAR(realDAR(tb, f), ReadOptions{})
		if err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		for _, p := range dar.Packages {
			if strings.HasPrefix(p.Name, "splice-") {
				byID[p.ID] = p
			}
		}
	}
	var out []*Package
	for _, p := range byID {
		out = append(out, p)
	}
	return out
}

// kindCounts counts the distinct nodes of each Go type in the packages'
// expressions (shared singletons such as () count once).
func kindCounts(pkgs []*Package) map[string]int {
	counts := map[string]int{}
	for _, p := range pkgs {
		for _, e := range p.Exprs() {
			Inspect(e, func(n any) bool {
				counts[strings.TrimPrefix(fmt.Sprintf("%T", n), "*lf.")]++
				return true
			})
		}
	}
	return counts
}

func TestRealExprKinds(t *testing.T) {
	pkgs := realPackages(t)
	var all []*Package
	for _, p := range pkgs {
		all = append(all, p)
	}
	counts := kindCounts(all)
	var names []string
	for k := range counts {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		t.Logf("%-26s %d", k, counts[k])
	}
	// Every builtin is known, except development ones in 2.dev packages.
	for _, p := range all {
		for _, e := range p.Exprs() {
			Inspect(e, func(n any) bool {
				if b, ok := n.(*EBuiltinFun); ok && !b.Fun.Known() && !p.LanguageVersion.IsDev() {
					t.Errorf("%s: unknown builtin %d", p, b.Fun)
				}
				return true
			})
		}
	}
	// The Splice packages of release 0.1.8 (LF 2.1, no interning, so
	// distinct nodes are encoded occurrences) have the counts below,
	// measured on these DARs. They are those of the Amulet test suite and
	// of the wallet, named here: other Splice DARs of the shared folder
	// (other releases) are not part of these counts.
	splice := splicePackages(t, "splice-amulet-test-0.1.8.dar", "splice-wallet-0.1.8.dar")
	if len(splice) != 10 {
		t.Fatalf("%d Splice packages in the Amulet test suite and the wallet 0.1.8, want 10", len(splice))
	}
	got := kindCounts(splice)
	want := map[string]int{
		"UExercise": 237, "UPure": 224, "UBlock": 206, "UCreate": 73, "UFetch": 41,
		"UExerciseInterface": 17, "UFetchInterface": 8, "UCreateInterface": 8, "UTryCatch": 3,
		"EUpdate": 817, "ECallInterface": 9, "EUnsafeFromInterface": 6, "EThrow": 42,
		"EFromAny": 193, "EToAny": 185, "ETypeRep": 49, "EToInterface": 6, "EFromInterface": 6,
		"ESignatoryInterface": 8, "EObserverInterface": 8, "EViewInterface": 8, "EInterfaceTemplateTypeRep": 8,
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("Splice: %d %s nodes, want %d", got[k], k, n)
		}
	}
	for _, k := range []string{"EVal", "EVar", "EApp", "EAbs", "ETyApp", "ECase", "ELet", "ERecCon", "ERecProj", "PVariant", "PEnum", "PCons"} {
		if got[k] == 0 {
			t.Errorf("Splice: no %s node", k)
		}
	}
}

// BenchmarkDecodeAmuletDAR decodes splice-amulet-0.1.8.dar with all its
// dependencies (every expression included) once per iteration.
func BenchmarkDecodeAmuletDAR(b *testing.B) {
	data := realDAR(b, "splice-amulet-0.1.8.dar")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadDAR(data, ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestRealPingExpressions(t *testing.T) {
	dar, err := ReadDAR(realDAR(t, "canton-builtin-admin-workflow-ping.dar"), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	const mod = "Canton.Internal.Ping"
	val := func(name string) *EVal { return &EVal{Ref: TypeConID{pingMain, mod, name}} }
	app := func(f Expr, args ...Expr) Expr {
		for _, a := range args {
			f = &EApp{Fun: f, Args: []Expr{a}} // LF 2.2: one argument per application
		}
		return f
	}
	this, arg, self := &EVar{Name: "this"}, &EVar{Name: "arg"}, &EVar{Name: "self"}
	tpl := dar.Main.Template(mod, "Ping")
	if tpl == nil {
		t.Fatal("no template Ping")
	}
	if d := cmp.Diff(app(val("$$csignatory"), this), tpl.Signatories); d != "" {
		t.Errorf("signatories (-want +got):\n%s", d)
	}
	if d := cmp.Diff(app(val("$$cobserver"), this), tpl.Observers); d != "" {
		t.Errorf("observers (-want +got):\n%s", d)
	}
	wantPrecond := "(case (app (val Canton.Internal.Ping:$$censure) (var this)) [True -> True] " +
		"[False -> (throw (rec_con DA.Exception.PreconditionFailed:PreconditionFailed message=" +
		"(app (val Canton.Internal.Ping:$$$$sc_Ping_2) (app (val Canton.Internal.Ping:$$$$sc_Ping_1) (var this)))))])"
	if got := FormatExpr(tpl.Precond, 20); got != wantPrecond {
		t.Errorf("precondition\n got %s\nwant %s", got, wantPrecond)
	}
	for i, name := range []string{"Respond", "Archive", "AbortPing"} {
		c := tpl.Choice(name)
		ctl := app(val(fmt.Sprintf("$$$$sc_Ping_%d", 3+2*i)), this, arg)
		upd := app(val(fmt.Sprintf("$$$$sc_Ping_%d", 4+2*i)), self, this, arg)
		if d := cmp.Diff(ctl, c.Controllers); d != "" {
			t.Errorf("%s controllers (-want +got):\n%s", name, d)
		}
		if _, ok := c.Observers.(*ENil); !ok {
			t.Errorf("%s observers = %s, want nil", name, FormatExpr(c.Observers, 5))
		}
		if d := cmp.Diff(upd, c.Update); d != "" {
			t.Errorf("%s update (-want +got):\n%s", name, d)
		}
	}
	// The body of Respond: \self this arg -> pure ().
	body := dar.Main.Value(mod, "$$$$sc_Ping_4")
	if body == nil {
		t.Fatal("no value $$$$sc_Ping_4")
	}
	e := body.Body()
	for _, p := range []string{"self", "this", "arg"} {
		abs, ok := e.(*EAbs)
		if !ok || len(abs.Params) != 1 || abs.Params[0].Name != p {
			t.Fatalf("Respond body: %s, want a lambda over %s", FormatExpr(e, 5), p)
		}
		e = abs.Body
	}
	u, ok := e.(*EUpdate)
	if !ok {
		t.Fatalf("Respond body: %s, want an update", FormatExpr(e, 5))
	}
	if d := cmp.Diff(&UPure{Type: tb(BuiltinUnit), Expr: &EBuiltinCon{Con: ConUnit}}, u.Update); d != "" {
		t.Errorf("Respond update (-want +got):\n%s", d)
	}
	if got, want := body.Type.String(), "ContractId "+pingMain+":"+mod+":Ping -> "+pingMain+":"+mod+":Ping -> "+pingMain+":"+mod+":Respond -> Update Unit"; got != want {
		t.Errorf("Respond body type %s, want %s", got, want)
	}
	// Updates of the ping package: its choices create, exercise and fetch.
	counts := kindCounts([]*Package{dar.Main})
	for _, k := range []string{"UCreate", "UExercise", "UFetch", "UBlock", "UPure"} {
		if counts[k] == 0 {
			t.Errorf("ping: no %s node (%v)", k, counts)
		}
	}
}

// The exception definitions of daml-prim carry their message functions.
func TestRealExceptionMessage(t *testing.T) {
	dar, err := ReadDAR(realDAR(t, "canton-builtin-admin-workflow-ping.dar"), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, p := range dar.Packages {
		ex := p.Exception("DA.Exception.GeneralError", "GeneralError")
		if ex == nil {
			continue
		}
		found = true
		// \x. x.message
		if got, want := FormatExpr(ex.Message, 10), `(\ x (rec_proj DA.Exception.GeneralError:GeneralError message (var x)))`; ex.Name != "GeneralError" || got != want {
			t.Errorf("%s: exception %s message %s, want %s", p, ex.Name, got, want)
		}
		if len(p.Module("DA.Exception.GeneralError").Exceptions) != 1 {
			t.Errorf("%s: exceptions %v", p, p.Module("DA.Exception.GeneralError").Exceptions)
		}
	}
	if !found {
		t.Error("no package defines DA.Exception.GeneralError:GeneralError")
	}
}
