package lf

import (
	"sync"
	"testing"

	e "github.com/ledgernode/ledgernode/daml/lf/internal/lfenc"
)

func TestCacheServesDecodedPackages(t *testing.T) {
	c := &Cache{}
	_, dalf := e.Dalf(simplePkg("app", "1.0.0"))
	p1, err := c.DecodeArchive(dalf, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p2, err := c.DecodeArchive(dalf, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p1 != p2 || c.Len() != 1 || c.Get(p1.ID) != p1 {
		t.Errorf("second decode not served from the cache (len %d)", c.Len())
	}
	p3, err := c.DecodePayload(p1.Payload, ReadOptions{})
	if err != nil || p3 != p1 {
		t.Errorf("DecodePayload: %v, same package %v", err, p3 == p1)
	}

	// The version policy applies to cached packages.
	_, dev := e.Dalf(func() e.Package { p := simplePkg("devapp", "1.0.0"); p.Minor = "dev"; return p }())
	if _, err := c.DecodeArchive(dev, ReadOptions{AllowDevLF: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DecodeArchive(dev, ReadOptions{}); code(err) != "ALLOWED_LANGUAGE_VERSIONS" {
		t.Errorf("cached 2.dev package without AllowDevLF: %v", err)
	}

	// A wrong hash is decoded (and refused), never served from the cache.
	bad := e.ArchiveWithHash(p1.Payload, "00"+p1.ID[2:])
	if _, err := c.DecodeArchive(bad, ReadOptions{}); code(err) != "DAR_PARSE_ERROR" {
		t.Errorf("wrong hash: %v, want DAR_PARSE_ERROR", err)
	}
}

func TestCacheEvictsOldest(t *testing.T) {
	var dalfs [][]byte
	var sizes []int64
	for _, v := range []string{"1.0.0", "2.0.0", "3.0.0"} {
		_, dalf := e.Dalf(simplePkg("app", v))
		p, err := DecodeArchive(dalf, ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		dalfs = append(dalfs, dalf)
		sizes = append(sizes, int64(len(p.Payload)))
	}
	c := &Cache{MaxBytes: sizes[1] + sizes[2]}
	var ids []string
	for _, d := range dalfs {
		p, err := c.DecodeArchive(d, ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
	}
	if c.Len() != 2 || c.Get(ids[0]) != nil || c.Get(ids[1]) == nil || c.Get(ids[2]) == nil {
		t.Errorf("after 3 packages with room for 2: len %d, first kept %v", c.Len(), c.Get(ids[0]) != nil)
	}
}

func TestCacheConcurrentReadDAR(t *testing.T) {
	data := realDAR(t, "canton-builtin-admin-workflow-ping.dar")
	c := &Cache{}
	var wg sync.WaitGroup
	dars := make([]*DAR, 4)
	for i := range dars {
		wg.Go(func() {
			d, err := ReadDAR(data, ReadOptions{Cache: c})
			if err != nil {
				t.Error(err)
			}
			dars[i] = d
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	again, err := ReadDAR(data, ReadOptions{Cache: c})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range again.Packages {
		if c.Get(p.ID) != p {
			t.Errorf("%s: not the cached package", p)
		}
	}
	if c.Len() != len(again.Packages) {
		t.Errorf("cache has %d packages, the DAR %d", c.Len(), len(again.Packages))
	}
}

// BenchmarkReadDARCached reads splice-amulet-0.1.8.dar again through the
// cache that read it: hashing the DAR only.
func BenchmarkReadDARCached(b *testing.B) {
	data := realDAR(b, "splice-amulet-0.1.8.dar")
	c := &Cache{}
	if _, err := ReadDAR(data, ReadOptions{Cache: c}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadDAR(data, ReadOptions{Cache: c}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadDARPackagesCached reads splice-amulet-0.1.8.dar with every
// package already in the cache but not the DAR: unzip and hashing only.
func BenchmarkReadDARPackagesCached(b *testing.B) {
	data := realDAR(b, "splice-amulet-0.1.8.dar")
	c := &Cache{}
	if _, err := ReadDAR(data, ReadOptions{Cache: c}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		c.mu.Lock()
		c.dars, c.darOrder = nil, nil
		c.mu.Unlock()
		if _, err := ReadDAR(data, ReadOptions{Cache: c}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestCacheDecodeStoredPayload: a payload stored as a cached package's id
// is that package when it is the same payload, and is decoded (to its own
// id) when it is not; the version policy applies either way.
func TestCacheDecodeStoredPayload(t *testing.T) {
	c := &Cache{}
	_, dalf := e.Dalf(simplePkg("app", "1.0.0"))
	p1, err := c.DecodeArchive(dalf, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.DecodeStoredPayload(p1.ID, append([]byte(nil), p1.Payload...), ReadOptions{})
	if err != nil || got != p1 {
		t.Errorf("same payload: %v, same package %v", err, got == p1)
	}
	_, other := e.Dalf(simplePkg("app", "2.0.0"))
	p2, err := DecodeArchive(other, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err = c.DecodeStoredPayload(p1.ID, p2.Payload, ReadOptions{})
	if err != nil || got == p1 || got.ID != p2.ID {
		t.Errorf("another payload under p1's id: %v, got %v, want a package of id %s", err, got, p2.ID)
	}
	_, dev := e.Dalf(func() e.Package { p := simplePkg("devapp", "1.0.0"); p.Minor = "dev"; return p }())
	pd, err := c.DecodeArchive(dev, ReadOptions{AllowDevLF: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.DecodeStoredPayload(pd.ID, pd.Payload, ReadOptions{}); code(err) != "ALLOWED_LANGUAGE_VERSIONS" {
		t.Errorf("cached 2.dev package without AllowDevLF: %v", err)
	}
}
