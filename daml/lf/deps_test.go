package lf

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	e "github.com/ledgernode/ledgernode/daml/lf/internal/lfenc"
)

// graphPkg is a package named name whose imports are the given ids (a data
// type refers to each, so the references are real).
func graphPkg(name string, imports ...string) e.Package {
	p := e.Package{Name: name, Version: "1.0.0", Imports: append([]string{}, imports...)}
	m := e.Module{Name: "M", DataTypes: []e.DataType{{Name: "T", Serializable: true, Fields: []e.Field{{"x", e.B(e.Int64)}}}}}
	for i := range imports {
		m.DataTypes[0].Fields = append(m.DataTypes[0].Fields, e.Field{Name: fmt.Sprintf("d%d", i), Type: e.Con(e.Import(i), "M", "T")})
	}
	p.Modules = []e.Module{m}
	return p
}

func dalfOf(p e.Package) (string, []byte) { return e.Dalf(p) }

func TestCheckDependencies(t *testing.T) {
	cID, cDalf := dalfOf(graphPkg("c"))
	bID, bDalf := dalfOf(graphPkg("b", cID))
	aID, aDalf := dalfOf(graphPkg("a", bID, cID))
	xID, xDalf := dalfOf(graphPkg("x"))
	// A main package that names a stable package directly: stable
	// packages need not be in the DAR.
	stableUser := graphPkg("s", aID)
	stableUser.Modules[0].DataTypes[0].Fields = append(stableUser.Modules[0].DataTypes[0].Fields,
		e.Field{Name: "e", Type: e.Con(e.ByID(daTypes), "DA.Types", "Either")})
	sID, sDalf := dalfOf(stableUser)
	// LF 2.1: no import table; the dependency is named in an expression.
	old := e.Package{Minor: "1", Name: "old", Version: "1.0.0", Modules: []e.Module{{
		Name:   "M",
		Values: []e.Value{{Name: "v", Type: e.B(e.Int64), Body: &e.ValueRef{Ref: e.ByID(cID), Module: "M", Name: "f"}}},
	}}}
	oldID, oldDalf := dalfOf(old)
	mainID, mainDalf := dalfOf(graphPkg("main", aID))

	type dalf struct {
		id   string
		data []byte
	}
	dar := func(ds ...dalf) []byte {
		files := []e.File{}
		var paths []string
		for i, d := range ds {
			p := fmt.Sprintf("d%d-%s.dalf", i, d.id)
			files = append(files, e.File{Name: p, Data: d.data})
			paths = append(paths, p)
		}
		files = append(files, manifestFile(paths[0], paths[1:]...))
		return e.Zip(files...)
	}
	var (
		mn = dalf{mainID, mainDalf}
		a  = dalf{aID, aDalf}
		b  = dalf{bID, bDalf}
		c  = dalf{cID, cDalf}
		x  = dalf{xID, xDalf}
		s  = dalf{sID, sDalf}
		o  = dalf{oldID, oldDalf}
	)
	tests := []struct {
		name          string
		dar           []byte
		missing       []string
		extra         []string
		wantErrSubstr string
	}{
		{name: "exact closure", dar: dar(mn, a, b, c)},
		{name: "closure in another order", dar: dar(mn, c, b, a)},
		{name: "transitive dependency missing", dar: dar(mn, a, b), missing: []string{cID}},
		{name: "direct dependency missing", dar: dar(mn, b, c), missing: []string{aID}, extra: []string{bID, cID}},
		{name: "extra package", dar: dar(mn, a, b, c, x), extra: []string{xID}},
		{name: "missing and extra", dar: dar(mn, a, b, x), missing: []string{cID}, extra: []string{xID}},
		{name: "stable packages exempt", dar: dar(s, a, b, c)},
		{name: "generated imports (LF 2.1)", dar: dar(o, c)},
		{name: "generated imports, dependency missing", dar: dar(o), missing: []string{cID}},
		{name: "a lone package", dar: dar(x)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := ReadDAR(tt.dar, ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			missing, extra := d.DependencyMismatch()
			if diff := cmp.Diff(tt.missing, missing, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("missing (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.extra, extra, cmpopts.EquateEmpty(), cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
				t.Errorf("extra (-want +got):\n%s", diff)
			}
			err = d.CheckDependencies()
			if len(tt.missing)+len(tt.extra) == 0 {
				if err != nil {
					t.Errorf("CheckDependencies: %v", err)
				}
				return
			}
			var le *Error
			if !errors.As(err, &le) || le.Kind != KindDependencies {
				t.Fatalf("CheckDependencies: %v", err)
			}
			if le.MainPackageID != d.Main.ID {
				t.Errorf("MainPackageID %q, want %q", le.MainPackageID, d.Main.ID)
			}
			if diff := cmp.Diff(missing, le.Missing); diff != "" {
				t.Errorf("Missing (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(extra, le.Extra); diff != "" {
				t.Errorf("Extra (-want +got):\n%s", diff)
			}
			for _, id := range append(tt.missing, tt.extra...) {
				if !strings.Contains(cause(err), id) {
					t.Errorf("cause %q does not name %s", cause(err), id)
				}
			}
		})
	}
}

func TestTransitiveDeps(t *testing.T) {
	pkgs := map[string]*Package{
		"a": {ID: "a", DirectDeps: []string{"b", "c"}},
		"b": {ID: "b", DirectDeps: []string{"d"}},
		"c": {ID: "c", DirectDeps: []string{"d", "gone"}},
		"d": {ID: "d"},
		"x": {ID: "x", DirectDeps: []string{"y"}},
		"y": {ID: "y", DirectDeps: []string{"x"}},
	}
	lookup := func(id string) *Package { return pkgs[id] }
	tests := []struct {
		id            string
		deps, missing []string
	}{
		{"a", []string{"b", "c", "d"}, []string{"gone"}},
		{"b", []string{"d"}, nil},
		{"d", nil, nil},
		{"x", []string{"x", "y"}, nil}, // a cycle leads back to x
		{"nope", nil, []string{"nope"}},
	}
	for _, tt := range tests {
		deps, missing := TransitiveDeps(tt.id, lookup)
		if diff := cmp.Diff(tt.deps, deps, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s deps (-want +got):\n%s", tt.id, diff)
		}
		if diff := cmp.Diff(tt.missing, missing, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s missing (-want +got):\n%s", tt.id, diff)
		}
	}
}

func TestTransitiveDepsReal(t *testing.T) {
	dar, err := ReadDAR(realDAR(t, "canton-builtin-admin-workflow-ping.dar"), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	deps, missing := TransitiveDeps(dar.Main.ID, dar.Package)
	if len(missing) != 0 {
		t.Errorf("missing %v", missing)
	}
	// The ping DAR holds its main package's closure, plus stable packages
	// nothing refers to.
	in := map[string]bool{}
	for _, id := range deps {
		in[id] = true
		if dar.Package(id) == nil {
			t.Errorf("dependency %s is not in the DAR", id)
		}
	}
	for _, p := range dar.Packages[1:] {
		if !in[p.ID] && !p.IsStable() {
			t.Errorf("package %s (%s) is not a dependency of the main package", p.ID, p.Name)
		}
	}
	if !in[pingPrim] || !in[pingStdlib] || in[pingMain] {
		t.Errorf("deps %v", deps)
	}
}
