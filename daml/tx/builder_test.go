package tx

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/value"
)

// TestRollbackTry: a caught exception turns the try's nodes into a
// Rollback node, aborts the exercise it cut short, undoes the contract
// state and keeps the action numbering going.
func TestRollbackTry(t *testing.T) {
	b := newBuilder("alice")
	okC, okN := must[value.ContractID](t), must[NodeID](t)
	l1, l2 := ledgerCid(1), ledgerCid(2)
	a := okC(b.Create(create("A", ps("alice"), nil)))                                           // index 0
	b.BeginTry()                                                                                //
	okN(b.Fetch(fetch(l1, "L", ps("alice"), ps("alice"))))                                      // index 1
	cb := okC(b.Create(create("B", ps("alice"), nil)))                                          // index 2
	okN(b.BeginExercise(exercise(l2, "L2", "Ch", true, ps("alice"), ps("alice"), ps("alice")))) // index 3
	okC(b.Create(create("C", ps("alice"), nil)))                                                // index 3/0
	if st, nid := b.Status(l2); st != StatusConsumed || nid != 4 {
		t.Errorf("Status(l2) in the try = %v, %d", st, nid)
	}
	if err := b.RollbackTry(); err != nil {
		t.Fatal(err)
	}
	if st, _ := b.Status(cb); st != StatusRolledBack {
		t.Errorf("Status(B) after rollback = %v", st)
	}
	if st, _ := b.Status(l2); st != StatusActive {
		t.Errorf("Status(l2) after rollback = %v", st)
	}
	var nf *ContractNotFoundError
	if _, err := b.Fetch(fetch(cb, "B", ps("alice"), ps("alice"))); !errors.As(err, &nf) || nf.ContractID != cb {
		t.Errorf("fetch of a rolled-back contract: %v", err)
	}
	d := okC(b.Create(create("D", ps("alice"), nil))) // index 4
	okN(b.BeginExercise(exercise(l2, "L2", "Ch", true, ps("alice"), ps("alice"), ps("alice"))))
	okN(b.EndExercise(value.Unit{})) // index 5
	res := must[*Result](t)(b.Finish())
	tr := res.Transaction
	if got, want := shape(tr), "CA#0 R(FL#2 CB#3 XCh!(CC#5)#4)#1 CD#6 XCh()#7"; got != want {
		t.Errorf("shape = %s, want %s", got, want)
	}
	r := Hash{1, 2, 3}
	ch := DeriveNodeSeed(r, 3)
	want := []NodeSeed{{0, DeriveNodeSeed(r, 0)}, {3, DeriveNodeSeed(r, 2)}, {4, ch}, {5, DeriveNodeSeed(ch, 0)}, {6, DeriveNodeSeed(r, 4)}, {7, DeriveNodeSeed(r, 5)}}
	if diff := cmp.Diff(want, tr.NodeSeeds); diff != "" {
		t.Errorf("seeds (-want +got):\n%s", diff)
	}
	wantEff := Effects{
		Inputs:     []value.ContractID{l1, l2},
		Created:    []value.ContractID{a, d},
		Archived:   []value.ContractID{l2},
		ConsumedBy: map[value.ContractID]NodeID{l2: 7},
	}
	if diff := cmp.Diff(wantEff, res.Effects); diff != "" {
		t.Errorf("effects (-want +got):\n%s", diff)
	}
}

func TestEndTryLeavesNoRollback(t *testing.T) {
	b := newBuilder("alice")
	b.BeginTry()
	b.BeginTry()
	x := must[value.ContractID](t)(b.Create(create("X", ps("alice"), nil)))
	if err := b.EndTry(); err != nil {
		t.Fatal(err)
	}
	if err := b.EndTry(); err != nil {
		t.Fatal(err)
	}
	y := must[value.ContractID](t)(b.Create(create("Y", ps("alice"), nil)))
	tr := must[*Result](t)(b.Finish()).Transaction
	if got := shape(tr); got != "CX#0 CY#1" {
		t.Errorf("shape = %s", got)
	}
	r := Hash{1, 2, 3}
	if diff := cmp.Diff([]NodeSeed{{0, DeriveNodeSeed(r, 0)}, {1, DeriveNodeSeed(r, 1)}}, tr.NodeSeeds); diff != "" {
		t.Error(diff)
	}
	if st, _ := b.Status(x); st != StatusActive || x == y {
		t.Errorf("Status(X) = %v", st)
	}
}

func TestNestedRollbacksNormalized(t *testing.T) {
	b := newBuilder("alice")
	b.BeginTry()
	b.BeginTry()
	must[value.ContractID](t)(b.Create(create("X", ps("alice"), nil)))
	must[NodeID](t)(b.BeginExercise(exercise(ledgerCid(1), "L", "Ch", false, ps("alice"), ps("alice"), ps("alice"))))
	if err := b.RollbackTry(); err != nil { // aborts Ch, rolls back the inner try
		t.Fatal(err)
	}
	if err := b.RollbackTry(); err != nil { // the handler re-throws: the outer try rolls back too
		t.Fatal(err)
	}
	b.BeginTry()
	if err := b.RollbackTry(); err != nil { // an empty rollback
		t.Fatal(err)
	}
	tr := must[*Result](t)(b.Finish()).Transaction
	if got, want := shape(tr), "R(CX#1 XCh!()#2)#0"; got != want {
		t.Errorf("shape = %s, want %s", got, want)
	}
}

func TestRollbackNUCK(t *testing.T) {
	nuck := func() *Builder {
		return NewBuilder(Config{ActAs: ps("alice"), TransactionSeed: Hash{9}, PreparationTime: 5, Mode: ModeNUCK})
	}
	l := ledgerCid(3)
	tests := []struct {
		name string
		body func(b *Builder) error
		msg  string // "" for success
	}{
		{"fetch and non-consuming exercise may roll back", func(b *Builder) error {
			if _, err := b.Fetch(fetch(l, "L", ps("alice"), ps("alice"))); err != nil {
				return err
			}
			_, err := b.BeginExercise(exercise(l, "L", "Look", false, ps("alice"), ps("alice"), ps("alice")))
			return err
		}, ""},
		{"a create may not", func(b *Builder) error {
			_, err := b.Create(create("X", ps("alice"), nil))
			return err
		}, "Tried to rollback side-effectful node(s): Create of M:X@c1a1f8f2(00"},
		{"a consuming exercise may not", func(b *Builder) error {
			_, err := b.BeginExercise(exercise(l, "L", "Burn", true, ps("alice"), ps("alice"), ps("alice")))
			return err
		}, "Tried to rollback side-effectful node(s): Consuming exercise of Burn on M:L@c1a1f8f2(" + string(l) + ")"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := nuck()
			b.BeginTry()
			if err := tc.body(b); err != nil {
				t.Fatal(err)
			}
			err := b.RollbackTry()
			if tc.msg == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var er *EffectfulRollbackError
			if !errors.As(err, &er) || len(er.Nodes) != 1 {
				t.Fatalf("error %v", err)
			}
			if got := er.Error(); len(got) < len(tc.msg) || got[:len(tc.msg)] != tc.msg {
				t.Errorf("message %q, want prefix %q", got, tc.msg)
			}
		})
	}
}

func TestDoubleConsumption(t *testing.T) {
	l := ledgerCid(4)
	arch := exercise(l, "Iou", "Archive", true, ps("alice"), ps("alice"), ps("alice"))
	t.Run("second archive", func(t *testing.T) {
		b := newBuilder("alice")
		must[value.ContractID](t)(b.Create(create("Before", ps("alice"), nil)))
		must[NodeID](t)(b.BeginExercise(arch))
		must[NodeID](t)(b.EndExercise(value.Unit{}))
		_, err := b.BeginExercise(arch)
		var na *ContractNotActiveError
		if !errors.As(err, &na) {
			t.Fatalf("error %v", err)
		}
		if diff := cmp.Diff(&ContractNotActiveError{ContractID: l, TemplateID: tpl("Iou"), ConsumedBy: 1}, na); diff != "" {
			t.Error(diff)
		}
		want := "Update failed due to fetch of an inactive contract " + string(l) + " (M:Iou@c1a1f8f2).\nThe contract had been consumed in sub-transaction #NodeId(1):"
		if na.Error() != want {
			t.Errorf("message %q", na.Error())
		}
	})
	t.Run("fetch inside its own consuming choice", func(t *testing.T) {
		b := newBuilder("alice")
		must[NodeID](t)(b.BeginExercise(arch))
		var na *ContractNotActiveError
		if _, err := b.Fetch(fetch(l, "Iou", ps("alice"), ps("alice"))); !errors.As(err, &na) || na.ConsumedBy != 0 {
			t.Fatalf("error %v", err)
		}
	})
	t.Run("non-consuming twice is fine", func(t *testing.T) {
		b := newBuilder("alice")
		look := exercise(l, "Iou", "Look", false, ps("alice"), ps("alice"), ps("alice"))
		for range 2 {
			must[NodeID](t)(b.BeginExercise(look))
			must[NodeID](t)(b.EndExercise(value.Unit{}))
		}
		res := must[*Result](t)(b.Finish())
		if len(res.Effects.Archived) != 0 || !cmp.Equal(res.Effects.Inputs, []value.ContractID{l}) {
			t.Errorf("effects %+v", res.Effects)
		}
	})
}

func TestBuilderStateErrors(t *testing.T) {
	var se *BuilderStateError
	b := newBuilder("alice")
	if _, err := b.EndExercise(value.Unit{}); !errors.As(err, &se) {
		t.Errorf("EndExercise at the root: %v", err)
	}
	if err := b.EndTry(); !errors.As(err, &se) {
		t.Errorf("EndTry at the root: %v", err)
	}
	if err := b.RollbackTry(); !errors.As(err, &se) {
		t.Errorf("RollbackTry at the root: %v", err)
	}
	b.BeginTry()
	if _, err := b.Finish(); !errors.As(err, &se) {
		t.Errorf("Finish with an open try: %v", err)
	}
	must[NodeID](t)(b.BeginExercise(exercise(ledgerCid(1), "L", "Ch", false, ps("alice"), ps("alice"), ps("alice"))))
	if err := b.EndTry(); !errors.As(err, &se) {
		t.Errorf("EndTry inside an exercise: %v", err)
	}
	if !b.InExercise() {
		t.Error("InExercise = false")
	}
	b.BeginTry()
	must[NodeID](t)(b.BeginExercise(exercise(ledgerCid(2), "L", "Inner", false, ps("alice"), ps("alice"), ps("alice"))))
	var trace []string
	for _, o := range b.OpenExercises() {
		trace = append(trace, fmt.Sprintf("%s#%d", o.Exercise.Choice, o.Node))
	}
	if want := []string{"Inner#3", "Ch#1"}; !cmp.Equal(trace, want) {
		t.Errorf("OpenExercises = %v, want %v", trace, want)
	}
}

func TestTimeBounds(t *testing.T) {
	const let = value.Timestamp(1_000_000)
	tests := []struct {
		name string
		run  func(b *Builder) []bool
		want TimeBounds
		lts  []bool
	}{
		{"no time read", func(b *Builder) []bool { return nil }, Unconstrained, nil},
		{"get_time pins the time", func(b *Builder) []bool { b.GetTime(); return nil }, TimeBounds{let, let}, nil},
		{"ledger_time_lt true and false narrow both ends", func(b *Builder) []bool {
			return []bool{b.LedgerTimeLT(let + 10), b.LedgerTimeLT(let - 5), b.LedgerTimeLT(let + 20), b.LedgerTimeLT(let)}
		}, TimeBounds{let, let + 9}, []bool{true, false, true, false}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := NewBuilder(Config{ActAs: ps("alice"), LedgerTime: let})
			lts := tc.run(b)
			if !cmp.Equal(lts, tc.lts) {
				t.Errorf("results %v, want %v", lts, tc.lts)
			}
			res := must[*Result](t)(b.Finish())
			if res.TimeBounds != tc.want {
				t.Errorf("bounds %+v, want %+v", res.TimeBounds, tc.want)
			}
			if res.TimeBounds.Constrained() != (tc.want != Unconstrained) || !res.TimeBounds.Contains(let) {
				t.Error("Constrained/Contains")
			}
		})
	}
}

// TestFinishIntoIsFinish checks that FinishInto returns what Finish does
// and that its transaction keeps nothing of the Builder: a Builder reset
// and used again leaves it as it was.
func TestFinishIntoIsFinish(t *testing.T) {
	build := func(b *Builder, party string, n int) {
		b.Init(Config{ActAs: ps(party), TransactionSeed: Hash{1, 2, 3}, PreparationTime: 1_700_000_000_000_000})
		for i := range n {
			in := CreateInput{PackageName: "p", TemplateID: tpl("Ping"), Signatories: ps(party), Observers: ps("bob"),
				Arg: value.Record{RecordID: new(tpl("Ping")), Fields: []value.RecordField{{Label: "id", Value: value.Int64(i)}}}}
			if _, err := b.Create(in); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, n := range []int{0, 1, 2, 3, 5} {
		var want, b Builder
		build(&want, "alice", n)
		wr, err := want.Finish()
		if err != nil {
			t.Fatal(err)
		}
		build(&b, "alice", n)
		var r Result
		var f Finished
		if r.Transaction, r.TimeBounds, err = b.FinishInto(&f, &r.Effects); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(&r, wr) {
			t.Fatalf("%d creates: FinishInto gives %+v, Finish %+v", n, r, *wr)
		}
		b = Builder{}
		build(&b, "carol", n)
		if !reflect.DeepEqual(&r, wr) {
			t.Fatalf("%d creates: the Builder's reuse changed the transaction", n)
		}
	}
}
