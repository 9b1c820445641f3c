package lf

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"sync"

	"github.com/ledgernode/ledgernode/internal/pbwire"
)

// Cache keeps decoded packages by package id. A package id is the SHA-256
// of the package's payload and decoded packages are immutable, so an entry
// never goes stale: decoding an archive already in the cache costs only
// reading the archive header and hashing the payload. A Cache is safe for
// concurrent use; the packages it returns are shared and must not be
// modified.
//
// The cache holds at most MaxBytes bytes of payload (a decoded package
// takes a few times its payload size in memory); beyond, the packages
// cached first are dropped first.
type Cache struct {
	// MaxBytes bounds the total payload size of the cached packages; 0
	// means DefaultCacheBytes. Set it before first use.
	MaxBytes int64

	mu    sync.Mutex
	pkgs  map[string]*Package
	order []string // ids in insertion order
	bytes int64

	// dars are the DARs ReadDAR read through the cache (as read, never
	// handed out), by the SHA-256 of their bytes; darOrder is their
	// insertion order. Every package of a DAR kept here is in pkgs: an
	// eviction from pkgs empties dars.
	dars     map[[sha256.Size]byte]*cachedDAR
	darOrder [][sha256.Size]byte
}

// maxCachedDARs is how many DARs a Cache keeps (see Cache.dars). A DAR
// adds only its manifest and indexes to the packages the cache holds.
const maxCachedDARs = 8

// cachedDAR is a DAR ReadDAR read, with what decides whether reading its
// bytes under other ReadOptions gives the same DAR: ReadDAR's outcome
// depends on the options only through its size limits and the LF version
// policy, so the same bytes read without error under any options whose
// limits admit the sizes below, and that set AllowDevLF if a package of
// the DAR needs it, give the same DAR.
type cachedDAR struct {
	dar *DAR
	// maxEntry is the largest declared uncompressed size of the DAR's
	// zip entries; total is the smallest total budget that its reading
	// stays within (the declared total, or what the manifest and the
	// dalfs take if more).
	maxEntry, total int64
	// dev is true if a package of the DAR is admitted only with
	// AllowDevLF (checkLanguageVersion, whose policy is not restated).
	dev bool
}

// admits reports whether reading the DAR under opts gives c.dar.
func (c *cachedDAR) admits(opts ReadOptions) bool {
	entry, total := opts.limits()
	return c.maxEntry <= entry && c.total <= total && (!c.dev || opts.AllowDevLF)
}

// DefaultCacheBytes is the payload budget of a Cache whose MaxBytes is 0.
const DefaultCacheBytes = 64 << 20

// DefaultCache is the process-wide package cache; pass it as
// ReadOptions.Cache to share it.
var DefaultCache = &Cache{}

// DecodeArchive is the package-level DecodeArchive, serving and keeping
// packages in c. The LF version policy of opts applies to cached packages
// too.
func (c *Cache) DecodeArchive(dalf []byte, opts ReadOptions) (*Package, error) {
	p, err := c.decodeArchive(dalf)
	if err != nil {
		return nil, parseErr(err, "")
	}
	if err := checkLanguageVersion(p, opts); err != nil {
		return nil, err
	}
	return p, nil
}

// DecodePayload is the package-level DecodePayload, serving and keeping
// packages in c.
func (c *Cache) DecodePayload(payload []byte, opts ReadOptions) (*Package, error) {
	sum := sha256.Sum256(payload)
	id := hex.EncodeToString(sum[:])
	p := c.Get(id)
	if p == nil {
		var err error
		if p, err = decodePayload(id, payload); err != nil {
			return nil, parseErr(err, "")
		}
		p = c.add(p)
	}
	if err := checkLanguageVersion(p, opts); err != nil {
		return nil, err
	}
	return p, nil
}

// DecodeStoredPayload is DecodePayload for a payload stored as package
// id's (read back from a store, which keeps payloads by id): when the
// cache holds package id with this very payload, it returns that package
// without hashing the payload again (the cached package's payload hashed
// to id when it was decoded, and comparing bytes costs a fraction of
// hashing them). Otherwise it is DecodePayload, whose package the caller
// checks has the id it expects.
func (c *Cache) DecodeStoredPayload(id string, payload []byte, opts ReadOptions) (*Package, error) {
	if p := c.Get(id); p != nil && bytes.Equal(p.Payload, payload) {
		if err := checkLanguageVersion(p, opts); err != nil {
			return nil, err
		}
		return p, nil
	}
	return c.DecodePayload(payload, opts)
}

// Get returns the cached package id, or nil.
func (c *Cache) Get(id string) *Package {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pkgs[id]
}

// Len returns the number of cached packages.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pkgs)
}

// add caches p unless a package of the same id is there already, and
// returns the cached one. A nil cache returns p.
func (c *Cache) add(p *Package) *Package {
	if c == nil {
		return p
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if q := c.pkgs[p.ID]; q != nil {
		return q
	}
	if c.pkgs == nil {
		c.pkgs = map[string]*Package{}
	}
	limit := c.MaxBytes
	if limit <= 0 {
		limit = DefaultCacheBytes
	}
	size := int64(len(p.Payload))
	if size > limit {
		return p
	}
	for c.bytes+size > limit && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		c.bytes -= int64(len(c.pkgs[old].Payload))
		delete(c.pkgs, old)
		c.dars, c.darOrder = nil, nil
	}
	c.pkgs[p.ID] = p
	c.order = append(c.order, p.ID)
	c.bytes += size
	return p
}

// dar returns a copy of the DAR whose bytes hash to sum if reading them
// under opts gives it, or nil. A nil cache has none.
func (c *Cache) dar(sum [sha256.Size]byte, opts ReadOptions) *DAR {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	d := c.dars[sum]
	c.mu.Unlock()
	if d == nil || !d.admits(opts) {
		return nil
	}
	return d.dar.clone()
}

// putDAR keeps a copy of d.dar, read from bytes that hash to sum, if
// every package of it is the cache's.
func (c *Cache) putDAR(sum [sha256.Size]byte, d cachedDAR) {
	if c == nil {
		return
	}
	d.dar = d.dar.clone()
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range d.dar.Packages {
		if c.pkgs[p.ID] != p {
			return
		}
	}
	if _, ok := c.dars[sum]; ok {
		return
	}
	if c.dars == nil {
		c.dars = map[[sha256.Size]byte]*cachedDAR{}
	}
	if len(c.darOrder) >= maxCachedDARs {
		delete(c.dars, c.darOrder[0])
		c.darOrder = c.darOrder[1:]
	}
	c.dars[sum] = &d
	c.darOrder = append(c.darOrder, sum)
}

// decodeArchive is the package-level decodeArchive through the cache; a
// nil cache decodes.
func (c *Cache) decodeArchive(b []byte) (*Package, error) {
	p, fresh, err := c.find(b)
	if err != nil {
		return nil, err
	}
	if fresh {
		p = c.add(p)
	}
	return p, nil
}

// find returns the cached package of the archive b, or decodes it
// without caching it (fresh is true then; a nil cache always decodes).
// A well-formed archive is hashed once: its id serves both the look-up
// and the decoding.
func (c *Cache) find(b []byte) (p *Package, fresh bool, err error) {
	if c == nil {
		p, err = decodeArchive(b)
		return p, err == nil, err
	}
	id, payload, ok := archiveID(b)
	if !ok {
		p, err = decodeArchive(b) // reports what is wrong
		return p, err == nil, err
	}
	if p := c.Get(id); p != nil {
		return p, false, nil
	}
	// What decodeArchive does once the archive header is checked.
	p, err = decodePayload(id, payload)
	return p, err == nil, err
}

// archiveID returns the package id and the payload of a well-formed
// Archive whose hash matches its payload. Anything else is left to
// decodeArchive, which reports the problem.
func archiveID(b []byte) (id string, payload []byte, ok bool) {
	var hash string
	hasPayload := false
	r := pbwire.NewReader(b)
	for f, ok := r.Next(); ok; f, ok = r.Next() {
		switch {
		case f.Num == 1 && f.IsVarint():
			if f.Uint != 0 {
				return "", nil, false // not SHA256
			}
		case f.Num == 3 && f.IsBytes():
			payload, hasPayload = f.Bytes, true
		case f.Num == 4 && f.IsBytes():
			hash = string(f.Bytes)
		default:
			return "", nil, false
		}
	}
	if r.Err() != nil || !hasPayload {
		return "", nil, false
	}
	id = PackageID(payload)
	return id, payload, id == hash
}
