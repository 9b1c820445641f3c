package ledger

import (
	"encoding/json"
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
