package tx

import (
	"reflect"
	"testing"

	"github.com/ledgernode/ledgernode/daml/value"
)

// TestFinishIntoOverwrites checks that FinishInto sets every field of an
// Effects that held another transaction's (a caller's reused Result):
// what Finish gives, for a transaction of root creates and for one with
// exercises, a fetch and a rollback; and that on an error it leaves the
// Effects as they were.
func TestFinishIntoOverwrites(t *testing.T) {
	stale := func() Effects {
		c := []value.ContractID{ledgerCid(7)}
		return Effects{Inputs: c, Created: c, Archived: c, Transient: c, ConsumedBy: map[value.ContractID]NodeID{ledgerCid(7): 9}}
	}
	builds := map[string]func(b *Builder){
		"creates": func(b *Builder) {
			must[value.ContractID](t)(b.Create(create("A", ps("alice"), nil)))
		},
		"exercises": func(b *Builder) {
			a := must[value.ContractID](t)(b.Create(create("A", ps("alice"), nil)))
			b.BeginTry()
			must[NodeID](t)(b.Fetch(fetch(ledgerCid(1), "L", ps("alice"), ps("alice"))))
			must[value.ContractID](t)(b.Create(create("B", ps("alice"), nil)))
			if err := b.RollbackTry(); err != nil {
				t.Fatal(err)
			}
			must[NodeID](t)(b.BeginExercise(exercise(a, "A", "Ch", true, ps("alice"), ps("alice"), ps("alice"))))
			must[NodeID](t)(b.EndExercise(value.Unit{}))
		},
	}
	for name, build := range builds {
		want := newBuilder("alice")
		build(want)
		wr := must[*Result](t)(want.Finish())
		b := newBuilder("alice")
		build(b)
		var f Finished
		e := stale()
		tr, tb, err := b.FinishInto(&f, &e)
		if err != nil {
			t.Fatal(err)
		}
		if got := (&Result{Transaction: tr, Effects: e, TimeBounds: tb}); !reflect.DeepEqual(got, wr) {
			t.Errorf("%s: FinishInto gives %+v, Finish %+v", name, *got, *wr)
		}
	}
	b := newBuilder("alice")
	b.BeginTry() // still open: Finish fails
	var f Finished
	e := stale()
	if _, _, err := b.FinishInto(&f, &e); err == nil {
		t.Fatal("FinishInto with an open try: no error")
	}
	if want := stale(); !reflect.DeepEqual(e, want) {
		t.Errorf("a failed FinishInto changed the effects to %+v", e)
	}
}
