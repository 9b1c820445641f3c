package store

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
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
// log mapped in the process exceed Options.MappedResident, it asks the
// kernel to reclaim them (madvise MADV_PAGEOUT, Linux 5.4+), the oldest
// files first, until half the budget is left. The advice loses nothing: clean pages are
// dropped and read again from the file at the next access, dirty ones
// written first; on a range that is no longer the file's (unmapped and
// reused meanwhile) it is a hint about other pages, never a loss of
// data. The files being written are left alone and not counted: the
// memtables' logs (*.mem, at most NumMemtables × MemTableSize) and the
// newest value log file.

// DefaultMappedResident is the budget of an on-disk store's mapped file
// pages when Options.MappedResident is 0.
const DefaultMappedResident = 64 << 20

// trimInterval is how often the store compares its mapped pages with
// the budget: one read of /proc/self/status (the process's file pages,
// less those it had when the store opened: its binary, mostly), the
// mappings themselves (/proc/self/smaps) only when that is over it.
const trimInterval = 250 * time.Millisecond

// mapping is one mapped range of a store file.
type mapping struct {
	start, end uintptr
	path       string
	rss        int64 // bytes resident
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

// storeResident returns the resident bytes of the store's tables and
// value log files in dirs among ms.
func storeResident(ms []mapping, dirs []string) int64 {
	var n int64
	for _, m := range ms {
		if ext := filepath.Ext(m.path); (ext == ".sst" || ext == ".vlog") && slices.Contains(dirs, filepath.Dir(m.path)) {
			n += m.rss
		}
	}
	return n
}

// toTrim returns the mappings to reclaim so that the store files'
// resident bytes fall to keep: of the store's *.sst and *.vlog files in
// dirs, except the newest value log file, oldest first.
func toTrim(ms []mapping, dirs []string, keep int64) []mapping {
	var files []mapping
	newestVlog := int64(-1)
	var total int64
	for _, m := range ms {
		ext := filepath.Ext(m.path)
		if (ext != ".sst" && ext != ".vlog") || !slices.Contains(dirs, filepath.Dir(m.path)) {
			continue
		}
		if ext == ".vlog" {
			_, n := fileOrder(m.path)
			newestVlog = max(newestVlog, n)
		}
		files = append(files, m)
	}
	slices.SortStableFunc(files, func(a, b mapping) int {
		ka, na := fileOrder(a.path)
		kb, nb := fileOrder(b.path)
		if ka != kb {
			return ka - kb
		}
		return int(na - nb)
	})
	files = slices.DeleteFunc(files, func(m mapping) bool {
		k, n := fileOrder(m.path)
		return k == 0 && n == newestVlog
	})
	for _, m := range files {
		total += m.rss
	}
	var out []mapping
	for _, m := range files {
		if total <= keep {
			break
		}
		if m.rss == 0 {
			continue
		}
		out = append(out, m)
		total -= m.rss
	}
	return out
}

// trimLoop runs trimMapped every trimInterval until the store closes.
func (s *Store) trimLoop() {
	defer close(s.trimDone)
	base := fileRSS()
	t := time.NewTicker(trimInterval)
	defer t.Stop()
	for {
		select {
		case <-s.quit:
			return
		case <-t.C:
			if fileRSS()-base > s.mappedResident {
				s.trimMapped()
			}
		}
	}
}

// trimMapped reclaims the store files' pages mapped in this process when
// they exceed the budget, down to half of it. It returns the bytes it
// advised the kernel to reclaim.
func (s *Store) trimMapped() int64 {
	dirs := []string{filepath.Clean(s.dir)}
	if s.valueDir != s.dir {
		dirs = append(dirs, filepath.Clean(s.valueDir))
	}
	var n int64
	ms := residentMappings()
	if storeResident(ms, dirs) <= s.mappedResident {
		return 0
	}
	for _, m := range toTrim(ms, dirs, s.mappedResident/2) {
		if pageOut(m.start, m.end) {
			n += m.rss
		}
	}
	return n
}
