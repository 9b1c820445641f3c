package store

import (
	"errors"
	"fmt"
	"path/filepath"
	"time"
)

// Badger writes its tables, value log and memtable logs through mmap(2)
// into files it sizes with truncate, which reserves no blocks: when the
// file system fills, the write that needs a block faults (SIGBUS) and the
// process dies, mid-write, rather than getting an error. So an on-disk
// store stops taking writes while its file system has less than
// Options.MinFreeDisk free, and leaves that room to what Badger must
// still write on its own: the memtable it flushes and the compaction
// under way, whose new tables are on disk before the old ones go
// (DefaultMinFreeDisk). Reads go on, and so do pruning and the cleanup of
// a refused upload (SubmitFreeing), which is how space comes back; other
// writes resume once the space is there again.

// ErrDiskLow is returned, wrapped with the figures, for a write an
// on-disk store refuses because its file system has less free space than
// Options.MinFreeDisk. Nothing of the write is stored.
var ErrDiskLow = errors.New("store: too little free disk space")

// DefaultMinFreeDisk is the free space an on-disk store keeps when
// Options.MinFreeDisk is 0: room for the largest merge of level 0 that
// DiskBadgerOptions allow (writes stall at 96 memtable flushes of ~6.4
// MiB, ~600 MiB, which the merge writes anew with the part of the level
// below they overlap before it deletes them), the memtables and a value
// log file.
const DefaultMinFreeDisk = 1 << 30

// diskInterval is how often an on-disk store reads its file system's free
// space (statfs(2): microseconds). At a million Ping creates a node
// writes ~40 MB a second, a tenth of DefaultMinFreeDisk.
const diskInterval = time.Second

// diskLow returns ErrDiskLow, wrapped, when the store keeps a minimum of
// free space and its file system had less at the last look; nil
// otherwise.
func (s *Store) diskLow() error {
	free := s.diskFree.Load()
	if !s.lowAt(free) {
		return nil
	}
	return fmt.Errorf("%w: %d MiB free on the file system of the store in %s, under the %d MiB the node keeps free for Badger's own writes; writes resume when there is more", ErrDiskLow, free>>20, s.dir, s.minFreeDisk>>20)
}

// lowAt reports whether the store refuses writes with free bytes free
// (-1: unknown, never).
func (s *Store) lowAt(free int64) bool {
	return s.minFreeDisk > 0 && free >= 0 && free < s.minFreeDisk
}

// lookAtDisk records the free space of the file systems of the store's
// directories (the least of them), or -1 when it is unknown, and logs
// when writes stop or resume for it.
func (s *Store) lookAtDisk() {
	free := int64(-1)
	for _, d := range []string{s.dir, s.valueDir} {
		if n, err := s.freeSpace(d); err == nil && (free < 0 || n < free) {
			free = n
		}
	}
	wasLow := s.lowAt(s.diskFree.Swap(free))
	switch low := s.lowAt(free); {
	case low && !wasLow:
		s.log.Error("store: too little free disk space: writes are refused until there is more", "dir", s.dir, "free_mib", free>>20, "min_free_mib", s.minFreeDisk>>20)
	case !low && wasLow && free < 0:
		s.log.Warn("store: free disk space unknown: writes resume", "dir", s.dir)
	case !low && wasLow:
		s.log.Info("store: free disk space is back: writes resume", "dir", s.dir, "free_mib", free>>20)
	}
}

// minFreeDisk is the free space an on-disk store of opts keeps (0: none).
func minFreeDisk(opts Options) int64 {
	if opts.Badger.InMemory || opts.Badger.ReadOnly || opts.MinFreeDisk < 0 {
		return 0
	}
	if opts.MinFreeDisk == 0 {
		return DefaultMinFreeDisk
	}
	return opts.MinFreeDisk
}

// restoreRoom returns ErrDiskLow, wrapped, when the file system of the
// store a Restore fills (the directory, or the nearest existing parent of
// a directory yet to be made) has less free space than the store keeps.
func restoreRoom(opts Options) error {
	keep := minFreeDisk(opts)
	if keep == 0 {
		return nil
	}
	for dir := filepath.Clean(opts.Badger.Dir); ; dir = filepath.Dir(dir) {
		free, err := freeSpace(dir)
		if err == nil {
			if free >= keep {
				return nil
			}
			return fmt.Errorf("%w: %d MiB free on the file system of %s, under the %d MiB the node keeps free: not restoring into it", ErrDiskLow, free>>20, opts.Badger.Dir, keep>>20)
		}
		if filepath.Dir(dir) == dir {
			return nil // unknown: as lookAtDisk, refuse nothing
		}
	}
}
