package store

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/dgraph-io/badger/v4/pb"
)

// An overlay store is an in-memory store restored from a Prepared
// snapshot (Prepared.OverlayReader) without a Badger instance of its own:
// its state is the snapshot's entries, read-only and shared by every
// store restored from it, under the store's own writes, kept in a
// persistent (path-copying) treap. A commit builds a new version of the
// treap and publishes it; a reader holds the version it started with, so
// reads are consistent snapshots as with Badger, and opening such a store
// allocates nothing in proportion to the snapshot. It has no transaction
// size limit (nothing spills, ErrTooLarge never happens) and no files;
// Options.Badger and Options.Spill are ignored.
//
// Canton's `daml test` runs each script on a fresh IDE ledger (an
// in-memory map); a fixture node of the Daml Script runner is the same:
// short-lived, small, in memory.

// overlayBase is a Prepared snapshot's entries as an overlay store reads
// them: sorted by key, unique, every value resolved (shared values are
// the Prepared's, spilled values are joined and their chunks left out).
type overlayBase struct {
	keys [][]byte
	vals [][]byte
	// byTemplate are the entries of the index by template of the
	// snapshot's active-contracts index entries (see byTemplateKey).
	byTemplate *overlayBase
}

// overlayReader is the Restore reader of an overlay store
// (Prepared.OverlayReader). Anything but an in-memory store reads the
// plain stream.
type overlayReader struct {
	io.Reader // the plain stream
	p         *Prepared
}

// OverlayReader returns a reader of the snapshot for Options.Restore: an
// in-memory store restored from it is an overlay on the snapshot (see
// overlay.go) instead of a Badger instance; any other reader of it reads
// the Backup stream the snapshot was prepared from.
func (p *Prepared) OverlayReader() io.Reader {
	return &overlayReader{Reader: &lazyStream{p: p, resolve: true}, p: p}
}

// overlayBase builds, once, the entries of an overlay store.
func (p *Prepared) overlayBase() (*overlayBase, error) {
	p.baseOnce.Do(func() {
		b := &overlayBase{}
		byKey := make(map[string][]byte, len(p.kvs))
		for _, kv := range p.kvs {
			byKey[string(kv.Key)] = kv.Value
		}
		for _, kv := range p.kvs {
			var meta byte
			if len(kv.UserMeta) == 1 {
				meta = kv.UserMeta[0]
			}
			if bytes.HasPrefix(kv.Key, []byte(PrefixSpill)) {
				continue // joined into the values that point to them
			}
			val := kv.Value
			switch meta {
			case 0:
			case metaShared:
				v, err := p.shared.get(val)
				if err != nil {
					p.baseErr = err
					return
				}
				val = v
			case metaSpilled:
				id, chunks, size, err := parsePointer(val)
				if err != nil {
					p.baseErr = err
					return
				}
				joined := make([]byte, 0, size)
				for i := range chunks {
					c, ok := byKey[string(chunkKey(id, i))]
					if !ok {
						p.baseErr = fmt.Errorf("store: chunk %d of a spilled value of %q is missing", i, kv.Key)
						return
					}
					joined = append(joined, c...)
				}
				val = joined
			default:
				p.baseErr = fmt.Errorf("store: unknown user meta %d of %q", meta, kv.Key)
				return
			}
			b.keys = append(b.keys, kv.Key)
			b.vals = append(b.vals, val)
		}
		if !slices.IsSortedFunc(b.keys, bytes.Compare) {
			p.baseErr = errors.New("store: a snapshot's keys are out of order")
			return
		}
		b.byTemplate = b.indexByTemplate()
		p.base = b
	})
	return p.base, p.baseErr
}

// indexByTemplate returns the entries of the index by template of b's
// active-contracts index entries (see byTemplateKey).
func (b *overlayBase) indexByTemplate() *overlayBase {
	type entry struct{ k, v []byte }
	var derived []entry
	for i := b.seek([]byte(PrefixActiveByParty)); i < len(b.keys) && bytes.HasPrefix(b.keys[i], []byte(PrefixActiveByParty)); i++ {
		if k := byTemplateKey(b.keys[i], b.vals[i]); k != nil {
			derived = append(derived, entry{k, b.vals[i]})
		}
	}
	slices.SortFunc(derived, func(a, b entry) int { return bytes.Compare(a.k, b.k) })
	out := &overlayBase{}
	for _, e := range derived {
		out.keys = append(out.keys, e.k)
		out.vals = append(out.vals, e.v)
	}
	return out
}

// seek returns the position of the first key >= key.
func (b *overlayBase) seek(key []byte) int {
	return sort.Search(len(b.keys), func(i int) bool { return bytes.Compare(b.keys[i], key) >= 0 })
}

// tnode is a node of a treap of an overlay store's own writes: a value or,
// del, the deletion of the key (hiding the snapshot's entry). Nodes never
// change once a version holding them is published.
type tnode struct {
	key, val []byte
	// decoded is val's decoded form its writer handed over with it
	// (Tx.SetOwnedDecoded), or nil, or a *lazyValue (Tx.SetOwnedLazy,
	// val nil) that renders the value at its first read.
	decoded     any
	del         bool
	prio        uint32
	left, right *tnode
	// gen is the batch of writes (overlayView.with) that made the node:
	// a later write of the same batch may change it in place, since no
	// published version holds it yet.
	gen uint64
}

// tgen numbers the batches of writes of every overlay store (one counter
// for the process, so that no two batches share a number, whatever
// version each starts from).
var tgen atomic.Uint64

// tinsert returns a treap with key set to val (or deleted), copying the
// nodes on the path to it, but for those batch gen made, which it changes
// in place: the writes of one batch share the top of the tree, which is
// then copied once per batch rather than once per write.
//
// When old is not nil, it is set to the node's value before the write
// when the tree had the key (found; del when it was a deletion).
func tinsert(n *tnode, key, val []byte, decoded any, del bool, prio uint32, gen uint64, old *tprev) *tnode {
	if n == nil {
		return &tnode{key: key, val: val, decoded: decoded, del: del, prio: prio, gen: gen}
	}
	cp := n
	if n.gen != gen {
		c := *n
		c.gen = gen
		cp = &c
	}
	switch c := bytes.Compare(key, n.key); {
	case c == 0:
		if old != nil {
			*old = tprev{val: valueOf(cp.val, cp.decoded), del: cp.del, found: true}
		}
		cp.val, cp.decoded, cp.del = val, decoded, del
	case c < 0:
		cp.left = tinsert(cp.left, key, val, decoded, del, prio, gen, old)
		if l := cp.left; l.prio > cp.prio { // rotate right (l is the batch's)
			cp.left, l.right = l.right, cp
			return l
		}
	default:
		cp.right = tinsert(cp.right, key, val, decoded, del, prio, gen, old)
		if r := cp.right; r.prio > cp.prio { // rotate left
			cp.right, r.left = r.left, cp
			return r
		}
	}
	return cp
}

// tprev is what a tree held at a key before a write (tinsert).
type tprev struct {
	val        []byte
	del, found bool
}

// overlayView is one version of an overlay store: immutable once
// published. Besides its entries (tview), it keeps an index by template
// of its active-contracts index entries (byTemplate, below).
type overlayView struct {
	tview
	byTemplate tview
}

// tview is one version of a sorted set of entries: the snapshot's
// (base) under the store's own writes (root).
type tview struct {
	base *overlayBase
	root *tnode
}

// An overlay store, the in-memory store of a Daml Script's node, answers
// a script's queries of the active contracts of one template, which
// read a party's entries of the active-contracts index (w/<party>/<cid>,
// keys.go) and keep those whose value names the template (a script's
// parties see a few dozen contracts of a dozen templates, of which a
// query wants one or two). So it also keeps, for every such entry, one
// under <party>/<template id>\x00<cid> with the same value, in a tree of
// its own (never stored, never backed up: derived from the entries at
// every write), which ScanActiveOfTemplate reads: the entries of one
// party and template, in contract-id order as the party's are.

// byTemplateKey returns the key of the index by template of the
// active-contracts index entry key (w/<party>/<cid>) with value val
// (ACSIndexValue), or nil when they are not such an entry.
func byTemplateKey(key, val []byte) []byte {
	rest, ok := bytes.CutPrefix(key, []byte(PrefixActiveByParty))
	if !ok {
		return nil
	}
	party, cid, ok := bytes.Cut(rest, []byte{'/'})
	_, tid, _, _, okv := DecodeACSIndexValue(val)
	if !ok || !okv {
		return nil
	}
	return byTemplatePrefix(make([]byte, 0, len(party)+len(tid)+2+len(cid)), party, tid, cid)
}

// byTemplatePrefix appends the prefix of the index by template of one
// party's entries of one template, then cid.
func byTemplatePrefix[T string | []byte](dst []byte, party, templateID T, cid []byte) []byte {
	dst = append(dst, party...)
	dst = append(dst, '/')
	dst = append(dst, templateID...)
	dst = append(dst, 0)
	return append(dst, cid...)
}

// get returns the value at key (not a copy: the caller must not change
// it).
func (v *tview) get(key []byte) ([]byte, bool) {
	val, _, ok := v.getDecoded(key)
	return val, ok
}

// getDecoded is get that also returns the value's decoded form, when
// its writer handed one over (nil otherwise: the snapshot's entries have
// none).
func (v *tview) getDecoded(key []byte) ([]byte, any, bool) {
	for n := v.root; n != nil; {
		switch c := bytes.Compare(key, n.key); {
		case c == 0:
			if n.del {
				return nil, nil, false
			}
			return valueOf(n.val, n.decoded), decodedOf(n.decoded), true
		case c < 0:
			n = n.left
		default:
			n = n.right
		}
	}
	if i := v.base.seek(key); i < len(v.base.keys) && bytes.Equal(v.base.keys[i], key) {
		return v.base.vals[i], nil, true
	}
	return nil, nil, false
}

// with returns the version with writes applied (values copied, but for
// those handed over by SetOwned: a writer may reuse its buffers once its
// transaction committed, as with Badger).
func (v overlayView) with(writes []write) *overlayView {
	gen := tgen.Add(1)
	for _, w := range writes {
		val := w.val
		if _, lazy := w.decoded.(*lazyValue); !w.del && !lazy {
			if !w.owned {
				val = bytes.Clone(val)
			}
			if val == nil {
				val = []byte{}
			}
		}
		if !bytes.HasPrefix(w.key, []byte(PrefixActiveByParty)) {
			v.root = tinsert(v.root, w.key, val, w.decoded, w.del, rand.Uint32(), gen, nil)
			continue
		}
		var old tprev
		v.root = tinsert(v.root, w.key, val, w.decoded, w.del, rand.Uint32(), gen, &old)
		if !old.found {
			if i := v.base.seek(w.key); i < len(v.base.keys) && bytes.Equal(v.base.keys[i], w.key) {
				old = tprev{val: v.base.vals[i], found: true}
			}
		}
		v.indexByTemplate(w.key, valueOf(val, w.decoded), w.del, old, gen)
	}
	return &v
}

// indexByTemplate updates the index by template for the write of val at
// key (or its deletion) over old, what the key held before: the entry of
// the value replaced goes, the new value's comes.
func (v *overlayView) indexByTemplate(key, val []byte, del bool, old tprev, gen uint64) {
	var add []byte
	if !del {
		add = byTemplateKey(key, val)
	}
	if old.found && !old.del {
		if drop := byTemplateKey(key, old.val); drop != nil && !bytes.Equal(drop, add) {
			v.byTemplate.root = tinsert(v.byTemplate.root, drop, nil, nil, true, rand.Uint32(), gen, nil)
		}
	}
	if add != nil {
		v.byTemplate.root = tinsert(v.byTemplate.root, add, val, nil, false, rand.Uint32(), gen, nil)
	}
}

// scan calls fn for every entry with the prefix from seek on (reverse:
// down from seek), in key order, until fn returns false or an error.
func (v *tview) scan(prefix, seek []byte, reverse bool, fn func(key, val []byte) (bool, error)) error {
	var it titer
	it.seek(v.root, seek, reverse)
	// i is the next base entry: the first at or after seek, or (reverse)
	// the last at or before it.
	i := v.base.seek(seek)
	if reverse && (i == len(v.base.keys) || !bytes.Equal(v.base.keys[i], seek)) {
		i--
	}
	step := 1
	if reverse {
		step = -1
	}
	for {
		n := it.peek()
		var bk []byte
		if i >= 0 && i < len(v.base.keys) {
			bk = v.base.keys[i]
		}
		var key, val []byte
		switch {
		case n == nil && bk == nil:
			return nil
		case n == nil:
			key, val = bk, v.base.vals[i]
			i += step
		case bk == nil:
			it.next(reverse)
			if n.del {
				continue
			}
			key, val = n.key, valueOf(n.val, n.decoded)
		default:
			c := bytes.Compare(n.key, bk)
			if reverse {
				c = -c
			}
			if c > 0 { // the base entry comes first
				key, val = bk, v.base.vals[i]
				i += step
				break
			}
			if c == 0 {
				i += step // shadowed by the store's own write
			}
			it.next(reverse)
			if n.del {
				continue
			}
			key, val = n.key, valueOf(n.val, n.decoded)
		}
		if !bytes.HasPrefix(key, prefix) {
			return nil
		}
		if more, err := fn(key, val); err != nil || !more {
			return err
		}
	}
}

// titer walks a treap in order (or reverse order) with a stack of the
// nodes still to visit.
type titer struct{ stack []*tnode }

// seek positions the iterator at the first node >= key (reverse: the last
// <= key).
func (it *titer) seek(n *tnode, key []byte, reverse bool) {
	for n != nil {
		c := bytes.Compare(n.key, key)
		switch {
		case !reverse && c >= 0, reverse && c <= 0:
			it.stack = append(it.stack, n)
			if reverse {
				n = n.right
			} else {
				n = n.left
			}
		case reverse:
			n = n.left
		default:
			n = n.right
		}
	}
}

func (it *titer) peek() *tnode {
	if len(it.stack) == 0 {
		return nil
	}
	return it.stack[len(it.stack)-1]
}

// next moves past the current node.
func (it *titer) next(reverse bool) {
	n := it.stack[len(it.stack)-1]
	it.stack = it.stack[:len(it.stack)-1]
	if reverse {
		for n = n.left; n != nil; n = n.right {
			it.stack = append(it.stack, n)
		}
		return
	}
	for n = n.right; n != nil; n = n.left {
		it.stack = append(it.stack, n)
	}
}

// overlay is the state of an overlay store.
type overlay struct {
	// mu orders the writers: the committer's group commits and the blob
	// writes outside it.
	mu  sync.Mutex
	cur atomic.Pointer[overlayView]
}

// openOverlay returns the overlay of a store restored from p.
func openOverlay(p *Prepared) (*overlay, error) {
	b, err := p.overlayBase()
	if err != nil {
		return nil, err
	}
	o := &overlay{}
	o.cur.Store(&overlayView{tview: tview{base: b}, byTemplate: tview{base: b.byTemplate}})
	return o, nil
}

// write applies writes outside the committer (blobs) as one version.
func (o *overlay) write(writes []write) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.cur.Store(o.cur.Load().with(writes))
}

// submitOverlay is Submit for an overlay store: the operation runs on the
// caller's goroutine, the operations of all callers one at a time (in the
// order they take the overlay's lock), each seeing the writes of those
// before it, and its writes are published before it returns. An overlay
// store commits in memory, so grouping operations (commitBatch) saves
// nothing, and handing each to a committer goroutine and waiting for its
// answer costs two goroutine switches per operation, which a Daml Script
// pays at every submission. What a caller sees is what the committer
// gives it: the operation's result once its writes are visible to every
// later read; ErrClosed once Close has been called.
func (s *Store) submitOverlay(op Runner) (any, error) {
	s.ov.mu.Lock()
	defer s.ov.mu.Unlock()
	if s.Closed() {
		return nil, ErrClosed
	}
	end := s.end.Load()
	view := s.ov.cur.Load()
	tx := &Tx{Reader: Reader{ov: view}, base: end}
	v, err := runOp(op, tx)
	if err != nil {
		return nil, err
	}
	newEnd := end + tx.next
	if tx.next > 0 {
		tx.Set(KeyLedgerEnd, OffsetBytes(newEnd))
	}
	s.ov.cur.Store(view.with(tx.writes))
	s.publishEnd(newEnd)
	return v, nil
}

// backupOverlay is Backup for an overlay store: its entries as of one
// version, every value itself.
func (s *Store) backupOverlay(w io.Writer) error {
	out := &kvBatches{w: w}
	err := s.ov.cur.Load().scan(nil, nil, false, func(k, v []byte) (bool, error) {
		err := out.add(&pb.KV{Key: slices.Clone(k), Value: slices.Clone(v), UserMeta: []byte{0}, Version: 1, Meta: []byte{0}})
		return err == nil, err
	})
	if err != nil {
		return err
	}
	return out.close()
}

// putBlobOverlay and deleteBlobOverlay are PutBlob and DeleteBlob of an
// overlay store.
func (s *Store) putBlobOverlay(prefix, data []byte) {
	s.ov.write(blobWrites(prefix, data))
}

func (s *Store) deleteBlobOverlay(prefix []byte) {
	s.ov.mu.Lock()
	defer s.ov.mu.Unlock()
	view := s.ov.cur.Load()
	var writes []write
	view.scan(prefix, prefix, false, func(k, _ []byte) (bool, error) {
		writes = append(writes, write{key: slices.Clone(k), del: true})
		return true, nil
	})
	s.ov.cur.Store(view.with(writes))
}
