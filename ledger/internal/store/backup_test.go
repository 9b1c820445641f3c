package store

import (
	"bytes"
	"testing"

	badger "github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
)

// TestBackupLoad: a backup restored into a new store holds every value,
// spilled ones included, and the same ledger end; the copy commits on from
// there and releases the chunks of the spilled values it overwrites.
func TestBackupLoad(t *testing.T) {
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
	var buf bytes.Buffer
	if err := src.Backup(&buf); err != nil {
		t.Fatal(err)
	}
	o := badger.DefaultOptions("").WithInMemory(true).WithLogger(nil).
		WithCompression(options.None).WithBlockCacheSize(0).WithMemTableSize(8 << 20)
	dst, err := Open(Options{Badger: o, Spill: Spill{Above: 64 << 10, Inline: 256 << 10}, Restore: &buf})
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
