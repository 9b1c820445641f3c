package store

import (
	"bytes"
	"errors"
	"io"
	"testing"

	badger "github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
)

// TestBackupLoad: a backup restored into a new store holds every value,
// spilled ones included, and the same ledger end; the copy commits on from
// there and releases the chunks of the spilled values it overwrites.
func TestBackupLoad(t *testing.T) {
	t.Parallel()
	src := openSpilling(t)
	big := pattern(2<<20+3, 5)
	if _, err := src.Submit(func(tx *Tx) (any, error) {
		tx.NextOffset()
		tx.Set([]byte("a/big"), big)
		tx.Set([]byte("a/small"), []byte("s"))
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	buf := backupOf(t, src)
	o := badger.DefaultOptions("").WithInMemory(true).WithLogger(nil).
		WithCompression(options.None).WithBlockCacheSize(0).WithMemTableSize(8 << 20)
	dst, err := Open(Options{Badger: o, Spill: Spill{Above: 64 << 10, Inline: 256 << 10}, Restore: buf})
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	if dst.LedgerEnd() != src.LedgerEnd() || dst.LedgerEnd() != 1 {
		t.Errorf("ledger end %d, want %d", dst.LedgerEnd(), src.LedgerEnd())
	}
	err = dst.View(func(r *Reader) error {
		for k, want := range map[string][]byte{"a/big": big, "a/small": []byte("s")} {
			got, err := r.Get([]byte(k))
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s: %d bytes, %v; want %d bytes", k, len(got), err, len(want))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	chunks := func() int {
		n := 0
		dst.View(func(r *Reader) error {
			return r.Scan([]byte(PrefixSpill), nil, func(_, _ []byte) (bool, error) { n++; return true, nil })
		})
		return n
	}
	if chunks() == 0 {
		t.Fatal("no spilled chunks in the copy")
	}
	if _, err := dst.Submit(func(tx *Tx) (any, error) {
		tx.NextOffset()
		tx.Set([]byte("a/big"), []byte("small now"))
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	if dst.LedgerEnd() != 2 {
		t.Errorf("ledger end after a commit %d, want 2", dst.LedgerEnd())
	}
	if n := chunks(); n != 0 {
		t.Errorf("%d chunks left after overwriting the spilled value", n)
	}
}

// TestPreparedRestore: stores restored from one Prepared snapshot share its
// blob chunks but stay independent (a blob one of them rewrites or deletes
// is unchanged in the other), a Backup of such a store holds the values
// themselves (a plain store restored from it reads them), and a durable
// store reads the plain stream (its blobs survive a reopen, where a
// reference into this process's memory would not).
func TestPreparedRestore(t *testing.T) {
	t.Parallel()
	src := openSpilling(t)
	blob := pattern(3*BlobChunk+17, 3)
	big := pattern(2<<20+3, 5)
	if err := src.PutBlob(BlobPrefix("pkg", "p1"), blob); err != nil {
		t.Fatal(err)
	}
	if _, err := src.Submit(func(tx *Tx) (any, error) {
		tx.NextOffset()
		tx.Set([]byte("a/big"), big)
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	buf := backupOf(t, src)
	p, err := Prepare(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(p.shared) != 3 {
		t.Errorf("%d shared values, want the blob's 3 full chunks (its last, of 17 bytes, is copied)", len(p.shared))
	}
	mem := badger.DefaultOptions("").WithInMemory(true).WithLogger(nil).
		WithCompression(options.None).WithBlockCacheSize(0).WithMemTableSize(8 << 20)
	open := func(o badger.Options, r io.Reader) *Store {
		t.Helper()
		s, err := Open(Options{Badger: o, Spill: Spill{Above: 64 << 10, Inline: 256 << 10}, Restore: r})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	check := func(name string, s *Store, wantBlob []byte) {
		t.Helper()
		err := s.View(func(r *Reader) error {
			got, err := r.GetBlob(BlobPrefix("pkg", "p1"))
			if wantBlob == nil && !errors.Is(err, ErrNotFound) || wantBlob != nil && (err != nil || !bytes.Equal(got, wantBlob)) {
				t.Errorf("%s: blob of %d bytes, %v; want %d bytes", name, len(got), err, len(wantBlob))
			}
			if got, err := r.Get([]byte("a/big")); err != nil || !bytes.Equal(got, big) {
				t.Errorf("%s: a/big of %d bytes, %v", name, len(got), err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if s.LedgerEnd() != 1 {
			t.Errorf("%s: ledger end %d, want 1", name, s.LedgerEnd())
		}
	}
	a, b := open(mem, p.Reader()), open(mem, p.Reader())
	if len(a.shared) == 0 {
		t.Fatal("an in-memory store restored from a Prepared snapshot shares nothing")
	}
	check("a", a, blob)
	// A value read through Get is the caller's: changing it changes no
	// store.
	a.View(func(r *Reader) error {
		v, _ := r.Get(append(BlobPrefix("pkg", "p1"), 0, 0, 0, 0))
		clear(v)
		return nil
	})
	check("a after changing a read value", a, blob)
	other := pattern(BlobChunk+5, 9)
	if err := a.DeleteBlob(BlobPrefix("pkg", "p1")); err != nil {
		t.Fatal(err)
	}
	check("a after deleting its blob", a, nil)
	if err := a.PutBlob(BlobPrefix("pkg", "p1"), other); err != nil {
		t.Fatal(err)
	}
	check("a after rewriting its blob", a, other)
	check("b", b, blob)

	var copyBuf bytes.Buffer
	if err := b.Backup(&copyBuf); err != nil {
		t.Fatal(err)
	}
	plain := open(mem, &copyBuf)
	if len(plain.shared) != 0 {
		t.Error("a store restored from a plain stream has shared values")
	}
	check("restored from a backup of b", plain, blob)

	dir := t.TempDir()
	disk := badger.DefaultOptions(dir).WithLogger(nil)
	d := open(disk, p.Reader())
	if len(d.shared) != 0 {
		t.Error("a durable store restored from a Prepared snapshot has shared values")
	}
	d.Close()
	check("durable, reopened", open(disk, nil), blob)
}

// backupOf returns a Backup of s.
func backupOf(t testing.TB, s *Store) *bytes.Buffer {
	t.Helper()
	var buf bytes.Buffer
	if err := s.Backup(&buf); err != nil {
		t.Fatal(err)
	}
	return &buf
}
