package store

import (
	"errors"
	"fmt"
	"testing"

	"github.com/dgraph-io/badger/v4"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"
)

// TestPrepareOverlay checks that an overlay store's Prepare gives what
// Prepare of its Backup stream gives (entries, shared values), that the
// stores restored from it read the same state, and that the store's
// later writes do not reach it.
func TestPrepareOverlay(t *testing.T) {
	t.Parallel()
	open := func(p *Prepared) *Store {
		s, err := Open(Options{Badger: badger.DefaultOptions("").WithInMemory(true), Restore: p.OverlayReader()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	src := open(Empty())
	if src.ov == nil {
		t.Fatal("a store restored from Empty is no overlay store")
	}
	if err := src.PutBlob(BlobPrefix("pkg", "p1"), pattern(2*BlobChunk+5, 1)); err != nil {
		t.Fatal(err)
	}
	if _, err := src.Submit(func(tx *Tx) (any, error) {
		tx.NextOffset()
		for i := range 50 {
			tx.Set(fmt.Appendf(nil, "k/%03d", i), fmt.Appendf(nil, "v%d", i))
		}
		tx.Delete([]byte("k/007"))
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	buf := backupOf(t, src)
	want, err := Prepare(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	got, ok, err := src.Prepare()
	if !ok || err != nil {
		t.Fatalf("Prepare: ok %v, %v", ok, err)
	}
	if diff := cmp.Diff(want.kvs, got.kvs, protocmp.Transform()); diff != "" {
		t.Errorf("entries (-stream +direct):\n%s", diff)
	}
	if diff := cmp.Diff(want.shared, got.shared); diff != "" {
		t.Errorf("shared values (-stream +direct):\n%s", diff)
	}
	var keys [][]byte
	for _, kv := range want.kvs {
		keys = append(keys, kv.Key)
	}
	keys = append(keys, []byte("k/007"), []byte("k/100"))
	wf, wr, wg := dump(t, open(want), keys)
	// Writes after Prepare are the store's own.
	if _, err := src.Submit(func(tx *Tx) (any, error) {
		tx.Set([]byte("k/000"), []byte("changed"))
		tx.Set([]byte("k/100"), []byte("new"))
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	gf, gr, gg := dump(t, open(got), keys)
	if diff := cmp.Diff([]any{wf, wr, wg}, []any{gf, gr, gg}); diff != "" {
		t.Errorf("restored state (-stream +direct):\n%s", diff)
	}
}

// TestPrepareNotOverlay checks that Prepare leaves a Badger store to its
// Backup stream, and that a closed overlay store is refused.
func TestPrepareNotOverlay(t *testing.T) {
	t.Parallel()
	s, err := Open(Options{Badger: badger.DefaultOptions("").WithInMemory(true).WithLogger(nil)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, ok, err := s.Prepare(); ok || err != nil {
		t.Errorf("Prepare of a Badger store: ok %v, %v; want false, nil", ok, err)
	}
	ov, err := Open(Options{Badger: badger.DefaultOptions("").WithInMemory(true), Restore: Empty().OverlayReader()})
	if err != nil {
		t.Fatal(err)
	}
	ov.Close()
	if _, ok, err := ov.Prepare(); !ok || !errors.Is(err, ErrClosed) {
		t.Errorf("Prepare of a closed overlay store: ok %v, %v; want true, ErrClosed", ok, err)
	}
}
