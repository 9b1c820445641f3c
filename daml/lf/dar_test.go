package lf

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"hash/crc32"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	e "github.com/ledgernode/ledgernode/daml/lf/internal/lfenc"
)

func simplePkg(name, version string) e.Package {
	return e.Package{Name: name, Version: version, Imports: []string{}, Modules: []e.Module{{
		Name:      "Main",
		DataTypes: []e.DataType{{Name: "T", Serializable: true, Fields: []e.Field{{"owner", e.B(e.Party)}}}},
		Templates: []e.Template{{Name: "T"}},
	}}}
}

// rawZip writes entries with CreateRaw, so that headers can lie.
type rawEntry struct {
	name         string
	data         []byte // uncompressed content
	declaredSize uint64 // header's uncompressed size (0: len(data))
	badCRC       bool
	method       uint16
}

func rawZip(t testing.TB, entries ...rawEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, en := range entries {
		comp := en.data
		if en.method == zip.Deflate {
			var cb bytes.Buffer
			fw, _ := flate.NewWriter(&cb, flate.BestCompression)
			fw.Write(en.data)
			fw.Close()
			comp = cb.Bytes()
		}
		size := en.declaredSize
		if size == 0 {
			size = uint64(len(en.data))
		}
		crc := crc32.ChecksumIEEE(en.data)
		if en.badCRC {
			crc ^= 1
		}
		ww, err := w.CreateRaw(&zip.FileHeader{Name: en.name, Method: en.method, CRC32: crc,
			CompressedSize64: uint64(len(comp)), UncompressedSize64: size})
		if err != nil {
			t.Fatal(err)
		}
		ww.Write(comp)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func manifestFile(main string, deps ...string) e.File {
	return e.File{Name: ManifestPath, Data: []byte(e.ManifestText(main, deps))}
}

func TestReadDARErrors(t *testing.T) {
	_, dalf := e.Dalf(simplePkg("app", "1.0.0"))
	_, devDalf := e.Dalf(func() e.Package { p := simplePkg("app", "1.0.0"); p.Minor = "dev"; return p }())
	lf1 := e.Archive(e.PayloadLF1("15", nil))
	badHash := e.ArchiveWithHash(e.Payload("2", 0, e.EncodePackage(simplePkg("app", "1.0.0"))), strings.Repeat("ab", 32))
	big := bytes.Repeat([]byte("x"), 4000)
	small := ReadOptions{MaxEntrySize: 3000, MaxTotalSize: 6000}

	tests := []struct {
		name     string
		dar      []byte
		opts     ReadOptions
		wantKind ErrorKind
		want     string
	}{
		{"ok", e.Zip(manifestFile("a.dalf"), e.File{Name: "a.dalf", Data: dalf}), ReadOptions{}, 0, ""},
		{"not a zip", []byte("PK definitely not a zip"), ReadOptions{}, KindInvalidDAR, "not a valid zip"},
		{"empty", nil, ReadOptions{}, KindInvalidDAR, "not a valid zip"},
		{"no manifest", e.Zip(e.File{Name: "a.dalf", Data: dalf}), ReadOptions{}, KindInvalidDAR, "no META-INF/MANIFEST.MF"},
		{"manifest bad line", e.Zip(e.File{Name: ManifestPath, Data: []byte("Main-Dalf a.dalf\n")}, e.File{Name: "a.dalf", Data: dalf}), ReadOptions{}, KindInvalidDAR, "bad line"},
		{"manifest dangling continuation", e.Zip(e.File{Name: ManifestPath, Data: []byte(" a.dalf\n")}), ReadOptions{}, KindInvalidDAR, "continuation"},
		{"no Main-Dalf", e.Zip(e.File{Name: ManifestPath, Data: []byte("Dalfs: a.dalf\nFormat: daml-lf\n")}, e.File{Name: "a.dalf", Data: dalf}), ReadOptions{}, KindInvalidDAR, "Cannot find attribute: Main-Dalf"},
		{"no Dalfs", e.Zip(e.File{Name: ManifestPath, Data: []byte("Main-Dalf: a.dalf\nFormat: daml-lf\n")}, e.File{Name: "a.dalf", Data: dalf}), ReadOptions{}, KindInvalidDAR, "Cannot find attribute: Dalfs"},
		{"no Format", e.Zip(e.File{Name: ManifestPath, Data: []byte("Main-Dalf: a.dalf\nDalfs: a.dalf\n")}, e.File{Name: "a.dalf", Data: dalf}), ReadOptions{}, KindInvalidDAR, "Cannot find attribute: Format"},
		{"unsupported format", e.Zip(e.File{Name: ManifestPath, Data: []byte("Main-Dalf: a.dalf\nDalfs: a.dalf\nFormat: daml-lf-legacy\n")}, e.File{Name: "a.dalf", Data: dalf}), ReadOptions{}, KindInvalidDAR, "Unsupported format: daml-lf-legacy"},
		{"attributes after a blank line are another section", e.Zip(e.File{Name: ManifestPath, Data: []byte("Main-Dalf: a.dalf\nDalfs: a.dalf\n\nFormat: daml-lf\n")}, e.File{Name: "a.dalf", Data: dalf}), ReadOptions{}, KindInvalidDAR, "Cannot find attribute: Format"},
		{"missing main dalf", e.Zip(manifestFile("a.dalf")), ReadOptions{}, KindInvalidZipEntry, `"a.dalf" listed in the manifest is not in the DAR`},
		{"missing dependency dalf", e.Zip(manifestFile("a.dalf", "b.dalf"), e.File{Name: "a.dalf", Data: dalf}), ReadOptions{}, KindInvalidZipEntry, `"b.dalf" listed`},
		{"dot-dot path", e.Zip(manifestFile("a.dalf"), e.File{Name: "a.dalf", Data: dalf}, e.File{Name: "x/../../evil", Data: []byte("x")}), ReadOptions{}, KindInvalidZipEntry, `".." in path`},
		{"absolute path", e.Zip(manifestFile("a.dalf"), e.File{Name: "a.dalf", Data: dalf}, e.File{Name: "/etc/passwd", Data: []byte("x")}), ReadOptions{}, KindInvalidZipEntry, "absolute path"},
		{"drive letter", e.Zip(manifestFile("a.dalf"), e.File{Name: "a.dalf", Data: dalf}, e.File{Name: "C:/x", Data: []byte("x")}), ReadOptions{}, KindInvalidZipEntry, "absolute path"},
		{"backslash", e.Zip(manifestFile("a.dalf"), e.File{Name: "a.dalf", Data: dalf}, e.File{Name: `dir\a.dalf`, Data: []byte("x")}), ReadOptions{}, KindInvalidZipEntry, "backslash"},
		{"duplicate entry", e.Zip(manifestFile("a.dalf"), e.File{Name: "a.dalf", Data: dalf}, e.File{Name: "a.dalf", Data: dalf}), ReadOptions{}, KindInvalidZipEntry, "Duplicate zip entry"},
		{"entry above the limit", e.Zip(manifestFile("a.dalf"), e.File{Name: "a.dalf", Data: dalf}, e.File{Name: "big.hi", Data: big}), small, KindZipBomb, `"big.hi" is 4000 bytes uncompressed, above the limit of 3000`},
		{"total above the limit", e.Zip(manifestFile("a.dalf"), e.File{Name: "a.dalf", Data: dalf},
			e.File{Name: "1.hi", Data: big[:2500]}, e.File{Name: "2.hi", Data: big[:2500]}, e.File{Name: "3.hi", Data: big[:2500]}), small, KindZipBomb, "more than 6000 bytes uncompressed"},
		{"lying header (deflate)", rawZip(t, rawEntry{name: ManifestPath, data: []byte(e.ManifestText("a.dalf", nil)), method: zip.Deflate},
			rawEntry{name: "a.dalf", data: append(dalf, make([]byte, 1<<20)...), declaredSize: uint64(len(dalf)), method: zip.Deflate}), ReadOptions{}, KindZipBomb, "inflates beyond"},
		{"lying header (stored)", rawZip(t, rawEntry{name: ManifestPath, data: []byte(e.ManifestText("a.dalf", nil))},
			rawEntry{name: "a.dalf", data: append(dalf, 0, 0, 0), declaredSize: uint64(len(dalf))}), ReadOptions{}, KindZipBomb, "inflates beyond"},
		{"lying header, limit reached first", rawZip(t, rawEntry{name: ManifestPath, data: []byte(e.ManifestText("a.dalf", nil)), method: zip.Deflate},
			rawEntry{name: "a.dalf", data: make([]byte, 1<<20), declaredSize: 2900, method: zip.Deflate}), small, KindZipBomb, "inflates beyond the 2900 bytes"},
		{"truncated entry", rawZip(t, rawEntry{name: ManifestPath, data: []byte(e.ManifestText("a.dalf", nil))},
			rawEntry{name: "a.dalf", data: dalf, declaredSize: uint64(len(dalf)) + 10}), ReadOptions{}, KindInvalidZipEntry, "truncated"},
		{"bad checksum", rawZip(t, rawEntry{name: ManifestPath, data: []byte(e.ManifestText("a.dalf", nil))},
			rawEntry{name: "a.dalf", data: dalf, badCRC: true}), ReadOptions{}, KindInvalidZipEntry, "checksum"},
		{"unsupported compression", rawZip(t, rawEntry{name: ManifestPath, data: []byte(e.ManifestText("a.dalf", nil))},
			rawEntry{name: "a.dalf", data: dalf, method: 12}), ReadOptions{}, KindInvalidZipEntry, "compression method 12"},
		{"hash mismatch", e.Zip(manifestFile("a.dalf"), e.File{Name: "a.dalf", Data: badHash}), ReadOptions{}, KindParse, "Failed to parse a.dalf: Mismatching hashes!"},
		{"garbage dalf", e.Zip(manifestFile("a.dalf"), e.File{Name: "a.dalf", Data: []byte("this is not protobuf")}), ReadOptions{}, KindParse, "Failed to parse a.dalf"},
		{"garbage dependency", e.Zip(manifestFile("a.dalf", "b.dalf"), e.File{Name: "a.dalf", Data: dalf}, e.File{Name: "b.dalf", Data: []byte{0x0a, 0x05, 0x01}}), ReadOptions{}, KindParse, "Failed to parse b.dalf"},
		{"LF 1.15 dependency", e.Zip(manifestFile("a.dalf", "b.dalf"), e.File{Name: "a.dalf", Data: dalf}, e.File{Name: "b.dalf", Data: lf1}), ReadOptions{AllowDevLF: true}, KindLanguageVersion, "got 1.15"},
		{"LF 2.dev", e.Zip(manifestFile("a.dalf"), e.File{Name: "a.dalf", Data: devDalf}), ReadOptions{}, KindLanguageVersion, "got 2.dev"},
		{"LF 2.dev allowed", e.Zip(manifestFile("a.dalf"), e.File{Name: "a.dalf", Data: devDalf}), ReadOptions{AllowDevLF: true}, 0, ""},
		{"other files are ignored", e.Zip(manifestFile("a.dalf"), e.File{Name: "a.dalf", Data: dalf}, e.File{Name: "x/Main.daml", Data: []byte("module Main where")},
			e.File{Name: "x/data/app.conf", Data: []byte("garbage")}, e.File{Name: "x/", Data: nil}), ReadOptions{}, 0, ""},
		{"many continuation lines", e.Zip(e.File{Name: ManifestPath, Data: []byte("Main-Dalf: a.dalf\nDalfs: a.dalf" + strings.Repeat("\n ,", 1<<18) + "\nFormat: daml-lf\n")},
			e.File{Name: "a.dalf", Data: dalf}), ReadOptions{}, 0, ""},
		{"stored entries", e.Zip(e.File{Name: ManifestPath, Data: []byte(e.ManifestText("a.dalf", nil)), Store: true}, e.File{Name: "a.dalf", Data: dalf, Store: true}), ReadOptions{}, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := ReadDAR(tt.dar, tt.opts)
			if got := kindOf(err); got != tt.wantKind {
				t.Fatalf("kind %v (%v), want %v", got, err, tt.wantKind)
			}
			if !strings.Contains(cause(err), tt.want) {
				t.Errorf("cause %q does not contain %q", cause(err), tt.want)
			}
			if err == nil && (d.Main == nil || d.Main.Name != "app") {
				t.Errorf("main package %+v", d.Main)
			}
		})
	}
}

func TestParseManifest(t *testing.T) {
	long := "dir-" + strings.Repeat("0123456789", 12) + "/main.dalf"
	tests := []struct {
		name string
		text string
		want Manifest
	}{
		{
			name: "continuation lines, CRLF, trimmed list, main removed",
			text: "Manifest-Version: 1.0\r\nName: app-1.0.0\r\nSdk-Version: 3.4.0\r\nMain-Dalf: " + long[:61] + "\r\n " + long[61:] + "\r\n" +
				"Dalfs: " + long[:65] + "\r\n " + long[65:] + " ,  dep1.dalf,dep2.dalf , ,dep1.dalf\r\nFormat: daml-lf\r\nEncryption: non-encrypted\r\n\r\nName: x.dalf\r\nFoo: bar\r\n",
			want: Manifest{MainDalf: long, Dalfs: []string{"dep1.dalf", "dep2.dalf"}, Format: "daml-lf", Name: "app-1.0.0", SdkVersion: "3.4.0",
				Attributes: map[string]string{"Manifest-Version": "1.0", "Name": "app-1.0.0", "Sdk-Version": "3.4.0", "Main-Dalf": long,
					"Dalfs": long + " ,  dep1.dalf,dep2.dalf , ,dep1.dalf", "Format": "daml-lf", "Encryption": "non-encrypted"}},
		},
		{
			name: "attribute names are case-insensitive, values trimmed",
			text: "main-dalf:  a.dalf \nDALFS: a.dalf\nformat: daml-lf",
			want: Manifest{MainDalf: "a.dalf", Format: "daml-lf",
				Attributes: map[string]string{"main-dalf": " a.dalf ", "DALFS": "a.dalf", "format": "daml-lf"}},
		},
		{
			name: "the generated manifest wraps at 72 bytes",
			text: e.ManifestText(long, []string{long + "x"}),
			want: Manifest{MainDalf: long, Dalfs: []string{long + "x"}, Format: "daml-lf",
				Attributes: map[string]string{"Manifest-Version": "1.0", "Created-By": "lfenc", "Main-Dalf": long, "Dalfs": long + ", " + long + "x", "Format": "daml-lf"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, line := range strings.Split(tt.text, "\n") {
				if strings.HasPrefix(tt.name, "the generated") && len(line) > 72 {
					t.Errorf("line of %d bytes: %q", len(line), line)
				}
			}
			got, err := parseManifest([]byte(tt.text))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestReadDARSynthetic reads DARs of several packages built by lftest.
func TestReadDARSynthetic(t *testing.T) {
	lib := simplePkg("lib", "1.0.0")
	_, libDalf := e.Dalf(lib)
	libID := PackageID(mustPayload(t, libDalf))
	app := simplePkg("app", "2.0.0")
	app.Imports = []string{libID}
	app.Modules[0].DataTypes[0].Fields = append(app.Modules[0].DataTypes[0].Fields, e.Field{"lib", e.Con(e.Import(0), "Main", "T")})
	appID, appDalf := e.Dalf(app)
	ids := []string{appID}
	// The same archive under two paths is one package.
	dar := e.Zip(manifestFile("app.dalf", "lib.dalf", "copy/lib.dalf"), e.File{Name: "app.dalf", Data: appDalf},
		e.File{Name: "lib.dalf", Data: libDalf}, e.File{Name: "copy/lib.dalf", Data: libDalf})
	d, err := ReadDAR(dar, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{ids[0], libID}, d.PackageIDs()); diff != "" {
		t.Errorf("package ids (-want +got):\n%s", diff)
	}
	if d.Main.ID != ids[0] || d.DalfPaths[libID] != "lib.dalf" {
		t.Errorf("manifest %+v main %s paths %v", d.Manifest, d.Main.ID, d.DalfPaths)
	}
	f, _ := d.Main.DataType("Main", "T").Field("lib")
	if diff := cmp.Diff(tcon(libID, "Main", "T"), f.Type); diff != "" {
		t.Errorf("imported type (-want +got):\n%s", diff)
	}
	if err := d.CheckDependencies(); err != nil {
		t.Error(err)
	}

	dar, ids = e.DAR(app, lib)
	if d, err = ReadDAR(dar, ReadOptions{}); err != nil {
		t.Fatal(err)
	}
	if d.Manifest.Name != "app-2.0.0" || !strings.HasPrefix(d.Manifest.MainDalf, "app-2.0.0-"+ids[0]+"/") {
		t.Errorf("manifest %+v", d.Manifest)
	}
	if diff := cmp.Diff(ids, d.PackageIDs()); diff != "" {
		t.Errorf("package ids (-want +got):\n%s", diff)
	}
}

func mustPayload(t *testing.T, dalf []byte) []byte {
	t.Helper()
	p, err := decodeArchive(dalf)
	if err != nil {
		t.Fatal(err)
	}
	return p.Payload
}
