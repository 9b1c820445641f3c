package lf

import (
	"archive/zip"
	"bytes"
	"io"
	"runtime"
	"strings"
	"testing"

	e "github.com/ledgernode/ledgernode/daml/lf/internal/lfenc"
)

// allocated returns the bytes f allocates (runtime.MemStats.TotalAlloc, an
// upper bound of the peak heap it can cause).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestZeroBomb: the bomb builder makes a valid zip entry of the size asked.
func TestZeroBomb(t *testing.T) {
	const size = 3<<20 + 12345
	b := e.ZeroBomb("z", size, size)
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	r, err := zr.File[0].Open()
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, r) // checks the CRC too
	if err != nil || n != size {
		t.Fatalf("inflated %d bytes (%v), want %d", n, err, size)
	}
}

// TestReadDARManifestBomb: a manifest that inflates to megabytes of NUL
// bytes is refused without inflating it, with a short cause, and the read
// allocates a bounded amount whatever the bomb's size or its header says.
func TestReadDARManifestBomb(t *testing.T) {
	_, dalf := e.Dalf(simplePkg("app", "1.0.0"))
	dalfFile := e.File{Name: "a.dalf", Data: dalf}
	tests := []struct {
		name     string
		size     int64
		declared int64
		wantCode string
		want     string
	}{
		{"20 MiB", 20 << 20, 20 << 20, "INVALID_DAR", "above the limit of 1048576 bytes"},
		{"20 MiB, header says 100 bytes", 20 << 20, 100, "ZIP_BOMB", "inflates beyond the 100 bytes"},
		{"20 MiB, header says 1 MiB", 20 << 20, 1 << 20, "ZIP_BOMB", "inflates beyond the 1048576 bytes"},
		{"1 MiB of NUL", 1 << 20, 1 << 20, "INVALID_DAR", "bad line"},
		{"512 MiB", 512 << 20, 512 << 20, "INVALID_DAR", "above the limit of 1048576 bytes"},
		{"512 MiB, header says 1000 bytes", 512 << 20, 1000, "ZIP_BOMB", "inflates beyond the 1000 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dar := e.ZeroBomb(ManifestPath, tt.size, tt.declared, dalfFile)
			var err error
			alloc := allocated(func() { _, err = ReadDAR(dar, ReadOptions{}) })
			if got := code(err); got != tt.wantCode {
				t.Fatalf("code %q (%v), want %q", got, err, tt.wantCode)
			}
			if c := cause(err); !strings.Contains(c, tt.want) || len(c) > 600 {
				t.Errorf("cause of %d bytes %.500q, want it short and containing %q", len(c), c, tt.want)
			}
			// The manifest cap (1 MiB) and one inflate buffer; today's
			// reader allocated 20 times the bomb's size.
			if alloc > 4<<20 {
				t.Errorf("ReadDAR allocated %d MiB for a %d-byte DAR", alloc>>20, len(dar))
			}
		})
	}
}

// TestQuoteInput: causes quote outside input in full up to 100 bytes, and
// beyond that its first 100 bytes and its length.
func TestQuoteInput(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"", `""`},
		{"a\x00b", `"a\x00b"`},
		{strings.Repeat("x", 100), `"` + strings.Repeat("x", 100) + `"`},
		{strings.Repeat("x", 101), `"` + strings.Repeat("x", 100) + `"… (101 bytes)`},
		{strings.Repeat("\x00", 1<<20), `"` + strings.Repeat(`\x00`, 100) + `"… (1048576 bytes)`},
	}
	for _, tt := range tests {
		if got := quoteInput(tt.in); got != tt.want {
			t.Errorf("quoteInput(%.20q…) = %.200s, want %.200s", tt.in, got, tt.want)
		}
	}
}
