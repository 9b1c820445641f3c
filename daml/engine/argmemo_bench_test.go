package engine_test

import (
	"context"
	"testing"

	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
)

// memoLedger hands out its contracts with a memo each (engine.ArgMemo),
// as the ledger's cache of decoded arguments does, or without (memo
// false).
type memoLedger struct {
	c    *engine.Contract
	memo bool
}

func (l *memoLedger) Contract(_ context.Context, id engine.ContractID) (*engine.Contract, error) {
	if id != l.c.ID {
		return nil, nil
	}
	if !l.memo {
		c := *l.c
		c.Memo = nil
		return &c, nil
	}
	return l.c, nil
}

// BenchmarkContractLookup submits a fetch_interface of a committed Amulet
// and its Holding view, the stored contract handed out without a memo of
// its argument (converted and validated at every submission), with one to
// an engine with a trace sink (converted once, validated at every
// submission: such an engine keeps no validations) and with one to an
// engine without (converted and validated once).
func BenchmarkContractLookup(b *testing.B) {
	a := newAmulet(b)
	d := loadDAR(b, amuletDARName)
	cache := engine.NewCache()
	a.e = engine.New(d, engine.Options{Cache: cache})
	traced := engine.New(d, engine.Options{Cache: cache, Trace: func(string) {}})
	ctx := context.Background()
	const dso, owner = "dso::1220aa", "alice::1220bb"
	led := newLedger()
	res, err := a.e.Submit(ctx, engine.Submission{ActAs: []string{dso, owner}, Contracts: led},
		engine.CreateCommand(a.amulet, a.amuletArg(b, dso, owner, "100.0", 3, "0.001")))
	if err != nil {
		b.Fatal(err)
	}
	_, results := led.commit(b, res)
	cid := results[0].(engine.ContractID)
	stored, _ := led.Contract(ctx, cid)
	fetchView, err := a.e.Eval(ctx, &lf.EAbs{Params: []lf.VarWithType{{Name: "cid"}}, Body: &lf.EUpdate{Update: &lf.UBlock{
		Bindings: []lf.Binding{{Var: lf.VarWithType{Name: "h"}, Bound: &lf.EUpdate{Update: &lf.UFetchInterface{Interface: a.holding, ContractID: &lf.EVar{Name: "cid"}}}}},
		Body:     &lf.EUpdate{Update: &lf.UPure{Expr: &lf.EViewInterface{Interface: a.holding, Expr: &lf.EVar{Name: "h"}}}},
	}}})
	if err != nil {
		b.Fatal(err)
	}
	cmd, err := a.e.Apply(ctx, fetchView, cid)
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		e    *engine.Engine
		memo bool
	}{
		{"converted each time", a.e, false},
		{"memo, validated each time", traced, true},
		{"memo", a.e, true},
	} {
		c := *stored
		c.Memo = new(engine.ArgMemo)
		l := &memoLedger{c: &c, memo: bc.memo}
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bc.e.Submit(ctx, engine.Submission{ActAs: []string{owner}, Contracts: l}, cmd); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFromValue converts an Amulet contract argument (nested
// records) to engine values, as the Daml Script runner converts the
// contracts its queries return.
func BenchmarkFromValue(b *testing.B) {
	a := newAmulet(b)
	arg, err := engine.ToValue(a.amuletArg(b, "dso", "alice", "100.0", 3, "0.001"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.e.FromValue(arg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkToValue converts an Amulet contract argument (nested records)
// from engine values to its normalized ledger form, as a create, a choice
// argument and a choice result are converted (toLedgerValue).
func BenchmarkToValue(b *testing.B) {
	a := newAmulet(b)
	arg := a.amuletArg(b, "dso", "alice", "100.0", 3, "0.001")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := engine.ToValue(arg); err != nil {
			b.Fatal(err)
		}
	}
}
