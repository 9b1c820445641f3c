package store

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"slices"

	badger "github.com/dgraph-io/badger/v4"
)

// Spilling keeps large values out of the committing transaction, for
// stores whose transactions are small (an in-memory Badger holds every
// value in its memtable: no value above 1 MiB, no transaction above 15% of
// the memtable). A spilled value is written, before the transaction that
// refers to it commits, in chunks of BlobChunk bytes under
// "~/<spill id>/<chunk>" (outside the transaction, like blobs); the key
// itself gets a small pointer marked by metaSpilled. Readers follow
// pointers transparently. A spilled value that is overwritten or deleted
// has its chunks deleted in the same transaction; the chunks of an
// operation that does not commit are deleted again.

// PrefixSpill is the key prefix of spilled values' chunks; no other prefix
// extends it.
const PrefixSpill = "~/"

// metaSpilled is the Badger user-meta bit of a pointer to a spilled value.
const metaSpilled byte = 1

const (
	spillIDLen  = 16
	pointerLen  = spillIDLen + 4 + 8 // id, chunk count, size
	minSpilled  = 1 << 10            // values below this are never spilled
	chunkKeyLen = len(PrefixSpill) + spillIDLen + 4
)

// Spill configures spilling (Options.Spill); the zero value disables it.
type Spill struct {
	// Above: every value larger than this many bytes is spilled (0: none
	// is, whatever its size).
	Above int
	// Inline bounds the bytes one operation writes inside the transaction:
	// beyond it, its largest values (of at least 1 KiB) are spilled too.
	Inline int
}

func (sp Spill) enabled() bool { return sp.Above > 0 || sp.Inline > 0 }

func chunkKey(id []byte, i int) []byte {
	k := make([]byte, 0, chunkKeyLen)
	k = append(k, PrefixSpill...)
	k = append(k, id...)
	return binary.BigEndian.AppendUint32(k, uint32(i))
}

func parsePointer(p []byte) (id []byte, chunks int, size int, err error) {
	if len(p) != pointerLen {
		return nil, 0, 0, fmt.Errorf("store: corrupt spill pointer of %d bytes", len(p))
	}
	return p[:spillIDLen], int(binary.BigEndian.Uint32(p[spillIDLen:])), int(binary.BigEndian.Uint64(p[spillIDLen+4:])), nil
}

// toSpill returns the indexes of the writes to spill, largest first;
// bytes bounds their keys' and values' bytes from above (Tx.bytes).
func (sp Spill) toSpill(writes []write, bytes int) []int {
	if !sp.enabled() || (sp.Inline == 0 || bytes <= sp.Inline) && (sp.Above == 0 || bytes <= sp.Above) {
		return nil // none is larger than Above, and all fit in Inline
	}
	var out []int
	inline := 0
	var candidates []int
	for i := range writes {
		w := &writes[i]
		switch {
		case w.del || w.meta != 0:
		case sp.Above > 0 && len(w.val) > sp.Above:
			out = append(out, i)
		default:
			inline += len(w.key) + len(w.val)
			if len(w.val) >= minSpilled {
				candidates = append(candidates, i)
			}
		}
	}
	if sp.Inline > 0 && inline > sp.Inline {
		slices.SortFunc(candidates, func(a, b int) int { return len(writes[b].val) - len(writes[a].val) })
		for _, i := range candidates {
			if inline <= sp.Inline {
				break
			}
			out = append(out, i)
			inline -= len(writes[i].val)
		}
	}
	return out
}

// spillValues writes the chunks of the values of writes at idx (outside any
// transaction) and returns writes with pointers in their place, and the
// ids written.
func (s *Store) spillValues(writes []write, idx []int) ([]write, [][]byte, error) {
	if len(idx) == 0 {
		return writes, nil, nil
	}
	writes = slices.Clone(writes)
	wb := s.db.NewWriteBatch()
	defer wb.Cancel()
	var ids [][]byte
	for _, i := range idx {
		val := writes[i].val
		id := make([]byte, spillIDLen)
		rand.Read(id)
		chunks := 0
		for off := 0; off == 0 || off < len(val); off += BlobChunk {
			if err := wb.Set(chunkKey(id, chunks), val[off:min(off+BlobChunk, len(val))]); err != nil {
				return nil, nil, err
			}
			chunks++
		}
		ptr := append(slices.Clone(id), make([]byte, 12)...)
		binary.BigEndian.PutUint32(ptr[spillIDLen:], uint32(chunks))
		binary.BigEndian.PutUint64(ptr[spillIDLen+4:], uint64(len(val)))
		writes[i] = write{key: writes[i].key, val: ptr, meta: metaSpilled}
		ids = append(ids, ptr)
	}
	if err := wb.Flush(); err != nil {
		return nil, nil, err
	}
	s.spilledAny.Store(true)
	return writes, ids, nil
}

// releaseOld appends to writes the deletion of the chunks of every spilled
// value that writes overwrite or delete, as txn sees them.
func (s *Store) releaseOld(txn *badger.Txn, writes []write) ([]write, error) {
	if !s.spilledAny.Load() {
		return writes, nil
	}
	var dels []write
	for _, w := range writes {
		if w.chunk {
			continue
		}
		item, err := txn.Get(w.key)
		if err == badger.ErrKeyNotFound {
			continue
		}
		if err != nil {
			return nil, err
		}
		if item.UserMeta()&metaSpilled == 0 {
			continue
		}
		ptr, err := item.ValueCopy(nil)
		if err != nil {
			return nil, err
		}
		id, chunks, _, err := parsePointer(ptr)
		if err != nil {
			return nil, err
		}
		for i := range chunks {
			dels = append(dels, write{key: chunkKey(id, i), del: true, chunk: true})
		}
	}
	if len(dels) == 0 {
		return writes, nil
	}
	return append(slices.Clip(writes), dels...), nil
}

// dropSpills deletes the chunks of spilled values whose operation did not
// commit.
func (s *Store) dropSpills(ptrs [][]byte) {
	if len(ptrs) == 0 {
		return
	}
	wb := s.db.NewWriteBatch()
	defer wb.Cancel()
	for _, p := range ptrs {
		id, chunks, _, _ := parsePointer(p)
		for i := range chunks {
			if err := wb.Delete(chunkKey(id, i)); err != nil {
				s.log.Error("deleting the chunks of an uncommitted value", "err", err)
				return
			}
		}
	}
	if err := wb.Flush(); err != nil {
		s.log.Error("deleting the chunks of an uncommitted value", "err", err)
	}
}

// value calls fn with item's value, following a spill pointer or a
// reference to a shared value: v is only valid during the call, and fn
// must not change it.
func (r *Reader) value(item *badger.Item, fn func(v []byte) error) error {
	if item.UserMeta()&metaShared != 0 {
		return item.Value(func(ref []byte) error {
			v, err := r.shared.get(ref)
			if err != nil {
				return err
			}
			return fn(slices.Clip(v))
		})
	}
	if item.UserMeta()&metaSpilled == 0 {
		return item.Value(fn)
	}
	ptr, err := item.ValueCopy(nil)
	if err != nil {
		return err
	}
	id, chunks, size, err := parsePointer(ptr)
	if err != nil {
		return err
	}
	out := make([]byte, 0, size)
	for i := range chunks {
		ci, err := r.badger().Get(chunkKey(id, i))
		if err != nil {
			return fmt.Errorf("store: chunk %d of a spilled value of %q: %w", i, item.Key(), err)
		}
		if err := ci.Value(func(v []byte) error { out = append(out, v...); return nil }); err != nil {
			return err
		}
	}
	return fn(out)
}
