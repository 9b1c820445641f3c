package typecheck

import (
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// defCase changes the base module and names the kind and context sort
// Check must answer.
type defCase struct {
	name    string
	mod     func(m *lf.Module)
	want    ErrorKind
	context ContextSort
}

func runDefCases(t *testing.T, cases []defCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := baseModule()
			tt.mod(m)
			e := checkErr(t, testPackage(m))
			if got := kindOfErr(e); got != tt.want {
				t.Fatalf("kind %v, want %v (%v)", got, tt.want, e)
			}
			if e != nil && e.Context.Sort != tt.context {
				t.Errorf("context %v, want sort %v", e.Context, tt.context)
			}
		})
	}
}

func dataType(m *lf.Module, name string) *lf.DataType {
	for _, d := range m.DataTypes {
		if d.Name == name {
			return d
		}
	}
	panic(name)
}

// templateT and ifaceI return the base module's template and interface.
func templateT(m *lf.Module) *lf.Template { return m.Templates[0] }
func ifaceI(m *lf.Module) *lf.Interface   { return m.Interfaces[0] }

func addIface(m *lf.Module, name string, requires ...string) {
	var reqs []lf.TypeConID
	for _, r := range requires {
		reqs = append(reqs, id(r))
	}
	m.DataTypes = append(m.DataTypes, &lf.DataType{Name: name, Variety: lf.InterfaceVariety})
	m.Interfaces = append(m.Interfaces, &lf.Interface{Name: name, Param: "this", View: tc("V"), Requires: reqs})
}

// noInstance removes T's instance of I: templates are checked before
// interfaces, so an interface fault would show first in the instance.
func noInstance(m *lf.Module) {
	templateT(m).Implements = nil
	templateT(m).Instances = nil
}

// TestDefinitionsRefused: definition-level rules (Canton's Typing.scala
// checkModule and the checks it runs per definition), with the context
// Canton reports.
func TestDefinitionsRefused(t *testing.T) {
	t.Parallel()
	runDefCases(t, []defCase{
		{"#24 precondition of type Unit", func(m *lf.Module) { templateT(m).Precond = unitE }, ETypeMismatch, ContextTemplate},
		{"#24 signatories of type Unit", func(m *lf.Module) { templateT(m).Signatories = unitE }, ETypeMismatch, ContextTemplate},
		{"#24 observers of type Unit", func(m *lf.Module) { templateT(m).Observers = unitE }, ETypeMismatch, ContextTemplate},
		{"#24 choice controllers of type Unit", func(m *lf.Module) { templateT(m).Choices[0].Controllers = unitE }, ETypeMismatch, ContextTemplate},
		{"#24 choice observers of type Unit", func(m *lf.Module) { templateT(m).Choices[0].Observers = unitE }, ETypeMismatch, ContextTemplate},
		{"choice authorizers of type Unit", func(m *lf.Module) { templateT(m).Choices[0].Authorizers = unitE }, ETypeMismatch, ContextTemplate},
		{"choice body of the wrong type", func(m *lf.Module) { templateT(m).Choices[0].Update = pure(tyInt64, int1) }, ETypeMismatch, ContextTemplate},
		{"choice body uses self and arg", func(m *lf.Module) {
			templateT(m).Choices[0].Update = &lf.EUpdate{Update: &lf.UExercise{Template: id("T"), Choice: "Ch", ContractID: ev("self"), Arg: ev("arg")}}
		}, 0, 0},
		{"controllers do not see self", func(m *lf.Module) { templateT(m).Choices[0].Controllers = ev("self") }, EUnknownExprVar, ContextTemplate},
		{"#25 template over a parameterised record", func(m *lf.Module) {
			m.Templates = append(m.Templates, &lf.Template{Name: "R", Param: "this", Signatories: nilOf(tyParty), Observers: nilOf(tyParty)})
		}, EExpectedTemplatableType, ContextTemplate},
		{"#25 template over a variant", func(m *lf.Module) {
			m.Templates = append(m.Templates, &lf.Template{Name: "Color", Param: "this", Signatories: nilOf(tyParty), Observers: nilOf(tyParty)})
		}, EExpectedTemplatableType, ContextTemplate},
		{"template without a data type", func(m *lf.Module) {
			m.Templates = append(m.Templates, &lf.Template{Name: "Nope", Param: "this", Signatories: nilOf(tyParty), Observers: nilOf(tyParty)})
		}, EUnknownDefinition, ContextTemplate},
		{"#26 choice argument of kind * -> *", func(m *lf.Module) { templateT(m).Choices[0].ArgType = tyListCon }, EKindMismatch, ContextTemplate},
		{"#26 choice result of kind * -> *", func(m *lf.Module) { templateT(m).Choices[0].ReturnType = tyListCon }, EKindMismatch, ContextTemplate},
		{"#27 key maintainers mention this", func(m *lf.Module) {
			templateT(m).Key.Maintainers = lam("k", tyParty, &lf.ECons{Type: tyParty, Front: []lf.Expr{proj("T", "person", ev("this"))}, Tail: nilOf(tyParty)})
		}, EUnknownExprVar, ContextTemplate},
		{"key body of the wrong type", func(m *lf.Module) { templateT(m).Key.Body = text("x") }, ETypeMismatch, ContextTemplate},
		{"#28 instance missing a method", func(m *lf.Module) { templateT(m).Instances[0].Methods = nil },
			EMissingMethodInInterfaceInstance, ContextInterfaceInstance},
		{"#28 instance with an extra method", func(m *lf.Module) {
			in := templateT(m).Instances[0]
			in.Methods = append(in.Methods, lf.MethodBody{Name: "getName", Expr: text("x")})
		}, EUnknownMethodInInterfaceInstance, ContextInterfaceInstance},
		{"#28 method of the wrong type", func(m *lf.Module) { templateT(m).Instances[0].Methods[0].Expr = unitE },
			EMethodTypeMismatch, ContextInterfaceInstance},
		{"method mismatch deep inside the body", func(m *lf.Module) {
			templateT(m).Instances[0].Methods[0].Expr = &lf.ELet{Bindings: []lf.Binding{{Var: lf.VarWithType{Name: "x", Type: tyText}, Bound: int1}}, Body: nilOf(tyParty)}
		}, EMethodTypeMismatch, ContextInterfaceInstance},
		{"view of the wrong type", func(m *lf.Module) { templateT(m).Instances[0].View = unitE }, EViewTypeMismatch, ContextInterfaceInstance},
		{"instance sees only this", func(m *lf.Module) { templateT(m).Instances[0].View = ev("self") }, EUnknownExprVar, ContextInterfaceInstance},
		{"instance of an unknown interface", func(m *lf.Module) { templateT(m).Instances[0].Interface = id("Nope") }, EUnknownDefinition, ContextInterfaceInstance},
		{"#29 interface requiring itself", func(m *lf.Module) { ifaceI(m).Requires = []lf.TypeConID{id("I")} }, ECircularInterfaceRequires, ContextInterface},
		{"#29 requires not closed", func(m *lf.Module) {
			noInstance(m)
			addIface(m, "Z")
			addIface(m, "Y", "Z")
			ifaceI(m).Requires = []lf.TypeConID{id("Y")}
		}, ENotClosedInterfaceRequires, ContextInterface},
		{"#29 view type Unit", func(m *lf.Module) { noInstance(m); ifaceI(m).View = tyUnit }, EViewTypeHeadNotCon, ContextInterface},
		{"#29 view type an enum", func(m *lf.Module) { noInstance(m); ifaceI(m).View = tc("Color") }, EViewTypeConNotRecord, ContextInterface},
		{"#29 view type parameterised", func(m *lf.Module) { noInstance(m); ifaceI(m).View = tc("R") }, EViewTypeHasVars, ContextInterface},
		{"#29 view type applied", func(m *lf.Module) { noInstance(m); ifaceI(m).View = rInt64 }, EViewTypeHasVars, ContextInterface},
		{"#30 missing required instance", func(m *lf.Module) {
			addIface(m, "X")
			ifaceI(m).Requires = []lf.TypeConID{id("X")}
		}, EMissingRequiredInterfaceInstance, ContextInterfaceInstance},
		{"method type of kind * -> *", func(m *lf.Module) { noInstance(m); ifaceI(m).Methods[0].Type = tyListCon }, EKindMismatch, ContextInterface},
		{"interface choice of the wrong type", func(m *lf.Module) { ifaceI(m).Choices[0].Controllers = unitE }, ETypeMismatch, ContextInterface},
		{"#31 exception over a parameterised record", func(m *lf.Module) {
			m.Exceptions = append(m.Exceptions, "R")
			m.ExceptionDefs = append(m.ExceptionDefs, &lf.DefException{Name: "R", Message: text("x")})
		}, EExpectedExceptionableType, ContextException},
		{"#31 exception message a text", func(m *lf.Module) { m.ExceptionDefs[0].Message = text("x") }, ETypeMismatch, ContextException},
		{"#7 record parameter of kind * -> nat", func(m *lf.Module) {
			dataType(m, "R").Params = []lf.TypeParam{{Name: "a", Kind: karrow(star, nat)}}
		}, ENatKindRightOfArrow, ContextDataType},
		{"duplicate type parameter", func(m *lf.Module) {
			dataType(m, "R").Params = []lf.TypeParam{{Name: "a", Kind: star}, {Name: "a", Kind: star}}
		}, EDuplicateTypeParam, ContextDataType},
		{"duplicate record field", func(m *lf.Module) {
			dataType(m, "V").Fields = append(dataType(m, "V").Fields, lf.Field{Name: "x", Type: tyInt64})
		}, ECollision, ContextNone},
		{"field of kind * -> *", func(m *lf.Module) { dataType(m, "V").Fields[0].Type = tyListCon }, EKindMismatch, ContextDataType},
		{"field of an unknown type", func(m *lf.Module) { dataType(m, "V").Fields[0].Type = tc("Nope") }, EUnknownDefinition, ContextDataType},
		{"variant argument of kind nat", func(m *lf.Module) { dataType(m, "Tree").Fields[0].Type = &lf.TNat{N: 1} }, EKindMismatch, ContextDataType},
		{"enum with a parameter", func(m *lf.Module) { dataType(m, "Color").Params = []lf.TypeParam{{Name: "a", Kind: star}} },
			EIllegalHigherEnumType, ContextDataType},
		{"interface data type with a parameter", func(m *lf.Module) { dataType(m, "I").Params = []lf.TypeParam{{Name: "a", Kind: star}} },
			EIllegalHigherInterfaceType, ContextDataType},
		{"interface data type without interface", func(m *lf.Module) {
			m.DataTypes = append(m.DataTypes, &lf.DataType{Name: "J", Variety: lf.InterfaceVariety})
		}, EUnknownDefinition, ContextDataType},
		{"synonym of an unbound variable", func(m *lf.Module) { m.Synonyms[0].Type = tv("a") }, EUnknownTypeVar, ContextTemplate},
		{"synonym of List", func(m *lf.Module) { m.Synonyms[0].Type = tyListCon }, EKindMismatch, ContextTemplate},
		{"synonym of a higher-kinded parameter", func(m *lf.Module) {
			m.Synonyms = append(m.Synonyms, &lf.TypeSynonym{Name: "S", Params: []lf.TypeParam{{Name: "f", Kind: karrow(star, star)}}, Type: tv("f")})
		}, EKindMismatch, ContextTemplate},
		{"synonym applying a parameter of kind *", func(m *lf.Module) {
			m.Synonyms = append(m.Synonyms, &lf.TypeSynonym{Name: "S", Params: []lf.TypeParam{{Name: "f", Kind: star}}, Type: tapp(tv("f"), tyInt64)})
		}, EExpectedHigherKind, ContextTemplate},
		{"synonym with a duplicate parameter", func(m *lf.Module) {
			m.Synonyms = append(m.Synonyms, &lf.TypeSynonym{Name: "S", Params: []lf.TypeParam{{Name: "a", Kind: star}, {Name: "a", Kind: star}}, Type: tv("a")})
		}, EDuplicateTypeParam, ContextTemplate},
	})
}

// TestSerializability: Serializability.scala's rules.
func TestSerializability(t *testing.T) {
	t.Parallel()
	addRecord := func(m *lf.Module, name string, ser bool, params []lf.TypeParam, fields ...lf.Field) {
		m.DataTypes = append(m.DataTypes, &lf.DataType{Name: name, Params: params, Serializable: ser, Variety: lf.RecordVariety, Fields: fields})
	}
	runDefCases(t, []defCase{
		{"#36 serializable record of an unserializable record", func(m *lf.Module) {
			addRecord(m, "R2", true, nil, lf.Field{Name: "f", Type: tc("Unser")})
		}, EExpectedSerializableType, ContextDataType},
		{"#36 serializable variant without constructors", func(m *lf.Module) {
			m.DataTypes = append(m.DataTypes, &lf.DataType{Name: "Empty", Serializable: true, Variety: lf.VariantVariety})
		}, EExpectedSerializableType, ContextDataType},
		{"unserializable variant without constructors", func(m *lf.Module) {
			m.DataTypes = append(m.DataTypes, &lf.DataType{Name: "Empty", Variety: lf.VariantVariety})
		}, 0, 0},
		{"serializable record with a function field", func(m *lf.Module) {
			addRecord(m, "R2", true, nil, lf.Field{Name: "f", Type: tfn(tyInt64, tyInt64)})
		}, EExpectedSerializableType, ContextDataType},
		{"serializable record with a nat parameter", func(m *lf.Module) {
			addRecord(m, "R2", true, []lf.TypeParam{{Name: "n", Kind: nat}}, lf.Field{Name: "f", Type: tapp(&lf.TBuiltin{Builtin: lf.BuiltinNumeric}, tv("n"))})
		}, EExpectedSerializableType, ContextDataType},
		{"serializable record with a synonym field", func(m *lf.Module) {
			addRecord(m, "R2", true, nil, lf.Field{Name: "f", Type: syn("SynInt")})
		}, EExpectedSerializableType, ContextDataType},
		{"ContractId of anything is serializable", func(m *lf.Module) {
			addRecord(m, "R2", true, nil, lf.Field{Name: "f", Type: tcid(tc("Unser"))}, lf.Field{Name: "g", Type: tcid(tI)})
		}, 0, 0},
		{"serializable containers", func(m *lf.Module) {
			addRecord(m, "R2", true, []lf.TypeParam{{Name: "a", Kind: star}},
				lf.Field{Name: "f", Type: tlist(topt(tv("a")))}, lf.Field{Name: "g", Type: tnum(10)},
				lf.Field{Name: "h", Type: tapp(&lf.TBuiltin{Builtin: lf.BuiltinGenMap}, tyText, tc("R", tyInt64))},
				lf.Field{Name: "i", Type: tapp(&lf.TBuiltin{Builtin: lf.BuiltinTextMap}, tyAnyExc)})
		}, 0, 0},
		{"#37 template over an unserializable record", func(m *lf.Module) { dataType(m, "T").Serializable = false },
			EExpectedSerializableType, ContextTemplate},
		{"#37 choice argument unserializable", func(m *lf.Module) { templateT(m).Choices[0].ArgType = tc("Unser") },
			EExpectedSerializableType, ContextTemplate},
		{"#37 choice result a function", func(m *lf.Module) {
			ch := templateT(m).Choices[0]
			ch.ReturnType = tfn(tyUnit, tyUnit)
			ch.Update = pure(ch.ReturnType, lam("u", tyUnit, unitE))
		}, EExpectedSerializableType, ContextTemplate},
		{"#37 interface choice returning the interface", func(m *lf.Module) {
			ch := ifaceI(m).Choices[0]
			ch.ReturnType = tI
			ch.Update = pure(tI, ev("this"))
		}, EExpectedSerializableType, ContextInterface},
		{"interface choice returning a contract id of the interface", func(m *lf.Module) {
			ch := ifaceI(m).Choices[0]
			ch.ReturnType = tcid(tI)
			ch.Update = pure(tcid(tI), ev("self"))
		}, 0, 0},
		{"#37 view unserializable", func(m *lf.Module) {
			ifaceI(m).View = tc("Unser")
			templateT(m).Instances[0].View = &lf.ERecCon{Type: tcapp("Unser"), Fields: []lf.FieldExpr{{Name: "f", Expr: lam("x", tyInt64, ev("x"))}}}
		}, EExpectedSerializableType, ContextInterface},
		{"key unserializable", func(m *lf.Module) {
			k := templateT(m).Key
			k.Type = tfn(tyParty, tyParty)
			k.Body = lam("p", tyParty, ev("p"))
			k.Maintainers = lam("k", k.Type, nilOf(tyParty))
		}, EExpectedSerializableType, ContextTemplate},
		{"exception over an unserializable record", func(m *lf.Module) { dataType(m, "E").Serializable = false },
			EExpectedSerializableType, ContextException},
		{"type errors of a module come before its serializability errors", func(m *lf.Module) {
			dataType(m, "T").Serializable = false
			m.Values = append(m.Values, lf.NewDefValue("x", tyBool, unitE))
		}, ETypeMismatch, ContextValue},
	})
}

// TestSerializabilityMessage: the message keeps Canton's trailing margin.
func TestSerializabilityMessage(t *testing.T) {
	t.Parallel()
	m := baseModule()
	templateT(m).Choices[0].ArgType = tc("Unser")
	e := checkErr(t, testPackage(m))
	want := "validation error in template cafe:Mod:T: expected serializable type:\n * reason: unserializable data type Mod:Unser\n * found: Mod:Unser\n * problem: choice argument\n     "
	if e == nil || e.Error() != want || e.Reason != "unserializable data type Mod:Unser" || e.Requirement != "choice argument" {
		t.Fatalf("got %q", e)
	}
}

// withDepRef adds a value whose type refers to the data type M:D of the
// package dep.
func withDepRef(m *lf.Module, dep string) *lf.Module {
	d := &lf.TCon{ID: lf.TypeConID{PackageID: dep, Module: "M", Name: "D"}}
	m.Values = append(m.Values, lf.NewDefValue("d", tfn(d, tyUnit), lam("x", d, unitE)))
	return m
}

// TestPackageRules: collisions, recursion and dependency versions (Canton's
// Collision.scala, Recursion.scala and DependencyVersion.scala), reported
// without a context.
func TestPackageRules(t *testing.T) {
	t.Parallel()
	otherModule := func(name string, values ...*lf.DefValue) *lf.Module {
		return &lf.Module{Name: name, Values: values}
	}
	ref := func(mod, name string) lf.Expr {
		return &lf.EVal{Ref: lf.TypeConID{PackageID: pid, Module: mod, Name: name}}
	}
	tests := []struct {
		name string
		p    func() *lf.Package
		want ErrorKind
	}{
		{"#35 fields equal ignoring case", func() *lf.Package {
			m := baseModule()
			dataType(m, "V").Fields = append(dataType(m, "V").Fields, lf.Field{Name: "X", Type: tyInt64})
			return testPackage(m)
		}, ECollision},
		{"#35 variant constructors equal ignoring case", func() *lf.Package {
			m := baseModule()
			dataType(m, "Tree").Fields = append(dataType(m, "Tree").Fields, lf.Field{Name: "LEAF", Type: tyUnit})
			return testPackage(m)
		}, ECollision},
		{"#35 module A.B and record A:B", func() *lf.Package {
			return testPackage(baseModule(), &lf.Module{Name: "A", DataTypes: []*lf.DataType{{Name: "B", Variety: lf.RecordVariety}}}, &lf.Module{Name: "A.B"})
		}, ECollision},
		{"#35 choices equal ignoring case", func() *lf.Package {
			m := baseModule()
			ch := *templateT(m).Choices[0]
			ch.Name = "CH"
			templateT(m).Choices = append(templateT(m).Choices, &ch)
			return testPackage(m)
		}, ECollision},
		{"choice and a field of the template record", func() *lf.Package {
			m := baseModule()
			dataType(m, "T").Fields = append(dataType(m, "T").Fields, lf.Field{Name: "ch", Type: tyInt64})
			return testPackage(m)
		}, ECollision},
		{"variant constructor and its record are allowed", func() *lf.Package { return testPackage(baseModule()) }, 0},
		{"variant constructor and a record of another case collide", func() *lf.Package {
			m := baseModule()
			dataType(m, "Tree.Node").Name = "Tree.NODE"
			dataType(m, "Tree").Fields[1].Type = tc("Tree.NODE", tv("a"))
			dataType(m, "Tree.NODE").Fields[1].Type = tc("Tree", tv("a"))
			dataType(m, "Tree.NODE").Fields[2].Type = tc("Tree", tv("a"))
			return testPackage(m)
		}, ECollision},
		{"#34 import cycle", func() *lf.Package {
			return testPackage(baseModule(),
				otherModule("A", lf.NewDefValue("a", tyUnit, ref("B", "b"))),
				otherModule("B", lf.NewDefValue("b", tyUnit, ref("A", "a"))))
		}, EImportCycle},
		{"modules referring one way", func() *lf.Package {
			return testPackage(baseModule(),
				otherModule("A", lf.NewDefValue("a", tyUnit, unitE)),
				otherModule("B", lf.NewDefValue("b", tyUnit, ref("A", "a"))))
		}, 0},
		{"#33 synonym referring to itself", func() *lf.Package {
			m := baseModule()
			m.Synonyms = append(m.Synonyms, &lf.TypeSynonym{Name: "S", Type: syn("S")})
			return testPackage(m)
		}, ETypeSynCycle},
		{"#33 two synonyms in a cycle", func() *lf.Package {
			m := baseModule()
			m.Synonyms = append(m.Synonyms, &lf.TypeSynonym{Name: "S1", Type: syn("S2")}, &lf.TypeSynonym{Name: "S2", Type: tlist(syn("S1"))})
			return testPackage(m)
		}, ETypeSynCycle},
		{"#38 dependency with a newer LF version", func() *lf.Package {
			p := testPackage(withDepRef(baseModule(), "dep22"))
			p.LanguageVersion = lf.LF21
			p.DirectDeps = []string{daTypes.ID, "dep22"}
			return p
		}, EModuleVersionDependencies},
		{"newer import no definition uses", func() *lf.Package {
			p := testPackage(baseModule())
			p.LanguageVersion = lf.LF21
			p.DirectDeps = []string{daTypes.ID, "dep22"}
			return p
		}, 0},
		{"dependency referenced only by a pattern", func() *lf.Package {
			m := baseModule()
			m.Values = append(m.Values, lf.NewDefValue("p", tyUnit, ecase(unitE,
				alt(&lf.PEnum{ID: lf.TypeConID{PackageID: "dep22", Module: "M", Name: "D"}, Con: "C"}, unitE))))
			p := testPackage(m)
			p.LanguageVersion = lf.LF21
			p.DirectDeps = []string{"dep22"}
			return p
		}, EModuleVersionDependencies},
		{"unknown dependency", func() *lf.Package {
			p := testPackage(withDepRef(baseModule(), "nope"))
			p.DirectDeps = []string{"nope"}
			return p
		}, EUnknownDefinition},
	}
	dep22 := &lf.Package{ID: "dep22", LanguageVersion: lf.LF22}
	dep22.Index()
	lookup := func(id string) *lf.Package {
		if id == dep22.ID {
			return dep22
		}
		return lookupDATypes(id)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := Check(tt.p(), lookup)
			var got ErrorKind
			if e, ok := err.(*Error); ok {
				got = e.Kind
				if e.Context.Sort != ContextNone {
					t.Errorf("context %v, want none", e.Context)
				}
			} else if err != nil {
				t.Fatalf("Check: %T %v", err, err)
			}
			if got != tt.want {
				t.Fatalf("kind %v, want %v (%v)", got, tt.want, err)
			}
		})
	}
}
