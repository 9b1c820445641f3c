package lf

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"

	e "github.com/ledgernode/ledgernode/daml/lf/internal/lfenc"
	"github.com/ledgernode/ledgernode/internal/quote"
)

// FuzzReadDAR: ReadDAR never panics, returns either a DAR or an *Error,
// and respects its size limits; the checks that run on a decoded DAR do
// not panic either.
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
				// A body the package validated decodes again on demand
				// (Body panics otherwise).
				for _, v := range m.Values {
					_ = v.Body()
				}
			}
		}
	})
}

// rawPackage returns the daml_lf_2 Package bytes of an archive payload.
func rawPackage(payload []byte) []byte {
	var pkg []byte
	_ = eachField(payload, func(f field) error {
		if f.num == 4 {
			pkg = f.b
		}
		return nil
	})
	return pkg
}

// rawExprs returns up to max raw Expr messages of a Package: interned
// expressions and value bodies.
func rawExprs(pkg []byte, max int) [][]byte {
	var out [][]byte
	_ = eachField(pkg, func(f field) error {
		switch f.num {
		case fPackageInternedExprs:
			out = append(out, f.b)
		case fPackageModules:
			_ = eachField(f.b, func(f field) error {
				if f.num == fModuleValues {
					_ = eachField(f.b, func(f field) error {
						if f.num == fDefValueExpr {
							out = append(out, f.b)
						}
						return nil
					})
				}
				return nil
			})
		}
		return nil
	})
	if len(out) > max {
		step := len(out) / max
		var thin [][]byte
		for i := 0; i < len(out); i += step {
			thin = append(thin, out[i])
		}
		out = thin
	}
	return out
}

// FuzzDecodeExpr decodes arbitrary Expr messages against the tables of
// real packages (an LF 2.2 and an LF 2.1 one, chosen by the first byte):
// it never panics, fails only with a parse error, and what it decodes can
// be walked and printed.
func FuzzDecodeExpr(f *testing.F) {
	var decoders []*decoder
	for _, name := range []string{"canton-builtin-admin-workflow-ping.dar", "splice-util-0.1.2.dar"} {
		data, err := os.ReadFile(filepath.Join(darDir, name))
		if err != nil {
			continue
		}
		dar, err := ReadDAR(data, ReadOptions{})
		if err != nil {
			f.Fatal(err)
		}
		pkg := rawPackage(dar.Main.Payload)
		_, d, err := decodePackageWith(dar.Main.ID, dar.Main.LanguageVersion, pkg, false)
		if err != nil {
			f.Fatal(err)
		}
		for _, x := range rawExprs(pkg, 50) {
			f.Add(append([]byte{byte(len(decoders))}, x...))
		}
		decoders = append(decoders, d)
	}
	if len(decoders) == 0 {
		// Without the shared DARs: the synthetic tables of the unit tests.
		decoders = append(decoders, testDecoder(f, LF22, xVar), testDecoder(f, LF21))
		f.Add(append([]byte{0}, e.Msg(15, e.Msg(1, xVar, 2, e.Msg(44, 0)))...))
		f.Add(append([]byte{1}, e.Msg(19, e.Msg(1, xVar, 2, e.Msg(1, unitE, 2, []byte{})))...))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		d := decoders[int(data[0])%len(decoders)]
		x, err := d.expr(data[1:], 0)
		if err != nil {
			if _, ok := err.(*parseError); !ok {
				t.Fatalf("error %T %v, want a *parseError", err, err)
			}
			return
		}
		_ = FormatExpr(x, 50)
		Inspect(x, func(any) bool { return true })
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
			if kindOf(err) != KindInvalidDAR {
				t.Fatalf("error %v, want an invalid-DAR error", err)
			}
			if len(err.Error()) > 4*quote.Limit+200 {
				t.Fatalf("cause of %d bytes", len(err.Error()))
			}
			return
		}
		if m.MainDalf == "" || m.Format != "daml-lf" {
			t.Fatalf("accepted manifest %+v", m)
		}
	})
}
