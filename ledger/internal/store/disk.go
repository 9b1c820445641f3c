package store

import (
	"errors"
	"fmt"
	"time"
)

// Badger writes its tables, value log and memtable logs through mmap(2)
// into files it sizes with truncate, which reserves no blocks: when the
// file system fills, the write that needs a block faults (SIGBUS) and the
// process dies, mid-write, rather than getting an error. So an on-disk
// store stops taking writes while its file system has less than
// Options.MinFreeDisk free, and leaves that room to what Badger must
// still write on its own: the memtable it flushes and the compaction
// under way, whose new tables are on disk before the old ones go (a merge
// of level 0: 48 tables of ~6.4 MiB at a million Ping creates, and the
// part of the level below they overlap). Reads go on, and writes resume
// once the space is there again.

// ErrDiskLow is returned, wrapped with the figures, for a write an
// on-disk store refuses because its file system has less free space than
// Options.MinFreeDisk. Nothing of the write is stored.
var ErrDiskLow = errors.New("store: too little free disk space")

// DefaultMinFreeDisk is the free space an on-disk store keeps when
// Options.MinFreeDisk is 0.
const DefaultMinFreeDisk = 512 << 20

// diskInterval is how often an on-disk store reads its file system's free
// space (statfs(2): microseconds). At a million Ping creates a node
// writes ~40 MB a second, a tenth of DefaultMinFreeDisk.
const diskInterval = time.Second

// diskLow returns ErrDiskLow, wrapped, when the store keeps a minimum of
// free space and its file system had less at the last look; nil
// otherwise.
func (s *Store) diskLow() error {
	if s.minFreeDisk <= 0 {
		return nil
	}
	free := s.diskFree.Load()
	if free < 0 || free >= s.minFreeDisk {
		return nil
	}
	return fmt.Errorf("%w: %d MiB free on the file system of %s, under the %d MiB the node keeps free for Badger's own writes; writes resume when there is more", ErrDiskLow, free>>20, s.dir, s.minFreeDisk>>20)
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
	wasLow := s.diskLow() != nil
	s.diskFree.Store(free)
	switch low := s.diskLow() != nil; {
	case low && !wasLow:
		s.log.Error("store: too little free disk space: writes are refused until there is more", "dir", s.dir, "free_mib", free>>20, "min_free_mib", s.minFreeDisk>>20)
	case !low && wasLow && free < 0:
		s.log.Warn("store: free disk space unknown: writes resume", "dir", s.dir)
	case !low && wasLow:
		s.log.Info("store: free disk space is back: writes resume", "dir", s.dir, "free_mib", free>>20)
	}
}

// every runs f every d until the store closes, then closes done (a
// background loop of an on-disk store).
func (s *Store) every(d time.Duration, done chan struct{}, f func()) {
	defer close(done)
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-s.quit:
			return
		case <-t.C:
			f()
		}
	}
}
