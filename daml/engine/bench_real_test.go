package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
)

// The benchmarks of the real DARs measure Submit (interpretation and the
// transaction built by tx.Builder) with warm engines: the packages are
// decoded and the definitions compiled before the timer starts.

func BenchmarkRealPingCreate(b *testing.B) {
	d := loadDAR(b, pingDARName)
	e := engine.New(d, engine.Options{})
	ping := typeID(b, d, pingPkgName, "Canton.Internal.Ping", "Ping")
	arg, err := e.NewRecord(ping, engine.Text("ping-1"), engine.Party("alice"), engine.Party("bob"))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	sub := engine.Submission{ActAs: []string{"alice"}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Submit(ctx, sub, engine.CreateCommand(ping, arg)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRealPingCreatePath is the Daml side of a Ping create as the
// ledger's submit-and-wait runs it: the argument decoded from its JSON
// (value.FromJSONAt) and converted (FromValue), the submission, its
// contract ids suffixed, its events listed and the create argument
// rendered as JSON.
func BenchmarkRealPingCreatePath(b *testing.B) {
	d := loadDAR(b, pingDARName)
	e := engine.New(d, engine.Options{})
	ping := typeID(b, d, pingPkgName, "Canton.Internal.Ping", "Ping")
	byID := map[string]*lf.Package{}
	for _, p := range d.Packages {
		byID[p.ID] = p
	}
	lookup := func(id string) *lf.Package { return byID[id] }
	typ := value.TypeOf(ping.PackageID, ping.Module, ping.Name)
	js := value.NewJSONAppender(lookup)
	raw := []byte(`{"id":"p12345","initiator":"alice::1220abcdef","responder":"bob::1220abcdef"}`)
	ctx := context.Background()
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		v, err := value.FromJSONAt(raw, typ, "commands[0].CreateCommand.createArguments", lookup)
		if err != nil {
			b.Fatal(err)
		}
		ev, err := e.FromValue(v)
		if err != nil {
			b.Fatal(err)
		}
		res, err := e.Submit(ctx, engine.Submission{ActAs: []string{"alice::1220abcdef"}, LedgerTime: 1_700_000_000_000_000,
			PreparationTime: 1_700_000_000_000_000, SubmissionSeed: tx.Hash{1, 2, 3}, ParticipantID: "participant1::1220abcd"},
			engine.CreateCommandOf(ping, ev, v))
		if err != nil {
			b.Fatal(err)
		}
		t, err := res.Transaction.Suffixed(func(node tx.NodeID, _ *tx.Create) tx.Hash { return tx.UnicumOf("1220updateid", node) })
		if err != nil {
			b.Fatal(err)
		}
		var evBuf [4]tx.Event
		for _, ev := range t.AppendEvents(evBuf[:0], nil, tx.LedgerEffects) {
			if c, ok := ev.Node.(*tx.Create); ok {
				buf = js.AppendAs(buf[:0], c.Arg, typ)
			}
		}
	}
}

func BenchmarkRealPingRespond(b *testing.B) {
	d := loadDAR(b, pingDARName)
	e := engine.New(d, engine.Options{})
	ping := typeID(b, d, pingPkgName, "Canton.Internal.Ping", "Ping")
	respond := typeID(b, d, pingPkgName, "Canton.Internal.Ping", "Respond")
	arg, err := e.NewRecord(ping, engine.Text("ping-1"), engine.Party("alice"), engine.Party("bob"))
	if err != nil {
		b.Fatal(err)
	}
	rarg, err := e.NewRecord(respond)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	led := newLedger()
	res, err := e.Submit(ctx, engine.Submission{ActAs: []string{"alice"}, Contracts: led}, engine.CreateCommand(ping, arg))
	if err != nil {
		b.Fatal(err)
	}
	_, results := led.commit(b, res)
	cid := results[0].(engine.ContractID)
	// Nothing is committed: every iteration exercises the same contract.
	sub := engine.Submission{ActAs: []string{"bob"}, Contracts: led}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Submit(ctx, sub, engine.ExerciseCommand(ping, "Respond", cid, rarg)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRealBongMaxLevel2 runs the whole Bong workflow with maxLevel 2
// per iteration: 8 submissions (the proposal, Accept, three
// ProcessExplode, three ProcessMerge), each committed to a fresh
// in-memory ledger (suffixed contract ids).
func BenchmarkRealBongMaxLevel2(b *testing.B) {
	bg := newBong(b)
	e := bg.e
	ctx := context.Background()
	timeout := engine.Timestamp(time.Date(2007, time.April, 5, 14, 30, 5, 0, time.UTC).UnixMicro())
	mk := func(id lf.TypeConID, fields ...engine.Value) engine.Value {
		r, err := e.NewRecord(id, fields...)
		if err != nil {
			b.Fatal(err)
		}
		return r
	}
	alice, bob := engine.Party("alice"), engine.Party("bob")
	proposal := engine.CreateCommand(bg.proposal, mk(bg.proposal, engine.Text("1"), alice, partiesOf("alice"), partiesOf(),
		partiesOf("bob"), engine.Int64(2), timeout))
	step := func(led *ledger, actAs string, cmd engine.Value) engine.Value {
		res, err := e.Submit(ctx, engine.Submission{ActAs: []string{actAs}, Contracts: led}, cmd)
		if err != nil {
			b.Fatal(err)
		}
		_, results := led.commit(b, res)
		return results[0]
	}
	field := func(v engine.Value, i int) engine.Value { return v.(*engine.Record).Fields[i] }
	payload := func(v engine.Value) engine.Value { return v.(*engine.Variant).Value }
	explode := func(led *ledger, cid engine.Value) (merge, l, r engine.Value) {
		res := step(led, "bob", engine.ExerciseCommand(bg.explode, "ProcessExplode", cid.(engine.ContractID), mk(bg.processExplode, bob)))
		pair := payload(field(res, 1))
		return field(res, 0), field(pair, 0), field(pair, 1)
	}
	merge := func(led *ledger, m, l, r engine.Value) engine.Value {
		return payload(step(led, "bob", engine.ExerciseCommand(bg.merge, "ProcessMerge", m.(engine.ContractID), mk(bg.processMerge, bob, l, r))))
	}
	accept := mk(bg.accept, alice)
	b.ReportAllocs()
	for b.Loop() {
		led := newLedger()
		p := step(led, "alice", proposal)
		ex := payload(step(led, "alice", engine.ExerciseCommand(bg.proposal, "Accept", p.(engine.ContractID), accept)))
		m0, l, r := explode(led, ex)
		mL, lL, rL := explode(led, l)
		mR, lR, rR := explode(led, r)
		cL := merge(led, mL, lL, rL)
		cR := merge(led, mR, lR, rR)
		final := merge(led, m0, cL, cR)
		if !led.isActive(final.(engine.ContractID)) {
			b.Fatal("no Bong at the end")
		}
	}
}

// BenchmarkRealBongProcessMerge is one ProcessMerge of the Bong (two
// fetches, two consuming exercises, a create) on stored contracts,
// without commit: the engine's part of the heaviest Bong step.
func BenchmarkRealBongProcessMerge(b *testing.B) {
	bg := newBong(b)
	e := bg.e
	ctx := context.Background()
	timeout := engine.Timestamp(time.Date(2007, time.April, 5, 14, 30, 5, 0, time.UTC).UnixMicro())
	alice, bob := engine.Party("alice"), engine.Party("bob")
	led := newLedger()
	rec := func(id lf.TypeConID, fields ...engine.Value) engine.Value {
		r, err := e.NewRecord(id, fields...)
		if err != nil {
			b.Fatal(err)
		}
		return r
	}
	// The Merge and its two Collapses, as ProcessExplode leaves them at
	// maxLevel 1.
	common := []engine.Value{engine.Text("1"), alice, partiesOf("alice"), partiesOf("bob"), engine.Text(""), timeout}
	res, err := e.Submit(ctx, engine.Submission{ActAs: []string{"alice"}, Contracts: led},
		engine.CreateCommand(bg.merge, rec(bg.merge, common...)),
		engine.CreateCommand(bg.collapse, rec(bg.collapse, common...)),
		engine.CreateCommand(bg.collapse, rec(bg.collapse, common...)))
	if err != nil {
		b.Fatal(err)
	}
	_, cids := led.commit(b, res)
	cmd := engine.ExerciseCommand(bg.merge, "ProcessMerge", cids[0].(engine.ContractID), rec(bg.processMerge, bob, cids[1], cids[2]))
	sub := engine.Submission{ActAs: []string{"bob"}, Contracts: led}
	b.ReportAllocs()
	for b.Loop() {
		res, err := e.Submit(ctx, sub, cmd)
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Transaction.Nodes) != 6 {
			b.Fatalf("%d nodes", len(res.Transaction.Nodes))
		}
	}
}

func BenchmarkRealAmuletCreate(b *testing.B) {
	a := newAmulet(b)
	ctx := context.Background()
	arg := a.amuletArg(b, "dso", "alice", "100.0", 3, "0.001")
	sub := engine.Submission{ActAs: []string{"dso", "alice"}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.e.Submit(ctx, sub, engine.CreateCommand(a.amulet, arg)); err != nil {
			b.Fatal(err)
		}
	}
}
