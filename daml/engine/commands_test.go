package engine

import (
	"context"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
)

// TestCreateAndExercise runs Ping's create-and-exercise as alice, who is
// both initiator and responder: two roots, the create and the consuming
// Respond on the new contract, whose result is the command's result.
func TestCreateAndExercise(t *testing.T) {
	d := realPing(t)
	e := New(d, Options{})
	ping := lf.TypeConID{PackageID: d.Main.ID, Module: "Canton.Internal.Ping", Name: "Ping"}
	respond := lf.TypeConID{PackageID: d.Main.ID, Module: "Canton.Internal.Ping", Name: "Respond"}
	arg, err := e.NewRecord(ping, Text("ping-1"), Party("alice"), Party("alice"))
	if err != nil {
		t.Fatal(err)
	}
	rarg, err := e.NewRecord(respond)
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Submit(context.Background(), Submission{ActAs: []string{"alice"}}, CreateAndExerciseCommand(ping, arg, "Respond", rarg))
	if err != nil {
		t.Fatal(err)
	}
	if got := txShape(res.Transaction); len(res.Transaction.Roots) != 2 {
		t.Fatalf("roots %v (%s)", res.Transaction.Roots, got)
	}
	c, ok := res.Transaction.Nodes[res.Transaction.Roots[0]].(*tx.Create)
	if !ok {
		t.Fatalf("root 0 is %T", res.Transaction.Nodes[0])
	}
	x, ok := res.Transaction.Nodes[res.Transaction.Roots[1]].(*tx.Exercise)
	if !ok || x.TargetID != c.ContractID || x.Choice != "Respond" || !x.Consuming {
		t.Fatalf("root 1 is %#v", res.Transaction.Nodes[res.Transaction.Roots[1]])
	}
	if len(res.Results) != 1 {
		t.Fatalf("results %v", res.Results)
	}
	if _, ok := res.Results[0].(Unit); !ok {
		t.Errorf("result %#v, want the choice's result ()", res.Results[0])
	}
	// bob may not create alice's Ping.
	if _, err := e.Submit(context.Background(), Submission{ActAs: []string{"bob"}}, CreateAndExerciseCommand(ping, arg, "Respond", rarg)); errKind(err) != ErrFailedAuthorization {
		t.Errorf("as bob: %v", err)
	}
}
