package engine

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
)

const testPkgI2 = "testpkg2i"

func tidI2(name string) lf.TypeConID {
	return lf.TypeConID{PackageID: testPkgI2, Module: "M", Name: name}
}

// testPackageV2I is version 2 of package "test" (testPackage is version
// 1): template T gains an Optional field note and implements the v1
// interface I with getN = n + 1000 and view n + 2000, so that the
// version an interface call runs is visible in its result.
func testPackageV2I() *lf.Package {
	this := func(f string) lf.Expr {
		return &lf.ERecProj{Type: lf.TypeConApp{ID: tidI2("T")}, Field: f, Record: v("this")}
	}
	owner := cons(nilE(), this("owner"))
	mod := &lf.Module{
		Name: "M",
		DataTypes: []*lf.DataType{
			{Name: "T", Variety: lf.RecordVariety, Fields: []lf.Field{{Name: "owner"}, {Name: "n"}, {Name: "note"}}},
		},
		Templates: []*lf.Template{{Name: "T", Param: "this", Signatories: owner, Observers: nilE(),
			Implements: []lf.TypeConID{tid("I")},
			Instances: []*lf.InterfaceInstance{{Interface: tid("I"),
				Methods: []lf.MethodBody{{Name: "getN", Expr: add(this("n"), i64(1000))}},
				View:    add(this("n"), i64(2000))}}}},
	}
	p := &lf.Package{ID: testPkgI2, Name: "test", Modules: []*lf.Module{mod}}
	p.Index()
	return p
}

// upgradeEngine is an engine over package "test" in three versions:
// testPkg (v1, T implements I), testPkg2 (T does not implement I) and
// testPkgI2 (T implements I differently).
func upgradeEngine() *Engine {
	v1 := testPackage(nil)
	v1.Name = "test"
	return New(PackageMap{testPkg: v1, testPkg2: testPackageV2(), testPkgI2: testPackageV2I()}, Options{})
}

// TestInterfacePreference runs interface exercises and fetches on a v1
// contract under several package preferences (Speedy's packageResolution,
// SBuiltinFun.fetchInterface).
func TestInterfacePreference(t *testing.T) {
	e := upgradeEngine()
	ctx := context.Background()
	store := memStore{}
	arg, err := e.NewRecord(tid("T"), Party("alice"), Int64(3))
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Submit(ctx, Submission{ActAs: []string{"alice"}, Contracts: store}, CreateCommand(tid("T"), arg))
	if err != nil {
		t.Fatal(err)
	}
	store.commit(res.Transaction)
	cid := res.Results[0].(ContractID)
	choiceArg, _ := e.NewRecord(tid("Arg"))
	fetchView := &lf.EAbs{Params: []lf.VarWithType{{Name: "cid"}}, Body: upd(&lf.UBlock{
		Bindings: []lf.Binding{{Var: lf.VarWithType{Name: "h"}, Bound: upd(&lf.UFetchInterface{Interface: tid("I"), ContractID: v("cid")})}},
		Body:     upd(&lf.UPure{Expr: &lf.EViewInterface{Interface: tid("I"), Expr: v("h")}}),
	})}
	fv, err := e.Eval(ctx, fetchView)
	if err != nil {
		t.Fatal(err)
	}
	fetchCmd, err := e.Apply(ctx, fv, cid)
	if err != nil {
		t.Fatal(err)
	}
	// createAndExercise creates a v1 contract and exercises I's Get on it
	// in the same transaction: the preference applies to local contracts
	// too.
	localFn, err := e.Eval(ctx, lam(upd(&lf.UBlock{
		Bindings: []lf.Binding{{Var: lf.VarWithType{Name: "c"}, Bound: upd(&lf.UCreate{Template: tid("T"),
			Expr: &lf.ERecCon{Type: lf.TypeConApp{ID: tid("T")}, Fields: []lf.FieldExpr{{Name: "owner", Expr: v("p")}, {Name: "n", Expr: i64(5)}}}})}},
		Body: upd(&lf.UExerciseInterface{Interface: tid("I"), Choice: "Get", ContractID: v("c"), Arg: &lf.ERecCon{Type: lf.TypeConApp{ID: tid("Arg")}}}),
	}), "p"))
	if err != nil {
		t.Fatal(err)
	}
	local, err := e.Apply(ctx, localFn, Party("alice"))
	if err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name     string
		pref     PackagePreference
		cmd      Value
		want     Value
		wantTpl  lf.TypeConID // the template of the node on the contract
		wantKind ErrorKind
	}{
		{name: "exercise, no preference", cmd: ExerciseInterfaceCommand(tid("I"), "Get", cid, choiceArg), want: Int64(3), wantTpl: tid("T")},
		{name: "exercise, v1 preferred", pref: PackagePreference{"test": testPkg},
			cmd: ExerciseInterfaceCommand(tid("I"), "Get", cid, choiceArg), want: Int64(3), wantTpl: tid("T")},
		{name: "exercise, v2 preferred", pref: PackagePreference{"test": testPkgI2, "other": "x"},
			cmd: ExerciseInterfaceCommand(tid("I"), "Get", cid, choiceArg), want: Int64(1003), wantTpl: tidI2("T")},
		{name: "fetch_interface, v2 preferred", pref: PackagePreference{"test": testPkgI2},
			cmd: fetchCmd, want: Int64(2003), wantTpl: tidI2("T")},
		{name: "fetch_interface, no preference", cmd: fetchCmd, want: Int64(103), wantTpl: tid("T")},
		{name: "local contract, v2 preferred", pref: PackagePreference{"test": testPkgI2}, cmd: local, want: Int64(1005), wantTpl: tidI2("T")},
		{name: "name missing", pref: PackagePreference{"other": testPkgI2},
			cmd: ExerciseInterfaceCommand(tid("I"), "Get", cid, choiceArg), wantKind: ErrUnresolvedPackageName},
		{name: "empty preference", pref: PackagePreference{}, cmd: fetchCmd, wantKind: ErrUnresolvedPackageName},
		{name: "local contract, name missing", pref: PackagePreference{}, cmd: local, wantKind: ErrUnresolvedPackageName},
		{name: "preferred version does not implement I", pref: PackagePreference{"test": testPkg2},
			cmd: ExerciseInterfaceCommand(tid("I"), "Get", cid, choiceArg), wantKind: ErrContractDoesNotImplementInterface},
		{name: "preferred package unknown", pref: PackagePreference{"test": "nosuchpkg"}, cmd: fetchCmd, wantKind: ErrPackage},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := e.Submit(ctx, Submission{ActAs: []string{"alice"}, Contracts: store, Preference: tc.pref}, tc.cmd)
			if tc.wantKind != 0 {
				if got := errKind(err); got != tc.wantKind {
					t.Fatalf("got %v, want %v", err, tc.wantKind)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !valueEq(res.Results[0], tc.want) {
				t.Errorf("result %s, want %s", show(res.Results[0]), show(tc.want))
			}
			var got []lf.TypeConID
			for _, n := range res.Transaction.Nodes {
				switch n := n.(type) {
				case *tx.Exercise:
					got = append(got, n.TemplateID)
					if n.InterfaceID == nil || *n.InterfaceID != tid("I") {
						t.Errorf("exercise node interface %v", n.InterfaceID)
					}
				case *tx.Fetch:
					got = append(got, n.TemplateID)
				}
			}
			if diff := cmp.Diff([]lf.TypeConID{tc.wantTpl}, got); diff != "" {
				t.Errorf("template of the exercise or fetch node (-want +got):\n%s", diff)
			}
		})
	}
}

// TestInterfacePreferenceValidates checks that a contract used under a
// preferred version is validated there (checkContractUpgradable) and that
// the failure message names the resolved template.
func TestInterfacePreferenceValidates(t *testing.T) {
	e := upgradeEngine()
	ctx := context.Background()
	choiceArg, _ := e.NewRecord(tid("Arg"))
	arg, err := e.NewRecord(tid("T"), Party("alice"), Int64(3))
	if err != nil {
		t.Fatal(err)
	}
	lv, err := ToValue(arg)
	if err != nil {
		t.Fatal(err)
	}
	// The stored signatories differ from what T computes (alice).
	store := memStore{"00bb": {ID: "00bb", TemplateID: tid("T"), Arg: lv, Signatories: []string{"bob"}, Stakeholders: []string{"bob"}}}
	for _, tc := range []struct {
		name string
		pref PackagePreference
	}{
		{name: "no preference"},
		{name: "v2 preferred", pref: PackagePreference{"test": testPkgI2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.Submit(ctx, Submission{ActAs: []string{"bob"}, Contracts: store, Preference: tc.pref},
				ExerciseInterfaceCommand(tid("I"), "Get", ContractID("00bb"), choiceArg))
			if got := errKind(err); got != ErrUpgradeValidationFailed {
				t.Errorf("got %v, want Upgrade.ValidationFailed", err)
			}
		})
	}
}

func TestImplementsInterfaces(t *testing.T) {
	e := upgradeEngine()
	for _, tc := range []struct {
		template lf.TypeConID
		iface    lf.TypeConID
		want     bool
		wantAll  []lf.TypeConID
	}{
		{template: tid("T"), iface: tid("I"), want: true, wantAll: []lf.TypeConID{tid("I")}},
		{template: tidI2("T"), iface: tid("I"), want: true, wantAll: []lf.TypeConID{tid("I")}},
		{template: tid2("T"), iface: tid("I")},
		{template: tid("T"), iface: tid("T"), wantAll: []lf.TypeConID{tid("I")}},
		{template: tid("R"), iface: tid("I")},
		{template: lf.TypeConID{PackageID: "nosuchpkg", Module: "M", Name: "T"}, iface: tid("I")},
	} {
		if got := e.Implements(tc.template, tc.iface); got != tc.want {
			t.Errorf("Implements(%s, %s) = %v, want %v", tc.template, tc.iface, got, tc.want)
		}
		if diff := cmp.Diff(tc.wantAll, e.Interfaces(tc.template)); diff != "" {
			t.Errorf("Interfaces(%s) (-want +got):\n%s", tc.template, diff)
		}
	}
}
