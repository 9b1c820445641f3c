package lftest

import (
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/lf"
)

// TestExprCasesCoverModel checks that exprCases uses every Expr, Update and
// Pattern node type that daml/lf/expr.go declares.
func TestExprCasesCoverModel(t *testing.T) {
	src, err := os.ReadFile("../expr.go")
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	for _, m := range regexp.MustCompile(`func \(\*(\w+)\) is(?:Expr|Update|Pattern)\(\)`).FindAllSubmatch(src, -1) {
		declared = append(declared, string(m[1]))
	}
	if len(declared) < 70 {
		t.Fatalf("found only %d node types in expr.go", len(declared))
	}
	used := map[string]bool{}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Interface, reflect.Pointer:
			if !v.IsNil() {
				if v.Kind() == reflect.Pointer && v.Elem().Kind() == reflect.Struct {
					used[v.Elem().Type().Name()] = true
				}
				walk(v.Elem())
			}
		case reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i))
			}
		case reflect.Slice:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		}
	}
	for _, e := range exprCases() {
		walk(reflect.ValueOf(&e).Elem())
	}
	var missing []string
	for _, n := range declared {
		if !used[n] {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		t.Errorf("exprCases does not use %v", missing)
	}
}

func decodeSelf(t *testing.T, p Package) *lf.Package {
	t.Helper()
	_, dalf := Dalf(p)
	pkg, err := lf.DecodeArchive(dalf, lf.ReadOptions{AllowDevLF: true})
	if err != nil {
		t.Fatalf("decode %s: %v", p.Name, err)
	}
	return pkg
}

// TestTemplateDefaults checks the documented defaults of templates,
// choices, keys, interface instances and interface choices.
func TestTemplateDefaults(t *testing.T) {
	iview := &lf.ERecCon{Type: lf.TypeConApp{ID: lf.TypeConID{Module: "Main", Name: "IView"}}, Fields: []lf.FieldExpr{{Name: "n", Expr: &lf.EInt64{Value: 7}}}}
	method := &lf.EText{Value: "m"}
	p := Package{Minor: "dev", Name: "defaults", Version: "1.0.0", Modules: []Module{{Name: "Main",
		DataTypes: []DataType{
			{Name: "T", Serializable: true, Fields: []Field{{"issuer", B(Party)}, {"n", B(Int64)}, {"owner", B(Party)}}},
			{Name: "NoParty", Serializable: true, Fields: []Field{{"n", B(Int64)}}},
			{Name: "I", Kind: "interface"},
			{Name: "IView", Serializable: true, Fields: []Field{{"n", B(Int64)}}},
		},
		Templates: []Template{
			{Name: "T", Param: "me", Key: B(Party),
				Choices: []Choice{{Name: "Go", Arg: B(Unit), Ret: B(Unit), ArgName: "a", Self: "s"}},
				Implements: []TyCon{{Ref: Self(), Module: "Main", Name: "I", View: iview, Methods: map[string]lf.Expr{"m": method}},
					{Ref: Self(), Module: "Main", Name: "I2"}}},
			{Name: "NoParty", Signatories: &lf.EVar{Name: "sigs"}, Choices: []Choice{{Name: "Go", Arg: B(Unit), Ret: B(Unit)}}},
		},
		Interfaces: []Interface{{Name: "I", View: Con(Self(), "Main", "IView"), Methods: []Field{{"m", B(Text)}},
			Choices: []Choice{{Name: "Poke", Arg: B(Unit), Ret: B(Unit)}}}},
	}}}
	pkg := decodeSelf(t, p)
	opt := selfEq(pkg.ID)
	proj := func(f string) lf.Expr {
		return &lf.ERecProj{Type: lf.TypeConApp{ID: lf.TypeConID{Module: "Main", Name: "T"}}, Field: f, Record: &lf.EVar{Name: "me"}}
	}
	partyNil := &lf.ENil{Type: tyParty}
	sigs := &lf.ECons{Type: tyParty, Front: []lf.Expr{proj("issuer"), proj("owner")}, Tail: partyNil}
	pureUnit := &lf.EUpdate{Update: &lf.UPure{Type: tyUnit, Expr: unit}}
	tpl := pkg.Template("Main", "T")
	want := &lf.Template{Name: "T", Param: "me",
		Precond: &lf.EBuiltinCon{Con: lf.ConTrue}, Signatories: sigs, Observers: partyNil,
		Key: &lf.TemplateKey{Type: tyParty, Body: unit, Maintainers: unit},
		Choices: []*lf.Choice{{Name: "Go", ArgBinder: "a", ArgType: tyUnit, ReturnType: tyUnit, SelfBinder: "s",
			Controllers: sigs, Observers: partyNil, Update: pureUnit},
			// The Archive choice every template gets, as damlc gives it.
			{Name: "Archive", Consuming: true, ArgBinder: "arg", ArgType: tyUnit, ReturnType: tyUnit, SelfBinder: "self",
				Controllers: sigs, Observers: partyNil, Update: pureUnit}},
		Implements: []lf.TypeConID{{PackageID: pkg.ID, Module: "Main", Name: "I"}, {PackageID: pkg.ID, Module: "Main", Name: "I2"}},
		Instances: []*lf.InterfaceInstance{
			{Interface: lf.TypeConID{Module: "Main", Name: "I"}, View: iview, Methods: []lf.MethodBody{{Name: "m", Expr: method}}},
			{Interface: lf.TypeConID{Module: "Main", Name: "I2"}, View: unit}},
	}
	if diff := cmp.Diff(want, tpl, opt); diff != "" {
		t.Errorf("template T (-want +got):\n%s", diff)
	}
	np := pkg.Template("Main", "NoParty")
	if diff := cmp.Diff(&lf.EVar{Name: "sigs"}, np.Choices[0].Controllers); diff != "" {
		t.Errorf("controllers default to the given signatories (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(lf.Expr(&lf.EVar{Name: "sigs"}), np.Signatories); diff != "" {
		t.Errorf("given signatories (-want +got):\n%s", diff)
	}
	iface := pkg.Interface("Main", "I")
	wantPoke := &lf.Choice{Name: "Poke", ArgBinder: "arg", ArgType: tyUnit, ReturnType: tyUnit, SelfBinder: "self",
		Controllers: &lf.ESignatoryInterface{Interface: lf.TypeConID{Module: "Main", Name: "I"}, Expr: &lf.EVar{Name: "this"}},
		Observers:   partyNil, Update: pureUnit}
	if diff := cmp.Diff(wantPoke, iface.Choice("Poke"), opt); diff != "" {
		t.Errorf("interface choice (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]lf.InterfaceMethod{{Name: "m", Type: &lf.TBuiltin{Builtin: lf.BuiltinText}}}, iface.Methods); diff != "" {
		t.Errorf("interface methods (-want +got):\n%s", diff)
	}

	// A template without Party fields has no default signatories.
	q := TemplatePackage("nop", "1.0.0", nil, Field{"n", B(Int64)})
	if got := decodeSelf(t, q).Template("Main", "T").Signatories; !cmp.Equal(got, lf.Expr(partyNil)) {
		t.Errorf("signatories without Party fields: %#v, want Nil", got)
	}
}

// TestNonUnitChoiceNeedsUpdate checks the encoder's panic on a choice
// returning non-Unit without a body.
func TestNonUnitChoiceNeedsUpdate(t *testing.T) {
	p := TemplatePackage("bad", "1.0.0", nil, Field{"p", B(Party)})
	p.Modules[0].Templates[0].Choices = append(p.Modules[0].Templates[0].Choices, Choice{Name: "Get", Arg: B(Unit), Ret: B(Int64)})
	defer func() {
		r := recover()
		if s, _ := r.(string); !strings.Contains(s, "Main.T:Get returns a non-Unit type and has no Update") {
			t.Errorf("panic %v, want the non-Unit choice message", r)
		}
	}()
	EncodePackage(p)
	t.Error("no panic")
}

// TestSamplesDecode checks that the samples decode in every LF 2 minor
// they are meant for, with their dependency-free imports.
func TestSamplesDecode(t *testing.T) {
	for _, p := range []Package{IouPackage("1.0.0"), TemplatePackage("t", "1.0.0", nil, Field{"p", B(Party)}), HeavyPackage()} {
		pkg := decodeSelf(t, p)
		if len(pkg.DirectDeps) != 0 || !slices.Equal(pkg.Imports, []string{}) {
			t.Errorf("%s: deps %v imports %v", p.Name, pkg.DirectDeps, pkg.Imports)
		}
	}
}
