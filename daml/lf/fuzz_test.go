package lf

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"

	e "github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/ledger/apierr"
)

// FuzzReadDAR: ReadDAR never panics, returns either a DAR or an
// *apierr.Error, and respects its size limits; the checks that run on a
// decoded DAR do not panic either.
func FuzzReadDAR(f *testing.F) {
	// The real DARs (up to 1 MB each) are seeds of the seed-corpus run
	// only: while fuzzing they would slow it to a few executions a second.
	if fz := flag.Lookup("test.fuzz"); fz == nil || fz.Value.String() == "" {
		addRealDARs(f)
	}
	sample := samplePackage("3")
	dar, _ := e.DAR(sample, simplePkg("lib", "1.0.0"))
	f.Add(dar)
	old := samplePackage("1")
	dar, _ = e.DAR(old)
	f.Add(dar)
	_, dalf := e.Dalf(simplePkg("app", "1.0.0"))
	f.Add(e.Zip(e.File{Name: ManifestPath, Data: []byte(e.ManifestText("a.dalf", nil)), Store: true}, e.File{Name: "a.dalf", Data: dalf, Store: true}))
	f.Add(e.Zip(e.File{Name: ManifestPath, Data: []byte("Main-Dalf: a.dalf\nDalfs: a.dalf\nFormat: daml-lf\n")}, e.File{Name: "a.dalf", Data: []byte{0x0a, 0x02, 0x08, 0x01}}))
	f.Add([]byte("PK\x03\x04"))
	// Deflated entries (e.Zip deflates by default), so that mutations reach
	// the inflater and the manifest parser: a deflated manifest with a bad
	// line, one with extra attributes, and small bombs whose header is
	// honest or lies.
	f.Add(e.Zip(e.File{Name: ManifestPath, Data: []byte("Main-Dalf: a.dalf\nDalfs a.dalf\nFormat: daml-lf\n")}, e.File{Name: "a.dalf", Data: dalf}))
	f.Add(e.Zip(e.File{Name: ManifestPath, Data: []byte(e.ManifestText("a.dalf", nil, "Name: app"))}, e.File{Name: "a.dalf", Data: dalf}))
	f.Add(e.ZeroBomb(ManifestPath, 64<<10, 64<<10, e.File{Name: "a.dalf", Data: dalf}))
	f.Add(e.ZeroBomb(ManifestPath, 64<<10, 100, e.File{Name: "a.dalf", Data: dalf}))
	f.Add(e.ZeroBomb("a.dalf", 64<<10, 64<<10, e.File{Name: ManifestPath, Data: []byte(e.ManifestText("a.dalf", nil))}))

	opts := ReadOptions{MaxEntrySize: 2 << 20, MaxTotalSize: 4 << 20, AllowDevLF: true}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := ReadDAR(data, opts)
		if err != nil {
			var ae *apierr.Error
			if !errors.As(err, &ae) {
				t.Fatalf("error is not an *apierr.Error: %T %v", err, err)
			}
			return
		}
		var total int
		for _, p := range d.Packages {
			total += len(p.Payload)
		}
		if int64(total) > opts.MaxTotalSize {
			t.Fatalf("%d bytes of payload, above the %d limit", total, opts.MaxTotalSize)
		}
		_ = d.CheckDependencies()
		for _, p := range d.Packages {
			TransitiveDeps(p.ID, d.Package)
			for _, m := range p.Modules {
				for _, dt := range m.DataTypes {
					for _, fl := range dt.Fields {
						_ = fl.Type.String()
					}
				}
			}
		}
	})
}

// addRealDARs adds the DARs of the shared test data to the seed corpus.
func addRealDARs(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join(darDir, "*.dar"))
	for _, p := range paths {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
}

// FuzzParseManifest: the manifest parser never panics, accepts only
// manifests with the three DAR attributes, and quotes a bad line in a
// short cause whatever its length.
func FuzzParseManifest(f *testing.F) {
	f.Add([]byte(e.ManifestText("a.dalf", []string{"b.dalf"}, "Name: app")))
	f.Add([]byte("Main-Dalf: a.dalf\r\nDalfs: a.dalf,\r\n b.dalf\r\nFormat: daml-lf\r\n\r\nName: x\r\n"))
	f.Add([]byte("\ufeffMain-Dalf: a.dalf\rDalfs: a.dalf\rFormat: daml-lf"))
	f.Add([]byte("Main-Dalf a.dalf\n"))
	f.Add(make([]byte, 300))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := parseManifest(data)
		if err != nil {
			var ae *apierr.Error
			if !errors.As(err, &ae) || ae.Code.Name != "INVALID_DAR" {
				t.Fatalf("error %v, want INVALID_DAR", err)
			}
			if len(ae.Cause) > 4*maxQuoted+200 {
				t.Fatalf("cause of %d bytes", len(ae.Cause))
			}
			return
		}
		if m.MainDalf == "" || m.Format != "daml-lf" {
			t.Fatalf("accepted manifest %+v", m)
		}
	})
}
