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
// (add, before the write), so every record the store holds, or will
// commit, has its id in the filter before it is visible: an id the
// filter does not hold has none, and checkDuplicate answers as the read
// would. A check adds nothing, so that a refused command leaves no trace
// in the filter. A false "maybe" costs the read, as before.
//
// Its 2^23 bits (1 MiB) keep false positives near 3 % at a million
// change ids; memory does not grow with the ledger beyond that. It is a
// blocked Bloom filter: an id's bits lie in one block of 512 bits (one
// cache line), and the blocks are allocated in pages of 512 bytes when
// first set, so a node that sees few commands — a Daml Script's, a
// test's — allocates a page per command, not the whole megabyte (a
// filter whose bits were spread over the bitmap allocated ~30 MB over
// the Splice Amulet script suite's 50 nodes).
type dedupFilter struct {
	seed  maphash.Seed
	pages [dedupPages]atomic.Pointer[dedupPage]
	ready atomic.Bool // the store's ids are all in

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

// add holds change from now on: called before its record is written.
func (f *dedupFilter) add(change string) { f.set(maphash.String(f.seed, change)) }

// has reports whether every bit of the hash h is set.
func (f *dedupFilter) has(h uint64) bool {
	block := h & (dedupBlocks - 1)
	for i := range uint64(dedupHashes) {
		bit := block*dedupBlockBits + (h>>(dedupBlockShift+9*i))&(dedupBlockBits-1)
		p := f.pages[bit/dedupPageBits].Load()
		if p == nil || p[bit%dedupPageBits/64].Load()&(uint64(1)<<(bit%64)) == 0 {
			return false
		}
	}
	return true
}

// set sets the bits of the hash h.
func (f *dedupFilter) set(h uint64) {
	// The low bits choose the block, the next 9-bit groups the bits in it.
	block := h & (dedupBlocks - 1)
	for i := range uint64(dedupHashes) {
		bit := block*dedupBlockBits + (h>>(dedupBlockShift+9*i))&(dedupBlockBits-1)
		p := f.pages[bit/dedupPageBits].Load()
		if p == nil {
			p = new(dedupPage)
			if !f.pages[bit/dedupPageBits].CompareAndSwap(nil, p) {
				p = f.pages[bit/dedupPageBits].Load()
			}
		}
		if w, m := &p[bit%dedupPageBits/64], uint64(1)<<(bit%64); w.Load()&m == 0 {
			w.Or(m)
		}
	}
}
