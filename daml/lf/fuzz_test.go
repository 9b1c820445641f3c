package lf

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	e "github.com/ledgernode/ledgernode/daml/lf/lftest"
)

// FuzzReadDAR: ReadDAR never panics, returns either a DAR or an *Error, and respects its size limits; the checks that run on a
// decoded DAR do not panic either.
func FuzzReadDAR(f *testing.F) {
	if paths, _ := filepath.Glob(filepath.Join(darDir, "*.dar")); len(paths) > 0 {
		for _, p := range paths {
			if data, err := os.ReadFile(p); err == nil {
				f.Add(data)
			}
		}
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
	// Deflated entries, so that mutations reach the inflater: a deflated
	// manifest with a bad line, bombs whose header is honest or lies, and a
	// deflated dalf.
	f.Add(e.Zip(e.File{Name: ManifestPath, Data: []byte("Main-Dalf: a.dalf\nDalfs a.dalf\nFormat: daml-lf\n")}, e.File{Name: "a.dalf", Data: dalf}))
	f.Add(e.Zip(e.File{Name: ManifestPath, Data: []byte(e.ManifestText("a.dalf", nil, "Name: app"))}, e.File{Name: "a.dalf", Data: dalf}))
	f.Add(e.ZeroBomb(ManifestPath, 64<<10, 64<<10, e.File{Name: "a.dalf", Data: dalf}))
	f.Add(e.ZeroBomb(ManifestPath, 64<<10, 100, e.File{Name: "a.dalf", Data: dalf}))
	f.Add(e.ZeroBomb("a.dalf", 64<<10, 64<<10, e.File{Name: ManifestPath, Data: []byte(e.ManifestText("a.dalf", nil))}))

	opts := ReadOptions{MaxEntrySize: 2 << 20, MaxTotalSize: 4 << 20, AllowDevLF: true}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := ReadDAR(data, opts)
		if err != nil {
			var le *Error
			if !errors.As(err, &le) {
				t.Fatalf("error is not an *Error: %T %v", err, err)
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
