package store

import (
	"encoding/binary"

	badger "github.com/dgraph-io/badger/v4"
)

// BlobChunk is the size of one stored piece of a blob: below Badger's value
// limit of an in-memory store, so that large values (package archives) fit.
const BlobChunk = 256 << 10

// blobKey is the key of chunk i of the blob at prefix.
func blobKey(prefix []byte, i int) []byte {
	k := append([]byte(nil), prefix...)
	return binary.BigEndian.AppendUint32(k, uint32(i))
}

// PutBlob writes a large, content-addressed value in chunks, outside the
// committer and across as many Badger transactions as it needs. A blob is
// not part of the ledger's state until a committed operation refers to it;
// callers write blobs first and commit the reference afterwards, and delete
// the blobs again (DeleteBlob) if that commit is refused. Writing the same
// blob twice is harmless.
func (s *Store) PutBlob(prefix, data []byte) error {
	if s.Closed() {
		return ErrClosed
	}
	if s.ov != nil {
		s.putBlobOverlay(prefix, data)
		return nil
	}
	if err := s.diskLow(); err != nil {
		return err
	}
	wb := s.db.NewWriteBatch()
	defer wb.Cancel()
	for _, c := range blobWrites(prefix, data) {
		if err := wb.Set(c.key, c.val); err != nil {
			return err
		}
	}
	return wb.Flush()
}

// blobWrites returns the chunks of the blob data at prefix (one, empty,
// for an empty blob).
func blobWrites(prefix, data []byte) []write {
	var writes []write
	for i := 0; i == 0 || i*BlobChunk < len(data); i++ {
		writes = append(writes, write{key: blobKey(prefix, i), val: data[i*BlobChunk : min((i+1)*BlobChunk, len(data))]})
	}
	return writes
}

// DeleteBlob removes every chunk of the blob at prefix.
func (s *Store) DeleteBlob(prefix []byte) error {
	if s.Closed() {
		return ErrClosed
	}
	if s.ov != nil {
		s.deleteBlobOverlay(prefix)
		return nil
	}
	var keys [][]byte
	// The deletion's read and write batch are the database's until they end.
	if !s.beginRead() {
		return ErrClosed
	}
	defer s.endRead()
	err := s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: prefix})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			keys = append(keys, it.Item().KeyCopy(nil))
		}
		return nil
	})
	if err != nil {
		return err
	}
	wb := s.db.NewWriteBatch()
	defer wb.Cancel()
	for _, k := range keys {
		if err := wb.Delete(k); err != nil {
			return err
		}
	}
	return wb.Flush()
}

// GetBlob reads the blob at prefix (ErrNotFound when it has no chunk).
func (r *Reader) GetBlob(prefix []byte) ([]byte, error) {
	var out []byte
	found := false
	err := r.Scan(prefix, nil, func(_, v []byte) (bool, error) {
		found = true
		out = append(out, v...)
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, ErrNotFound
	}
	return out, nil
}

// BlobPrefix returns the prefix of a blob named by kind and id
// ("b/<kind>/<id>/"), which no other blob's prefix extends.
func BlobPrefix(kind, id string) []byte { return []byte("b/" + kind + "/" + id + "/") }

// HasBlob reports whether the blob at prefix has its first chunk.
func (t *Tx) HasBlob(prefix []byte) (bool, error) { return t.Has(blobKey(prefix, 0)) }

// DeleteBlobInTx stages the removal of every chunk of the blob at prefix
// inside an operation, so that it is ordered with the commits that refer
// to blobs.
func (t *Tx) DeleteBlobInTx(prefix []byte) error {
	return t.Scan(prefix, nil, func(k, _ []byte) (bool, error) {
		t.Delete(k)
		return true, nil
	})
}
