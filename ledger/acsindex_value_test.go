package ledger

import (
	"bytes"
	"testing"

	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// TestAppendActiveValueIsStores pins appendActiveValue, which builds an
// active entry's value in a buffer of its own, to the store's encodings
// of the value (store.ACSIndexValue, store.ACSIndexRecordValue), and
// activeValueSize to its length.
func TestAppendActiveValueIsStores(t *testing.T) {
	c := &txNode{ContractID: "00ab", TemplateID: "pkg:Mod:Tpl", PackageName: "ping"}
	for _, record := range [][]byte{nil, {}, []byte(`{"a":1}`)} {
		want := store.ACSIndexValue(42, c.TemplateID, c.PackageName)
		if record != nil {
			want = store.ACSIndexRecordValue(42, c.TemplateID, c.PackageName, record)
		}
		got := appendActiveValue([]byte("prefix"), 42, c, record)
		if !bytes.Equal(got[len("prefix"):], want) {
			t.Errorf("record %q: appendActiveValue = %q, want %q", record, got[len("prefix"):], want)
		}
		if n := activeValueSize(c, record); n != len(want) {
			t.Errorf("record %q: activeValueSize = %d, want %d", record, n, len(want))
		}
	}
}
