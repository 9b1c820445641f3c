package store

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	badger "github.com/dgraph-io/badger/v4"
)

// removeEmptyLogFiles deletes the empty (0-byte) memtable and value-log
// files of a Badger directory. A process killed between creating such a
// file and its first write leaves it behind, and badger.Open then fails
// with z.NewFile ("Create a new file") although the file holds nothing
// (dgraph-io/badger#2207, unfixed in v4). An empty file holds no entry
// and no value pointer refers to it, so removing it loses nothing; Badger
// creates the files it needs again.
//
// Only a directory no process holds is touched: one whose Badger lock
// (the flock badger.Open takes on the directory) is free while the files
// are removed. A running node creates such an empty file for a moment
// each time it starts a memtable or value-log file; removing it then
// would unlink the file it is about to write, and its writes would be
// lost. A held directory is left as it is (badger.Open then fails on the
// lock), and so is a store opened read-only.
func removeEmptyLogFiles(opts badger.Options) error {
	if opts.InMemory || opts.ReadOnly {
		return nil
	}
	dirs := []string{opts.Dir}
	if opts.ValueDir != opts.Dir {
		dirs = append(dirs, opts.ValueDir)
	}
	for _, dir := range dirs {
		if err := removeEmptyLogFilesIn(dir); err != nil {
			return err
		}
	}
	return nil
}

// removeEmptyLogFilesIn removes the empty log files of one directory when
// no process holds its lock.
func removeEmptyLogFilesIn(dir string) error {
	unlock, free, err := lockDir(dir)
	if err != nil || !free {
		return err
	}
	defer unlock()
	entries, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		return err
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !(strings.HasSuffix(name, ".mem") || strings.HasSuffix(name, ".vlog")) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		if info.Size() == 0 {
			if err := os.Remove(filepath.Join(dir, name)); err != nil {
				return err
			}
		}
	}
	return nil
}

// The lock a directory's flock gives lives as long as any descriptor of
// the open file that took it. When the process forks (os/exec, from any
// goroutine) while it holds the lock, the child holds a copy of that
// descriptor until it execs, which closes it (close-on-exec). So the lock
// removeEmptyLogFilesIn has just released, or that a store closed a
// moment ago held, can outlive its release by the time between a fork and
// an exec, and badger.Open, taking it again, fails with "Cannot acquire
// directory lock". openBadger retries that failure for a short while
// (lockRetry in all): a directory another running store holds stays held
// and still fails, after the wait.
const lockRetry = 2 * time.Second

// openBadger is badger.Open, retrying a directory-lock failure for up to
// lockRetry.
func openBadger(opts badger.Options) (*badger.DB, error) {
	deadline := time.Now().Add(lockRetry)
	for wait := time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		db, err := badger.Open(opts)
		if err == nil || opts.InMemory || !isLockError(err) || time.Now().After(deadline) {
			return db, err
		}
		time.Sleep(wait)
	}
}

// isLockError reports whether err is badger.Open's failure to take a
// directory's lock.
func isLockError(err error) bool {
	return strings.Contains(err.Error(), "Cannot acquire directory lock")
}
