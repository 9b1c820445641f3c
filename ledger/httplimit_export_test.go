package ledger

import (
	"testing"

	badger "github.com/dgraph-io/badger/v4"

	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// InMemoryBadgerOptionsForTest are the Badger options of an in-memory node.
func InMemoryBadgerOptionsForTest() badger.Options {
	return Options{InMemory: true}.withDefaults().badgerOptions()
}

// DiskBadgerOptionsForTest are the Badger options of a node on disk in dir.
func DiskBadgerOptionsForTest(dir string) badger.Options {
	return Options{Dir: dir}.withDefaults().badgerOptions()
}

// DiskSpillForTest is the spill configuration of a node on disk in dir.
func DiskSpillForTest(dir string) store.Spill { return Options{Dir: dir}.withDefaults().spill() }

// InMemorySpillForTest is the spill configuration of an in-memory node.
func InMemorySpillForTest() store.Spill { return Options{InMemory: true}.withDefaults().spill() }

// StoredSizesForTest returns every key of the node's store with the size
// of its value.
func StoredSizesForTest(t testing.TB, n *Node) map[string]int {
	t.Helper()
	out := map[string]int{}
	err := n.st.View(func(r *store.Reader) error {
		return r.Scan(nil, nil, func(k, v []byte) (bool, error) {
			out[string(k)] = len(v)
			return true, nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
