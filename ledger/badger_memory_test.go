package ledger_test

import (
	"testing"

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
