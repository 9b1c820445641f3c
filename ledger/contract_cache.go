package ledger

import (
	"sync"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
)

// Contract arguments are stored as Daml JSON (log.go's txNode) and read
// back as Daml-LF values whenever the engine or an in-process runner
// uses a contract (storedContract): a Daml Script queries the active
// contracts after most steps and so decodes, and type-checks, the same
// stored arguments again and again. argCache keeps the decoded values.
//
// What the decoding depends on is the key: the stored bytes, the
// template id (which names the type, package id included) and the
// template's package as the node's lookup resolves it (the entry keeps
// the *lf.Package it was decoded against and a lookup that resolves the
// package id to another one misses). Package ids are the SHA-256 of the
// package payload (lf.DecodePayload), and a payload names its
// dependencies by id, so the template's package fixes every data type the
// argument's type reaches. The contract id is no part of the key: two
// contracts with the same template and stored argument have the same
// value. A failed decoding is not kept.
//
// Values are kept unchanged and handed out as copies (value.Clone), so
// that a caller changing the value it got cannot change what the cache
// returns next. The cache is shared by every node of the process (nodes
// opened from one prepared snapshot share their decoded packages, and so
// the entries) and bounded: two generations of at most
// argCacheBudget/2 estimated bytes each, the older dropped when the
// newer is full; an entry used from the older one moves to the newer.

// argCacheBudget bounds the estimated memory of the decoded arguments
// kept, in bytes.
const argCacheBudget = 16 << 20

var storedArgs = newArgCache(argCacheBudget)

// argCache is a bounded cache of decoded contract arguments, by stored
// bytes.
type argCache struct {
	mu sync.Mutex
	// max is the estimated size at which the newer generation is full.
	max int
	// cur is the newer generation, old the older; size is cur's estimated
	// size.
	cur, old map[string]argEntry
	size     int
}

// argEntry is an argument decoded as of template templateID against pkg.
type argEntry struct {
	templateID string
	pkg        *lf.Package
	v          value.Value
}

func newArgCache(budget int) *argCache {
	return &argCache{max: budget / 2, cur: map[string]argEntry{}}
}

// argEntrySize estimates the memory an entry of n stored bytes takes:
// the bytes as its key and the decoded value (a few times the JSON).
func argEntrySize(n int) int { return 4*n + 128 }

// decode returns the argument of template templateID stored as raw, as
// value.FromJSON decodes it against pkg's template type (pkg the package
// lookup resolves templateID's package id to): a copy of the cached
// value, or from decode, which is then kept.
func (c *argCache) decode(templateID string, raw []byte, pkg *lf.Package, decode func() (value.Value, error)) (value.Value, error) {
	if v, ok := c.get(templateID, raw, pkg); ok {
		return value.Clone(v), nil
	}
	v, err := decode()
	if err != nil {
		return nil, err
	}
	c.put(argEntry{templateID: templateID, pkg: pkg, v: v}, raw)
	return value.Clone(v), nil
}

func (c *argCache) get(templateID string, raw []byte, pkg *lf.Package) (value.Value, bool) {
	if pkg == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.cur[string(raw)]; ok && e.templateID == templateID && e.pkg == pkg {
		return e.v, true
	}
	if e, ok := c.old[string(raw)]; ok && e.templateID == templateID && e.pkg == pkg {
		delete(c.old, string(raw))
		c.putLocked(e, string(raw))
		return e.v, true
	}
	return nil, false
}

func (c *argCache) put(e argEntry, raw []byte) {
	if e.pkg == nil || argEntrySize(len(raw)) > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.cur[string(raw)]; ok && old.templateID == e.templateID && old.pkg == e.pkg {
		return // another caller decoded it too
	}
	c.putLocked(e, string(raw))
}

// putLocked keeps e under raw in the newer generation, which becomes the
// older one first when e would not fit.
func (c *argCache) putLocked(e argEntry, raw string) {
	size := argEntrySize(len(raw))
	if _, ok := c.cur[raw]; !ok {
		if c.size+size > c.max {
			c.old, c.cur, c.size = c.cur, map[string]argEntry{}, 0
		}
		c.size += size
	}
	c.cur[raw] = e
}
