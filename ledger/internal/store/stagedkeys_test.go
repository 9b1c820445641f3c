package store

import (
	"bytes"
	"fmt"
	"testing"
)

// TestStagedKeys checks a Tx's lookups of its staged keys through its
// filter of their bits (keyBit): keys that share a bit, or not, are found
// with their latest value, and keys never staged are not, below and
// above indexFrom writes.
func TestStagedKeys(t *testing.T) {
	var tx Tx
	var keys [][]byte
	for i := range 3 * indexFrom {
		k := fmt.Appendf(nil, "k/%d", i)
		keys = append(keys, k)
		tx.SetOwned(k, []byte("first"))
		tx.SetOwned(k, fmt.Appendf(nil, "v%d", i)) // replaces the first
		if len(tx.writes) != i+1 {
			t.Fatalf("%d writes staged after %d keys", len(tx.writes), i+1)
		}
		for j, k := range keys {
			w, ok := tx.staged(k)
			if !ok || !bytes.Equal(tx.writes[w].val, fmt.Appendf(nil, "v%d", j)) {
				t.Fatalf("key %s: staged %v, %d", k, ok, w)
			}
		}
		for _, k := range [][]byte{nil, []byte("k/"), fmt.Appendf(nil, "k/%d", 10*len(keys)), fmt.Appendf(nil, "x/%d", i)} {
			if _, ok := tx.staged(k); ok {
				t.Fatalf("key %q never staged is", k)
			}
		}
	}
}
