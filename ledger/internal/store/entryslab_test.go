package store

import "testing"

// TestEntrySlab checks that the slab hands out distinct entries across
// its arrays, and that reset drops their keys and values and keeps at
// most maxEntryChunks arrays.
func TestEntrySlab(t *testing.T) {
	var s entrySlab
	n := (maxEntryChunks + 2) * entryChunk
	seen := make(map[any]bool, n)
	for i := range n {
		e := s.next()
		if seen[e] {
			t.Fatalf("entry %d handed out twice", i)
		}
		seen[e] = true
		e.Key, e.Value = []byte("k"), []byte("v")
	}
	s.reset()
	if s.used != 0 || len(s.chunks) != maxEntryChunks {
		t.Fatalf("after reset: used %d, %d chunks; want 0, %d", s.used, len(s.chunks), maxEntryChunks)
	}
	for c, chunk := range s.chunks {
		for i := range chunk {
			if chunk[i].Key != nil || chunk[i].Value != nil {
				t.Fatalf("chunk %d entry %d kept its key or value", c, i)
			}
		}
	}
	if e := s.next(); e != &s.chunks[0][0] {
		t.Fatal("the first entry after reset is not the first array's first")
	}
}
