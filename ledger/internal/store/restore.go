package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	badger "github.com/dgraph-io/badger/v4"
)

// restoringMarker is the file a restore into a directory keeps there
// while it loads the snapshot. A directory that still has it holds part
// of a snapshot (the process stopped during the restore): it is no store
// to serve, and Open refuses it.
const restoringMarker = "LEDGERNODE-RESTORING"

// checkRestoreFinished refuses a directory a restore did not finish.
func checkRestoreFinished(opts badger.Options) error {
	if opts.InMemory {
		return nil
	}
	if _, err := os.Stat(filepath.Join(opts.Dir, restoringMarker)); err == nil {
		return fmt.Errorf("store: %s holds an unfinished restore of a snapshot (the process stopped while restoring it): remove the directory and restore again", opts.Dir)
	}
	return nil
}

// restoreTarget is the directory (or directories: Dir and ValueDir) a
// store is restored into, as it was before Open, so that a failed
// restore can leave it so.
type restoreTarget struct {
	dirs    []string
	existed map[string]bool            // the directories that existed
	before  map[string]map[string]bool // their entries then
}

// newRestoreTarget records the directories of opts as they are; nil for
// an in-memory store.
func newRestoreTarget(opts badger.Options) (*restoreTarget, error) {
	if opts.InMemory {
		return nil, nil
	}
	t := &restoreTarget{dirs: []string{opts.Dir}, existed: map[string]bool{}, before: map[string]map[string]bool{}}
	if opts.ValueDir != "" && opts.ValueDir != opts.Dir {
		t.dirs = append(t.dirs, opts.ValueDir)
	}
	for _, dir := range t.dirs {
		entries, err := os.ReadDir(dir)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		t.existed[dir] = true
		t.before[dir] = map[string]bool{}
		for _, e := range entries {
			t.before[dir][e.Name()] = true
		}
	}
	return t, nil
}

// mark writes the marker of a restore under way (synced: a crash after
// the first loaded entry must find it).
func (t *restoreTarget) mark() error {
	if t == nil {
		return nil
	}
	f, err := os.OpenFile(filepath.Join(t.dirs[0], restoringMarker), os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = syncDir(t.dirs[0])
	}
	return err
}

// done removes the marker of a finished restore.
func (t *restoreTarget) done() error {
	if t == nil {
		return nil
	}
	if err := os.Remove(filepath.Join(t.dirs[0], restoringMarker)); err != nil {
		return err
	}
	return syncDir(t.dirs[0])
}

// undo removes what the store wrote into its directories (every entry
// that was not there before, the directories that did not exist), once
// the store is closed. A directory another process has opened since is
// left alone.
func (t *restoreTarget) undo() error {
	if t == nil {
		return nil
	}
	var errs []error
	for _, dir := range t.dirs {
		unlock, free, err := lockDir(dir)
		if err != nil || !free {
			errs = append(errs, err)
			continue
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			unlock()
			errs = append(errs, err)
			continue
		}
		for _, e := range entries {
			if !t.before[dir][e.Name()] {
				errs = append(errs, os.RemoveAll(filepath.Join(dir, e.Name())))
			}
		}
		unlock()
		if !t.existed[dir] {
			errs = append(errs, os.Remove(dir))
		}
	}
	return errors.Join(errs...)
}

// syncDir makes a directory's entries durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// isEmpty reports whether db holds no key.
func isEmpty(db *badger.DB) (bool, error) {
	empty := true
	err := db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{})
		defer it.Close()
		it.Rewind()
		empty = !it.Valid()
		return nil
	})
	return empty, err
}
