package store

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	badger "github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
	"github.com/google/go-cmp/cmp"
)

func openTest(t *testing.T, memTable int64) *Store {
	t.Helper()
	o := badger.DefaultOptions("").WithInMemory(true).WithLogger(nil).
		WithCompression(options.None).WithBlockCacheSize(0).WithMemTableSize(memTable).
		WithValueThreshold(16 << 10)
	s, err := Open(Options{Badger: o})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestFailedOpLeavesNothing(t *testing.T) {
	s := openTest(t, 8<<20)
	_, err := s.Submit(func(tx *Tx) (any, error) {
		tx.Set([]byte("a"), []byte("1"))
		tx.NextOffset()
		return nil, errors.New("rejected")
	})
	if err == nil || err.Error() != "rejected" {
		t.Fatalf("err = %v", err)
	}
	if s.LedgerEnd() != 0 {
		t.Fatalf("ledger end = %d after a failed op", s.LedgerEnd())
	}
	err = s.View(func(r *Reader) error { _, err := r.Get([]byte("a")); return err })
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("write of a failed op is visible: %v", err)
	}
	v, err := s.Submit(func(tx *Tx) (any, error) { return tx.NextOffset(), nil })
	if err != nil || v.(int64) != 1 {
		t.Fatalf("next op got offset %v, %v; want 1 (no gap)", v, err)
	}
}

func TestPanickingOp(t *testing.T) {
	s := openTest(t, 8<<20)
	if _, err := s.Submit(func(tx *Tx) (any, error) { panic("boom") }); err == nil {
		t.Fatal("panic not reported")
	}
	if _, err := s.Submit(func(tx *Tx) (any, error) { return nil, nil }); err != nil {
		t.Fatalf("committer dead after a panic: %v", err)
	}
}

func TestGroupSeesEarlierWrites(t *testing.T) {
	s := openTest(t, 8<<20)
	// Many concurrent increments of one counter: each op reads what the
	// ops before it (in its group or earlier groups) wrote.
	var wg sync.WaitGroup
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.Submit(func(tx *Tx) (any, error) {
				raw, err := tx.Get([]byte("n"))
				if err != nil && !errors.Is(err, ErrNotFound) {
					return nil, err
				}
				tx.Set([]byte("n"), OffsetBytes(DecodeOffset(raw)+1))
				tx.NextOffset()
				return nil, nil
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	var n int64
	s.View(func(r *Reader) error { raw, _ := r.Get([]byte("n")); n = DecodeOffset(raw); return nil })
	if n != 64 || s.LedgerEnd() != 64 {
		t.Fatalf("counter %d, ledger end %d; want 64, 64", n, s.LedgerEnd())
	}
}

func TestTxScanOverlay(t *testing.T) {
	s := openTest(t, 8<<20)
	s.Submit(func(tx *Tx) (any, error) {
		for _, k := range []string{"k/a", "k/c", "k/e", "z"} {
			tx.Set([]byte(k), []byte("old"))
		}
		return nil, nil
	})
	var got []string
	_, err := s.Submit(func(tx *Tx) (any, error) {
		tx.Set([]byte("k/b"), []byte("new"))
		tx.Set([]byte("k/c"), []byte("new"))
		tx.Delete([]byte("k/e"))
		tx.Set([]byte("k/f"), []byte("new"))
		return nil, tx.Scan([]byte("k/"), nil, func(k, v []byte) (bool, error) {
			got = append(got, fmt.Sprintf("%s=%s", k, v))
			return true, nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"k/a=old", "k/b=new", "k/c=new", "k/f=new"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("scan (-want +got):\n%s", diff)
	}
}

func TestTooLargeGroupIsSplit(t *testing.T) {
	// A 1 MiB memtable makes Badger's transaction limit small, so a group of
	// large operations must be split over several commits without losing
	// or reordering offsets.
	s := openTest(t, 1<<20)
	val := make([]byte, 10<<10)
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for i := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.Submit(func(tx *Tx) (any, error) {
				off := tx.NextOffset()
				tx.Set(UpdateKey(off), append([]byte(fmt.Sprint(i)), val...))
				return nil, nil
			})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	var offs []int64
	s.View(func(r *Reader) error {
		return r.Scan([]byte(PrefixUpdate), nil, func(k, _ []byte) (bool, error) {
			offs = append(offs, DecodeOffset(k[len(PrefixUpdate):]))
			return true, nil
		})
	})
	if len(offs) != 32 || offs[0] != 1 || offs[31] != 32 || s.LedgerEnd() != 32 {
		t.Fatalf("offsets %v, end %d", offs, s.LedgerEnd())
	}
	// One operation larger than a transaction fails alone.
	_, err := s.Submit(func(tx *Tx) (any, error) {
		tx.NextOffset()
		for i := range 30 {
			tx.Set([]byte(fmt.Sprint("huge", i)), make([]byte, 10<<10))
		}
		return nil, nil
	})
	if !errors.Is(err, ErrTooLarge) || s.LedgerEnd() != 32 {
		t.Fatalf("huge op: err %v, end %d", err, s.LedgerEnd())
	}
}

func TestClosed(t *testing.T) {
	s := openTest(t, 8<<20)
	ch := s.Changed()
	s.Submit(func(tx *Tx) (any, error) { tx.NextOffset(); return nil, nil })
	select {
	case <-ch:
	default:
		t.Fatal("Changed channel not closed after a commit")
	}
	s.Close()
	if _, err := s.Submit(func(tx *Tx) (any, error) { return nil, nil }); !errors.Is(err, ErrClosed) {
		t.Fatalf("Submit after Close: %v", err)
	}
	if err := s.View(func(*Reader) error { return nil }); !errors.Is(err, ErrClosed) {
		t.Fatalf("View after Close: %v", err)
	}
}

func TestBlob(t *testing.T) {
	t.Parallel()
	o := badger.DefaultOptions("").WithInMemory(true).WithLogger(nil).
		WithCompression(options.None).WithBlockCacheSize(0).WithMemTableSize(8 << 20)
	s, err := Open(Options{Badger: o})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	data := make([]byte, 3*BlobChunk+17)
	for i := range data {
		data[i] = byte(i * 7)
	}
	p := BlobPrefix("pkg", "abc")
	if err := s.PutBlob(p, data); err != nil {
		t.Fatal(err)
	}
	s.PutBlob(BlobPrefix("pkg", "abcd"), []byte("other"))
	var got []byte
	if err := s.View(func(r *Reader) (err error) { got, err = r.GetBlob(p); return err }); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) {
		t.Fatalf("blob read back differs (%d bytes, want %d)", len(got), len(data))
	}
	if err := s.DeleteBlob(p); err != nil {
		t.Fatal(err)
	}
	err = s.View(func(r *Reader) error { _, err := r.GetBlob(p); return err })
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("deleted blob: %v", err)
	}
	s.View(func(r *Reader) (err error) { got, err = r.GetBlob(BlobPrefix("pkg", "abcd")); return err })
	if string(got) != "other" {
		t.Fatalf("neighbouring blob = %q", got)
	}
}

// TestViewTxSnapshotAtFirstRead: ViewTx's snapshot is the store as it was
// at the Tx's first read (a commit before it is seen, one after it is
// not), shared by every read of the Tx and of its ReadOnlyTx copies.
func TestViewTxSnapshotAtFirstRead(t *testing.T) {
	s := openTest(t, 8<<20)
	set := func(v string) {
		t.Helper()
		if _, err := s.Submit(func(tx *Tx) (any, error) { tx.Set([]byte("k"), []byte(v)); return nil, nil }); err != nil {
			t.Fatal(err)
		}
	}
	get := func(r *Reader) string {
		t.Helper()
		v, err := r.Get([]byte("k"))
		if err != nil {
			t.Fatal(err)
		}
		return string(v)
	}
	set("1")
	err := s.ViewTx(func(tx *Tx) error {
		set("2") // before the first read: seen
		copied := ReadOnlyTx(&tx.Reader)
		if got := get(&copied.Reader); got != "2" {
			t.Errorf("first read (of a copy) = %q, want 2", got)
		}
		set("3") // after it: not seen, by the Tx or its copies
		if got := get(&tx.Reader); got != "2" {
			t.Errorf("second read = %q, want 2", got)
		}
		var scanned []string
		if err := tx.Scan([]byte("k"), nil, func(_, v []byte) (bool, error) {
			scanned = append(scanned, string(v))
			return true, nil
		}); err != nil {
			return err
		}
		if !slices.Equal(scanned, []string{"2"}) {
			t.Errorf("scan = %q, want [2]", scanned)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// A Tx that reads nothing opens no snapshot; the next reads and
	// writes go on as before.
	if err := s.ViewTx(func(*Tx) error { return nil }); err != nil {
		t.Fatal(err)
	}
	set("4")
	if err := s.View(func(r *Reader) error {
		if got := get(r); got != "4" {
			t.Errorf("read after = %q, want 4", got)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.ViewTx(func(*Tx) error { return nil }); !errors.Is(err, ErrClosed) {
		t.Fatalf("ViewTx of a closed store = %v, want ErrClosed", err)
	}
}
