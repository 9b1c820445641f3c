package lf

import (
	"slices"
	"strings"
)

// DependencyMismatch compares the DAR's packages with the transitive
// dependency closure of its main package, both without the stable packages
// (Canton's Engine.validateDar): missing are ids the main package needs
// that the DAR lacks, extra are packages of the DAR it does not need. Both
// are sorted; both empty means the DAR is self-consistent.
func (d *DAR) DependencyMismatch() (missing, extra []string) {
	mentioned := map[string]bool{}
	todo := []string{d.Main.ID}
	for len(todo) > 0 {
		id := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if mentioned[id] {
			continue
		}
		mentioned[id] = true
		if p := d.byID[id]; p != nil {
			todo = append(todo, p.DirectDeps...)
		}
	}
	for id := range mentioned {
		if !IsStablePackage(id) && d.byID[id] == nil {
			missing = append(missing, id)
		}
	}
	for _, p := range d.Packages {
		if !IsStablePackage(p.ID) && !mentioned[p.ID] {
			extra = append(extra, p.ID)
		}
	}
	slices.Sort(missing)
	slices.Sort(extra)
	return missing, extra
}

// CheckDependencies checks that the DAR is self-consistent: its packages
// (stable packages aside) are exactly the main package and its transitive
// dependencies. Otherwise it returns an *Error of kind KindDependencies
// naming the missing and extra package ids.
//
// Canton makes extra packages fatal only with strict DAR validation (and
// only warns otherwise); callers that mirror the lenient mode can use
// DependencyMismatch and reject on missing packages alone.
func (d *DAR) CheckDependencies() error {
	missing, extra := d.DependencyMismatch()
	if len(missing) == 0 && len(extra) == 0 {
		return nil
	}
	e := newError(KindDependencies,
		"The set of packages in the DAR is not self-consistent for main package %s: missing dependencies [%s], extra dependencies [%s]",
		d.Main.ID, strings.Join(missing, ", "), strings.Join(extra, ", "))
	e.MainPackageID, e.Missing, e.Extra = d.Main.ID, missing, extra
	return e
}

// TransitiveDeps returns the transitive dependencies of the package pkgID,
// following DirectDeps through lookup: deps are the ids reached (pkgID
// itself excluded, unless a dependency cycle leads back to it) whose
// package lookup found, missing those it did not find (pkgID included when
// lookup does not know it). Both are sorted. The vetting rule is that every
// id of deps must be vetted with pkgID, and that a package with missing ids
// cannot be vetted.
func TransitiveDeps(pkgID string, lookup func(id string) *Package) (deps, missing []string) {
	seen := map[string]bool{}
	root := lookup(pkgID)
	if root == nil {
		return nil, []string{pkgID}
	}
	todo := slices.Clone(root.DirectDeps)
	for len(todo) > 0 {
		id := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if seen[id] {
			continue
		}
		seen[id] = true
		p := lookup(id)
		if p == nil {
			missing = append(missing, id)
			continue
		}
		deps = append(deps, id)
		todo = append(todo, p.DirectDeps...)
	}
	slices.Sort(deps)
	slices.Sort(missing)
	return deps, missing
}
