package store

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	badger "github.com/dgraph-io/badger/v4"
)

// Badger v4 reads its tables (*.sst) and value log (*.vlog) through
// mmap(2) and writes new ones through it too, and no Badger option turns
// that off: every page of them it has written or read stays mapped in
// this process (RssFile, counted in its resident set) until the kernel
// needs the memory, so an on-disk store's resident set grows with its
// files, 1.3 GiB at a million Ping creates (BENCHMARKS.md, issue 23).
// Those pages are page cache, not the process's own memory, but a
// resident set that grows with the ledger is what a container's limit or
// an operator sees.
//
// trimMapped bounds it: when the pages of the store's tables and value
// log mapped in the process exceed Options.MappedResident, it unmaps
// their pages from the process (madvise MADV_DONTNEED, but see below),
// the oldest files first, until half the budget is left. The pages stay
// in the page cache (a file's shared mapping loses nothing: a dirty page
// is the file's) and the next read maps them again, without reading the
// disk unless the kernel has since dropped them; the kernel, not the
// store, decides how much of the files it caches.
//
// MADV_DONTNEED on a range that is no longer the file's would zero what
// took its place, so trimMapped gives that advice only for ranges Badger
// cannot unmap meanwhile:
//
//   - tables in Badger's levels both before and after trimMapped opened
//     an iterator, which holds a reference to each of them (a table is
//     unmapped only when its last reference goes);
//   - value log files but the newest (which Badger shrinks, mremap, when
//     it moves to the next), clamped to their size on disk (read after
//     the mappings, so after any shrink), and none that a garbage
//     collection of the store (gcLoop, never at the same time) rewrote
//     and Badger has not deleted yet: Badger deletes such a file when the
//     last iterator closes, and trimMapped's own iterator keeps it from
//     starting while it runs, but not from finishing.
//
// The other tables are those a compaction or a memtable flush is writing,
// or has written and not yet put in a level, and those that left the
// levels and wait for their last reader. A compaction's new tables stay
// mapped, every page written, until the whole compaction ends: a merge of
// level 0 wrote ~125 MiB of them at a million Ping creates (with a level
// 0 of 24 tables), the largest
// part of the resident set's peak (BENCHMARKS.md, issue 23). For those
// trimMapped advises MADV_PAGEOUT, which never changes what a range
// holds, whatever took it: it takes the pages of a file mapped only here
// out of the process (clean ones out of the page cache as well, so the
// next read of them reads the disk; the kernel may keep a page it is
// writing back), and leaves anonymous memory alone unless there is swap,
// which it would use.
//
// The memtables' logs (*.mem, at most NumMemtables × MemTableSize, which
// Badger unmaps when it flushes them) are left alone and not counted.

// DefaultMappedResident is the budget of an on-disk store's mapped file
// pages when Options.MappedResident is 0.
const DefaultMappedResident = 32 << 20

// trimInterval is how often the store compares its mapped pages with
// the budget: one read of /proc/self/status (the process's file pages,
// less those that were not the store's tables and value log at the last
// look: its binary, the memtables' logs), the mappings themselves
// (/proc/self/smaps, ~3 ms at a million contracts) only when that is over
// it. A merge of level 0, or a page of a thousand contracts' records read
// from the value log, maps ~100 MiB in a quarter of a second; looking
// every 100 ms keeps that near 40 MiB, for ~2 % of the node's CPU while
// Badger merges (BENCHMARKS.md, issue 23).
const trimInterval = 100 * time.Millisecond

// mapping is one mapped range of a store file.
type mapping struct {
	start, end uintptr
	path       string
	rss        int64 // bytes resident
	anon       int64 // of those, anonymous (a private mapping's written pages)
}

// fileOrder returns the files' order of trimming: value log files before
// tables (a value is read again only by a reader of an old update or
// contract, a table by every compaction of its level), each kind oldest
// (lowest number) first.
func fileOrder(path string) (kind int, num int64) {
	base := filepath.Base(path)
	ext := filepath.Ext(base)
	num, _ = strconv.ParseInt(strings.TrimSuffix(base, ext), 10, 64)
	if ext == ".vlog" {
		return 0, num
	}
	return 1, num
}

// storeFile reports whether path is one of the store's tables or value
// log files in dirs.
func storeFile(path string, dirs []string) bool {
	ext := filepath.Ext(path)
	return (ext == ".sst" || ext == ".vlog") && slices.Contains(dirs, filepath.Dir(path))
}

// residentOf returns the resident bytes of the store's tables and value
// log files in dirs among ms, and the file-backed resident bytes of the
// others (less a private mapping's written pages, which are anonymous).
func residentOf(ms []mapping, dirs []string) (store, other int64) {
	for _, m := range ms {
		if storeFile(m.path, dirs) {
			store += m.rss
		} else {
			other += m.rss - m.anon
		}
	}
	return store, other
}

// advice is what trimMapped may do with a mapping's pages.
type advice uint8

const (
	keepMapped   advice = iota // nothing: the pages stay
	unmapPages                 // MADV_DONTNEED: out of the process, kept in the page cache
	reclaimPages               // MADV_PAGEOUT: out of the process and the page cache
)

// adviceFor returns what trimMapped may do with m's pages, given the
// tables in Badger's levels before and after it opened its iterator, the
// value log files on disk, the newest of them, and those a garbage
// collection rewrote and Badger has not deleted: MADV_DONTNEED only where
// Badger cannot unmap the range meanwhile (see above), MADV_PAGEOUT for
// the other tables, nothing for the other value log files.
func adviceFor(m mapping, before, after map[uint64]bool, vlogs map[int64]int64, newest int64, gcPending map[int64]bool) advice {
	kind, num := fileOrder(m.path)
	if kind == 1 {
		if before[uint64(num)] && after[uint64(num)] {
			return unmapPages
		}
		return reclaimPages
	}
	if _, onDisk := vlogs[num]; onDisk && num != newest && !gcPending[num] {
		return unmapPages
	}
	return keepMapped
}

// toTrim returns the mappings to trim so that the store files' resident
// bytes, total, fall to keep: of the store's *.sst and *.vlog files in
// dirs that how does not keep, oldest first.
func toTrim(ms []mapping, dirs []string, total, keep int64, how func(mapping) advice) []mapping {
	var files []mapping
	for _, m := range ms {
		if m.rss > 0 && storeFile(m.path, dirs) && how(m) != keepMapped {
			files = append(files, m)
		}
	}
	slices.SortStableFunc(files, func(a, b mapping) int {
		ka, na := fileOrder(a.path)
		kb, nb := fileOrder(b.path)
		if ka != kb {
			return ka - kb
		}
		return int(na - nb)
	})
	var out []mapping
	for _, m := range files {
		if total <= keep {
			break
		}
		out = append(out, m)
		total -= m.rss
	}
	return out
}

// trimLoop runs trimMapped every trimInterval until the store closes.
func (s *Store) trimLoop() {
	// other is the process's file pages that are not the store's tables
	// and value log (its binary, the memtables' logs), as of the last
	// look at the mappings; the first look also trims what opening the
	// store mapped (every table's index).
	_, other := s.trimMapped()
	s.every(trimInterval, s.trimDone, func() {
		if fileRSS()-other > s.mappedResident {
			_, other = s.trimMapped()
		}
	})
}

// trimMapped unmaps the store files' pages mapped in this process when
// they exceed the budget, down to half of it. It returns the bytes it
// unmapped (an upper bound: the kernel may keep pages it is writing
// back) and the process's file pages that are not the store's files, as
// it read them.
func (s *Store) trimMapped() (unmapped, other int64) {
	s.bgMu.Lock()
	defer s.bgMu.Unlock()
	dirs := []string{filepath.Clean(s.dir)}
	if s.valueDir != s.dir {
		dirs = append(dirs, filepath.Clean(s.valueDir))
	}
	tablesBefore := s.tableIDs()
	txn := s.db.NewTransaction(false)
	defer txn.Discard()
	it := txn.NewIterator(badger.IteratorOptions{})
	defer it.Close()
	tablesAfter := s.tableIDs()

	ms := residentMappings()
	if ms == nil {
		return 0, fileRSS() // no mappings to look at: nothing to trim
	}
	total, other := residentOf(ms, dirs)
	if total <= s.mappedResident {
		return 0, other
	}
	vlogs := s.vlogSizes()
	s.settleGCPending(vlogs)
	newest := int64(-1)
	for fid := range vlogs {
		newest = max(newest, fid)
	}
	how := func(m mapping) advice { return adviceFor(m, tablesBefore, tablesAfter, vlogs, newest, s.gcPending) }
	for _, m := range toTrim(ms, dirs, total, s.mappedResident/2, how) {
		end, ok := m.end, false
		switch kind, num := fileOrder(m.path); {
		case kind == 0:
			end = min(end, m.start+uintptr(pageAlign(vlogs[num])))
			ok = end > m.start && dontNeed(m.start, end)
		case how(m) == unmapPages:
			ok = dontNeed(m.start, end)
		default:
			ok = pageOut(m.start, end)
		}
		if ok {
			unmapped += m.rss
		}
	}
	return unmapped, other
}

// pageAlign rounds n up to a multiple of the page size.
func pageAlign(n int64) int64 {
	p := int64(os.Getpagesize())
	return (n + p - 1) / p * p
}

// tableIDs returns the ids of the tables in Badger's levels.
func (s *Store) tableIDs() map[uint64]bool {
	ids := map[uint64]bool{}
	for _, t := range s.db.Tables() {
		ids[t.ID] = true
	}
	return ids
}

// vlogSizes returns the value log files on disk by number, with their
// sizes.
func (s *Store) vlogSizes() map[int64]int64 {
	out := map[int64]int64{}
	entries, err := os.ReadDir(s.valueDir)
	if err != nil {
		return out
	}
	for _, e := range entries {
		if filepath.Ext(e.Name()) != ".vlog" {
			continue
		}
		_, num := fileOrder(e.Name())
		if fi, err := e.Info(); err == nil {
			out[num] = fi.Size()
		}
	}
	return out
}

// noteGC records, after a garbage collection that rewrote n value log
// files, that n of the files that were on disk before it (before) are
// to be deleted by Badger. Called with bgMu held.
func (s *Store) noteGC(before map[int64]int64, n int) {
	if n == 0 {
		return
	}
	if s.gcPending == nil {
		s.gcPending = map[int64]bool{}
	}
	for fid := range before {
		s.gcPending[fid] = true
	}
	s.gcPendingLeft += n
}

// settleGCPending forgets the files a garbage collection rewrote once
// Badger has deleted as many files as the collections rewrote. Called
// with bgMu held.
func (s *Store) settleGCPending(onDisk map[int64]int64) {
	if s.gcPendingLeft == 0 {
		return
	}
	gone := 0
	for fid := range s.gcPending {
		if _, ok := onDisk[fid]; !ok {
			gone++
		}
	}
	if gone >= s.gcPendingLeft {
		s.gcPending, s.gcPendingLeft = nil, 0
	}
}

// parseSmaps returns the file mappings of an smaps(5) text, with their
// resident and anonymous bytes. It runs every trimInterval while Badger
// merges, over hundreds of mappings at a million contracts: it parses
// the lines it needs in place and converts no other.
func parseSmaps(r io.Reader) []mapping {
	var out []mapping
	var cur *mapping
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Bytes()
		// A mapping's header: "start-end perms offset dev inode path";
		// its fields follow as "Name:   value kB".
		if rest, ok := bytes.CutPrefix(line, []byte("Rss:")); ok {
			if cur != nil {
				cur.rss = kiloBytes(rest)
			}
			continue
		}
		if rest, ok := bytes.CutPrefix(line, []byte("Anonymous:")); ok {
			if cur != nil {
				cur.anon = kiloBytes(rest)
			}
			continue
		}
		lo, rest, ok := bytes.Cut(line, []byte("-"))
		if !ok || len(lo) == 0 || !isHex(lo) {
			continue // another field
		}
		cur = nil
		hi, rest, _ := bytes.Cut(rest, []byte(" "))
		slash := bytes.IndexByte(rest, '/')
		if slash < 0 {
			continue // anonymous, or [heap], [stack]…
		}
		start, err1 := strconv.ParseUint(string(lo), 16, 64)
		end, err2 := strconv.ParseUint(string(hi), 16, 64)
		if err1 != nil || err2 != nil {
			continue
		}
		out = append(out, mapping{start: uintptr(start), end: uintptr(end), path: string(rest[slash:])})
		cur = &out[len(out)-1]
	}
	return out
}

// kiloBytes returns the bytes of an smaps field's value ("   123 kB").
func kiloBytes(field []byte) int64 {
	f := bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(field), []byte("kB")))
	kb, _ := strconv.ParseInt(string(f), 10, 64)
	return kb << 10
}

// isHex reports whether b is lower-case hexadecimal digits.
func isHex(b []byte) bool {
	for _, c := range b {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
