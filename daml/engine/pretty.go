package engine

import "github.com/ledgernode/ledgernode/daml/lf"

// pretty prints a type id as Speedy's Pretty does in error messages:
// "Module:Name@<first 8 characters of the package id>".
func pretty(id lf.TypeConID) string {
	pkg := id.PackageID
	if len(pkg) > 8 {
		pkg = pkg[:8]
	}
	return id.Module + ":" + id.Name + "@" + pkg
}
