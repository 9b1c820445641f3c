package engine

import (
	"context"
	"reflect"
	"testing"
)

// TestPartyListShared checks that [p] of a party, what toParties gives a
// template's signatories, is one kept list for its party (partyList): the
// same list again for the same party, a list of its own for another
// party, and [p] onto a tail, [p, q] and [Text] lists made as before.
func TestPartyListShared(t *testing.T) {
	e := newTestEngine(nil, Options{})
	ctx := context.Background()
	one := mustEval(t, e, lam(cons(nilE(), v("p")), "p"))
	apply := func(fn Value, args ...Value) *List {
		t.Helper()
		got, err := e.Apply(ctx, fn, args...)
		if err != nil {
			t.Fatal(err)
		}
		l, _ := got.(*List)
		return l
	}
	a1, a2 := apply(one, Party("alice::1220ab")), apply(one, Party("alice::1220ab"))
	b := apply(one, Party("bob::1220ab"))
	if a1 != a2 {
		t.Errorf("[alice] twice: two lists %p, %p, not the kept one", a1, a2)
	}
	for _, c := range []struct {
		got  *List
		want []Value
	}{
		{a1, []Value{Party("alice::1220ab")}},
		{b, []Value{Party("bob::1220ab")}},
		{apply(one, Party("")), []Value{Party("")}},
		{apply(one, Text("alice::1220ab")), []Value{Text("alice::1220ab")}},
		{apply(mustEval(t, e, lam(cons(v("t"), v("p")), "p", "t")), Party("alice::1220ab"), ListOf(Party("bob"))), []Value{Party("alice::1220ab"), Party("bob")}},
		{apply(mustEval(t, e, lam(cons(nilE(), v("p"), v("q")), "p", "q")), Party("alice::1220ab"), Party("bob")), []Value{Party("alice::1220ab"), Party("bob")}},
	} {
		if got := c.got.Slice(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("list %v, want %v", got, c.want)
		}
	}
	if a3 := apply(mustEval(t, e, lam(cons(v("t"), v("p")), "p", "t")), Party("alice::1220ab"), (*List)(nil)); a3 != a1 {
		t.Errorf("[alice] onto an empty tail: a new list, not the kept one")
	}
}
