package lf

import (
	"archive/zip"
	"bytes"
	"fmt"
	"testing"

	e "github.com/ledgernode/ledgernode/daml/lf/internal/lfenc"
)

// TestReadDARFirstErrorInManifestOrder: ReadDAR, which reads the dalfs
// concurrently, reports the failure of the first bad dalf in manifest
// order, whatever fails sooner after it (a small garbage dalf, a missing
// one, a corrupt entry), with or without a cache.
func TestReadDARFirstErrorInManifestOrder(t *testing.T) {
	_, dalf := e.Dalf(simplePkg("app", "1.0.0"))
	// A big archive whose hash does not match: it fails only after its
	// payload is hashed.
	payload := bytes.Repeat([]byte{0x0a, 0x00}, 1<<20)
	slow := e.ArchiveWithHash(payload, fmt.Sprintf("%064d", 0))
	var deps []string
	files := []e.File{{Name: "main.dalf", Data: dalf}}
	for i := range 6 {
		deps = append(deps, fmt.Sprintf("d%d.dalf", i))
	}
	files = append(files,
		e.File{Name: "d0.dalf", Data: dalf},
		e.File{Name: "d1.dalf", Data: slow},
		e.File{Name: "d2.dalf", Data: []byte("garbage")},
		e.File{Name: "d3.dalf", Data: dalf},
		// d4.dalf is missing
	)
	files = append([]e.File{{Name: ManifestPath, Data: []byte(e.ManifestText("main.dalf", deps))}}, files...)
	data := e.Zip(files...)
	for _, c := range []*Cache{nil, {}} {
		for range 10 {
			_, err := ReadDAR(data, ReadOptions{Cache: c})
			if kindOf(err) != KindParse || cause(err) != "Failed to parse d1.dalf: Mismatching hashes! Expected "+fmt.Sprintf("%064d", 0)+" but got "+PackageID(payload) {
				t.Fatalf("cache %v: %v, want d1.dalf's hash mismatch", c != nil, err)
			}
		}
	}
}

// TestReadDARCachedDAR: a DAR read again through the cache that read it
// is not inflated nor decoded again; the copy handed out is the caller's
// to modify; under options that would refuse it, it is refused as
// before; an eviction from the cache forgets the DARs.
func TestReadDARCachedDAR(t *testing.T) {
	data, ids := e.DAR(simplePkg("app", "1.0.0"), simplePkg("lib", "1.0.0"))
	c := &Cache{}
	first, err := ReadDAR(data, ReadOptions{Cache: c})
	if err != nil {
		t.Fatal(err)
	}
	first.Packages[0] = nil // the caller's copy
	first.DalfPaths[ids[0]] = "changed"
	var again *DAR
	if allocs := testing.AllocsPerRun(5, func() {
		if again, err = ReadDAR(data, ReadOptions{Cache: c}); err != nil {
			t.Fatal(err)
		}
	}); allocs > 20 {
		t.Errorf("reading the DAR again: %v allocations, want at most 20 (no inflating nor decoding)", allocs)
	}
	if len(again.Packages) != 2 || again.Packages[0] != c.Get(ids[0]) || again.Main != again.Packages[0] || again.Package(ids[1]) != c.Get(ids[1]) {
		t.Errorf("again: packages %v, want the cached ones", again.Packages)
	}
	if again.DalfPaths[ids[0]] == "changed" {
		t.Errorf("a caller's change to its DAR is seen by the next reader")
	}
	if len(c.dars) != 1 {
		t.Errorf("%d DARs cached, want 1", len(c.dars))
	}
	// Other limits that admit the DAR (as the ledger's): served too.
	if allocs := testing.AllocsPerRun(5, func() {
		if _, err := ReadDAR(data, ReadOptions{Cache: c, MaxEntrySize: 128 << 20, MaxTotalSize: 128 << 20}); err != nil {
			t.Fatal(err)
		}
	}); allocs > 20 {
		t.Errorf("reading the DAR under the ledger's limits: %v allocations, want at most 20", allocs)
	}
	// At the exact limits it is served; one byte less is refused, as a
	// fresh read would be.
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var total, largest int64
	for _, f := range zr.File {
		total += int64(f.UncompressedSize64)
		largest = max(largest, int64(f.UncompressedSize64))
	}
	for _, tc := range []struct {
		opts ReadOptions
		kind ErrorKind
	}{
		{ReadOptions{MaxEntrySize: largest, MaxTotalSize: total}, 0},
		{ReadOptions{MaxEntrySize: largest - 1, MaxTotalSize: total}, KindZipBomb},
		{ReadOptions{MaxEntrySize: largest, MaxTotalSize: total - 1}, KindZipBomb},
	} {
		want, wantErr := ReadDAR(data, tc.opts) // no cache: a fresh read
		tc.opts.Cache = c
		got, err := ReadDAR(data, tc.opts)
		if kindOf(err) != tc.kind || kindOf(wantErr) != tc.kind || (err == nil && got.Main.ID != want.Main.ID) {
			t.Errorf("limits %d/%d: %v (fresh read: %v), want kind %v", tc.opts.MaxEntrySize, tc.opts.MaxTotalSize, err, wantErr, tc.kind)
		}
	}
	// Limits that do not: refused as before.
	if _, err := ReadDAR(data, ReadOptions{Cache: c, MaxTotalSize: 100}); kindOf(err) != KindZipBomb {
		t.Errorf("with a 100-byte limit: %v, want a ZipBomb", err)
	}
	if _, err := ReadDAR(data, ReadOptions{Cache: c, MaxEntrySize: 100}); kindOf(err) != KindZipBomb {
		t.Errorf("with a 100-byte entry limit: %v, want a ZipBomb", err)
	}
	// A 2.dev DAR read with AllowDevLF is refused without.
	devPkg := simplePkg("devapp", "1.0.0")
	devPkg.Minor = "dev"
	dev, _ := e.DAR(devPkg)
	if _, err := ReadDAR(dev, ReadOptions{Cache: c, AllowDevLF: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadDAR(dev, ReadOptions{Cache: c}); kindOf(err) != KindLanguageVersion {
		t.Errorf("2.dev DAR without AllowDevLF: %v, want a LanguageVersion error", err)
	}
	// An eviction forgets the DARs, whose packages may be gone.
	c.MaxBytes = int64(len(again.Packages[0].Payload) + len(again.Packages[1].Payload))
	if _, err := c.DecodeArchive(e.Archive(e.Payload("2", 0, e.EncodePackage(simplePkg("other", "1.0.0")))), ReadOptions{}); err != nil {
		t.Fatal(err)
	}
	if len(c.dars) != 0 {
		t.Errorf("after an eviction: %d DARs cached, want 0", len(c.dars))
	}
}
