package value

import (
	"strings"
	"testing"
)

// TestKnownPartyNotKept: a party the checker knows already is built from
// its known string, not kept from the text again; keep copies the first
// short string it keeps on its own, and the whole text once a second
// string is kept.
func TestKnownPartyNotKept(t *testing.T) {
	t.Parallel()
	alice := "alice::1220" + strings.Repeat("ab", 32)
	raw := []byte(`["` + alice + `","` + alice + `"]`)
	c, root, err := newChecker(raw, tList(tParty), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer putChecker(c)
	c.build, c.count = true, true
	c.parties.validPartyAt(alice) // met before
	v, err := c.value(0, tList(tParty), nil, root, 0)
	if err != nil {
		t.Fatal(err)
	}
	if l, ok := v.(List); !ok || len(l) != 2 || l[0] != Party(alice) || l[1] != Party(alice) {
		t.Fatalf("value %#v, want two %s", v, alice)
	}
	if c.tape.shared != "" || c.tape.keptOne {
		t.Errorf("a known party was kept (shared %q, keptOne %v)", c.tape.shared, c.tape.keptOne)
	}

	tp, serr := tokenize([]byte(`["p1","p2","` + alice + `"]`))
	if serr != nil {
		t.Fatal(serr.msg)
	}
	if s := tp.keep(1); s != "p1" || tp.shared != "" {
		t.Errorf("first keep = %q with shared %q, want p1 copied alone", s, tp.shared)
	}
	if s := tp.keep(2); s != "p2" || tp.shared == "" {
		t.Errorf("second keep = %q with shared %q, want p2 from the shared text", s, tp.shared)
	}
	if s := tp.keep(3); s != alice {
		t.Errorf("third keep = %q, want %s", s, alice)
	}
}
