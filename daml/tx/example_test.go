package tx_test

import (
	"fmt"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
)

// The engine drives a Builder as the update runs: here a command that
// creates a Ping and a second that exercises Respond on it, which
// creates a Pong.
func ExampleBuilder() {
	ping := lf.TypeConID{PackageID: "pkg", Module: "PingPong", Name: "Ping"}
	pong := lf.TypeConID{PackageID: "pkg", Module: "PingPong", Name: "Pong"}
	var submissionSeed tx.Hash // random in a real participant
	const let = value.Timestamp(1_700_000_000_000_000)
	b := tx.NewBuilder(tx.Config{
		ActAs:           []string{"alice", "bob"},
		TransactionSeed: tx.TransactionSeed(submissionSeed, "participant1", let),
		PreparationTime: let,
		LedgerTime:      let,
	})
	cid, err := b.Create(tx.CreateInput{PackageName: "pingpong", TemplateID: ping,
		Arg: value.Record{}, Signatories: []string{"alice"}, Observers: []string{"bob"}})
	if err != nil {
		panic(err)
	}
	if _, err := b.BeginExercise(tx.ExerciseInput{TargetID: cid, PackageName: "pingpong", TemplateID: ping,
		Choice: "Respond", Consuming: true, Controllers: []string{"bob"}, ChosenValue: value.Record{},
		Signatories: []string{"alice"}, Stakeholders: []string{"alice", "bob"}}); err != nil {
		panic(err)
	}
	if _, err := b.Create(tx.CreateInput{PackageName: "pingpong", TemplateID: pong,
		Arg: value.Record{}, Signatories: []string{"bob"}, Observers: []string{"alice"}}); err != nil {
		panic(err)
	}
	if _, err := b.EndExercise(value.Unit{}); err != nil {
		panic(err)
	}
	res, err := b.Finish()
	if err != nil {
		panic(err)
	}
	fmt.Println("roots:", res.Transaction.Roots, "seeds:", len(res.Transaction.NodeSeeds), "local id length:", len(cid))
	fmt.Println("created:", len(res.Effects.Created), "transient:", len(res.Effects.Transient))
	for _, e := range res.Transaction.Events([]string{"alice"}, tx.AcsDelta) {
		fmt.Println("alice's ACS delta: node", e.NodeID, e.Node.(*tx.Create).TemplateID.Name)
	}
	// Output:
	// roots: [0 1] seeds: 3 local id length: 66
	// created: 1 transient: 1
	// alice's ACS delta: node 2 Pong
}
