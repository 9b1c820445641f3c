package vetting

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
)

func TestApplyUpgradeChecks(t *testing.T) {
	f := newLineageFixture(t)
	w := f.w
	dep1, dep2 := w.pkgs[w.dep1], w.pkgs[w.dep2]
	known := []*lf.Package{f.v1, f.v2, f.v3bad, f.v1twin, f.v2bad, f.v2bad2, f.needsDep, f.v3badNeedsDepBad, f.depBad,
		f.primNotUtility, f.primMissingDep, dep1, dep2}
	state := func(ps ...*lf.Package) State {
		st := State{Serial: 1}
		for _, p := range ps {
			st.Packages = append(st.Packages, VettedPackage{PackageID: p.ID})
		}
		return st
	}
	vet := func(ps ...*lf.Package) Change {
		c := Change{Op: Vet}
		for _, p := range ps {
			c.Refs = append(c.Refs, Ref{PackageID: p.ID})
		}
		return c
	}
	force := Flags{AllowVetIncompatibleUpgrades: true}

	tests := []struct {
		name   string
		state  State // an incompatible state was vetted with the force flag
		change Change
		flags  Flags
		code   string // "" when the change applies
		msg    string // in the cause
	}{
		{name: "an incompatible upgrade", state: state(f.v1), change: vet(f.v3bad), code: "NOT_VALID_UPGRADE_PACKAGE"},
		{name: "an incompatible upgrade, forced", state: state(f.v1), change: vet(f.v3bad), flags: force},
		// Canton checks the packages a change adds (toBeAdded = next -- current):
		// new bounds on a vetted package add nothing.
		{name: "new bounds on a package of an incompatible lineage", state: state(f.v1, f.v3bad), change: vet(f.v1)},
		{name: "a new package in an incompatible lineage", state: state(f.v1, f.v3bad), change: vet(f.v2), code: "NOT_VALID_UPGRADE_PACKAGE"},
		// ... and the lineages of their dependencies.
		{name: "a package whose dependency's lineage is incompatible", state: state(dep1, f.depBad), change: vet(f.needsDep), code: "NOT_VALID_UPGRADE_PACKAGE"},
		// The force flag skips the whole upgrade validation.
		{name: "same name and version", state: state(f.v1), change: vet(f.v1twin), code: "KNOWN_PACKAGE_VERSION"},
		{name: "same name and version, forced", state: state(f.v1), change: vet(f.v1twin), flags: force},
		{name: "daml-prim not a utility package", state: state(), change: vet(f.primNotUtility), code: "DAML_PRIM_NOT_UTILITY_PACKAGE"},
		{name: "daml-prim not a utility package, forced", state: state(), change: vet(f.primNotUtility), flags: force},
		// Which error comes first: Canton checks a lineage step by step
		// (dependencies of every member, then the daml-prim rule, then every
		// pair's versions, then every pair's upgrade), and the lineages of
		// dependencies before those of their dependents.
		{name: "versions checked before upgrades", state: state(f.v1), change: vet(f.v2bad, f.v2bad2), code: "KNOWN_PACKAGE_VERSION"},
		{name: "dependencies checked before the daml-prim rule", state: state(f.primMissingDep), change: vet(f.primNotUtility),
			code: "TOPOLOGY_CANNOT_VET_DUE_TO_MISSING_PACKAGES", msg: f.unknownID},
		{name: "a dependency's lineage before its dependent's", state: state(f.v1, dep2), change: vet(f.depBad, f.v3badNeedsDepBad),
			code: "NOT_VALID_UPGRADE_PACKAGE", msg: f.depBad.String() + " cannot be an upgrade of " + dep2.String()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := State{Serial: tt.state.Serial, Packages: slices.Clone(tt.state.Packages)}
			next, err := Apply(tt.state, []Change{tt.change}, known, tt.flags)
			if code(err) != tt.code {
				t.Fatalf("Apply: %v, want %q", err, tt.code)
			}
			if !strings.Contains(cause(err), tt.msg) {
				t.Errorf("cause %q does not contain %q", cause(err), tt.msg)
			}
			if diff := cmp.Diff(before, tt.state); diff != "" {
				t.Errorf("Apply changed its input state (-before +after):\n%s", diff)
			}
			if err != nil {
				if diff := cmp.Diff(State{}, next); diff != "" {
					t.Errorf("refused Apply returned a state:\n%s", diff)
				}
				return
			}
			for _, r := range tt.change.Refs {
				if !slices.ContainsFunc(next.Packages, func(v VettedPackage) bool { return v.PackageID == r.PackageID }) {
					t.Errorf("%s not vetted: %+v", r.PackageID, next.Packages)
				}
			}
		})
	}
}

func TestCheckOperations(t *testing.T) {
	t.Parallel()
	ref := []Ref{{PackageID: "p"}}
	tests := []struct {
		name    string
		changes []Change
		cause   string // "" when accepted
	}{
		{"none", nil, "changes"},
		{"vet and unvet", []Change{{Op: Vet, Refs: ref}, {Op: Unvet, Refs: ref}}, ""},
		{"no operation", []Change{{Op: Vet, Refs: ref}, {Refs: ref}}, "changes[1].operation"},
		{"unknown operation", []Change{{Op: Unvet + 1, Refs: ref}}, "changes[0].operation"},
	}
	for _, tt := range tests {
		err := CheckOperations(tt.changes)
		if tt.cause == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.name, err)
			}
			continue
		}
		if !errors.Is(err, apierr.MissingField) || !strings.Contains(err.Error(), tt.cause) {
			t.Errorf("%s: err = %v, want MISSING_FIELD %s", tt.name, err, tt.cause)
		}
		// Apply refuses the same change sets.
		if len(tt.changes) > 0 {
			if _, err := Apply(State{}, tt.changes, nil, Flags{}); !errors.Is(err, apierr.MissingField) {
				t.Errorf("%s: Apply err = %v, want MISSING_FIELD", tt.name, err)
			}
		}
	}
}
