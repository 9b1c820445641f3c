package store

import (
	"os"
	"path/filepath"
	"strings"

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
