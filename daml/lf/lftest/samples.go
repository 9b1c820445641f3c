package lftest

import "github.com/ledgernode/ledgernode/daml/lf"

// Sample packages shared by the tests, benchmarks and examples of several
// packages. Their expressions are lftest's defaults unless stated, so they
// run in daml/engine.

// IouPackage is package "iou" at a version: template Main:Iou {owner: Party,
// amount: Int64} (signatory owner, no observers) with a consuming Transfer
// {newOwner: Party} and a non-consuming Peek (Unit) choice, both controlled
// by the owner and returning () (pure ()).
func IouPackage(version string) Package {
	return Package{Name: "iou", Version: version, Imports: []string{}, Modules: []Module{{Name: "Main",
		DataTypes: []DataType{
			{Name: "Iou", Serializable: true, Fields: []Field{{Name: "owner", Type: B(Party)}, {Name: "amount", Type: B(Int64)}}},
			{Name: "Transfer", Serializable: true, Fields: []Field{{Name: "newOwner", Type: B(Party)}}},
		},
		Templates: []Template{{Name: "Iou", Choices: []Choice{
			{Name: "Transfer", Consuming: true, Arg: Con(Self(), "Main", "Transfer"), Ret: B(Unit)},
			{Name: "Peek", Consuming: false, Arg: B(Unit), Ret: B(Unit)},
		}}},
	}}}
}

// TemplatePackage is a package with one template Main:T of the given
// fields (signatories: its Party fields) and a consuming choice Go (Unit,
// pure ()), importing the given package ids (nil: none).
func TemplatePackage(name, version string, imports []string, fields ...Field) Package {
	if imports == nil {
		imports = []string{}
	}
	return Package{Name: name, Version: version, Imports: imports, Modules: []Module{{Name: "Main",
		DataTypes: []DataType{{Name: "T", Serializable: true, Fields: fields}},
		Templates: []Template{{Name: "T", Choices: []Choice{{Name: "Go", Consuming: true, Arg: B(Unit), Ret: B(Unit)}}}},
	}}}
}

// HeavyModulus is the modulus of HeavyPackage's sum of squares.
const HeavyModulus = 1_000_000_007

// HeavyPackage is package "heavy" 1.0.0: template Main:Heavy {owner:
// Party} (signatory owner) with a non-consuming choice Spin {n: Int64} :
// Int64, controlled by the owner, whose body is pure (Main:spin 0 0 n),
// where the top-level value
//
//	spin i acc n = if i < n then spin (i+1) ((acc + i*i) mod HeavyModulus) n else acc
//
// recurses through its own reference n times: Spin n returns the sum of
// i*i for i in [0, n), reduced modulo HeavyModulus at each step, and costs
// interpretation time linear in n.
func HeavyPackage() Package {
	i64 := &lf.TBuiltin{Builtin: lf.BuiltinInt64}
	v := func(n string) lf.Expr { return &lf.EVar{Name: n} }
	lit := func(n int64) lf.Expr { return &lf.EInt64{Value: n} }
	bin := func(f lf.BuiltinFunction, a, b lf.Expr) lf.Expr {
		return &lf.EApp{Fun: &lf.EBuiltinFun{Fun: f}, Args: []lf.Expr{a, b}}
	}
	spin := &lf.EVal{Ref: lf.ValueRef{PackageID: SelfID, Module: "Main", Name: "spin"}}
	less := &lf.EApp{Fun: &lf.ETyApp{Expr: &lf.EBuiltinFun{Fun: lf.BuiltinLess}, Types: []lf.Type{i64}}, Args: []lf.Expr{v("i"), v("n")}}
	step := &lf.EApp{Fun: spin, Args: []lf.Expr{
		bin(lf.BuiltinAddInt64, v("i"), lit(1)),
		bin(lf.BuiltinModInt64, bin(lf.BuiltinAddInt64, v("acc"), bin(lf.BuiltinMulInt64, v("i"), v("i"))), lit(HeavyModulus)),
		v("n"),
	}}
	body := &lf.EAbs{Params: []lf.VarWithType{{Name: "i", Type: i64}, {Name: "acc", Type: i64}, {Name: "n", Type: i64}},
		Body: &lf.ECase{Scrut: less, Alts: []lf.CaseAlt{
			{Pattern: &lf.PBuiltinCon{Con: lf.ConTrue}, Body: step},
			{Pattern: &lf.PDefault{}, Body: v("acc")},
		}}}
	spinArg := lf.TypeConApp{ID: lf.TypeConID{PackageID: SelfID, Module: "Main", Name: "Spin"}}
	update := &lf.EUpdate{Update: &lf.UPure{Type: i64, Expr: &lf.EApp{Fun: spin, Args: []lf.Expr{
		lit(0), lit(0), &lf.ERecProj{Type: spinArg, Field: "n", Record: v("arg")}}}}}
	return Package{Name: "heavy", Version: "1.0.0", Imports: []string{}, Modules: []Module{{Name: "Main",
		DataTypes: []DataType{
			{Name: "Heavy", Serializable: true, Fields: []Field{{Name: "owner", Type: B(Party)}}},
			{Name: "Spin", Serializable: true, Fields: []Field{{Name: "n", Type: B(Int64)}}},
		},
		Values: []Value{{Name: "spin", Type: Fn(B(Int64), B(Int64), B(Int64), B(Int64)), Expr: body}},
		Templates: []Template{{Name: "Heavy", Choices: []Choice{
			{Name: "Spin", Arg: Con(Self(), "Main", "Spin"), Ret: B(Int64), Update: update},
		}}},
	}}}
}
