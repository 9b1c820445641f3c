package ledger

import (
	"encoding/json"
	"fmt"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
)

// TestDecodeLogEntryWithSharesNames: entries decoded through one intern
// table are the entries json.Unmarshal gives, and share one copy of the
// names they repeat (parties, template ids, synchronizer ids).
func TestDecodeLogEntryWithSharesNames(t *testing.T) {
	names := &internTable{}
	var got [2]logEntry
	for i := range got {
		b := fullEntry().encodeJSON()
		var want logEntry
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		if err := decodeLogEntryWith(b, &got[i], names); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got[i], cmpStored); diff != "" {
			t.Fatalf("entry %d differs from json.Unmarshal (-want +got):\n%s", i, diff)
		}
	}
	same := func(what, a, b string) {
		t.Helper()
		if unsafe.StringData(a) != unsafe.StringData(b) {
			t.Errorf("%s: two copies of %q", what, a)
		}
	}
	a, b := got[0].Nodes[1], got[1].Nodes[1]
	same("signatory", a.Signatories[0], b.Signatories[0])
	same("stakeholder", a.Stakeholders[1], b.Stakeholders[1])
	same("witness", a.Witnesses[2], b.Witnesses[2])
	same("template id", a.TemplateID, b.TemplateID)
	same("synchronizer id", got[0].SynchronizerID, got[1].SynchronizerID)
	same("the reassignment's source", got[0].Reassign.Source, got[1].Reassign.Source)
}

// TestInternRecent: the intern table's cache of recent names gives the
// table's one copy of each name, whatever names share a slot, and nothing
// the table did not keep (past maxInterned, each interning is a copy of
// its own, as without the cache).
func TestInternRecent(t *testing.T) {
	names := &internTable{}
	if s := names.intern(nil); s != "" {
		t.Fatalf("intern(nil) = %q", s)
	}
	// Names of one length, first, middle and last byte: one slot for all.
	var first []string
	for i := range 300 {
		raw := []byte(fmt.Sprintf("a::%04d::z", i))
		raw[5] = 'm' // the middle byte, the same for all
		s := names.intern(raw)
		if s != string(raw) {
			t.Fatalf("intern(%q) = %q", raw, s)
		}
		first = append(first, s)
	}
	for round := range 2 {
		for i, want := range first {
			if s := names.intern([]byte(want)); unsafe.StringData(s) != unsafe.StringData(want) {
				t.Fatalf("round %d: %q interned again is another copy", round, want)
			}
			if i%7 == 0 { // another name in the slot between two of the same
				names.intern([]byte(first[(i+1)%len(first)]))
			}
		}
	}
	for i := len(names.m); i < maxInterned; i++ {
		names.intern(fmt.Appendf(nil, "fill-%d", i))
	}
	over := []byte("over the bound")
	a, b := names.intern(over), names.intern(over)
	if a != string(over) || b != a || unsafe.StringData(a) == unsafe.StringData(b) {
		t.Fatalf("past the bound: %q and %q share their bytes, or differ", a, b)
	}
	if s := names.intern([]byte(first[3])); unsafe.StringData(s) != unsafe.StringData(first[3]) {
		t.Fatalf("past the bound, a kept name %q is another copy", first[3])
	}
}
