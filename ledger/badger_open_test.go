package ledger_test

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	badger "github.com/dgraph-io/badger/v4"
	"github.com/ledgernode/ledgernode/ledger"
)

// tableIndexBytes returns the sizes of the indexes of the tables (*.sst)
// in dir, read from each table's footer (Badger v4's table format: the
// index, its length in 4 bytes, the checksum, its length in 4 bytes).
func tableIndexBytes(t *testing.T, dir string) int64 {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.sst"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no tables in %s (%v)", dir, err)
	}
	var total int64
	u32 := func(f *os.File, fromEnd int64) int64 {
		var b [4]byte
		if _, err := f.Seek(-fromEnd, io.SeekEnd); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(f, b[:]); err != nil {
			t.Fatal(err)
		}
		return int64(binary.BigEndian.Uint32(b[:]))
	}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		checksumLen := u32(f, 4)
		total += u32(f, 4+checksumLen+4)
		f.Close()
	}
	return total
}

// TestBadgerOptionsTableIndexSmall checks that the indexes of an on-disk
// node's tables are small for the keys the ledger writes (70–150 bytes:
// contract and update ids, parties with their namespace): at open, Badger
// reads every table's index through and checks its checksum, and that was
// the part of a restart that grew with the ledger (38 MiB of indexes at a
// million Ping creates with Badger's 4 KiB blocks, whose every first key
// the index holds; BENCHMARKS.md, issue 23).
func TestBadgerOptionsTableIndexSmall(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db, err := badger.Open(ledger.BadgerOptionsForBench(false, dir))
	if err != nil {
		t.Fatal(err)
	}
	const n = 40000
	wb := db.NewWriteBatch()
	for i := range n {
		id := sha256.Sum256(fmt.Append(nil, i))
		// A contract's key (its id) and an index entry by party, with
		// small values, as the ledger's indexes have.
		k := "c/00" + hex.EncodeToString(id[:]) + "ca10"
		if err := wb.Set([]byte(k), []byte("small value of an index entry")); err != nil {
			t.Fatal(err)
		}
		p := fmt.Sprintf("a/crowd%d::1220%x/%s", i%50, id[:4], k)
		if err := wb.Set([]byte(p), nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := wb.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil { // flushes the memtable to a table
		t.Fatal(err)
	}
	idx := tableIndexBytes(t, dir)
	perKey := float64(idx) / (2 * n)
	if perKey > 2.5 {
		t.Errorf("table indexes: %d bytes for %d keys, %.1f bytes a key: want at most 2.5", idx, 2*n, perKey)
	}
}
