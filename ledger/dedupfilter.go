package ledger

import (
	"errors"
	"hash/maphash"
	"sync"
	"sync/atomic"

	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// A dedupFilter lets checkDuplicate skip the store read for a change id
// that has no deduplication record — nearly every submission's: the read
// of a missing key goes through Badger's memtables and every level-0
// table, in the committer. It is a Bloom filter of the change ids that
// may have a record: those of the store when the node opened (read by a
// scan in the background, during which the filter answers "maybe" for
// every id) and every id whose record the committer has written since
// (add, before the write; an id whose commit the store then refused
// stays, and costs a read), so every record the store holds, or will
// commit, has its id in the filter before it is visible: an id the
// filter does not hold has none, and checkDuplicate answers as the read
// would. A check adds nothing, so that a refused command leaves no trace
// in the filter. A false "maybe" costs the read, as before.
//
// Its 2^23 bits (1 MiB) keep false positives near 3 % at a million
// change ids; memory does not grow with the ledger beyond that (the
// pages give way to the whole bitmap, below). It is a
// blocked Bloom filter: an id's bits lie in one block of 512 bits (one
// cache line), and the blocks are allocated in pages of 512 bytes when
// first set, so a node that sees few commands — a Daml Script's, a
// test's — allocates a page per command, not the whole megabyte (a
// filter whose bits were spread over the bitmap allocated ~30 MB over
// the Splice Amulet script suite's 50 nodes).
//
// A node that has allocated dedupFlatPages pages sees many commands: the
// committer then copies the pages into one bitmap of the whole megabyte
// (flat), which the filter uses from then on. An id's bits are then one
// load away, not two: the pointer of a page among thousands, in the
// cache no more than the page, is not read first.
type dedupFilter struct {
	seed  maphash.Seed
	ready atomic.Bool // the store's ids are all in
	// flat, once set, is the whole bitmap, which alone is read and
	// written; each page then points into it, for a check that read
	// flat before it was set.
	flat   atomic.Pointer[dedupBitmap]
	npages atomic.Int32 // the pages allocated
	pages  [dedupPages]atomic.Pointer[dedupPage]

	stopOnce sync.Once
	stop     chan struct{}
	done     chan struct{}
}

const (
	dedupBits       = 1 << 23
	dedupBlockBits  = 512 // one block: an id's bits
	dedupBlocks     = dedupBits / dedupBlockBits
	dedupBlockShift = 14 // log2(dedupBlocks): the hash bits that choose the block
	dedupPageWords  = 64 // 512 bytes: 8 blocks
	dedupPageBits   = dedupPageWords * 64
	dedupPages      = dedupBits / dedupPageBits
	dedupHashes     = 4
)

type dedupPage [dedupPageWords]atomic.Uint64

// dedupBitmap is the whole bitmap of a dedupFilter.
type dedupBitmap [dedupBits / 64]atomic.Uint64

// dedupFlatPages is the number of pages at which the committer makes the
// whole bitmap: an eighth of them (128 KiB), some 270 commands.
const dedupFlatPages = dedupPages / 8

// errDedupScanStopped ends the background scan of a closing node.
var errDedupScanStopped = errors.New("ledger: the node closed during the deduplication filter's scan")

// newDedupFilter returns a filter that holds the change ids of st's
// deduplication records once its background scan has read them; close
// stops the scan.
func newDedupFilter(st *store.Store) *dedupFilter {
	f := &dedupFilter{seed: maphash.MakeSeed(), stop: make(chan struct{}), done: make(chan struct{})}
	go f.scan(st)
	return f
}

// scan adds the change id of every deduplication record in st, then
// marks the filter ready. The ids of records committed after its
// snapshot were added by the committer (add).
func (f *dedupFilter) scan(st *store.Store) {
	defer close(f.done)
	prefix := []byte(store.PrefixDedup)
	err := st.View(func(r *store.Reader) error {
		return r.Scan(prefix, nil, func(key, _ []byte) (bool, error) {
			select {
			case <-f.stop:
				return false, errDedupScanStopped
			default:
			}
			f.set(maphash.Bytes(f.seed, key[len(prefix):]))
			return true, nil
		})
	})
	if err == nil {
		f.ready.Store(true)
	}
}

// close stops the background scan and waits for it.
func (f *dedupFilter) close() {
	if f == nil {
		return
	}
	f.stopOnce.Do(func() { close(f.stop) })
	<-f.done
}

// mayHold reports whether change may have a deduplication record; it
// changes nothing, so that a check of a command that is then refused
// leaves no trace in the filter (the committer adds the id of a record
// it writes: add).
func (f *dedupFilter) mayHold(change string) bool {
	return !f.ready.Load() || f.has(maphash.String(f.seed, change))
}

// add holds change from now on: called by the committer before its
// record is written.
func (f *dedupFilter) add(change string) {
	f.set(maphash.String(f.seed, change))
	f.flatten()
}

// has reports whether every bit of the hash h is set.
func (f *dedupFilter) has(h uint64) bool {
	block := h & (dedupBlocks - 1)
	if b := f.flat.Load(); b != nil {
		for i := range uint64(dedupHashes) {
			bit := dedupBit(block, h, i)
			if b[bit/64].Load()&(uint64(1)<<(bit%64)) == 0 {
				return false
			}
		}
		return true
	}
	for i := range uint64(dedupHashes) {
		bit := dedupBit(block, h, i)
		p := f.pages[bit/dedupPageBits].Load()
		if p == nil || p[bit%dedupPageBits/64].Load()&(uint64(1)<<(bit%64)) == 0 {
			return false
		}
	}
	return true
}

// dedupBit is the i-th bit of the hash h, in its block: the low bits
// choose the block, the next 9-bit groups the bits in it.
func dedupBit(block, h, i uint64) uint64 {
	return block*dedupBlockBits + (h>>(dedupBlockShift+9*i))&(dedupBlockBits-1)
}

// set sets the bits of the hash h.
func (f *dedupFilter) set(h uint64) {
	block := h & (dedupBlocks - 1)
	if b := f.flat.Load(); b != nil {
		for i := range uint64(dedupHashes) {
			bit := dedupBit(block, h, i)
			if w, m := &b[bit/64], uint64(1)<<(bit%64); w.Load()&m == 0 {
				w.Or(m)
			}
		}
		return
	}
	for i := range uint64(dedupHashes) {
		bit := dedupBit(block, h, i)
		p := f.pages[bit/dedupPageBits].Load()
		if p == nil {
			p = new(dedupPage)
			if f.pages[bit/dedupPageBits].CompareAndSwap(nil, p) {
				f.npages.Add(1)
			} else {
				p = f.pages[bit/dedupPageBits].Load()
			}
		}
		if w, m := &p[bit%dedupPageBits/64], uint64(1)<<(bit%64); w.Load()&m == 0 {
			w.Or(m)
		}
	}
}

// flatten makes the whole bitmap of the pages, once dedupFlatPages are
// allocated. Only the committer calls it (add), after the scan: no
// other set runs while it copies the pages, and a check on the
// committer sees every id added. A check elsewhere that read no flat
// reads the pages, which hold every id added before it read flat: those
// of the records it may see (add runs before a record is written). The
// pages then point into the bitmap (a superset of what they held), and
// the old ones are garbage.
func (f *dedupFilter) flatten() {
	if f.flat.Load() != nil || !f.ready.Load() || f.npages.Load() < dedupFlatPages {
		return
	}
	b := new(dedupBitmap)
	for i := range f.pages {
		if p := f.pages[i].Load(); p != nil {
			for j := range p {
				b[i*dedupPageWords+j].Store(p[j].Load())
			}
		}
	}
	f.flat.Store(b)
	for i := range f.pages {
		f.pages[i].Store((*dedupPage)(b[i*dedupPageWords : (i+1)*dedupPageWords]))
	}
}
