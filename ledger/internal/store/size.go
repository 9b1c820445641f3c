package store

import (
	"os"
	"path/filepath"
)

// Sizes returns the bytes the store takes on disk: lsm for the LSM tree
// (its tables, *.sst, and the write-ahead logs of its memtables, *.mem,
// where the latest writes are until a memtable is flushed to a table) and
// vlog for the value log (*.vlog). Both are 0 for an in-memory store,
// which has no files.
//
// They are read from the directories at each call (one directory listing
// and the files' metadata: a few dozen files), as the blocks the files
// take: Badger allocates its memtable and value log files at their full
// size (the value log at twice ValueLogFileSize) and fills them as it
// writes, so their apparent sizes would say hundreds of MB for an empty
// store. Badger's own DB.Size reports those apparent sizes, and only with
// its metrics enabled, refreshed once a minute.
func (s *Store) Sizes() (lsm, vlog int64) {
	if s.inMemory {
		return 0, 0
	}
	add := func(dir string, exts map[string]*int64) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			sum := exts[filepath.Ext(e.Name())]
			if sum == nil || !e.Type().IsRegular() {
				continue
			}
			// A file removed since the listing (compaction, value log
			// GC) counts for nothing.
			if fi, err := e.Info(); err == nil {
				*sum += allocated(fi)
			}
		}
	}
	if s.dir == s.valueDir {
		add(s.dir, map[string]*int64{".sst": &lsm, ".mem": &lsm, ".vlog": &vlog})
	} else {
		add(s.dir, map[string]*int64{".sst": &lsm, ".mem": &lsm})
		add(s.valueDir, map[string]*int64{".vlog": &vlog})
	}
	return lsm, vlog
}
