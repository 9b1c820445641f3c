package engine

import (
	"testing"

	"github.com/ledgernode/ledgernode/daml/value"
)

// TestEngineParty: fromLedgerValue's parties are the parties given, kept
// or not, whatever slot they share (one of len(parties) names).
func TestEngineParty(t *testing.T) {
	e := newTestEngine(nil, Options{})
	names := []string{"", "a", "alice::1220ab", "bob::1220cd", "alice::1220ac", "b"}
	for range 3 {
		for _, s := range names {
			v, err := e.fromLedgerValue(value.Party(s))
			if err != nil {
				t.Fatal(err)
			}
			if p, ok := v.(Party); !ok || string(p) != s {
				t.Fatalf("fromLedgerValue(Party(%q)) = %#v", s, v)
			}
		}
	}
}

// TestCreateRoom: a room holds one create's update; a second create in it
// is allocated apart, and the first stays as it was.
func TestCreateRoom(t *testing.T) {
	var r CreateRoom
	t1, t2 := tid("R"), tid("S")
	u1 := r.CreateCommandKept(t1, Int64(1), nil).(*PAP)
	u2 := r.CreateCommandKept(t2, Int64(2), nil).(*PAP)
	if u1 != &r.c.p || u2 == u1 {
		t.Fatalf("the first update is not the room's, or the second is too")
	}
	for i, c := range []struct {
		u   *PAP
		id  string
		arg Value
	}{{u1, "R", Int64(1)}, {u2, "S", Int64(2)}} {
		cu := c.u.fn.(*createUpdate)
		if cu.t != tid(c.id) || len(c.u.args) != 1 || c.u.args[0] != c.arg || c.u.arity != 2 || cu.lv != nil {
			t.Errorf("update %d: %+v of %+v", i, c.u, cu)
		}
	}
	var nilRoom *CreateRoom
	if u := nilRoom.CreateCommandKept(t1, Int64(3), nil).(*PAP); u.args[0] != Int64(3) {
		t.Errorf("nil room's update %+v", u)
	}
}
