package httpadapter

import (
	"runtime"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
)

// TestDARManifestBomb: a DAR whose manifest inflates to 20 or 512 MiB of
// NUL bytes answers 400 quickly, with a small body, and the request
// allocates a few MiB (runtime.MemStats.TotalAlloc around the request: an
// upper bound of the heap it adds), on every endpoint that reads DARs.
func TestDARManifestBomb(t *testing.T) {
	// Not parallel: runtime.MemStats counts the whole process's allocations.
	h := newHarness(t, Options{})
	_, dalf := lftest.Dalf(lftest.TemplatePackage("app", "1.0.0", nil, lftest.Field{Name: "owner", Type: lftest.B(lftest.Party)}))
	dalfFile := lftest.File{Name: "a.dalf", Data: dalf}
	bombs := []struct {
		name     string
		dar      []byte
		wantCode string
	}{
		{"20 MiB", lftest.ZeroBomb(lf.ManifestPath, 20<<20, 20<<20, dalfFile), "INVALID_DAR"},
		{"20 MiB, lying header", lftest.ZeroBomb(lf.ManifestPath, 20<<20, 1<<20, dalfFile), "ZIP_BOMB"},
		{"1 MiB", lftest.ZeroBomb(lf.ManifestPath, 1<<20, 1<<20, dalfFile), "INVALID_DAR"},
		{"512 MiB", lftest.ZeroBomb(lf.ManifestPath, 512<<20, 512<<20, dalfFile), "ZIP_BOMB"},
	}
	for _, b := range bombs {
		for _, target := range []string{"/v2/dars/validate", "/v2/dars", "/v2/packages"} {
			t.Run(b.name+target, func(t *testing.T) {
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				rec := h.do(darCall(target, b.dar, nil))
				runtime.ReadMemStats(&after)
				wantCantonError(t, rec, 400, b.wantCode)
				if n := rec.Body.Len(); n > 2000 {
					t.Errorf("error body of %d bytes", n)
				}
				// The request body (read once), 1 MiB of manifest, the
				// response.
				if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(4*len(b.dar))+8<<20 {
					t.Errorf("the request allocated %d MiB for a %d-byte DAR", alloc>>20, len(b.dar))
				}
			})
		}
	}
}
