package ledger

import (
	"bytes"
	"testing"

	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// TestChunksEqual: a prepared snapshot's blob, stored in chunks, compares
// equal to exactly its bytes (PrepareSnapshot shares a cached package's
// payload only then).
func TestChunksEqual(t *testing.T) {
	t.Parallel()
	n, err := Open(Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	data := make([]byte, 2*store.BlobChunk+1000)
	for i := range data {
		data[i] = byte(i * 7)
	}
	prefix := store.BlobPrefix("pkg", "x")
	if err := n.st.PutBlob(prefix, data); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := n.st.Backup(&buf); err != nil {
		t.Fatal(err)
	}
	st, err := store.Prepare(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	flipped := bytes.Clone(data)
	flipped[store.BlobChunk+5] ^= 1
	for _, tc := range []struct {
		name string
		want []byte
		eq   bool
	}{
		{"the same bytes", bytes.Clone(data), true},
		{"a byte of the second chunk differs", flipped, false},
		{"one byte shorter", data[:len(data)-1], false},
		{"one byte longer", append(bytes.Clone(data), 0), false},
		{"the first chunk only", data[:store.BlobChunk], false},
		{"empty", nil, false},
	} {
		if got := chunksEqual(st, prefix, tc.want); got != tc.eq {
			t.Errorf("%s: chunksEqual = %v, want %v", tc.name, got, tc.eq)
		}
	}
}
