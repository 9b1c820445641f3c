package tx

import (
	"testing"

	"github.com/ledgernode/ledgernode/daml/value"
)

// pingCreateTx is the transaction of a Ping create: one root Create with
// a three-field argument, signed by alice with bob as observer.
func pingCreateTx(tb testing.TB) *Transaction {
	b := NewBuilder(Config{ActAs: ps("alice"), TransactionSeed: Hash{1, 2, 3}, PreparationTime: 1_700_000_000_000_000})
	in := CreateInput{PackageName: "canton-builtin-admin-workflow-ping", TemplateID: tpl("Ping"), Signatories: ps("alice"), Observers: ps("bob"),
		Arg: value.Record{RecordID: new(tpl("Ping")), Fields: []value.RecordField{
			{Label: "id", Value: value.Text("ping-1")}, {Label: "initiator", Value: value.Party("alice")}, {Label: "responder", Value: value.Party("bob")}}}}
	if _, err := b.Create(in); err != nil {
		tb.Fatal(err)
	}
	res, err := b.Finish()
	if err != nil {
		tb.Fatal(err)
	}
	return res.Transaction
}

// pingRespondTx is the transaction of Bob's Respond on a ledger Ping: a
// consuming root Exercise whose body creates a Pong it returns.
func pingRespondTx(tb testing.TB) *Transaction {
	b := NewBuilder(Config{ActAs: ps("bob"), TransactionSeed: Hash{1, 2, 3}, PreparationTime: 1_700_000_000_000_000})
	in := exercise(ledgerCid(1), "Ping", "Respond", true, ps("bob"), ps("alice"), ps("alice", "bob"))
	if _, err := b.BeginExercise(in); err != nil {
		tb.Fatal(err)
	}
	pong := CreateInput{PackageName: "p", TemplateID: tpl("Pong"), Signatories: ps("bob"), Observers: ps("alice"),
		Arg: value.Record{RecordID: new(tpl("Pong")), Fields: []value.RecordField{
			{Label: "id", Value: value.Text("ping-1")}, {Label: "initiator", Value: value.Party("alice")}, {Label: "responder", Value: value.Party("bob")}}}}
	cid, err := b.Create(pong)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := b.EndExercise(cid); err != nil {
		tb.Fatal(err)
	}
	res, err := b.Finish()
	if err != nil {
		tb.Fatal(err)
	}
	return res.Transaction
}

// BenchmarkCommitView runs what the ledger does with an interpreted
// transaction before it commits it: WithSuffixes with UnicumOf, then
// Events(nil, LedgerEffects) and Effects on the suffixed transaction.
func BenchmarkCommitView(b *testing.B) {
	for _, bc := range []struct {
		name string
		tr   func(testing.TB) *Transaction
	}{{"create", pingCreateTx}, {"respond", pingRespondTx}} {
		b.Run(bc.name, func(b *testing.B) {
			tr := bc.tr(b)
			b.ReportAllocs()
			for b.Loop() {
				out, _, err := tr.WithSuffixes(func(n NodeID, _ *Create) Hash { return UnicumOf("tx-update-id", n) })
				if err != nil {
					b.Fatal(err)
				}
				if evs := out.Events(nil, LedgerEffects); len(evs) == 0 {
					b.Fatal("no events")
				}
				if eff := out.Effects(); len(eff.Created) != 1 {
					b.Fatal("no created contract")
				}
			}
		})
	}
}

// BenchmarkBuildPingCreate builds the Ping create transaction with a
// Builder (NewBuilder, Create, Finish).
func BenchmarkBuildPingCreate(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		pingCreateTx(b)
	}
}

// BenchmarkSeeds derives what a Create needs: a node seed and a
// discriminator (two HMACs).
func BenchmarkSeeds(b *testing.B) {
	seed := Hash{1, 2, 3}
	stk := ps("alice", "bob")
	b.ReportAllocs()
	for b.Loop() {
		seed = Discriminator(DeriveNodeSeed(seed, 1), 1_700_000_000_000_000, stk)
	}
}
