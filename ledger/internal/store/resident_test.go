package store

import (
	"bytes"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	badger "github.com/dgraph-io/badger/v4"
	"github.com/google/go-cmp/cmp"
)

// openDiskTest opens an on-disk store in a new directory whose values of
// 64 bytes and more go to value log files of 1 MiB, with no background
// trimming, value log GC or look at the free disk space (the tests call
// them).
func openDiskTest(t *testing.T, dir string, compactOnClose bool) *Store {
	t.Helper()
	o := badger.DefaultOptions(dir).WithLogger(nil).WithValueThreshold(64).
		WithValueLogFileSize(1 << 20).WithMemTableSize(4 << 20).WithBlockCacheSize(1 << 20).
		WithCompactL0OnClose(compactOnClose)
	s, err := Open(Options{Badger: o, Logger: slog.New(slog.DiscardHandler), MappedResident: -1, ValueLogGC: -1, MinFreeDisk: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// fill writes n values of size bytes under keys v/<i>, each made of
// round, in ops of 100.
func fill(t *testing.T, s *Store, n, size int, round byte) {
	t.Helper()
	for i := 0; i < n; i += 100 {
		_, err := s.Submit(func(tx *Tx) (any, error) {
			for j := i; j < min(i+100, n); j++ {
				tx.Set(fmt.Appendf(nil, "v/%06d", j), bytes.Repeat([]byte{round + byte(j)}, size))
			}
			return nil, nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// readAll reads the n values back and checks them.
func readAll(t *testing.T, s *Store, n, size int, round byte) {
	t.Helper()
	err := s.View(func(r *Reader) error {
		for j := range n {
			v, err := r.Get(fmt.Appendf(nil, "v/%06d", j))
			if err != nil {
				return err
			}
			if want := bytes.Repeat([]byte{round + byte(j)}, size); !bytes.Equal(v, want) {
				return fmt.Errorf("v/%06d: %d bytes %x…, want %d bytes %x…", j, len(v), v[:1], size, want[:1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestTrimMappedBoundsResidentFiles(t *testing.T) {
	if !trimSupported {
		t.Skip("no /proc/self/smaps or MADV_PAGEOUT here")
	}
	t.Parallel()
	s := openDiskTest(t, t.TempDir(), false)
	s.mappedResident = 1 << 20
	const n, size = 8000, 1000 // 8 MB of values: 8 value log files
	fill(t, s, n, size, 1)
	readAll(t, s, n, size, 1)
	dirs := []string{s.dir}
	before, _ := residentOf(residentMappings(), dirs)
	if before <= 4<<20 {
		t.Fatalf("the store's files have %d KiB resident after writing and reading 8 MB: want more than 4 MiB to test trimming", before>>10)
	}
	if got, _ := s.trimMapped(); got == 0 {
		t.Fatal("trimMapped unmapped nothing")
	}
	// What is left: at most half the budget, and the value log file being
	// written (never trimmed).
	var newest int64
	for _, m := range residentMappings() {
		if filepath.Ext(m.path) == ".vlog" && filepath.Dir(m.path) == s.dir {
			newest = max(newest, m.rss) // an upper bound of the newest file's
		}
	}
	if after, _ := residentOf(residentMappings(), dirs); after > s.mappedResident/2+newest {
		t.Errorf("after trimMapped, %d KiB resident (%d KiB before); want at most %d KiB", after>>10, before>>10, (s.mappedResident/2+newest)>>10)
	}
	// Nothing is lost: every value reads back, and the store still writes.
	readAll(t, s, n, size, 1)
	fill(t, s, n, size, 2)
	readAll(t, s, n, size, 2)
}

func TestToTrimOrder(t *testing.T) {
	t.Parallel()
	const mib = 1 << 20
	ms := []mapping{
		{path: "/d/000003.sst", rss: 3 * mib},
		{path: "/d/000002.vlog", rss: 2 * mib},
		{path: "/other/000001.sst", rss: 9 * mib},
		{path: "/d/000001.sst", rss: 1 * mib},
		{path: "/d/00001.mem", rss: 9 * mib},
		{path: "/d/000001.vlog", rss: 4 * mib},
		{path: "/d/000004.vlog", rss: 5 * mib}, // may not be trimmed
		{path: "/usr/bin/ledgerd", rss: 9 * mib},
	}
	paths := func(ms []mapping) []string {
		var out []string
		for _, m := range ms {
			out = append(out, m.path)
		}
		return out
	}
	total, _ := residentOf(ms, []string{"/d"})
	for _, tc := range []struct {
		keep int64
		want []string
	}{
		{keep: 15 * mib, want: nil},
		{keep: 14 * mib, want: []string{"/d/000001.vlog"}},
		{keep: 9 * mib, want: []string{"/d/000001.vlog", "/d/000002.vlog"}},
		{keep: 0, want: []string{"/d/000001.vlog", "/d/000002.vlog", "/d/000001.sst", "/d/000003.sst"}},
	} {
		how := func(m mapping) advice {
			if m.path == "/d/000004.vlog" {
				return keepMapped
			}
			return unmapPages
		}
		if diff := cmp.Diff(tc.want, paths(toTrim(ms, []string{"/d"}, total, tc.keep, how))); diff != "" {
			t.Errorf("keep %d MiB (-want +got):\n%s", tc.keep/mib, diff)
		}
	}
}

func TestValueLogGCReclaimsOverwrittenValues(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := openDiskTest(t, dir, true)
	const n, size = 4000, 1000
	// Each round in a table of its own (closing flushes the memtable);
	// compacting the tables (at Close) records which value log entries
	// are discarded.
	for round := range byte(4) {
		fill(t, s, n, size, round)
		s.Close()
		s = openDiskTest(t, dir, true)
	}
	_, before := s.Sizes()
	rewritten, err := s.runValueLogGC()
	if err != nil {
		t.Fatal(err)
	}
	_, after := s.Sizes()
	if rewritten == 0 || after >= before*3/4 {
		t.Errorf("value log GC rewrote %d files; value log %d KiB → %d KiB: want at least a quarter less (3 of 4 copies are overwritten)", rewritten, before>>10, after>>10)
	}
	readAll(t, s, n, size, 3)
}

func TestGCPendingFilesAreNotTrimmedUntilDeleted(t *testing.T) {
	t.Parallel()
	s := &Store{}
	s.noteGC(map[int64]int64{1: 10, 2: 10, 3: 10}, 0)
	if s.gcPending != nil {
		t.Fatalf("a collection that rewrote nothing left %v pending", s.gcPending)
	}
	s.noteGC(map[int64]int64{1: 10, 2: 10, 3: 10}, 2)
	for _, tc := range []struct {
		onDisk      []int64
		wantPending bool
	}{
		{onDisk: []int64{1, 2, 3, 4}, wantPending: true},
		{onDisk: []int64{2, 3, 4}, wantPending: true}, // one of the two deleted
		{onDisk: []int64{3, 4, 5}, wantPending: false},
	} {
		disk := map[int64]int64{}
		for _, f := range tc.onDisk {
			disk[f] = 10
		}
		s.settleGCPending(disk)
		if got := s.gcPending[3]; got != tc.wantPending {
			t.Errorf("files on disk %v: file 3 pending = %v, want %v", tc.onDisk, got, tc.wantPending)
		}
	}
}

// TestTrimMappedWhileBadgerWorks trims, with a budget of 64 KiB, while
// values are written and overwritten (memtable flushes, compactions, new
// value log files) and the value log is collected: every value reads
// back as last written.
func TestTrimMappedWhileBadgerWorks(t *testing.T) {
	if !trimSupported {
		t.Skip("no /proc/self/smaps or MADV_DONTNEED here")
	}
	t.Parallel()
	s := openDiskTest(t, t.TempDir(), false)
	s.mappedResident = 64 << 10
	const n, size = 2000, 900
	done := make(chan struct{})
	var trims int
	go func() {
		defer close(done)
		for round := byte(0); round < 6; round++ {
			fill(t, s, n, size, round)
			if _, err := s.runValueLogGC(); err != nil {
				t.Error(err)
			}
		}
	}()
	for {
		select {
		case <-done:
			readAll(t, s, n, size, 5)
			if trims == 0 {
				t.Error("trimMapped never unmapped anything")
			}
			return
		default:
			if n, _ := s.trimMapped(); n > 0 {
				trims++
			}
		}
	}
}

func TestResidentOf(t *testing.T) {
	t.Parallel()
	ms := []mapping{
		{path: "/d/000001.sst", rss: 1 << 20},
		{path: "/d/000002.vlog", rss: 2 << 20},
		{path: "/d/00001.mem", rss: 4 << 20},
		{path: "/usr/bin/ledgerd", rss: 8 << 20, anon: 1 << 20},
		{path: "/other/000003.sst", rss: 16 << 20},
	}
	if store, other := residentOf(ms, []string{"/d"}); store != 3<<20 || other != 27<<20 {
		t.Errorf("residentOf = %d MiB of the store's, %d MiB other; want 3 and 27", store>>20, other>>20)
	}
}

func TestAdviceFor(t *testing.T) {
	t.Parallel()
	before := map[uint64]bool{1: true, 2: true}
	after := map[uint64]bool{1: true, 3: true}
	vlogs := map[int64]int64{1: 10, 2: 10, 3: 10}
	gcPending := map[int64]bool{2: true}
	for _, tc := range []struct {
		path string
		want advice
	}{
		{"/d/000001.sst", unmapPages},   // in the levels throughout: pinned
		{"/d/000002.sst", reclaimPages}, // left the levels meanwhile
		{"/d/000003.sst", reclaimPages}, // a compaction's, put in a level meanwhile
		{"/d/000004.sst", reclaimPages}, // in no level: a compaction's new table
		{"/d/000001.vlog", unmapPages},  // on disk, not the newest
		{"/d/000002.vlog", keepMapped},  // rewritten by a GC, not yet deleted
		{"/d/000003.vlog", keepMapped},  // the newest (Badger shrinks it)
		{"/d/000004.vlog", keepMapped},  // not on disk
	} {
		if got := adviceFor(mapping{path: tc.path}, before, after, vlogs, 3, gcPending); got != tc.want {
			t.Errorf("adviceFor(%s) = %d, want %d", tc.path, got, tc.want)
		}
	}
}

func TestParseSmaps(t *testing.T) {
	t.Parallel()
	const smaps = `55d0c0a00000-55d0c0a40000 r-xp 00000000 fd:01 1234                       /usr/bin/ledgerd
Size:                256 kB
Rss:                 200 kB
Anonymous:             0 kB
VmFlags: rd ex mr mw me dw
55d0c0c00000-55d0c0c10000 rw-p 00040000 fd:01 1234                       /usr/bin/ledgerd
Rss:                  64 kB
Anonymous:            16 kB
THPeligible:    0
7f0000000000-7f0000400000 rw-s 00000000 fd:01 99                         /data/my store/000007.sst
Size:               4096 kB
Rss:                1024 kB
Anonymous:             0 kB
7f0000400000-7f0000500000 rw-s 00000000 fd:01 98                         /data/000001.vlog (deleted)
Rss:                   4 kB
7f0000500000-7f0000600000 rw-p 00000000 00:00 0 
Rss:                 512 kB
Anonymous:           512 kB
7f0000600000-7f0000601000 rw-p 00000000 00:00 0                          [anon:go heap]
Rss:                   4 kB
7ffc00000000-7ffc00021000 rw-p 00000000 00:00 0                          [stack]
Rss:                  12 kB
`
	want := []mapping{
		{start: 0x55d0c0a00000, end: 0x55d0c0a40000, path: "/usr/bin/ledgerd", rss: 200 << 10},
		{start: 0x55d0c0c00000, end: 0x55d0c0c10000, path: "/usr/bin/ledgerd", rss: 64 << 10, anon: 16 << 10},
		{start: 0x7f0000000000, end: 0x7f0000400000, path: "/data/my store/000007.sst", rss: 1024 << 10},
		{start: 0x7f0000400000, end: 0x7f0000500000, path: "/data/000001.vlog (deleted)", rss: 4 << 10},
	}
	if diff := cmp.Diff(want, parseSmaps(strings.NewReader(smaps)), cmp.AllowUnexported(mapping{})); diff != "" {
		t.Errorf("parseSmaps (-want +got):\n%s", diff)
	}
}
