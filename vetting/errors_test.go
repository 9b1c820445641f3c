package vetting

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
)

// TestErrorTable: every kind has a Canton code in the table.
func TestErrorTable(t *testing.T) {
	n := 0
	for k := ErrorKind(1); k.String() != fmt.Sprintf("ErrorKind(%d)", int(k)); k++ {
		n++
		if _, ok := codes[k]; !ok {
			t.Errorf("kind %v has no Canton code", k)
		}
	}
	if n != len(codes) {
		t.Errorf("%d kinds have names, the table has %d entries", n, len(codes))
	}
	if got := ErrorKind(0).Code(); got.Name != apierr.InternalError.Name {
		t.Errorf("ErrorKind(0).Code() = %s, want %s", got.Name, apierr.InternalError.Name)
	}
}

// TestErrorKinds: each check's failure is an *apierr.Error with the code
// of its kind that wraps an *Error carrying the check's structured fields,
// reachable with errors.As.
func TestErrorKinds(t *testing.T) {
	f := newLineageFixture(t)
	dep1 := f.w.pkgs[f.w.dep1]
	vet := func(refs ...Ref) []Change { return []Change{{Op: Vet, Refs: refs}} }
	byID := func(p *lf.Package) Ref { return Ref{PackageID: p.ID} }
	apply := func(st State, changes []Change, known ...*lf.Package) func() error {
		return func() error { _, err := Apply(st, changes, known, Flags{}); return err }
	}

	// fields are the structured fields of an *Error (packages by id).
	type fields struct {
		Kind      ErrorKind
		Ref       Ref
		PackageID string
		Packages  []string
		Old, New  string
		Rule      string
	}
	// wire is what the client sees of the error besides its code and
	// cause; "*" stands for the *Error's Message.
	type wire struct {
		Resources [][2]string
		Context   map[string]string
	}
	tests := []struct {
		name string
		err  func() error
		want fields
		wire wire
	}{
		{"reference without id or name", apply(State{}, vet(Ref{PackageVersion: "1.0.0"}), f.v1),
			fields{Kind: KindInvalidRef, Ref: Ref{PackageVersion: "1.0.0"}}, wire{}},
		{"unresolved reference", apply(State{}, vet(Ref{PackageName: "nope"}), f.v1),
			fields{Kind: KindUnresolvedRef, Ref: Ref{PackageName: "nope"}}, wire{}},
		{"ambiguous reference", apply(State{}, vet(Ref{PackageName: "app"}), f.v1, f.v2),
			fields{Kind: KindAmbiguousRef, Ref: Ref{PackageName: "app"}, Packages: ids(f.v1, f.v2)}, wire{}},
		{"unknown package", apply(State{}, vet(Ref{PackageID: f.unknownID}), f.v1),
			fields{Kind: KindMissingPackages, Ref: Ref{PackageID: f.unknownID}, PackageID: f.unknownID},
			wire{Resources: [][2]string{{"PACKAGE", f.unknownID}}}},
		{"unknown dependency", apply(State{}, vet(byID(f.needsDep)), f.needsDep),
			fields{Kind: KindMissingPackages, PackageID: f.needsDep.ID, Packages: []string{f.w.dep1}},
			wire{Resources: [][2]string{{"PACKAGE", f.needsDep.ID}}}},
		{"dependency not vetted", apply(State{}, vet(byID(f.needsDep)), f.needsDep, dep1),
			fields{Kind: KindDependenciesNotVetted, Packages: []string{f.w.dep1}}, wire{}},
		{"lineage dependency unknown", func() error {
			return CheckLineage(ids(f.primMissingDep), ids(f.primMissingDep), f.store(f.primMissingDep))
		}, fields{Kind: KindLineageMissingDependencies, PackageID: f.primMissingDep.ID, Packages: []string{f.unknownID}},
			wire{Context: map[string]string{"packages": f.unknownID}}},
		{"daml-prim not a utility package", func() error {
			return CheckLineage(ids(f.primNotUtility), ids(f.primNotUtility), f.store(f.primNotUtility))
		}, fields{Kind: KindNotUtilityPackage, PackageID: f.primNotUtility.ID},
			wire{Context: map[string]string{"packageId": f.primNotUtility.ID}}},
		{"same name and version", func() error {
			return CheckLineage(ids(f.v1twin), ids(f.v1, f.v1twin), f.store(f.v1, f.v1twin))
		}, fields{Kind: KindKnownPackageVersion, Packages: sortedPair(f.v1, f.v1twin)},
			wire{Context: map[string]string{"firstPackage": sortedPair(f.v1, f.v1twin)[0], "secondPackage": sortedPair(f.v1, f.v1twin)[1]}}},
		{"not a valid upgrade", func() error { return CheckUpgrade(f.v1, f.v3bad, f.store()) },
			fields{Kind: KindNotValidUpgrade, Old: f.v1.ID, New: f.v3bad.ID, Rule: "RecordFieldsMissing"},
			wire{Context: map[string]string{"oldPackage": f.v1.String(), "newPackage": f.v3bad.String(), "upgradeError": "*"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.err()
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T) is no *vetting.Error", err, err)
			}
			got := fields{Kind: e.Kind, Ref: e.Ref, PackageID: e.PackageID, Packages: e.Packages, Rule: e.Rule}
			if e.Old != nil {
				got.Old = e.Old.ID
			}
			if e.New != nil {
				got.New = e.New.ID
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("fields (-want +got):\n%s", diff)
			}
			var ae *apierr.Error
			if !errors.As(err, &ae) || ae.Code.Name != e.Kind.Code().Name || !strings.HasSuffix(ae.Cause, e.Error()) {
				t.Fatalf("error %v is not the *apierr.Error of %v with cause ending %q", err, e.Kind, e.Error())
			}
			if tt.wire.Context["upgradeError"] == "*" {
				tt.wire.Context["upgradeError"] = e.Message
			}
			if diff := cmp.Diff(tt.wire, wire{ae.Resources, ae.Context}); diff != "" {
				t.Errorf("resources and context (-want +got):\n%s", diff)
			}
		})
	}
}

// sortedPair returns the ids of a and b in the lineage order (version,
// then id) of two packages of one version.
func sortedPair(a, b *lf.Package) []string {
	if a.ID > b.ID {
		a, b = b, a
	}
	return []string{a.ID, b.ID}
}
