package engine_test

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
)

// TestAmuletInterfaceView computes the Holding view of committed Amulet
// and LockedAmulet contracts with Engine.InterfaceView, from the stored
// argument and from the argument decoded from its JSON form, and checks
// that it is the view TestAmulet and TestLockedAmulet compute by hand.
func TestAmuletInterfaceView(t *testing.T) {
	a := newAmulet(t)
	d := loadDAR(t, amuletDARName)
	ctx := context.Background()
	led := newLedger()
	const dso, owner, holder = "dso::1220aa", "alice::1220bb", "holder::1220cc"
	expires := engine.Timestamp(time.Date(2030, time.January, 1, 0, 0, 0, 0, time.UTC).UnixMicro())
	res, err := a.e.Submit(ctx, engine.Submission{ActAs: []string{dso, owner, holder}, Contracts: led},
		engine.CreateCommand(a.amulet, a.amuletArg(t, dso, owner, "100.0", 3, "0.001")),
		engine.CreateCommand(a.lockedAmulet, a.rec(t, a.lockedAmulet, a.amuletArg(t, dso, owner, "12.5", 7, "0.25"),
			a.rec(t, a.timeLock, partiesOf(holder), expires))))
	if err != nil {
		t.Fatal(err)
	}
	_, results := led.commit(t, res)
	stored := func(i int) *engine.Contract {
		c, err := led.Contract(ctx, results[i].(engine.ContractID))
		if err != nil || c == nil {
			t.Fatalf("contract %d: %v, %v", i, c, err)
		}
		return c
	}
	amuletC, lockedC := stored(0), stored(1)
	// fromJSON is c with its argument decoded from the argument's JSON.
	fromJSON := func(c *engine.Contract) *engine.Contract {
		raw := value.AppendJSON(nil, c.Arg)
		arg, err := value.FromJSON(raw, &lf.TCon{ID: c.TemplateID}, d.Package)
		if err != nil {
			t.Fatalf("FromJSON(%s): %v", raw, err)
		}
		jc := *c
		jc.Arg = arg
		return &jc
	}
	amuletView := a.wantView(dso, owner, "100.0000000000", value.Optional{}, "Round {number = 3}", "RatePerRound {rate = 0.001}")
	lockedView := a.wantView(dso, owner, "12.5000000000", value.Optional{Value: lrec(a.lock, "holders", lparties(holder))},
		"Round {number = 7}", "RatePerRound {rate = 0.25}")
	pref := engine.PackagePreference{amuletPkgName: a.amulet.PackageID}

	for _, tc := range []struct {
		name     string
		c        *engine.Contract
		pref     engine.PackagePreference
		want     value.Value
		wantKind engine.ErrorKind
	}{
		{name: "Amulet", c: amuletC, want: amuletView},
		{name: "Amulet, preferred", c: amuletC, pref: pref, want: amuletView},
		{name: "Amulet from JSON", c: fromJSON(amuletC), want: amuletView},
		{name: "LockedAmulet", c: lockedC, want: lockedView},
		{name: "LockedAmulet from JSON, preferred", c: fromJSON(lockedC), pref: pref, want: lockedView},
		{name: "unknown preferred package", c: amuletC, pref: engine.PackagePreference{amuletPkgName: "nosuchpkg"}, wantKind: engine.ErrPackage},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := a.e.InterfaceView(ctx, a.holding, tc.c, tc.pref)
			if tc.wantKind != 0 {
				if ee := engineErr(t, err); ee.Kind != tc.wantKind {
					t.Fatalf("got %v, want %v", err, tc.wantKind)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := gocmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Holding view (-want +got):\n%s", diff)
			}
		})
	}
}

// TestAmuletInterfaces checks Implements and Interfaces on Splice's
// templates.
func TestAmuletInterfaces(t *testing.T) {
	a := newAmulet(t)
	for _, tpl := range []lf.TypeConID{a.amulet, a.lockedAmulet} {
		if !a.e.Implements(tpl, a.holding) {
			t.Errorf("%s does not implement Holding", tpl.Name)
		}
		got := a.e.Interfaces(tpl)
		if !slices.Contains(got, a.holding) {
			t.Errorf("Interfaces(%s) = %v, without Holding", tpl.Name, got)
		}
		if !slices.IsSortedFunc(got, func(x, y lf.TypeConID) int {
			return cmp.Or(strings.Compare(x.PackageID, y.PackageID), strings.Compare(x.Module, y.Module), strings.Compare(x.Name, y.Name))
		}) {
			t.Errorf("Interfaces(%s) = %v, not sorted", tpl.Name, got)
		}
		t.Logf("Interfaces(%s) = %v", tpl.Name, got)
		for _, iface := range got {
			if !a.e.Implements(tpl, iface) {
				t.Errorf("Interfaces(%s) lists %s, which Implements denies", tpl.Name, iface)
			}
		}
	}
	// Round is a data type, not a template.
	if a.e.Implements(a.round, a.holding) || a.e.Interfaces(a.round) != nil {
		t.Errorf("Round implements %v", a.e.Interfaces(a.round))
	}
}
