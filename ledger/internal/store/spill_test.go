package store

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	badger "github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
)

func openSpilling(t *testing.T) *Store {
	t.Helper()
	o := badger.DefaultOptions("").WithInMemory(true).WithLogger(nil).
		WithCompression(options.None).WithBlockCacheSize(0).WithMemTableSize(8 << 20)
	s, err := Open(Options{Badger: o, Spill: Spill{Above: 64 << 10, Inline: 256 << 10}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func pattern(n int, seed byte) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7) + seed
	}
	return b
}

// TestSpill: values above a Badger in-memory store's limits are stored,
// read back (Get, Scan, ScanReverse, inside later operations), and their
// chunks are released when overwritten, deleted, or not committed.
func TestSpill(t *testing.T) {
	s := openSpilling(t)
	chunks := func() int {
		n := 0
		s.View(func(r *Reader) error {
			return r.Scan([]byte(PrefixSpill), nil, func(_, _ []byte) (bool, error) { n++; return true, nil })
		})
		return n
	}
	submit := func(op Op) {
		t.Helper()
		if _, err := s.Submit(op); err != nil {
			t.Fatal(err)
		}
	}
	big := pattern(3<<20+5, 1)
	medium := pattern(100<<10, 2)
	submit(func(tx *Tx) (any, error) {
		tx.Set([]byte("a/big"), big)
		tx.Set([]byte("a/medium"), medium)
		tx.Set([]byte("a/small"), []byte("s"))
		return nil, nil
	})
	if got, want := chunks(), 13+1; got != want {
		t.Errorf("%d chunks, want %d", got, want)
	}
	want := map[string][]byte{"a/big": big, "a/medium": medium, "a/small": []byte("s")}
	check := func(r interface {
		Get([]byte) ([]byte, error)
		Scan(prefix, start []byte, fn func(key, val []byte) (bool, error)) error
	}) error {
		for k, v := range want {
			got, err := r.Get([]byte(k))
			if err != nil || !bytes.Equal(got, v) {
				return fmt.Errorf("Get(%s): %d bytes (%v), want %d", k, len(got), err, len(v))
			}
		}
		n := 0
		err := r.Scan([]byte("a/"), nil, func(k, v []byte) (bool, error) {
			n++
			if !bytes.Equal(v, want[string(k)]) {
				return false, fmt.Errorf("Scan %s: %d bytes, want %d", k, len(v), len(want[string(k)]))
			}
			return true, nil
		})
		if err == nil && n != len(want) {
			err = fmt.Errorf("Scan saw %d keys, want %d", n, len(want))
		}
		return err
	}
	if err := s.View(func(r *Reader) error { return check(r) }); err != nil {
		t.Fatal(err)
	}
	if err := s.View(func(r *Reader) error {
		return r.ScanReverse([]byte("a/"), nil, func(k, v []byte) (bool, error) {
			if !bytes.Equal(v, want[string(k)]) {
				return false, fmt.Errorf("ScanReverse %s: %d bytes", k, len(v))
			}
			return true, nil
		})
	}); err != nil {
		t.Fatal(err)
	}
	// A later operation reads them; overwriting and deleting releases the
	// old chunks in the same commit.
	other := pattern(2<<20, 3)
	submit(func(tx *Tx) (any, error) {
		if err := check(tx); err != nil {
			return nil, err
		}
		tx.Set([]byte("a/big"), other)
		tx.Delete([]byte("a/medium"))
		return nil, nil
	})
	if got, want := chunks(), 8; got != want {
		t.Errorf("after overwrite and delete: %d chunks, want %d", got, want)
	}
	delete(want, "a/medium")
	want["a/big"] = other
	if err := s.View(func(r *Reader) error { return check(r) }); err != nil {
		t.Fatal(err)
	}
	// An operation that fails after its values were spilled leaves no chunk.
	_, err := s.Submit(func(tx *Tx) (any, error) {
		tx.Set([]byte("b/big"), big)
		for i := range 4000 {
			tx.Set([]byte(fmt.Sprint("b/", i)), make([]byte, 500))
		}
		return nil, nil
	})
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("oversized operation: %v", err)
	}
	if got, want := chunks(), 8; got != want {
		t.Errorf("after a failed operation: %d chunks, want %d", got, want)
	}
	submit(func(tx *Tx) (any, error) { tx.Delete([]byte("a/big")); return nil, nil })
	if got := chunks(); got != 0 {
		t.Errorf("after deleting every spilled value: %d chunks", got)
	}
}
