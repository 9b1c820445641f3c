package ledger

import (
	"slices"

	"testing"

	badger "github.com/dgraph-io/badger/v4"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// TopologyOffsetsForTest returns the offsets of all stored updates, in order.
func TopologyOffsetsForTest(t testing.TB, n *Node) []int64 {
	t.Helper()
	var out []int64
	err := n.st.View(func(r *store.Reader) error {
		return r.Scan([]byte(store.PrefixUpdate), nil, func(_, v []byte) (bool, error) {
			var e logEntry
			if err := decodeLogEntry(v, &e); err != nil {
				return false, err
			}
			out = append(out, e.Offset)
			return true, nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// UpdateAtForTest returns the stored update at an offset, as a reader of
// every party's topology events sees it.
func UpdateAtForTest(t testing.TB, n *Node, off int64) update.Update {
	t.Helper()
	var e logEntry
	err := n.st.View(func(r *store.Reader) error {
		raw, err := r.Get(store.UpdateKey(off))
		if err != nil {
			return err
		}
		return decodeLogEntry(raw, &e)
	})
	if err != nil {
		t.Fatal(err)
	}
	all := UpdateReadFormat{Topology: &TopologyReadFormat{ParticipantAuthorizations: []string{}}}
	u, err := n.typedRenderer().update(&e, newRenderer(n.typedUpdateSpec(all), n))
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// BadgerOptionsForBench returns the Badger options a node would use.
func BadgerOptionsForBench(inMemory bool, dir string) badger.Options {
	o := Options{InMemory: inMemory}
	if !inMemory {
		o.Dir = dir
	}
	return o.withDefaults().badgerOptions()
}

// StoreDumpForTest returns every key and value of the store, for tests
// that check that a request left no trace.
func StoreDumpForTest(t testing.TB, n *Node) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := n.st.View(func(r *store.Reader) error {
		return r.Scan(nil, nil, func(k, v []byte) (bool, error) {
			out[string(k)] = string(v)
			return true, nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// DBForBench returns the node's Badger database.
func DBForBench(n *Node) *badger.DB { return n.st.DB() }

// DecodeLogEntryForBench decodes a stored log entry (binary or JSON),
// as every reader of the log does.
func DecodeLogEntryForBench(v []byte) error {
	var e logEntry
	return decodeLogEntry(v, &e)
}

// UpdateKeyForBench is the store key of the update at an offset.
func UpdateKeyForBench(off int64) []byte { return store.UpdateKey(off) }

// SetInterpretedHookForTest makes every submission call fn between its
// interpretation (on a snapshot) and its commit, so that a test can hold
// racing submissions until all of them have interpreted. Set it before
// the node is used concurrently.
func SetInterpretedHookForTest(n *Node, fn func()) { n.hookInterpreted = fn }

// KnownPartiesForTest returns the parties the node remembers as allocated
// (checkPartiesKnown's memory), sorted.
func KnownPartiesForTest(n *Node) []string {
	var out []string
	n.knownParties.Range(func(k, _ any) bool {
		out = append(out, k.(string))
		return true
	})
	slices.Sort(out)
	return out
}

// StoreDARUncheckedForTest stores a DAR's packages, unvetted, without
// reading it as an upload does (no type check): a store written before
// uploads were type-checked.
func StoreDARUncheckedForTest(t testing.TB, n *Node, data []byte) {
	t.Helper()
	dar, err := lf.ReadDAR(data, n.readOptions())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := n.writeMissingPayloads(dar); err != nil {
		t.Fatal(err)
	}
	if err := n.commitUpload(dar, true, ""); err != nil {
		t.Fatal(err)
	}
}
