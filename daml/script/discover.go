package script

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// lowLevel is the daml-script module that defines Script.
const lowLevel = "Daml.Script.Internal.LowLevel"

// scriptPackageNames are the package names a daml-script library may have.
var scriptPackageNames = []string{"daml-script", "daml3-script"}

// scriptType returns the daml-script Script type constructor of a value's
// type when the type is Script a (TApp (TCon …LowLevel:Script) a).
func scriptType(t lf.Type) (lf.TypeConID, bool) {
	app, ok := t.(*lf.TApp)
	if !ok {
		return lf.TypeConID{}, false
	}
	con, ok := app.Fun.(*lf.TCon)
	if !ok || con.ID.Module != lowLevel || con.ID.Name != "Script" {
		return lf.TypeConID{}, false
	}
	return con.ID, true
}

// Discover returns the scripts of a package (the main package of a DAR for
// `--all`): its values of type Script a whose names do not start with '$',
// sorted by module (segment by segment) then name. Functions returning a
// Script are not scripts.
func Discover(p *lf.Package) []lf.TypeConID {
	var out []lf.TypeConID
	for _, m := range p.Modules {
		for _, v := range m.Values {
			if strings.HasPrefix(v.Name, "$") {
				continue
			}
			if _, ok := scriptType(v.Type); ok {
				out = append(out, lf.TypeConID{PackageID: p.ID, Module: m.Name, Name: v.Name})
			}
		}
	}
	slices.SortFunc(out, func(a, b lf.TypeConID) int {
		if c := slices.Compare(strings.Split(a.Module, "."), strings.Split(b.Module, ".")); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	return out
}

// Name returns a script's name as the runner prints it: Module:value.
func Name(id lf.TypeConID) string { return id.Module + ":" + id.Name }

// ParseName parses "Module.Name:value" (or "Module.Name.value") into a
// value of package pkg.
func ParseName(pkg, s string) (lf.TypeConID, error) {
	i := strings.LastIndex(s, ":")
	if i < 0 {
		i = strings.LastIndex(s, ".")
	}
	if i <= 0 || i == len(s)-1 {
		return lf.TypeConID{}, fmt.Errorf("script name %q is not Module.Name:value", s)
	}
	return lf.TypeConID{PackageID: pkg, Module: s[:i], Name: s[i+1:]}, nil
}
