package store

import (
	"errors"
	"fmt"
	"io"

	badger "github.com/dgraph-io/badger/v4"
)

// backupMagic starts every Backup stream, so that Load refuses anything
// else before Badger reads it.
const backupMagic = "ledgernode-store-backup/1\n"

// Backup writes a consistent copy of every key of the store (spilled
// chunks and blobs included: they are ordinary keys) to w: a header, then
// Badger's backup stream as of one read snapshot. Commits may go on
// meanwhile.
func (s *Store) Backup(w io.Writer) error {
	if s.Closed() {
		return ErrClosed
	}
	if _, err := io.WriteString(w, backupMagic); err != nil {
		return err
	}
	_, err := s.db.Backup(w, 0)
	if errors.Is(err, badger.ErrDBClosed) {
		return ErrClosed
	}
	return err
}

// load fills a new, empty database from a Backup stream. It runs before the
// ledger end is read and the committer starts. Badger panics on some
// corrupt streams: that is an error here.
func load(db *badger.DB, r io.Reader) (err error) {
	empty := true
	err = db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{})
		defer it.Close()
		it.Rewind()
		empty = !it.Valid()
		return nil
	})
	if err != nil {
		return err
	}
	if !empty {
		return errors.New("store: restoring needs an empty store")
	}
	head := make([]byte, len(backupMagic))
	if _, err := io.ReadFull(r, head); err != nil || string(head) != backupMagic {
		return errors.New("store: restoring: not a ledgernode snapshot")
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("store: restoring: corrupt snapshot (%v)", p)
		}
	}()
	if err := db.Load(r, 256); err != nil {
		return fmt.Errorf("store: restoring: %w", err)
	}
	return nil
}

// Sizes returns the sizes in bytes of the LSM tree and of the value log
// (both 0 for an in-memory store, which has no files).
func (s *Store) Sizes() (lsm, vlog int64) { return s.db.Size() }
