package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	badger "github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/pb"
	"google.golang.org/protobuf/proto"
)

// backupMagic starts every Backup stream, so that Load refuses anything
// else before Badger reads it.
const backupMagic = "ledgernode-store-backup/1\n"

// Backup writes a consistent copy of every key of the store (spilled
// chunks and blobs included: they are ordinary keys) to w: a header, then
// the latest version of each key as of one read snapshot, in Badger's
// backup format (what DB.Load reads). Commits may go on meanwhile.
//
// It is not DB.Backup: that streams with a 32 MB buffer per goroutine
// (hundreds of MB allocated for any backup) and keeps every version.
func (s *Store) Backup(w io.Writer) error {
	if s.Closed() {
		return ErrClosed
	}
	if _, err := io.WriteString(w, backupMagic); err != nil {
		return err
	}
	err := s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{})
		defer it.Close()
		list := &pb.KVList{}
		size := 0
		for it.Rewind(); it.Valid(); it.Next() {
			item := it.Item()
			val, err := item.ValueCopy(nil)
			if err != nil {
				return err
			}
			list.Kv = append(list.Kv, &pb.KV{Key: item.KeyCopy(nil), Value: val, UserMeta: []byte{item.UserMeta()},
				Version: item.Version(), ExpiresAt: item.ExpiresAt(), Meta: []byte{0}})
			if size += len(val) + len(item.Key()); size >= backupBatch {
				if err := writeKVList(w, list); err != nil {
					return err
				}
				list.Kv, size = list.Kv[:0], 0
			}
		}
		if len(list.Kv) > 0 {
			return writeKVList(w, list)
		}
		return nil
	})
	if errors.Is(err, badger.ErrDBClosed) {
		return ErrClosed
	}
	return err
}

// backupBatch is the size of the batches of a Backup stream.
const backupBatch = 1 << 20

// writeKVList writes one batch as DB.Load reads it: its size (uint64,
// little-endian), then the KVList message.
func writeKVList(w io.Writer, list *pb.KVList) error {
	b, err := proto.Marshal(list)
	if err != nil {
		return err
	}
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
	if _, err := w.Write(n[:]); err != nil {
		return err
	}
	_, err = w.Write(b)
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
