package ledger

import (
	"fmt"
	"math/rand/v2"
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
				return scanEntries(r, 0, hi, desc, party, 0, func(e *logEntry) (bool, error) {
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

// TestScanEntriesDense: a dense scan of a party's updates (which reads
// the log itself through runs of the party's updates) visits the
// entries the index scan visits, in order, stopping where it stops, on
// ledgers of random runs in and out of a party's updates and in random
// ranges.
func TestScanEntriesDense(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(23, 5))
	n := openTestNode(t, Options{})
	var entries []*logEntry
	in := rng.IntN(2) == 0
	for len(entries) < 600 {
		run := rng.IntN(3 * denseRun)
		for range run {
			sigs := []string{"b"}
			if in {
				sigs = []string{"a", "b"}
			}
			entries = append(entries, &logEntry{Kind: kindTransaction, UpdateID: fmt.Sprint("u", len(entries)), RecordTime: "2026-01-01T00:00:00Z",
				SynchronizerID: "s", Nodes: []txNode{{ContractID: fmt.Sprintf("00%04x", len(entries)), TemplateID: "pkg:M:T", PackageName: "p",
					Argument: []byte(`{}`), Signatories: sigs, CreatedAt: "2026-01-01T00:00:00Z"}}})
		}
		in = !in
	}
	end := appendEntries(t, n, entries)
	scan := func(lo, hi int64, party string, dense bool, stop int) []int64 {
		how := scanLend
		if dense {
			how |= scanDense
		}
		return scanOffsets(t, n, lo, hi, party, how, stop)
	}
	for i := range 200 {
		lo := rng.Int64N(end)
		hi := lo + rng.Int64N(end-lo+1)
		if i < 3*denseRun {
			lo, hi = 0, end
		}
		for _, party := range []string{"a", "b"} {
			stop := 1 + rng.IntN(int(end))
			if i < 3*denseRun {
				stop = 1 + i // at and around the first switch to the log
			}
			want, got := scan(lo, hi, party, false, stop), scan(lo, hi, party, true, stop)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("party %s in (%d, %d], stopping after %d: the dense scan differs (-index +dense):\n%s", party, lo, hi, stop, diff)
			}
		}
	}
}

// TestScanEntriesDenseRoles: a dense scan visits the entries the index
// scan visits when the party is in them in each role the index lists it
// in (a create's signatory or observer, an archive's stakeholder, an
// exercise's actor, an engine node's witness, a reassigned contract's
// stakeholder, a topology event's party), in runs in and out of its
// updates.
func TestScanEntriesDenseRoles(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 9))
	n := openTestNode(t, Options{})
	entry := func(i int, in bool) *logEntry {
		p := "b"
		if in {
			p = "a"
		}
		e := &logEntry{Kind: kindTransaction, UpdateID: fmt.Sprint("u", i), RecordTime: "2026-01-01T00:00:00Z", SynchronizerID: "s"}
		node := txNode{ContractID: fmt.Sprintf("00%04x", i), TemplateID: "pkg:M:T", PackageName: "p", Argument: []byte(`{}`), CreatedAt: "2026-01-01T00:00:00Z"}
		exercise := func(choice string, consuming, engine bool) {
			node.Exercise, node.Consuming, node.Engine, node.Choice, node.CreatedAt = true, consuming, engine, choice, ""
		}
		switch rng.IntN(8) {
		case 0:
			node.Signatories = []string{"z", p}
		case 1:
			node.Signatories, node.Observers = []string{"z"}, []string{p}
		case 2:
			exercise("Archive", true, false)
			node.Stakeholders, node.Acting = []string{"z", p}, []string{"z"}
		case 3:
			exercise("C", false, false)
			node.Stakeholders, node.Acting = []string{"z"}, []string{p}
		case 4:
			exercise("C", false, true)
			node.Stakeholders, node.Acting, node.Witnesses = []string{"z"}, []string{"z"}, []string{"z", p}
		case 5:
			node.Engine, node.Signatories, node.Witnesses = true, []string{"z"}, []string{"z", p}
		case 6:
			node.Signatories = []string{"z", p}
			e.Kind, e.Reassign = kindReassignment, &reassignNode{ReassignmentID: "r", Source: "s1", Target: "s2", Submitter: "z", Counter: 1, Contract: node}
			return e
		default:
			e.Kind, e.Topology = kindTopology, []topologyEvent{{Event: topologyEventKind{
				ParticipantAuthorizationAdded: &wrapped[participantAuthorization]{Value: participantAuthorization{PartyID: p, ParticipantID: "pp"}}}}}
			return e
		}
		e.Nodes = []txNode{node}
		return e
	}
	var entries []*logEntry
	for in := true; len(entries) < 800; in = !in {
		for range rng.IntN(3 * denseRun) {
			entries = append(entries, entry(len(entries), in))
		}
	}
	end := appendEntries(t, n, entries)
	index, dense := scanOffsets(t, n, 0, end, "a", scanLend, len(entries)), scanOffsets(t, n, 0, end, "a", scanLend|scanDense, len(entries))
	if diff := cmp.Diff(index, dense); diff != "" {
		t.Fatalf("the dense scan differs (-index +dense):\n%s", diff)
	}
}

// appendEntries commits entries at the next offsets (set in them) and
// returns the ledger end.
func appendEntries(t *testing.T, n *Node, entries []*logEntry) int64 {
	t.Helper()
	_, err := n.st.Submit(func(tx *store.Tx) (any, error) {
		for _, e := range entries {
			e.Offset = tx.NextOffset()
			appendEntry(tx, e)
		}
		return nil, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n.st.LedgerEnd()
}

// scanOffsets returns the offsets of the entries an ascending
// scanEntries of (lo, hi] gives its fn, which stops after stop of them.
func scanOffsets(t *testing.T, n *Node, lo, hi int64, party string, how scanHow, stop int) []int64 {
	t.Helper()
	var seen []int64
	err := n.st.View(func(r *store.Reader) error {
		return scanEntries(r, lo, hi, false, party, how, func(e *logEntry) (bool, error) {
			seen = append(seen, e.Offset)
			return len(seen) < stop, nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return seen
}
