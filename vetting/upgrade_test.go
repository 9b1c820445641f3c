package vetting

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	e "github.com/ledgernode/ledgernode/daml/lf/lftest"
)

// upgradeBase is version 1.0.0 of the package "app" the upgrade cases
// start from.
func upgradeBase() e.Package {
	self := func(n string) e.Type { return e.Con(e.Self(), "M", n) }
	return e.Package{Name: "app", Version: "1.0.0", Imports: []string{}, Modules: []e.Module{{
		Name: "M",
		DataTypes: []e.DataType{
			{Name: "T", Serializable: true, Fields: []e.Field{
				{"owner", e.B(e.Party)}, {"n", e.B(e.Int64)}, {"next", e.Opt(e.CID(self("T")))}}},
			{Name: "C", Serializable: true, Fields: []e.Field{{"x", e.B(e.Int64)}}},
			{Name: "V", Kind: "variant", Serializable: true, Fields: []e.Field{{"A", e.B(e.Int64)}, {"B", e.B(e.Text)}}},
			{Name: "E", Kind: "enum", Serializable: true, Enum: []string{"X", "Y"}},
			{Name: "R", Serializable: true, Params: []e.Param{{Name: "a"}}, Fields: []e.Field{{"f", e.Var("a")}}},
			{Name: "Extra", Serializable: true, Fields: []e.Field{{"x", e.B(e.Int64)}}},
			{Name: "Helper", Fields: []e.Field{{"u", e.B(e.Unit)}}},
		},
		Templates: []e.Template{{Name: "T", Choices: []e.Choice{
			{Name: "C", Consuming: true, Arg: self("C"), Ret: e.CID(self("T")), Update: pureSelf}}}},
	}, {
		Name:      "Aux",
		DataTypes: []e.DataType{{Name: "A", Serializable: true, Fields: []e.Field{{"x", e.B(e.Int64)}}}},
	}}}
}

// pureSelf is the body of choice C: pure self (lftest needs a body for a
// choice that does not return Unit).
var pureSelf = &lf.EUpdate{Update: &lf.UPure{
	Type: &lf.TApp{Fun: &lf.TBuiltin{Builtin: lf.BuiltinContractID}, Arg: &lf.TCon{ID: lf.TypeConID{PackageID: e.SelfID, Module: "M", Name: "T"}}},
	Expr: &lf.EVar{Name: "self"}}}

func dtOf(p *e.Package, name string) *e.DataType {
	for i := range p.Modules[0].DataTypes {
		if p.Modules[0].DataTypes[i].Name == name {
			return &p.Modules[0].DataTypes[i]
		}
	}
	panic("no data type " + name)
}

func removeDT(p *e.Package, name string) {
	p.Modules[0].DataTypes = slices.DeleteFunc(p.Modules[0].DataTypes, func(d e.DataType) bool { return d.Name == name })
}

func tplOf(p *e.Package) *e.Template { return &p.Modules[0].Templates[0] }

// upgradeWorld holds dependency packages the cases refer to.
type upgradeWorld struct {
	dep1, dep2, other, lib, lib2 string
	pkgs                         map[string]*lf.Package
}

func newUpgradeWorld(t *testing.T) *upgradeWorld {
	w := &upgradeWorld{pkgs: map[string]*lf.Package{}}
	add := func(p e.Package) string {
		d := decode(t, p)
		w.pkgs[d.ID] = d
		return d.ID
	}
	depPkg := func(name, version string) e.Package {
		return e.Package{Name: name, Version: version, Imports: []string{}, Modules: []e.Module{{Name: "D",
			DataTypes: []e.DataType{{Name: "D", Serializable: true, Fields: []e.Field{{"x", e.B(e.Int64)}}}}}}}
	}
	w.dep1 = add(depPkg("dep", "1.0.0"))
	w.dep2 = add(depPkg("dep", "2.0.0"))
	w.other = add(depPkg("other", "3.0.0"))
	libPkg := func(version string) e.Package {
		return e.Package{Name: "lib", Version: version, Imports: []string{}, Modules: []e.Module{{Name: "L",
			DataTypes:  []e.DataType{{Name: "I", Kind: "interface"}, {Name: "IView", Serializable: true, Fields: []e.Field{{"v", e.B(e.Int64)}}}},
			Interfaces: []e.Interface{{Name: "I", View: e.Con(e.Self(), "L", "IView")}},
		}}}
	}
	w.lib = add(libPkg("1.0.0"))
	w.lib2 = add(libPkg("2.0.0"))
	return w
}

func (w *upgradeWorld) lookup(id string) *lf.Package { return w.pkgs[id] }

// useDep makes T depend on D of the package id.
func useDep(id string) func(p *e.Package) {
	return func(p *e.Package) {
		p.Imports = []string{id}
		dtOf(p, "T").Fields = append(dtOf(p, "T").Fields, e.Field{"d", e.Con(e.Import(0), "D", "D")})
	}
}

func TestCheckUpgrade(t *testing.T) {
	w := newUpgradeWorld(t)
	withInterface := func(p *e.Package) {
		p.Modules[0].DataTypes = append(p.Modules[0].DataTypes, e.DataType{Name: "J", Kind: "interface"},
			e.DataType{Name: "JView", Serializable: true, Fields: []e.Field{{"v", e.B(e.Int64)}}})
		p.Modules[0].Interfaces = []e.Interface{{Name: "J", View: e.Con(e.Self(), "M", "JView")}}
	}
	withException := func(p *e.Package) {
		p.Modules[0].DataTypes = append(p.Modules[0].DataTypes, e.DataType{Name: "Boom", Serializable: true, Fields: []e.Field{{"message", e.B(e.Text)}}})
		p.Modules[0].Exceptions = []string{"Boom"}
	}
	implements := func(lib string) func(p *e.Package) {
		return func(p *e.Package) {
			p.Imports = []string{lib}
			tplOf(p).Implements = []e.TyCon{{Ref: e.Import(0), Module: "L", Name: "I"}}
		}
	}
	implementsLib := implements(w.lib)
	implementsOwnInterface := func(p *e.Package) {
		withInterface(p)
		tplOf(p).Implements = []e.TyCon{{Ref: e.Self(), Module: "M", Name: "J"}}
	}
	withTemplateU := func(p *e.Package) {
		p.Modules[0].DataTypes = append(p.Modules[0].DataTypes, e.DataType{Name: "U", Serializable: true})
		p.Modules[0].Templates = append(p.Modules[0].Templates, e.Template{Name: "U"})
	}
	// helperUses makes the unserializable Helper hold D of the package id:
	// no upgrade rule looks at it.
	helperUses := func(id string) func(p *e.Package) {
		return func(p *e.Package) {
			p.Imports = []string{id}
			dtOf(p, "Helper").Fields = append(dtOf(p, "Helper").Fields, e.Field{"d", e.Con(e.Import(0), "D", "D")})
		}
	}
	minor := func(m string) func(p *e.Package) { return func(p *e.Package) { p.Minor = m } }
	key := func(t e.Type) func(p *e.Package) {
		return func(p *e.Package) { p.Minor = "3"; tplOf(p).Key = t }
	}
	both := func(fs ...func(*e.Package)) func(*e.Package) {
		return func(p *e.Package) {
			for _, f := range fs {
				f(p)
			}
		}
	}

	tests := []struct {
		name   string
		v1, v2 func(p *e.Package) // changes to upgradeBase for 1.0.0 and 2.0.0
		rule   string             // "" when the upgrade is valid
		msg    string             // substring of the message
	}{
		{name: "unchanged (self references across versions match)"},
		{name: "new module, template, choice and data types", v2: func(p *e.Package) {
			p.Modules = append(p.Modules, e.Module{Name: "New", DataTypes: []e.DataType{{Name: "N", Serializable: true}}})
			p.Modules[0].DataTypes = append(p.Modules[0].DataTypes, e.DataType{Name: "U", Serializable: true}, e.DataType{Name: "D2", Serializable: true})
			p.Modules[0].Templates = append(p.Modules[0].Templates, e.Template{Name: "U"})
			tplOf(p).Choices = append(tplOf(p).Choices, e.Choice{Name: "D2", Arg: e.Con(e.Self(), "M", "D2"), Ret: e.B(e.Unit)})
		}},

		// Records.
		{name: "optional field appended", v2: func(p *e.Package) {
			dtOf(p, "T").Fields = append(dtOf(p, "T").Fields, e.Field{"memo", e.Opt(e.B(e.Text))})
		}},
		{name: "non-optional field appended", v2: func(p *e.Package) { dtOf(p, "T").Fields = append(dtOf(p, "T").Fields, e.Field{"memo", e.B(e.Text)}) },
			rule: "RecordFieldsNewNonOptional", msg: "The upgraded template T has added new fields, but those fields are not Optional."},
		{name: "choice argument gains a non-optional field", v2: func(p *e.Package) { dtOf(p, "C").Fields = append(dtOf(p, "C").Fields, e.Field{"y", e.B(e.Int64)}) },
			rule: "RecordFieldsNewNonOptional", msg: "input type of choice C on template T"},
		{name: "top-level record gains a non-optional field", v2: func(p *e.Package) {
			dtOf(p, "Extra").Fields = append(dtOf(p, "Extra").Fields, e.Field{"y", e.B(e.Int64)})
		},
			rule: "RecordFieldsNewNonOptional", msg: "data type Extra"},
		{name: "field removed", v2: func(p *e.Package) { dtOf(p, "T").Fields = dtOf(p, "T").Fields[:2] }, rule: "RecordFieldsMissing"},
		{name: "field type changed", v2: func(p *e.Package) { dtOf(p, "T").Fields[1].Type = e.B(e.Text) }, rule: "RecordFieldsExistingChanged"},
		{name: "Numeric scale changed", v1: func(p *e.Package) { dtOf(p, "C").Fields[0].Type = e.Num(10) },
			v2: func(p *e.Package) { dtOf(p, "C").Fields[0].Type = e.Num(2) }, rule: "RecordFieldsExistingChanged"},
		{name: "optional field inserted in the middle", v2: func(p *e.Package) {
			f := dtOf(p, "T").Fields
			dtOf(p, "T").Fields = []e.Field{f[0], {"memo", e.Opt(e.B(e.Text))}, f[1], f[2]}
		}, rule: "RecordFieldsOrderChanged"},
		{name: "fields swapped", v2: func(p *e.Package) {
			f := dtOf(p, "T").Fields
			f[0], f[1] = f[1], f[0]
		}, rule: "RecordFieldsOrderChanged"},

		// Variants and enums.
		{name: "variant constructor appended", v2: func(p *e.Package) { dtOf(p, "V").Fields = append(dtOf(p, "V").Fields, e.Field{"Z", e.B(e.Unit)}) }},
		{name: "variant constructor inserted", v2: func(p *e.Package) {
			f := dtOf(p, "V").Fields
			dtOf(p, "V").Fields = []e.Field{{"Z", e.B(e.Unit)}, f[0], f[1]}
		}, rule: "VariantVariantsOrderChanged"},
		{name: "variant constructor removed", v2: func(p *e.Package) { dtOf(p, "V").Fields = dtOf(p, "V").Fields[:1] }, rule: "VariantRemovedVariant"},
		{name: "variant argument type changed", v2: func(p *e.Package) { dtOf(p, "V").Fields[1].Type = e.B(e.Party) }, rule: "VariantChangedVariantType"},
		{name: "enum constructor appended", v2: func(p *e.Package) { dtOf(p, "E").Enum = []string{"X", "Y", "Z"} }},
		{name: "enum constructor removed", v2: func(p *e.Package) { dtOf(p, "E").Enum = []string{"X"} }, rule: "EnumRemovedVariant"},
		{name: "enum constructors reordered", v2: func(p *e.Package) { dtOf(p, "E").Enum = []string{"Y", "X"} }, rule: "EnumVariantsOrderChanged"},

		// Data types.
		{name: "serializable data type removed", v2: func(p *e.Package) { removeDT(p, "Extra") }, rule: "MissingDataCon", msg: "Data type Extra"},
		{name: "non-serializable data type removed", v2: func(p *e.Package) { removeDT(p, "Helper") }},
		{name: "record became a variant", v2: func(p *e.Package) { dtOf(p, "Extra").Kind = "variant" }, rule: "MismatchDataConsVariety",
			msg: "has changed from a record to a variant"},
		{name: "type parameter added", v2: func(p *e.Package) { dtOf(p, "R").Params = append(dtOf(p, "R").Params, e.Param{Name: "b"}) }, rule: "DifferentParamsCount"},
		{name: "type parameter kind changed", v2: func(p *e.Package) { dtOf(p, "R").Params[0].Kind = "nat" }, rule: "DifferentParamsKinds"},
		{name: "type parameter renamed", v2: func(p *e.Package) {
			dtOf(p, "R").Params[0].Name = "b"
			dtOf(p, "R").Fields[0].Type = e.Var("b")
		}},
		{name: "became unserializable", v2: func(p *e.Package) { dtOf(p, "Extra").Serializable = false }, rule: "DatatypeBecameUnserializable"},
		{name: "became serializable", v2: func(p *e.Package) { dtOf(p, "Helper").Serializable = true }},
		{name: "record origin changed", v2: func(p *e.Package) {
			tplOf(p).Choices = append(tplOf(p).Choices, e.Choice{Name: "Extra", Arg: e.Con(e.Self(), "M", "Extra"), Ret: e.B(e.Unit)})
		}, rule: "RecordChangedOrigin", msg: "from data type Extra to input type of choice Extra on template T"},

		// Modules, templates, choices.
		{name: "module removed", v2: func(p *e.Package) { p.Modules = p.Modules[:1] }, rule: "MissingModule", msg: "Module Aux"},
		{name: "module removed after a broken one (modules are looked for first)", v2: func(p *e.Package) {
			p.Modules = p.Modules[:1]
			dtOf(p, "T").Fields = dtOf(p, "T").Fields[:2]
		}, rule: "MissingModule", msg: "Module Aux"},
		{name: "template removed", v2: func(p *e.Package) { p.Modules[0].Templates = nil }, rule: "MissingTemplate", msg: "Template T"},
		{name: "template removed after a broken one (templates are looked for first)", v1: withTemplateU, v2: func(p *e.Package) {
			tplOf(p).Choices = nil
		}, rule: "MissingTemplate", msg: "Template U"},
		{name: "data type removed after a broken one (data types are looked for first)", v2: func(p *e.Package) {
			dtOf(p, "T").Fields[1].Type = e.B(e.Text)
			removeDT(p, "Extra")
		}, rule: "MissingDataCon", msg: "Data type Extra"},
		{name: "choice removed", v2: func(p *e.Package) { tplOf(p).Choices = nil }, rule: "MissingChoice", msg: "Choice C"},
		{name: "choice return type changed", v2: func(p *e.Package) { tplOf(p).Choices[0].Ret = e.B(e.Unit) }, rule: "ChoiceChangedReturnType"},
		{name: "choice made non-consuming (not checked by Canton)", v2: func(p *e.Package) { tplOf(p).Choices[0].Consuming = false }},

		// Keys (LF 2.3).
		{name: "key unchanged", v1: key(e.B(e.Party)), v2: key(e.B(e.Party))},
		{name: "key added", v1: minor("3"), v2: key(e.B(e.Party)), rule: "TemplateAddedKey"},
		{name: "key removed", v1: key(e.B(e.Party)), v2: minor("3"), rule: "TemplateRemovedKey"},
		{name: "key type changed", v1: key(e.B(e.Party)), v2: key(e.ListOf(e.B(e.Party))), rule: "TemplateChangedKeyType"},

		// LF versions.
		{name: "LF version raised", v1: minor("2"), v2: minor("3")},
		{name: "LF version lowered", v1: minor("3"), v2: minor("2"), rule: "DecreasingLfVersion", msg: "(2.2 < 2.3)"},

		// Interfaces, exceptions, instances.
		// Canton 3.5 has TriedToUpgradeIface and TriedToUpgradeException
		// commented out: both are allowed.
		{name: "interface carried over", v1: withInterface, v2: withInterface},
		{name: "interface removed", v1: withInterface, v2: func(p *e.Package) {
			p.Modules[0].DataTypes = append(p.Modules[0].DataTypes, e.DataType{Name: "JView", Serializable: true, Fields: []e.Field{{"v", e.B(e.Int64)}}})
		}},
		{name: "exception carried over", v1: withException, v2: withException},
		{name: "exception removed", v1: withException},
		{name: "interface instance kept", v1: implementsLib, v2: implementsLib},
		{name: "interface instance removed", v1: implementsLib, v2: func(p *e.Package) { p.Imports = []string{w.lib} }, rule: "MissingImplementation",
			msg: "Implementation of interface " + w.lib + ":L:I by template T appears in package that is being upgraded, but does not appear in this package."},
		// Instances are keyed by the interface's full id, package id
		// included.
		{name: "interface instance of a later version of the interface's package", v1: implementsLib, v2: implements(w.lib2), rule: "MissingImplementation",
			msg: "Implementation of interface " + w.lib + ":L:I by template T"},
		{name: "interface instance of the package's own interface", v1: implementsOwnInterface, v2: implementsOwnInterface, rule: "MissingImplementation",
			msg: ":M:J by template T"},
		{name: "interface instance added to an existing template", v2: implementsLib},
		{name: "interface instance added beside a kept one", v1: implementsLib, v2: both(implementsLib, func(p *e.Package) {
			p.Imports = append(p.Imports, w.lib2)
			tplOf(p).Implements = append(tplOf(p).Implements, e.TyCon{Ref: e.Import(1), Module: "L", Name: "I"})
		})},
		{name: "interface instance on a new template", v2: both(func(p *e.Package) { p.Imports = []string{w.lib} }, func(p *e.Package) {
			p.Modules[0].DataTypes = append(p.Modules[0].DataTypes, e.DataType{Name: "U", Serializable: true})
			p.Modules[0].Templates = append(p.Modules[0].Templates, e.Template{Name: "U", Implements: []e.TyCon{{Ref: e.Import(0), Module: "L", Name: "I"}}})
		})},

		// Dependencies: a type of a dependency matches the same type of a
		// later version of that dependency; never an earlier one, nor one of
		// another package.
		{name: "same dependency", v1: useDep(w.dep1), v2: useDep(w.dep1)},
		{name: "dependency upgraded", v1: useDep(w.dep1), v2: useDep(w.dep2)},
		// Canton 3.5 does not compare dependency versions
		// (DependencyHasLowerVersionDespiteUpgrade is never raised): only the
		// types that use the dependency are compared.
		{name: "dependency downgraded", v1: useDep(w.dep2), v2: useDep(w.dep1), rule: "RecordFieldsExistingChanged",
			msg: "The upgraded template T has changed the types of some of its original fields."},
		{name: "dependency downgraded where no rule looks", v1: helperUses(w.dep2), v2: helperUses(w.dep1)},
		{name: "dependency replaced by another package", v1: useDep(w.dep1), v2: useDep(w.other), rule: "RecordFieldsExistingChanged"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v1, v2 := upgradeBase(), upgradeBase()
			v2.Version = "2.0.0"
			if tt.v1 != nil {
				tt.v1(&v1)
			}
			if tt.v2 != nil {
				tt.v2(&v2)
			}
			p1, p2 := decode(t, v1), decode(t, v2)
			err := CheckUpgrade(p1, p2, w.lookup)
			if tt.rule == "" {
				if err != nil {
					t.Fatalf("CheckUpgrade: %v", err)
				}
				return
			}
			if code(err) != "NOT_VALID_UPGRADE_PACKAGE" {
				t.Fatalf("CheckUpgrade: %v, want NOT_VALID_UPGRADE_PACKAGE", err)
			}
			var ue *UpgradeError
			if !errors.As(err, &ue) || ue.Rule != tt.rule {
				t.Fatalf("rule %v (%v), want %s", ue, err, tt.rule)
			}
			if !strings.Contains(ue.Message, tt.msg) {
				t.Errorf("message %q does not contain %q", ue.Message, tt.msg)
			}
			// Canton's cause and context: the message alone, no rule name.
			wantCause := "Upgrade checks indicate that " + p2.String() + " cannot be an upgrade of " + p1.String() + ". Reason: " + ue.Message
			if cause(err) != wantCause {
				t.Errorf("cause %q, want %q", cause(err), wantCause)
			}
			var ae *apierr.Error
			errors.As(err, &ae)
			wantContext := map[string]string{"oldPackage": p1.String(), "newPackage": p2.String(), "upgradeError": ue.Message}
			if diff := cmp.Diff(wantContext, ae.Context); diff != "" || ae.HTTPStatus() != 400 {
				t.Errorf("status %d, context (-want +got):\n%s", ae.HTTPStatus(), diff)
			}
		})
	}
}

// lineageFixture holds the packages of the lineage cases: "app" and "dep"
// versions, utility packages and daml-prim packages.
type lineageFixture struct {
	w                                       *upgradeWorld
	v1, v2, v3bad, v1twin                   *lf.Package
	v2bad, v2bad2                           *lf.Package // both 2.0.0, both break v1
	needsDep, needsDepBad, v3badNeedsDepBad *lf.Package // app versions using dep 1.0.0 / dep 3.0.0
	depBad                                  *lf.Package // dep 3.0.0, breaks dep 2.0.0
	utilA, utilB, utilB2                    *lf.Package
	primNotUtility, primMissingDep          *lf.Package
	unknownID                               string
}

func newLineageFixture(t *testing.T) *lineageFixture {
	w := newUpgradeWorld(t)
	f := &lineageFixture{w: w, unknownID: strings.Repeat("e", 64)}
	base := func(version string, g ...func(*e.Package)) *lf.Package {
		p := upgradeBase()
		p.Version = version
		for _, h := range g {
			h(&p)
		}
		return decode(t, p)
	}
	dropLast := func(p *e.Package) { dtOf(p, "T").Fields = dtOf(p, "T").Fields[:2] }
	f.v1 = base("1.0.0")
	f.v2 = base("2.0.0", func(p *e.Package) {
		dtOf(p, "T").Fields = append(dtOf(p, "T").Fields, e.Field{"memo", e.Opt(e.B(e.Text))})
	})
	f.v3bad = base("3.0.0", func(p *e.Package) { dtOf(p, "T").Fields = dtOf(p, "T").Fields[:1] })
	f.v1twin = base("1.0.0", func(p *e.Package) { p.Modules[0].DataTypes[0].Fields[0].Name = "holder" })
	f.v2bad = base("2.0.0", dropLast)
	f.v2bad2 = base("2.0.0", func(p *e.Package) { dtOf(p, "T").Fields[1].Type = e.B(e.Text) })
	f.depBad = decode(t, e.Package{Name: "dep", Version: "3.0.0", Imports: []string{}, Modules: []e.Module{{Name: "D",
		DataTypes: []e.DataType{{Name: "D", Serializable: true, Fields: []e.Field{{"x", e.B(e.Text)}}}}}}})
	f.needsDep = base("4.0.0", useDep(w.dep1))
	f.needsDepBad = base("4.0.0", useDep(f.depBad.ID))
	f.v3badNeedsDepBad = base("3.0.0", dropLast, func(p *e.Package) {
		p.Imports = []string{f.depBad.ID}
		dtOf(p, "Helper").Fields = append(dtOf(p, "Helper").Fields, e.Field{"d", e.Con(e.Import(0), "D", "D")})
	})
	util := func(name, version, field string, imports ...string) *lf.Package {
		fields := []e.Field{{field, e.B(e.Int64)}}
		if len(imports) > 0 {
			fields = append(fields, e.Field{"d", e.Con(e.Import(0), "D", "D")})
		}
		return decode(t, e.Package{Name: name, Version: version, Imports: append([]string{}, imports...), Modules: []e.Module{{Name: "U",
			DataTypes: []e.DataType{{Name: "H", Fields: fields}}}}})
	}
	f.utilA, f.utilB, f.utilB2 = util("helpers", "1.0.0", "a"), util("helpers", "1.0.0", "b"), util("helpers", "2.0.0", "b")
	f.primNotUtility = decode(t, e.Package{Name: "daml-prim", Version: "0.0.0", Imports: []string{}, Modules: []e.Module{{Name: "P",
		DataTypes: []e.DataType{{Name: "S", Serializable: true}}}}})
	f.primMissingDep = util("daml-prim", "1.0.0", "a", f.unknownID)
	return f
}

// store is a lookup over the world's packages and the given ones.
func (f *lineageFixture) store(extra ...*lf.Package) func(string) *lf.Package {
	m := maps.Clone(f.w.pkgs)
	for _, p := range extra {
		m[p.ID] = p
	}
	return func(id string) *lf.Package { return m[id] }
}

func ids(ps ...*lf.Package) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.ID
	}
	return out
}

func TestCheckLineage(t *testing.T) {
	f := newLineageFixture(t)
	w := f.w
	depsVetted := func(ps ...*lf.Package) []*lf.Package {
		return append(ps, w.pkgs[w.dep1], w.pkgs[w.dep2], w.pkgs[w.other], w.pkgs[w.lib])
	}

	tests := []struct {
		name          string
		added, vetted []*lf.Package // vetted includes added; both are in the store
		noWorld       bool          // the world's packages are not in the store
		code          string
		msg           string
	}{
		{name: "one version", added: []*lf.Package{f.v1}, vetted: []*lf.Package{f.v1}},
		{name: "valid upgrade", added: []*lf.Package{f.v2}, vetted: []*lf.Package{f.v1, f.v2}},
		{name: "order and duplicates do not matter", added: []*lf.Package{f.v2, f.v2}, vetted: []*lf.Package{f.v2, f.v1, f.v2}},
		{name: "third version breaks the second", added: []*lf.Package{f.v3bad}, vetted: []*lf.Package{f.v3bad, f.v1, f.v2}, code: "NOT_VALID_UPGRADE_PACKAGE",
			msg: "cannot be an upgrade of " + f.v2.String() + ". Reason: The upgraded template T is missing some of its original fields."},
		{name: "the whole lineage of an added package is checked", added: []*lf.Package{f.v1}, vetted: []*lf.Package{f.v1, f.v3bad},
			code: "NOT_VALID_UPGRADE_PACKAGE", msg: f.v3bad.String() + " cannot be an upgrade of " + f.v1.String()},
		{name: "lineages nothing added touches are not checked", added: []*lf.Package{w.pkgs[w.other]}, vetted: depsVetted(f.v1, f.v3bad)},
		{name: "same name and version twice", added: []*lf.Package{f.v1twin}, vetted: []*lf.Package{f.v1, f.v1twin}, code: "KNOWN_PACKAGE_VERSION",
			msg: "Tried to vet two packages with the same name and version"},
		// Canton checks the versions of every pair before type-checking any.
		{name: "versions checked before upgrades", added: []*lf.Package{f.v2bad, f.v2bad2}, vetted: []*lf.Package{f.v1, f.v2bad, f.v2bad2},
			code: "KNOWN_PACKAGE_VERSION"},
		{name: "utility packages with one name and version are skipped", added: []*lf.Package{f.utilA, f.utilB}, vetted: []*lf.Package{f.utilA, f.utilB}},
		{name: "utility packages are not upgrade-checked", added: []*lf.Package{f.utilB2}, vetted: []*lf.Package{f.utilA, f.utilB2}},
		{name: "daml-prim must be a utility package", added: []*lf.Package{f.primNotUtility}, vetted: []*lf.Package{f.primNotUtility}, code: "DAML_PRIM_NOT_UTILITY_PACKAGE"},
		// Canton checks the dependencies of every member before the
		// daml-prim rule.
		{name: "dependencies checked before the daml-prim rule", added: []*lf.Package{f.primMissingDep}, vetted: []*lf.Package{f.primNotUtility, f.primMissingDep},
			code: "TOPOLOGY_CANNOT_VET_DUE_TO_MISSING_PACKAGES", msg: f.unknownID},
		{name: "dependency vetted", added: []*lf.Package{f.needsDep}, vetted: depsVetted(f.needsDep)},
		{name: "dependency known, not vetted", added: []*lf.Package{f.needsDep}, vetted: []*lf.Package{f.needsDep}},
		{name: "dependency unknown", added: []*lf.Package{f.needsDep}, vetted: []*lf.Package{f.needsDep}, noWorld: true,
			code: "TOPOLOGY_CANNOT_VET_DUE_TO_MISSING_PACKAGES", msg: w.dep1},
		{name: "two lineages, the second broken", added: []*lf.Package{f.v1, f.v3bad}, vetted: depsVetted(f.v1, f.v3bad), code: "NOT_VALID_UPGRADE_PACKAGE"},
		// The lineages of the added packages' dependencies are checked too,
		// dependencies first.
		{name: "the lineage of a dependency is checked", added: []*lf.Package{f.needsDep}, vetted: []*lf.Package{f.needsDep, w.pkgs[w.dep1], w.pkgs[w.dep2], f.depBad},
			code: "NOT_VALID_UPGRADE_PACKAGE", msg: f.depBad.String() + " cannot be an upgrade of " + w.pkgs[w.dep2].String()},
		{name: "a dependency's lineage before its dependent's", added: []*lf.Package{f.v3badNeedsDepBad},
			vetted: []*lf.Package{f.v1, f.v3badNeedsDepBad, w.pkgs[w.dep2], f.depBad},
			code:   "NOT_VALID_UPGRADE_PACKAGE", msg: f.depBad.String() + " cannot be an upgrade of " + w.pkgs[w.dep2].String()},
		{name: "a vetted id not in the store is skipped", added: []*lf.Package{f.v2}, vetted: []*lf.Package{f.v1, f.v2, {ID: f.unknownID}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var known []*lf.Package
			for _, p := range append(slices.Clone(tt.added), tt.vetted...) {
				if p.ID != f.unknownID {
					known = append(known, p)
				}
			}
			lookup := f.store(known...)
			if tt.noWorld {
				m := map[string]*lf.Package{}
				for _, p := range known {
					m[p.ID] = p
				}
				lookup = func(id string) *lf.Package { return m[id] }
			}
			err := CheckLineage(ids(tt.added...), ids(tt.vetted...), lookup)
			if code(err) != tt.code {
				t.Fatalf("CheckLineage: %v, want %q", err, tt.code)
			}
			if !strings.Contains(cause(err), tt.msg) {
				t.Errorf("cause %q does not contain %q", cause(err), tt.msg)
			}
		})
	}
}

func TestCheckLineageRealDARs(t *testing.T) {
	var all []*lf.Package
	for _, f := range []string{"canton-builtin-admin-workflow-ping.dar", "canton-builtin-admin-workflow-party-replication-alpha.dar"} {
		dar, err := lf.ReadDAR(realDAR(t, f), lf.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, dar.Packages...)
	}
	// Two daml-stdlib versions (utility packages) and the 27 stable
	// packages shared by both DARs: a valid vetted set.
	byID := map[string]*lf.Package{}
	for _, p := range all {
		byID[p.ID] = p
	}
	if err := CheckLineage(ids(all...), ids(all...), func(id string) *lf.Package { return byID[id] }); err != nil {
		t.Fatal(err)
	}
	// A later version with the same content is a valid upgrade (this runs
	// every rule over the real templates and data types).
	for _, p := range all {
		if p.IsStable() || p.IsUtility() {
			continue
		}
		next := *p
		next.ID, next.Version = strings.Repeat("f", 64), "9.9.9"
		if err := CheckUpgrade(p, &next, nil); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}
