package engine_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/tx"
)

// decodeLFTest encodes an lftest package and decodes it as the ledger
// would, and returns an engine over it with the package's id.
func decodeLFTest(t *testing.T, p lftest.Package) (*engine.Engine, string) {
	t.Helper()
	_, dalf := lftest.Dalf(p)
	pkg, err := lf.DecodeArchive(dalf, lf.ReadOptions{})
	if err != nil {
		t.Fatalf("decode %s: %v", p.Name, err)
	}
	return engine.New(engine.PackageMap{pkg.ID: pkg}, engine.Options{}), pkg.ID
}

// TestLFTestIouRuns runs lftest.IouPackage's default expressions: the
// owner signs, Transfer archives and returns (), Peek does not archive.
func TestLFTestIouRuns(t *testing.T) {
	e, id := decodeLFTest(t, lftest.IouPackage("1.0.0"))
	ctx := context.Background()
	iou := lf.TypeConID{PackageID: id, Module: "Main", Name: "Iou"}
	transfer := lf.TypeConID{PackageID: id, Module: "Main", Name: "Transfer"}
	store := contractMap{}
	arg, err := e.NewRecord(iou, engine.Party("alice"), engine.Int64(10))
	if err != nil {
		t.Fatal(err)
	}

	_, err = e.Submit(ctx, engine.Submission{ActAs: []string{"bob"}, Contracts: store}, engine.CreateCommand(iou, arg))
	if k := engineErr(t, err).Kind; k != engine.ErrFailedAuthorization {
		t.Fatalf("create as bob: got %v (kind %v), want FailedAuthorization", err, k)
	}

	create := func() engine.ContractID {
		t.Helper()
		res, err := e.Submit(ctx, engine.Submission{ActAs: []string{"alice"}, Contracts: store}, engine.CreateCommand(iou, arg))
		if err != nil {
			t.Fatalf("create as alice: %v", err)
		}
		c := res.Transaction.Nodes[0].(*tx.Create)
		if diff := cmp.Diff([]string{"alice"}, c.Signatories); diff != "" {
			t.Errorf("signatories (-want +got):\n%s", diff)
		}
		if len(c.Observers()) != 0 {
			t.Errorf("observers: %v, want none", c.Observers())
		}
		store.commit(res.Transaction)
		return res.Results[0].(engine.ContractID)
	}
	cid := create()

	exercise := func(choice string, choiceArg engine.Value, consuming bool) {
		t.Helper()
		res, err := e.Submit(ctx, engine.Submission{ActAs: []string{"alice"}, Contracts: store},
			engine.ExerciseCommand(iou, choice, cid, choiceArg))
		if err != nil {
			t.Fatalf("%s: %v", choice, err)
		}
		if _, ok := res.Results[0].(engine.Unit); !ok {
			t.Errorf("%s result: %#v, want ()", choice, res.Results[0])
		}
		ex := res.Transaction.Nodes[0].(*tx.Exercise)
		if ex.Consuming != consuming || !cmp.Equal(ex.ActingParties, []string{"alice"}) {
			t.Errorf("%s node: consuming %v acting %v, want %v [alice]", choice, ex.Consuming, ex.ActingParties, consuming)
		}
		if got := len(res.Effects.Archived); got != map[bool]int{true: 1}[consuming] {
			t.Errorf("%s archived %d contracts", choice, got)
		}
		store.commit(res.Transaction)
	}
	exercise("Peek", engine.Unit{}, false)
	if len(store) != 1 {
		t.Fatalf("after Peek: %d active contracts, want 1", len(store))
	}
	targ, err := e.NewRecord(transfer, engine.Party("bob"))
	if err != nil {
		t.Fatal(err)
	}
	exercise("Transfer", targ, true)
	if len(store) != 0 {
		t.Fatalf("after Transfer: %d active contracts, want 0", len(store))
	}

	// bob is no controller.
	cid = create()
	_, err = e.Submit(ctx, engine.Submission{ActAs: []string{"bob"}, Contracts: store}, engine.ExerciseCommand(iou, "Peek", cid, engine.Unit{}))
	if k := engineErr(t, err).Kind; k != engine.ErrFailedAuthorization {
		t.Fatalf("Peek as bob: got %v, want FailedAuthorization", err)
	}
}

// TestLFTestHeavySpin runs lftest.HeavyPackage's Spin, a recursive loop.
func TestLFTestHeavySpin(t *testing.T) {
	e, id := decodeLFTest(t, lftest.HeavyPackage())
	ctx := context.Background()
	heavy := lf.TypeConID{PackageID: id, Module: "Main", Name: "Heavy"}
	spin := lf.TypeConID{PackageID: id, Module: "Main", Name: "Spin"}
	store := contractMap{}
	arg, err := e.NewRecord(heavy, engine.Party("alice"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Submit(ctx, engine.Submission{ActAs: []string{"alice"}, Contracts: store}, engine.CreateCommand(heavy, arg))
	if err != nil {
		t.Fatal(err)
	}
	store.commit(res.Transaction)
	cid := res.Results[0].(engine.ContractID)
	for _, tt := range []struct{ n, want int64 }{
		{0, 0},
		{3, 5},
		{1000, 332833500}, // sum of i² for i < 1000
		{100000, heavySum(100000)},
	} {
		sarg, err := e.NewRecord(spin, engine.Int64(tt.n))
		if err != nil {
			t.Fatal(err)
		}
		res, err := e.Submit(ctx, engine.Submission{ActAs: []string{"alice"}, Contracts: store}, engine.ExerciseCommand(heavy, "Spin", cid, sarg))
		if err != nil {
			t.Fatalf("Spin %d: %v", tt.n, err)
		}
		if got := res.Results[0]; got != engine.Int64(tt.want) {
			t.Errorf("Spin %d = %v, want %d", tt.n, got, tt.want)
		}
		if ex := res.Transaction.Nodes[0].(*tx.Exercise); ex.Consuming {
			t.Errorf("Spin is consuming")
		}
	}
	if len(store) != 1 {
		t.Errorf("Spin archived the contract")
	}
}

// heavySum is HeavyPackage's loop in Go.
func heavySum(n int64) int64 {
	acc := int64(0)
	for i := int64(0); i < n; i++ {
		acc = (acc + i*i) % lftest.HeavyModulus
	}
	return acc
}
