package engine

import (
	"context"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
)

const testPkg2 = "testpkg2"

func tid2(name string) lf.TypeConID {
	return lf.TypeConID{PackageID: testPkg2, Module: "M", Name: name}
}

// testPackageV2 is an upgrade of template T with an extra Optional field
// note and a non-consuming choice Get returning the contract.
func testPackageV2() *lf.Package {
	this := func(f string) lf.Expr {
		return &lf.ERecProj{Type: lf.TypeConApp{ID: tid2("T")}, Field: f, Record: v("this")}
	}
	owner := cons(nilE(), this("owner"))
	mod := &lf.Module{
		Name: "M",
		DataTypes: []*lf.DataType{
			{Name: "T", Variety: lf.RecordVariety, Fields: []lf.Field{{Name: "owner"}, {Name: "n"}, {Name: "note"}}},
			{Name: "Arg", Variety: lf.RecordVariety},
		},
		Templates: []*lf.Template{{Name: "T", Param: "this", Signatories: owner, Observers: nilE(),
			Choices: []*lf.Choice{{Name: "Get", ArgBinder: "arg", SelfBinder: "self", Controllers: owner,
				Update: upd(&lf.UPure{Expr: v("this")})}}}},
	}
	p := &lf.Package{ID: testPkg2, Name: "test", Modules: []*lf.Module{mod}}
	p.Index()
	return p
}

func TestUpgrades(t *testing.T) {
	v1 := testPackage(nil)
	v1.Name = "test"
	e := New(PackageMap{testPkg: v1, testPkg2: testPackageV2()}, Options{})
	ctx := context.Background()
	store := memStore{}
	alice := Submission{ActAs: []string{"alice"}, Contracts: store}
	create := func(id lf.TypeConID, fields ...Value) ContractID {
		t.Helper()
		arg, err := e.NewRecord(id, fields...)
		if err != nil {
			t.Fatal(err)
		}
		res, err := e.Submit(ctx, alice, CreateCommand(id, arg))
		if err != nil {
			t.Fatal(err)
		}
		store.commit(res.Transaction)
		return res.Results[0].(ContractID)
	}
	argV1, _ := e.NewRecord(tid("Arg"))
	argV2, _ := e.NewRecord(tid2("Arg"))

	// A v1 contract used under v2 gains note = None.
	c1 := create(tid("T"), Party("alice"), Int64(3))
	res, err := e.Submit(ctx, alice, ExerciseCommand(tid2("T"), "Get", c1, argV2))
	if err != nil {
		t.Fatal(err)
	}
	got := res.Results[0].(*Record)
	if got.Type.ID != tid2("T") || !valueEq(got, &Record{Fields: []Value{Party("alice"), Int64(3), None}}) {
		t.Errorf("upgraded %s", show(got))
	}
	// A v2 contract with note = None can be used under v1; with a note it
	// cannot.
	c2 := create(tid2("T"), Party("alice"), Int64(4), None)
	if _, err := e.Submit(ctx, alice, ExerciseCommand(tid("T"), "Peek", c2, argV1)); err != nil {
		t.Errorf("downgrade with None: %v", err)
	}
	c3 := create(tid2("T"), Party("alice"), Int64(5), Some(Text("x")))
	_, err = e.Submit(ctx, alice, ExerciseCommand(tid("T"), "Peek", c3, argV1))
	if errKind(err) != ErrUpgradeTranslationFailed {
		t.Errorf("downgrade with a note: got %v", err)
	}
	// from_interface translates a value of another version of the template.
	fromI := &lf.EFromInterface{Interface: tid("I"), Template: tid2("T"), Expr: &lf.EToInterface{Interface: tid("I"), Template: tid("T"),
		Expr: &lf.ERecCon{Type: lf.TypeConApp{ID: tid("T")}, Fields: []lf.FieldExpr{{Name: "owner", Expr: txt("x")}, {Name: "n", Expr: i64(1)}}}}}
	if v, err := e.Eval(ctx, fromI); err != nil || !valueEq(v, Some(&Record{Fields: []Value{Text("x"), Int64(1), None}})) {
		t.Errorf("from_interface across versions: %v, %v", v, err)
	}
	// Metadata that changed between versions fails validation.
	store[c1].Signatories = []string{"bob"}
	_, err = e.Submit(ctx, alice, ExerciseCommand(tid2("T"), "Get", c1, argV2))
	if errKind(err) != ErrUpgradeValidationFailed {
		t.Errorf("changed signatories: got %v", err)
	}
}
