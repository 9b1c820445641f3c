package engine

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
)

// TestInterfaceView computes I's view of stored contracts of package
// "test" under several preferences: the view of T v1 is n + 100, of the
// v2 in testPkgI2 n + 2000.
func TestInterfaceView(t *testing.T) {
	e := upgradeEngine()
	ctx := context.Background()
	stored := func(tpl lf.TypeConID, fields ...value.Value) *Contract {
		fs := make([]value.RecordField, len(fields))
		for i, f := range fields {
			fs[i] = value.RecordField{Value: f}
		}
		return &Contract{ID: "00cc", TemplateID: tpl, Arg: value.Record{RecordID: &tpl, Fields: fs},
			Signatories: []string{"alice"}, Stakeholders: []string{"alice"}}
	}
	v1 := stored(tid("T"), value.Party("alice"), value.Int64(3))
	v2 := stored(tidI2("T"), value.Party("alice"), value.Int64(4))
	v2Note := stored(tidI2("T"), value.Party("alice"), value.Int64(4), value.Optional{Value: value.Text("x")})
	// Views are computed without validation: a v1 contract whose
	// precondition (n >= 0) fails still has a view.
	negative := stored(tid("T"), value.Party("alice"), value.Int64(-7))
	overflow := stored(tid("T"), value.Party("alice"), value.Int64(math.MaxInt64))

	for _, tc := range []struct {
		name     string
		c        *Contract
		iface    lf.TypeConID
		pref     PackagePreference
		want     value.Value
		wantKind ErrorKind
	}{
		{name: "v1, no preference", c: v1, want: value.Int64(103)},
		{name: "v1, v1 preferred", c: v1, pref: PackagePreference{"test": testPkg}, want: value.Int64(103)},
		{name: "v1, v2 preferred", c: v1, pref: PackagePreference{"test": testPkgI2}, want: value.Int64(2003)},
		{name: "v1, other names preferred", c: v1, pref: PackagePreference{"other": testPkgI2}, want: value.Int64(103)},
		{name: "v2, no preference", c: v2, want: value.Int64(2004)},
		{name: "v2, v1 preferred", c: v2, pref: PackagePreference{"test": testPkg}, want: value.Int64(104)},
		{name: "v2 with a note, v1 preferred", c: v2Note, pref: PackagePreference{"test": testPkg}, wantKind: ErrUpgradeTranslationFailed},
		{name: "v2 with a note, no preference", c: v2Note, want: value.Int64(2004)},
		{name: "precondition not checked", c: negative, want: value.Int64(93)},
		{name: "view raises", c: overflow, wantKind: ErrFailureStatus},
		{name: "preferred version does not implement", c: v1, pref: PackagePreference{"test": testPkg2}, wantKind: ErrContractDoesNotImplementInterface},
		{name: "preferred package unknown", c: v1, pref: PackagePreference{"test": "nosuchpkg"}, wantKind: ErrPackage},
		{name: "not an interface", c: v1, iface: tid("R"), wantKind: ErrPackage},
		{name: "nil contract", wantKind: ErrInternal},
	} {
		t.Run(tc.name, func(t *testing.T) {
			iface := tc.iface
			if iface == (lf.TypeConID{}) {
				iface = tid("I")
			}
			got, err := e.InterfaceView(ctx, iface, tc.c, tc.pref)
			if tc.wantKind != 0 {
				if k := errKind(err); k != tc.wantKind {
					t.Fatalf("got %v, %v; want %v", got, err, tc.wantKind)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("view (-want +got):\n%s", diff)
			}
		})
	}
}

// TestInterfacesSorted checks that Interfaces sorts by package id,
// module and name, whatever the order of the template's implements.
func TestInterfacesSorted(t *testing.T) {
	id := func(pkg, mod, name string) lf.TypeConID { return lf.TypeConID{PackageID: pkg, Module: mod, Name: name} }
	impls := []lf.TypeConID{id("b", "M", "Z"), id("b", "M", "A"), id("a", "N", "I"), id("b", "L", "Z")}
	tpl := &lf.Template{Name: "T", Param: "this", Signatories: nilE(), Observers: nilE(), Implements: impls}
	for _, i := range impls {
		tpl.Instances = append(tpl.Instances, &lf.InterfaceInstance{Interface: i, View: unit()})
	}
	p := &lf.Package{ID: "b", Name: "b", Modules: []*lf.Module{{Name: "M",
		DataTypes: []*lf.DataType{{Name: "T", Variety: lf.RecordVariety}}, Templates: []*lf.Template{tpl}}}}
	p.Index()
	e := New(PackageMap{"b": p}, Options{})
	want := []lf.TypeConID{id("a", "N", "I"), id("b", "L", "Z"), id("b", "M", "A"), id("b", "M", "Z")}
	if diff := cmp.Diff(want, e.Interfaces(id("b", "M", "T"))); diff != "" {
		t.Errorf("Interfaces (-want +got):\n%s", diff)
	}
	for _, i := range impls {
		if !e.Implements(id("b", "M", "T"), i) {
			t.Errorf("Implements(T, %s) = false", i)
		}
	}
}

// TestInterfaceViewConcurrent computes views of several versions from
// many goroutines on one engine (run it with -race).
func TestInterfaceViewConcurrent(t *testing.T) {
	e := upgradeEngine()
	ctx := context.Background()
	tpl := tid("T")
	c := &Contract{ID: "00ee", TemplateID: tpl, Arg: value.Record{RecordID: &tpl,
		Fields: []value.RecordField{{Value: value.Party("alice")}, {Value: value.Int64(1)}}}}
	prefs := []PackagePreference{nil, {"test": testPkgI2}}
	wants := []value.Value{value.Int64(101), value.Int64(2001)}
	errs := make(chan error, 16)
	for g := range 16 {
		go func() {
			got, err := e.InterfaceView(ctx, tid("I"), c, prefs[g%2])
			if err == nil && !cmp.Equal(got, wants[g%2]) {
				err = fmt.Errorf("goroutine %d: view %v, want %v", g, got, wants[g%2])
			}
			errs <- err
		}()
	}
	for range 16 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
