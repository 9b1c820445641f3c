package ledger_test

import (
	"context"
	"errors"
	"runtime"
	"testing"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// allocated returns the bytes f allocates (runtime.MemStats.TotalAlloc:
// everything f allocates, so an upper bound of the heap it can add).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestDARBombs: zip bombs sent to ValidateDAR and UploadDAR are refused
// with a 400 and a short cause, and make the node allocate a bounded
// amount: at most 1 MiB of manifest, and at most MaxDARUncompressedSize of
// dalfs.
func TestDARBombs(t *testing.T) {
	// Not parallel: runtime.MemStats counts the whole process's allocations.
	ctx := context.Background()
	n := ledgertest.Open(t, ledger.Options{MaxDARUncompressedSize: 16 << 20})
	_, dalf := lftest.Dalf(lftest.TemplatePackage("app", "1.0.0", nil, owner))
	manifest := lftest.File{Name: lf.ManifestPath, Data: []byte(lftest.ManifestText("a.dalf", nil))}
	tests := []struct {
		name     string
		dar      []byte
		wantCode string
		maxAlloc uint64
	}{
		{"4 MiB manifest", lftest.ZeroBomb(lf.ManifestPath, 4<<20, 4<<20, lftest.File{Name: "a.dalf", Data: dalf}), "INVALID_DAR", 4 << 20},
		{"20 MiB manifest, lying header", lftest.ZeroBomb(lf.ManifestPath, 20<<20, 1000, lftest.File{Name: "a.dalf", Data: dalf}), "ZIP_BOMB", 4 << 20},
		{"512 MiB manifest", lftest.ZeroBomb(lf.ManifestPath, 512<<20, 512<<20, lftest.File{Name: "a.dalf", Data: dalf}), "ZIP_BOMB", 4 << 20},
		{"512 MiB dalf", lftest.ZeroBomb("a.dalf", 512<<20, 512<<20, manifest), "ZIP_BOMB", 4 << 20},
		{"512 MiB dalf, lying header", lftest.ZeroBomb("a.dalf", 512<<20, 10<<20, manifest), "ZIP_BOMB", 2*16<<20 + 4<<20},
		{"10 MiB dalf of zeros", lftest.ZeroBomb("a.dalf", 10<<20, 10<<20, manifest), "DAR_PARSE_ERROR", 2*16<<20 + 4<<20},
	}
	for _, tt := range tests {
		for _, op := range []string{"ValidateDAR", "UploadDAR"} {
			t.Run(tt.name+"/"+op, func(t *testing.T) {
				var err error
				alloc := allocated(func() {
					if op == "ValidateDAR" {
						err = n.ValidateDAR(ctx, tt.dar, "")
					} else {
						err = n.UploadDAR(ctx, ledger.UploadDARRequest{DAR: tt.dar})
					}
				})
				var ae *apierr.Error
				if !errors.As(err, &ae) || ae.Code.Name != tt.wantCode || ae.HTTPStatus() != 400 {
					t.Fatalf("error %.300v, want %s (400)", err, tt.wantCode)
				}
				if len(ae.Cause) > 600 {
					t.Errorf("cause of %d bytes: %.300q…", len(ae.Cause), ae.Cause)
				}
				if alloc > tt.maxAlloc {
					t.Errorf("allocated %d MiB, want at most %d MiB", alloc>>20, tt.maxAlloc>>20)
				}
			})
		}
	}
}
