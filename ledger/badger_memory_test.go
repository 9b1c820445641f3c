package ledger_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	badger "github.com/dgraph-io/badger/v4"
	"github.com/ledgernode/ledgernode/ledger"
)

// TestBadgerOptionsTableSizeBounded checks that an on-disk node's tables (and so
// the table builders of Badger's compactions, which start at twice a
// table's size and several of which run at once) are no larger in the
// deepest level than in the first: with Badger's default multiplier of 2
// per level, the tables of the deep levels a growing ledger fills grow to
// BaseTableSize·2^k, and an on-disk ledgerd's heap with them (942 MB at
// 300 000 Ping creates; BENCHMARKS.md, issue 23).
func TestBadgerOptionsTableSizeBounded(t *testing.T) {
	t.Parallel()
	o := ledger.BadgerOptionsForBench(false, t.TempDir())
	deepest := o.BaseTableSize
	for range o.MaxLevels - 1 {
		deepest *= int64(o.TableSizeMultiplier)
	}
	if deepest > o.BaseTableSize {
		t.Errorf("on disk, tables of level %d: %d MiB, the first level's %d MiB: want no growth with depth", o.MaxLevels-1, deepest>>20, o.BaseTableSize>>20)
	}
}

// TestBadgerOptionsValuesInValueLog checks that an on-disk node keeps
// values the size of a Ping's contract record (~780 bytes) and update
// (~1 kB) in Badger's value log, out of the LSM tree: in the tree, every
// compaction of every level rewrote them, and the CPU per create grew with
// the ledger (×1.7 from the first to the last tenth of 100 000 Ping
// creates; BENCHMARKS.md, issue 23).
func TestBadgerOptionsValuesInValueLog(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db, err := badger.Open(ledger.BadgerOptionsForBench(false, dir))
	if err != nil {
		t.Fatal(err)
	}
	const n, size = 2000, 700
	wb := db.NewWriteBatch()
	for i := range n {
		if err := wb.Set(fmt.Appendf(nil, "c/%08d", i), bytes.Repeat([]byte{byte(i)}, size)); err != nil {
			t.Fatal(err)
		}
	}
	if err := wb.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	var vlog int64
	files, _ := filepath.Glob(filepath.Join(dir, "*.vlog"))
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil {
			vlog += fi.Size()
		}
	}
	if vlog < n*size {
		t.Errorf("value log files: %d bytes after writing %d values of %d bytes: want them all there", vlog, n, size)
	}
}

// TestBadgerOptionsOneMemtableWaiting checks that an on-disk node lets at
// most one full memtable wait for its flush besides the one being
// flushed: each waiting one holds its arena and its write-ahead log's
// mapped pages, and they pile up late in a large ledger's run, when the
// flushes wait for compactions and the memory peaks (BENCHMARKS.md, issue
// 23: with 2 waiting, 413 MiB at a million Ping creates).
func TestBadgerOptionsOneMemtableWaiting(t *testing.T) {
	t.Parallel()
	o := ledger.BadgerOptionsForBench(false, t.TempDir())
	if waiting := int64(o.NumMemtables) * o.MemTableSize; waiting > o.MemTableSize {
		t.Errorf("on disk, up to %d full memtables waiting for their flush, %d MiB: want at most one, %d MiB", o.NumMemtables, waiting>>20, o.MemTableSize>>20)
	}
}
