package ledger

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// TestScanEntriesReusesEntry: scanEntries decodes every entry into one
// logEntry and one key buffer; each entry a callback sees is the entry
// stored at its offset, nothing of the one before left in it, through the
// log and through a party's index, ascending and descending.
func TestScanEntriesReusesEntry(t *testing.T) {
	n := openTestNode(t, Options{})
	allocateParties(t, n, "alice", "bob")
	// Entries of the party "s" that set different members: a member one
	// sets and the next leaves out must not show through.
	bare := fullEntry()
	bare.CommandID, bare.WorkflowID, bare.Reassign, bare.ActAs, bare.SubmissionID = "", "", nil, nil, ""
	bare.Nodes = bare.Nodes[:1]
	_, err := n.st.Submit(func(tx *store.Tx) (any, error) {
		for i, e := range []*logEntry{fullEntry(), bare, fullEntry(), bare} {
			c := *e
			c.Offset, c.UpdateID = tx.NextOffset(), fmt.Sprint("u", i)
			appendEntry(tx, &c)
		}
		return nil, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	hi := n.st.LedgerEnd()
	for _, party := range []string{"", "s"} {
		for _, desc := range []bool{false, true} {
			var seen []int64
			var first *logEntry
			err := n.st.View(func(r *store.Reader) error {
				return scanEntries(r, 0, hi, desc, party, false, func(e *logEntry) (bool, error) {
					if first == nil {
						first = e
					} else if e != first {
						t.Errorf("party %q, desc %v: another logEntry at offset %d", party, desc, e.Offset)
					}
					want, err := n.entryAt("", e.Offset)
					if err != nil {
						return false, err
					}
					if diff := cmp.Diff(want, e, cmpStored); diff != "" {
						t.Errorf("party %q, desc %v: offset %d differs from its stored entry (-want +got):\n%s", party, desc, e.Offset, diff)
					}
					seen = append(seen, e.Offset)
					return true, nil
				})
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(seen) < 4 {
				t.Errorf("party %q, desc %v: %d entries seen, want 4 at least", party, desc, len(seen))
			}
		}
	}
}
