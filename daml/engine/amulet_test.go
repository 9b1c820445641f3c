package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/numeric"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
)

const (
	amuletDARName = "splice-amulet-0.1.8.dar"
	amuletPkgName = "splice-amulet"
	holdingPkg    = "splice-api-token-holding-v1"
	holdingModule = "Splice.Api.Token.HoldingV1"
	metadataPkg   = "splice-api-token-metadata-v1"
)

// interfaceID finds the interface module:name in the DAR's package named
// pkgName.
func interfaceID(tb testing.TB, d *lf.DAR, pkgName, module, name string) lf.TypeConID {
	tb.Helper()
	for _, p := range d.Packages {
		if p.Name == pkgName && p.Interface(module, name) != nil {
			return lf.TypeConID{PackageID: p.ID, Module: module, Name: name}
		}
	}
	tb.Fatalf("no interface %s:%s in package %s", module, name, pkgName)
	return lf.TypeConID{}
}

// amulet holds the engine over splice-amulet and the ids the tests use.
type amulet struct {
	e                                           *engine.Engine
	amulet, lockedAmulet, expiring, round, rate lf.TypeConID
	timeLock                                    lf.TypeConID
	holding, holdingView, instrumentID, lock    lf.TypeConID
	metadata                                    lf.TypeConID
}

func newAmulet(tb testing.TB) *amulet {
	d := loadDAR(tb, amuletDARName)
	return &amulet{
		e:            engine.New(d, engine.Options{}),
		amulet:       typeID(tb, d, amuletPkgName, "Splice.Amulet", "Amulet"),
		lockedAmulet: typeID(tb, d, amuletPkgName, "Splice.Amulet", "LockedAmulet"),
		expiring:     typeID(tb, d, amuletPkgName, "Splice.Fees", "ExpiringAmount"),
		round:        typeID(tb, d, amuletPkgName, "Splice.Types", "Round"),
		rate:         typeID(tb, d, amuletPkgName, "Splice.Fees", "RatePerRound"),
		timeLock:     typeID(tb, d, amuletPkgName, "Splice.Expiry", "TimeLock"),
		holding:      interfaceID(tb, d, holdingPkg, holdingModule, "Holding"),
		holdingView:  typeID(tb, d, holdingPkg, holdingModule, "HoldingView"),
		instrumentID: typeID(tb, d, holdingPkg, holdingModule, "InstrumentId"),
		lock:         typeID(tb, d, holdingPkg, holdingModule, "Lock"),
		metadata:     typeID(tb, d, metadataPkg, "Splice.Api.Token.MetadataV1", "Metadata"),
	}
}

// dec is a Daml Decimal (Numeric 10). The engine does not type-check
// command arguments: a Numeric of another scale would be stored as given.
func dec(tb testing.TB, s string) engine.Numeric {
	n, ok := numeric.ParseText(10, s)
	if !ok {
		tb.Fatalf("bad decimal %q", s)
	}
	return engine.Numeric{Numeric: n}
}

func (a *amulet) rec(tb testing.TB, id lf.TypeConID, fields ...engine.Value) *engine.Record {
	tb.Helper()
	r, err := a.e.NewRecord(id, fields...)
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// amuletArg is Amulet{dso, owner, ExpiringAmount{amount, Round round,
// RatePerRound rate}}.
func (a *amulet) amuletArg(tb testing.TB, dso, owner, amount string, round int64, rate string) *engine.Record {
	return a.rec(tb, a.amulet, engine.Party(dso), engine.Party(owner),
		a.rec(tb, a.expiring, dec(tb, amount), a.rec(tb, a.round, engine.Int64(round)), a.rec(tb, a.rate, dec(tb, rate))))
}

// view evaluates view_interface @Holding (to_interface @Holding @tpl arg)
// through the engine.
func (a *amulet) view(tb testing.TB, tpl lf.TypeConID, arg engine.Value) engine.Value {
	tb.Helper()
	ctx := context.Background()
	fn, err := a.e.Eval(ctx, &lf.EAbs{Params: []lf.VarWithType{{Name: "x"}}, Body: &lf.EViewInterface{Interface: a.holding,
		Expr: &lf.EToInterface{Interface: a.holding, Template: tpl, Expr: &lf.EVar{Name: "x"}}}})
	if err != nil {
		tb.Fatal(err)
	}
	v, err := a.e.Apply(ctx, fn, arg)
	if err != nil {
		tb.Fatalf("view of %s: %v", tpl.Name, err)
	}
	return v
}

// wantView is the HoldingView the Amulet code implies.
func (a *amulet) wantView(dso, owner, amount string, lock value.Value, round, rate string) value.Value {
	return lrec(a.holdingView, "owner", value.Party(owner),
		"instrumentId", lrec(a.instrumentID, "admin", value.Party(dso), "id", value.Text("Amulet")),
		"amount", value.Numeric(amount), "lock", lock,
		"meta", lrec(a.metadata, "values", value.GenMap{
			{Key: value.Text("splice.lfdecentralizedtrust.org/created-in-round"), Value: value.Text(round)},
			{Key: value.Text("splice.lfdecentralizedtrust.org/rate-per-round"), Value: value.Text(rate)},
		}))
}

// TestAmulet creates a Splice Amulet through the engine and computes its
// token-standard Holding view, from the command's argument and from the
// committed contract (fetch_interface).
func TestAmulet(t *testing.T) {
	a := newAmulet(t)
	ctx := context.Background()
	led := newLedger()
	const dso, owner = "dso::1220aa", "alice::1220bb"
	arg := a.amuletArg(t, dso, owner, "100.0", 3, "0.001")

	// Both signatories must authorize.
	_, err := a.e.Submit(ctx, engine.Submission{ActAs: []string{owner}, Contracts: led}, engine.CreateCommand(a.amulet, arg))
	if ee := engineErr(t, err); ee.Kind != engine.ErrFailedAuthorization {
		t.Errorf("create as the owner alone: %v, want FailedAuthorization", err)
	}
	// ensure validExpiringAmount amount: the amount must be positive.
	_, err = a.e.Submit(ctx, engine.Submission{ActAs: []string{dso, owner}}, engine.CreateCommand(a.amulet, a.amuletArg(t, dso, owner, "0.0", 3, "0.001")))
	if ee := engineErr(t, err); ee.Kind != engine.ErrFailureStatus || ee.ErrorID != "UNHANDLED_EXCEPTION/DA.Exception.PreconditionFailed:PreconditionFailed" {
		t.Errorf("create with amount 0: %v, want an unhandled PreconditionFailed", err)
	}

	res, err := a.e.Submit(ctx, engine.Submission{ActAs: []string{dso, owner}, Contracts: led}, engine.CreateCommand(a.amulet, arg))
	if err != nil {
		t.Fatal(err)
	}
	ids := createdIDs(res.Transaction)
	if len(ids) != 1 {
		t.Fatalf("created %v", ids)
	}
	wantArg := lrec(a.amulet, "dso", value.Party(dso), "owner", value.Party(owner),
		"amount", lrec(a.expiring, "initialAmount", value.Numeric("100.0000000000"),
			"createdAt", lrec(a.round, "number", value.Int64(3)),
			"ratePerRound", lrec(a.rate, "rate", value.Numeric("0.0010000000"))))
	want := []tx.Node{&tx.Create{ContractID: ids[0], PackageName: amuletPkgName, TemplateID: a.amulet, Arg: wantArg,
		Signatories: []string{owner, dso}, Stakeholders: []string{owner, dso}, Version: tx.VersionNoKey}}
	if diff := cmp.Diff(want, res.Transaction.Nodes, nodeOpts); diff != "" {
		t.Errorf("Amulet create (-want +got):\n%s", diff)
	}
	_, results := led.commit(t, res)
	cid := results[0].(engine.ContractID)

	wantView := a.wantView(dso, owner, "100.0000000000", value.Optional{}, "Round {number = 3}", "RatePerRound {rate = 0.001}")
	if diff := cmp.Diff(wantView, ledgerValue(t, a.view(t, a.amulet, arg))); diff != "" {
		t.Errorf("Holding view (-want +got):\n%s", diff)
	}

	// The view of the committed contract, read with fetch_interface by the
	// owner: one Fetch node with the interface id.
	fetchView, err := a.e.Eval(ctx, &lf.EAbs{Params: []lf.VarWithType{{Name: "cid"}}, Body: &lf.EUpdate{Update: &lf.UBlock{
		Bindings: []lf.Binding{{Var: lf.VarWithType{Name: "h"}, Bound: &lf.EUpdate{Update: &lf.UFetchInterface{Interface: a.holding, ContractID: &lf.EVar{Name: "cid"}}}}},
		Body:     &lf.EUpdate{Update: &lf.UPure{Expr: &lf.EViewInterface{Interface: a.holding, Expr: &lf.EVar{Name: "h"}}}},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	cmd, err := a.e.Apply(ctx, fetchView, cid)
	if err != nil {
		t.Fatal(err)
	}
	res, err = a.e.Submit(ctx, engine.Submission{ActAs: []string{owner}, Contracts: led}, cmd)
	if err != nil {
		t.Fatal(err)
	}
	hold := a.holding
	wantFetch := []tx.Node{&tx.Fetch{ContractID: value.ContractID(cid), PackageName: amuletPkgName, TemplateID: a.amulet, InterfaceID: &hold,
		ActingParties: []string{owner}, Signatories: []string{owner, dso}, Stakeholders: []string{owner, dso}, Version: tx.VersionNoKey}}
	if diff := cmp.Diff(wantFetch, res.Transaction.Nodes, nodeOpts); diff != "" {
		t.Errorf("fetch_interface (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantView, ledgerValue(t, res.Results[0])); diff != "" {
		t.Errorf("Holding view of the committed Amulet (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]value.ContractID{value.ContractID(cid)}, res.Effects.Inputs); diff != "" {
		t.Errorf("inputs (-want +got):\n%s", diff)
	}
}

// TestLockedAmulet creates a LockedAmulet (signatories: the lock holders
// and the amulet's) and checks the lock in its Holding view.
func TestLockedAmulet(t *testing.T) {
	a := newAmulet(t)
	ctx := context.Background()
	const dso, owner, holder = "dso", "owner", "holder"
	expires := engine.Timestamp(time.Date(2030, time.January, 1, 0, 0, 0, 0, time.UTC).UnixMicro())
	arg := a.rec(t, a.lockedAmulet, a.amuletArg(t, dso, owner, "12.5", 7, "0.25"),
		a.rec(t, a.timeLock, partiesOf(holder), expires))
	_, err := a.e.Submit(ctx, engine.Submission{ActAs: []string{dso, owner}}, engine.CreateCommand(a.lockedAmulet, arg))
	if ee := engineErr(t, err); ee.Kind != engine.ErrFailedAuthorization {
		t.Errorf("create without the holder: %v, want FailedAuthorization", err)
	}
	res, err := a.e.Submit(ctx, engine.Submission{ActAs: []string{dso, owner, holder}}, engine.CreateCommand(a.lockedAmulet, arg))
	if err != nil {
		t.Fatal(err)
	}
	c := res.Transaction.Nodes[0].(*tx.Create)
	if want := []string{dso, holder, owner}; !cmp.Equal(c.Signatories, want) || !cmp.Equal(c.Stakeholders, want) {
		t.Errorf("signatories %v, stakeholders %v, want %v", c.Signatories, c.Stakeholders, want)
	}
	want := a.wantView(dso, owner, "12.5000000000", value.Optional{Value: lrec(a.lock, "holders", lparties(holder))},
		"Round {number = 7}", "RatePerRound {rate = 0.25}")
	if diff := cmp.Diff(want, ledgerValue(t, a.view(t, a.lockedAmulet, arg))); diff != "" {
		t.Errorf("Holding view (-want +got):\n%s", diff)
	}
}
