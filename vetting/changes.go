package vetting

import (
	"cmp"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
)

// VettedPackage is one package of a vetting state with its validity bounds
// (nil: unbounded). PackageName and PackageVersion describe the package
// when the state is listed (Apply neither needs nor sets them).
type VettedPackage struct {
	PackageID      string
	ValidFrom      *time.Time
	ValidUntil     *time.Time
	PackageName    string
	PackageVersion string
}

// State is a participant's vetted packages on one synchronizer. Serial is
// the topology serial of the last applied change set: 0 when there is no
// state yet, then 1, 2, … (each applied change set adds one).
// ParticipantID and SynchronizerID name the participant and synchronizer
// when the state is listed (Apply keeps them).
type State struct {
	Serial         int32
	Packages       []VettedPackage
	ParticipantID  string
	SynchronizerID string
}

// SerialExpectation is the topology serial a change set expects to find:
// PriorSerial or NoPriorSerial; nil expects nothing.
type SerialExpectation interface{ isSerialExpectation() }

// PriorSerial expects the current vetting state to have this serial.
type PriorSerial int32

// NoPriorSerial expects no vetting state yet.
type NoPriorSerial struct{}

func (PriorSerial) isSerialExpectation()   {}
func (NoPriorSerial) isSerialExpectation() {}

// Ref names one or more packages: an empty field is a wildcard, and at
// least PackageID or PackageName must be set.
type Ref struct {
	PackageID      string
	PackageName    string
	PackageVersion string
}

// String prints the set fields of the reference, e.g.
// "{package-name=app, package-version=1.0.0}".
func (r Ref) String() string {
	var parts []string
	for _, kv := range [][2]string{{"package-id", r.PackageID}, {"package-name", r.PackageName}, {"package-version", r.PackageVersion}} {
		if kv[1] != "" {
			parts = append(parts, kv[0]+"="+kv[1])
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// Requirement asks for the newest package of a name vetted by every
// participant hosting the parties (Canton's PackageVettingRequirement).
type Requirement struct {
	Parties     []string
	PackageName string
}

func (r Ref) matches(p *lf.Package) bool {
	return (r.PackageID == "" || r.PackageID == p.ID) &&
		(r.PackageName == "" || r.PackageName == p.Name) &&
		(r.PackageVersion == "" || r.PackageVersion == p.Version)
}

// Operation is what a Change does; the zero value is no operation (a
// change set holding one is refused: MISSING_FIELD).
type Operation uint8

// The operations of a Change.
const (
	Vet Operation = iota + 1
	Unvet
)

// Change is one operation of a change set: Vet the packages of Refs with
// the new bounds (nil: unbounded; each ref must match exactly one known
// package; existing bounds are overwritten), or Unvet every package the
// refs match (the bounds are ignored).
type Change struct {
	Op         Operation
	Refs       []Ref
	ValidFrom  *time.Time
	ValidUntil *time.Time
}

// CheckOperations refuses a change set that is empty (MISSING_FIELD
// changes) or holds a change with no operation (MISSING_FIELD
// changes[i].operation), as Canton's request validation does.
func CheckOperations(changes []Change) error {
	if len(changes) == 0 {
		return apierr.MissingField.New("changes")
	}
	return checkOps(changes)
}

// checkOps refuses a change with no operation (MISSING_FIELD
// changes[i].operation): CheckOperations and Apply share it.
func checkOps(changes []Change) error {
	for i, c := range changes {
		if c.Op != Vet && c.Op != Unvet {
			return apierr.MissingField.New("changes[%d].operation", i)
		}
	}
	return nil
}

// Flags relax the checks of Apply.
type Flags struct {
	// AllowVetIncompatibleUpgrades skips the upgrade checks (CheckLineage:
	// NOT_VALID_UPGRADE_PACKAGE, KNOWN_PACKAGE_VERSION,
	// DAML_PRIM_NOT_UTILITY_PACKAGE, and its missing-dependency check).
	AllowVetIncompatibleUpgrades bool
	// AllowUnvettedDependencies skips TOPOLOGY_DEPENDENCIES_NOT_VETTED.
	AllowUnvettedDependencies bool
}

// Apply applies the changes, in order, to a state and checks the result.
// known lists every package the participant has (its store, plus a DAR
// being uploaded). The result keeps the packages no change mentions, and
// its Serial is the old one plus one when the package set or bounds
// changed (unchanged otherwise). Errors:
//   - a change with no operation: MISSING_FIELD (CheckOperations);
//   - a ref with neither id nor name: INVALID_ARGUMENT;
//   - a Vet ref by id of a package that is not known:
//     TOPOLOGY_CANNOT_VET_DUE_TO_MISSING_PACKAGES; any other ref matching
//     nothing: UNRESOLVED_VETTING_REFERENCE; a Vet ref matching several:
//     AMBIGUOUS_VETTING_REFERENCE;
//   - a package the change set vets, or one depending on a package it
//     unvets, whose transitive dependency is unknown:
//     TOPOLOGY_CANNOT_VET_DUE_TO_MISSING_PACKAGES, or known but not vetted:
//     TOPOLOGY_DEPENDENCIES_NOT_VETTED (unless the flag allows it);
//   - the upgrade checks of the packages the change set adds (vets and
//     were not vetted before): see CheckLineage, whose every check
//     (NOT_VALID_UPGRADE_PACKAGE, KNOWN_PACKAGE_VERSION,
//     DAML_PRIM_NOT_UTILITY_PACKAGE, ...) AllowVetIncompatibleUpgrades
//     skips, as Canton does.
func Apply(state State, changes []Change, known []*lf.Package, flags Flags) (State, error) {
	byID := make(map[string]*lf.Package, len(known))
	for _, p := range known {
		byID[p.ID] = p
	}
	lookup := func(id string) *lf.Package { return byID[id] }
	vetted := map[string]VettedPackage{}
	for _, v := range state.Packages {
		vetted[v.PackageID] = v
	}
	if err := checkOps(changes); err != nil {
		return State{}, err
	}
	newlyVetted := map[string]bool{}
	for _, c := range changes {
		for _, r := range c.Refs {
			if r.PackageID == "" && r.PackageName == "" {
				e := newError(KindInvalidRef, "a package reference needs a package id or a package name: %s", r)
				e.Ref = r
				return State{}, e.APIError()
			}
			var matches []*lf.Package
			for _, p := range known {
				if r.matches(p) {
					matches = append(matches, p)
				}
			}
			if c.Op == Unvet {
				found := false
				for id := range vetted {
					if p := byID[id]; (p != nil && r.matches(p)) || (p == nil && r.PackageID == id) {
						delete(vetted, id)
						found = true
					}
				}
				if !found && len(matches) == 0 {
					return State{}, unresolved(r)
				}
				continue
			}
			switch {
			case len(matches) == 0 && r.PackageID != "" && byID[r.PackageID] == nil:
				e := newError(KindMissingPackages, "Package %s cannot be vetted because it is not in the participant's package store", r.PackageID)
				e.Ref, e.PackageID = r, r.PackageID
				return State{}, e.APIError()
			case len(matches) == 0:
				return State{}, unresolved(r)
			case len(matches) > 1:
				ids := make([]string, len(matches))
				for i, m := range matches {
					ids[i] = m.ID
				}
				e := newError(KindAmbiguousRef, "The reference %s matches several packages: %s", r, strings.Join(ids, ", "))
				e.Ref, e.Packages = r, ids
				return State{}, e.APIError()
			}
			id := matches[0].ID
			vetted[id] = VettedPackage{PackageID: id, ValidFrom: c.ValidFrom, ValidUntil: c.ValidUntil}
			newlyVetted[id] = true
		}
	}

	// Dependencies of what this change set vets, and of what depends on a
	// package it unvets (a state that was forced before stays as it is).
	unvettedNow := map[string]bool{}
	for _, v := range state.Packages {
		if _, ok := vetted[v.PackageID]; !ok {
			unvettedNow[v.PackageID] = true
		}
	}
	var unvettedDeps []string
	for id := range vetted {
		if byID[id] == nil {
			continue // vetted earlier, no longer in the store: nothing to resolve
		}
		deps, missing := lf.TransitiveDeps(id, lookup)
		if !newlyVetted[id] && !slices.ContainsFunc(deps, func(d string) bool { return unvettedNow[d] }) {
			continue
		}
		if len(missing) > 0 {
			slices.Sort(missing)
			e := newError(KindMissingPackages, "Package %s cannot be vetted because its dependencies %s are not in the participant's package store", id, strings.Join(missing, ", "))
			e.PackageID, e.Packages = id, missing
			return State{}, e.APIError()
		}
		for _, d := range deps {
			if _, ok := vetted[d]; !ok && !slices.Contains(unvettedDeps, d) {
				unvettedDeps = append(unvettedDeps, d)
			}
		}
	}
	if len(unvettedDeps) > 0 && !flags.AllowUnvettedDependencies {
		slices.Sort(unvettedDeps)
		e := newError(KindDependenciesNotVetted, "Package vetting failed due to dependencies not being vetted: %s", strings.Join(unvettedDeps, ", "))
		e.Packages = unvettedDeps
		return State{}, e.APIError()
	}

	// The upgrade checks of the packages this change set adds (vetted now,
	// not before: new bounds on a vetted package add nothing), which the
	// force flag skips whole, as Canton's validatePackageVetting does.
	if !flags.AllowVetIncompatibleUpgrades {
		before := map[string]bool{}
		for _, v := range state.Packages {
			before[v.PackageID] = true
		}
		var added []string
		for id := range newlyVetted {
			if !before[id] {
				added = append(added, id)
			}
		}
		if err := CheckLineage(added, slices.Collect(maps.Keys(vetted)), lookup); err != nil {
			return State{}, err
		}
	}

	next := State{Serial: state.Serial, Packages: make([]VettedPackage, 0, len(vetted)), ParticipantID: state.ParticipantID, SynchronizerID: state.SynchronizerID}
	for _, v := range vetted {
		next.Packages = append(next.Packages, v)
	}
	SortVetted(next.Packages, lookup)
	cur := slices.Clone(state.Packages)
	SortVetted(cur, lookup)
	if !slices.EqualFunc(cur, next.Packages, sameVetting) {
		next.Serial++
	}
	return next, nil
}

func unresolved(r Ref) error {
	e := newError(KindUnresolvedRef, "The reference %s does not match any package", r)
	e.Ref = r
	return e.APIError()
}

func sameVetting(a, b VettedPackage) bool {
	eq := func(x, y *time.Time) bool { return x == nil && y == nil || x != nil && y != nil && x.Equal(*y) }
	return a.PackageID == b.PackageID && eq(a.ValidFrom, b.ValidFrom) && eq(a.ValidUntil, b.ValidUntil)
}

// SortVetted orders vetted packages by name, version and then id, as
// Canton lists them (packages lookup does not know sort last, by id).
func SortVetted(vs []VettedPackage, lookup func(id string) *lf.Package) {
	key := func(v VettedPackage) (string, string, bool) {
		if p := lookup(v.PackageID); p != nil {
			return p.Name, p.Version, true
		}
		return "", "", false
	}
	slices.SortFunc(vs, func(a, b VettedPackage) int {
		an, av, aok := key(a)
		bn, bv, bok := key(b)
		if aok != bok {
			if aok {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(an, bn); c != 0 {
			return c
		}
		if c := lf.CompareVersions(av, bv); c != 0 {
			return c
		}
		return cmp.Compare(a.PackageID, b.PackageID)
	})
}
