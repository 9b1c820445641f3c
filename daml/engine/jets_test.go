package engine_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
)

// stdlib returns the daml-stdlib package of the Splice Amulet DAR.
func stdlib(tb testing.TB) (*lf.DAR, *lf.Package) {
	d := loadDAR(tb, amuletDARName)
	for _, p := range d.Packages {
		if p.Name == "daml-stdlib" {
			return d, p
		}
	}
	tb.Fatal("no daml-stdlib in " + amuletDARName)
	return nil, nil
}

// TestStdlibJet: each jet gives what the daml-stdlib definition it
// replaces gives, interpreted, on texts of one-, two-, three- and
// four-byte characters, empty ones and equal ones.
func TestStdlibJet(t *testing.T) {
	d, p := stdlib(t)
	ctx := context.Background()
	e := engine.New(d, engine.Options{})
	texts := []string{"", "a", "ab", "abc", "b", "bc", "Daml.Script", "Daml.Script.Internal", "daml-script-3.3", "é", "aé", "éa", "€x", "x€", "😀", "a😀b", "😀b", "a😀"}
	for _, name := range []string{"isPrefixOf", "isSuffixOf", "isInfixOf"} {
		ref := lf.TypeConID{PackageID: p.ID, Module: "DA.Text", Name: name}
		jet, ok := engine.StdlibJet(p, ref)
		if !ok {
			t.Fatalf("no jet for %s", name)
		}
		daml, err := e.EvalValue(ctx, ref)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range texts {
			for _, b := range texts {
				want, err := e.Apply(ctx, daml, engine.Text(a), engine.Text(b))
				if err != nil {
					t.Fatal(err)
				}
				got, err := e.Apply(ctx, jet, engine.Text(a), engine.Text(b))
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Errorf("%s %q %q = %v, want %v (the Daml definition's)", name, a, b, got, want)
				}
			}
		}
	}
}

// TestStdlibJetRefusals: no jet for a definition of a package of another
// name, or for a daml-stdlib definition without one.
func TestStdlibJetRefusals(t *testing.T) {
	_, p := stdlib(t)
	other := *p
	other.Name = "my-stdlib"
	for _, c := range []struct {
		p    *lf.Package
		name string
	}{
		{&other, "isPrefixOf"},
		{nil, "isPrefixOf"},
		{p, "stripPrefix"},
		{p, "isUpper"},
	} {
		t.Run(fmt.Sprintf("%v/%s", c.p != nil && c.p.Name == "daml-stdlib", c.name), func(t *testing.T) {
			if v, ok := engine.StdlibJet(c.p, lf.TypeConID{PackageID: p.ID, Module: "DA.Text", Name: c.name}); ok {
				t.Errorf("a jet %v", v)
			}
		})
	}
}
