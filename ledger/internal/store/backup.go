package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"

	badger "github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/pb"
	"google.golang.org/protobuf/proto"
)

// backupMagic starts every Backup stream, so that Load refuses anything
// else before Badger reads it. Version 2 checksums its batches and ends
// with a trailer (frames.go): version 1 had neither, and a copy cut at a
// batch boundary or with a flipped byte restored without a word.
const backupMagic = "ledgernode-store-backup/2\n"

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
	if s.ov != nil {
		return s.backupOverlay(w)
	}
	if !s.beginRead() {
		return ErrClosed
	}
	defer s.endRead()
	err := s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{})
		defer it.Close()
		out := &kvBatches{w: w}
		for it.Rewind(); it.Valid(); it.Next() {
			item := it.Item()
			val, err := item.ValueCopy(nil)
			if err != nil {
				return err
			}
			meta := item.UserMeta()
			if meta&metaShared != 0 {
				// A copy holds the value itself, not a reference into
				// this process's memory.
				if val, err = s.shared.get(val); err != nil {
					return err
				}
				meta &^= metaShared
			}
			if err := out.add(&pb.KV{Key: item.KeyCopy(nil), Value: val, UserMeta: []byte{meta},
				Version: item.Version(), ExpiresAt: item.ExpiresAt(), Meta: []byte{0}}); err != nil {
				return err
			}
		}
		return out.close()
	})
	if errors.Is(err, badger.ErrDBClosed) {
		return ErrClosed
	}
	return err
}

// backupBatch is the size of the batches of a Backup stream.
const backupBatch = 1 << 20

// kvBatches writes the entries of a Backup stream in lists of about
// backupBatch bytes each.
type kvBatches struct {
	w      io.Writer
	list   pb.KVList
	size   int    // the keys' and values' bytes in list
	frames uint64 // the batches written
}

// add appends kv, writing the list when it is full.
func (b *kvBatches) add(kv *pb.KV) error {
	b.list.Kv = append(b.list.Kv, kv)
	if b.size += len(kv.Key) + len(kv.Value); b.size >= backupBatch {
		return b.flush()
	}
	return nil
}

// flush writes the entries added since the last write, if any.
func (b *kvBatches) flush() error {
	if len(b.list.Kv) == 0 {
		return nil
	}
	err := writeKVList(b.w, &b.list)
	b.list.Kv, b.size = b.list.Kv[:0], 0
	if err == nil {
		b.frames++
	}
	return err
}

// close writes the last entries and the stream's trailer.
func (b *kvBatches) close() error {
	if err := b.flush(); err != nil {
		return err
	}
	return writeTrailer(b.w, b.frames)
}

// restore fills the new database db from a Backup stream (load), which
// must be empty; on a directory (target) the restore is marked under way
// until it ends, and a failed one is undone. db is closed when it fails.
func restore(db *badger.DB, r io.Reader, target *restoreTarget) (sharedValues, error) {
	fail := func(err error) (sharedValues, error) {
		db.Close()
		if uerr := target.undo(); uerr != nil {
			err = fmt.Errorf("%w (and removing what it wrote: %v)", err, uerr)
		}
		return nil, err
	}
	empty, err := isEmpty(db)
	if err != nil {
		db.Close()
		return nil, err
	}
	if !empty {
		// Not a new store: nothing of it is undone.
		db.Close()
		return nil, errors.New("store: restoring needs an empty store")
	}
	if err := target.mark(); err != nil {
		return fail(fmt.Errorf("store: restoring: %w", err))
	}
	shared, err := load(db, r)
	if err != nil {
		return fail(err)
	}
	if err := target.done(); err != nil {
		return fail(fmt.Errorf("store: restoring: %w", err))
	}
	return shared, nil
}

// load fills a new, empty database from a Backup stream. It runs before the
// ledger end is read and the committer starts. Badger panics on some
// corrupt streams: that is an error here. A stream of a Prepared snapshot
// restored into an in-memory database writes the prepared entries and
// returns the values they refer to (the store's shared values).
func load(db *badger.DB, r io.Reader) (shared sharedValues, err error) {
	if pr, ok := r.(*preparedReader); ok && db.Opts().InMemory {
		r, shared = &lazyStream{p: pr.p}, pr.p.shared
	}
	if err := readMagic(r); err != nil {
		return nil, fmt.Errorf("store: restoring: %w", err)
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("store: restoring: corrupt snapshot (%v)", p)
		}
	}()
	// DB.Load reads the batches checked, not the stream: it checks
	// nothing, and takes the end of a cut stream for its end.
	fr := &frameReader{r: r}
	if err := db.Load(fr, 256); err != nil {
		if fr.err != nil {
			err = fr.err
		}
		return nil, fmt.Errorf("store: restoring: %w", err)
	}
	if fr.err != nil {
		return nil, fmt.Errorf("store: restoring: %w", fr.err)
	}
	return shared, nil
}

// metaShared is the Badger user-meta bit of a reference to a shared value:
// the value is the index (uint32, big-endian) of a value of the Prepared
// snapshot the store was restored from, which every store restored from it
// reads and none writes.
const metaShared byte = 2

// minShared is the size from which a blob chunk of a prepared snapshot is
// shared rather than copied into each store.
const minShared = 1 << 10

// Prepared is a Backup stream read once, to restore many in-memory stores
// from it cheaply: the chunks of its blobs (package payloads: most of a
// snapshot's bytes) are kept once and every in-memory store restored from
// it refers to them instead of holding a copy; only the other entries are
// written into each store. The stores stay independent: the shared values
// never change (a store that writes such a key writes a value of its own),
// and a store's Backup writes the values themselves. A durable store reads
// a Prepared snapshot as a plain stream of its entries. It keeps the
// entries once: the streams a store restores from are written from them
// when it reads them.
type Prepared struct {
	shared sharedValues // the shared values, by index
	kvs    []*pb.KV     // the entries as restored (references included), in key order

	// base is what overlay stores read (overlay.go), built at the first.
	baseOnce sync.Once
	base     *overlayBase
	baseErr  error
}

// Prepare reads a Backup stream (as written by Store.Backup) into a
// Prepared snapshot, which keeps copies of its entries, not stream. It
// checks the stream's header, framing, checksums and trailer; the entries themselves are
// checked when a store is restored from it.
func Prepare(stream []byte) (*Prepared, error) {
	p := &Prepared{}
	r := bytes.NewReader(stream)
	if err := readMagic(r); err != nil {
		return nil, fmt.Errorf("store: preparing: %w", err)
	}
	err := readFrames(r, func(b []byte) error {
		var list pb.KVList
		if err := proto.Unmarshal(b, &list); err != nil {
			return fmt.Errorf("corrupt snapshot: %w", err)
		}
		for _, kv := range list.Kv {
			if bytes.HasPrefix(kv.Key, []byte(prefixBlob)) && len(kv.UserMeta) == 1 && kv.UserMeta[0] == 0 &&
				len(kv.Value) >= minShared && len(p.shared) < 1<<31 {
				p.shared = append(p.shared, kv.Value)
				kv.Value = binary.BigEndian.AppendUint32(nil, uint32(len(p.shared)-1))
				kv.UserMeta = []byte{metaShared}
			}
			p.kvs = append(p.kvs, kv)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: preparing: %w", err)
	}
	return p, nil
}

// stream writes the snapshot as a Backup stream: with the references to
// shared values (what an in-memory Badger store restores, sharing them),
// or, resolve, with the values themselves (a plain stream).
func (p *Prepared) stream(resolve bool) ([]byte, error) {
	var out bytes.Buffer
	out.WriteString(backupMagic)
	list := &pb.KVList{}
	size := 0
	var frames uint64
	for i, kv := range p.kvs {
		if resolve && len(kv.UserMeta) == 1 && kv.UserMeta[0] == metaShared {
			v, err := p.shared.get(kv.Value)
			if err != nil {
				return nil, err
			}
			kv = &pb.KV{Key: kv.Key, Value: v, UserMeta: []byte{0}, Version: kv.Version, ExpiresAt: kv.ExpiresAt, Meta: kv.Meta}
		}
		list.Kv = append(list.Kv, kv)
		if size += len(kv.Key) + len(kv.Value); size >= backupBatch || i == len(p.kvs)-1 {
			if err := writeKVList(&out, list); err != nil {
				return nil, err
			}
			list.Kv, size, frames = list.Kv[:0], 0, frames+1
		}
	}
	if err := writeTrailer(&out, frames); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// lazyStream reads a Prepared snapshot's stream, written at the first
// Read (a store that does not read it, an overlay store, costs nothing).
type lazyStream struct {
	p       *Prepared
	resolve bool
	r       *bytes.Reader
	err     error
}

func (l *lazyStream) Read(b []byte) (int, error) {
	if l.r == nil && l.err == nil {
		var s []byte
		s, l.err = l.p.stream(l.resolve)
		l.r = bytes.NewReader(s)
	}
	if l.err != nil {
		return 0, l.err
	}
	return l.r.Read(b)
}

// Reader returns a reader of the snapshot for Options.Restore: an
// in-memory store restored from it shares the prepared values; any other
// reader of it reads a plain Backup stream of its entries.
func (p *Prepared) Reader() io.Reader {
	return &preparedReader{Reader: &lazyStream{p: p, resolve: true}, p: p}
}

type preparedReader struct {
	io.Reader // the plain stream
	p         *Prepared
}

// Scan calls fn, in key order, for each entry of the snapshot with the
// prefix, with its value (shared values resolved; spilled ones are their
// pointers); fn must not keep or change val.
func (p *Prepared) Scan(prefix []byte, fn func(key, val []byte) bool) {
	for _, kv := range p.kvs {
		if !bytes.HasPrefix(kv.Key, prefix) {
			continue
		}
		val := kv.Value
		if len(kv.UserMeta) == 1 && kv.UserMeta[0] == metaShared {
			val, _ = p.shared.get(val)
		}
		if !fn(kv.Key, val) {
			return
		}
	}
}

// prefixBlob is the prefix of every blob key (BlobPrefix).
const prefixBlob = "b/"

// sharedValues are the values of the Prepared snapshot a store was
// restored from, by index.
type sharedValues [][]byte

// get resolves a reference to a shared value; the caller must not change
// the value.
func (sv sharedValues) get(ref []byte) ([]byte, error) {
	if len(ref) != 4 || int(binary.BigEndian.Uint32(ref)) >= len(sv) {
		return nil, errors.New("store: corrupt reference to a shared value")
	}
	return sv[binary.BigEndian.Uint32(ref)], nil
}
