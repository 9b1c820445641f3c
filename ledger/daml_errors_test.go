package ledger

import (
	"archive/zip"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
)

// TestDamlErrorTable: every kind of *lf.Error has a Canton code.
func TestDamlErrorTable(t *testing.T) {
	for k := lf.ErrorKind(1); k.String() != fmt.Sprintf("ErrorKind(%d)", int(k)); k++ {
		if _, ok := lfCodes[k]; !ok {
			t.Errorf("kind %v has no Canton code", k)
		}
	}
	if got := damlError(nil); got != nil {
		t.Errorf("damlError(nil) = %v", got)
	}
	other := errors.New("other")
	if got := damlError(other); got != other {
		t.Errorf("damlError(other) = %v", got)
	}
}

// TestDamlErrorWire: the errors of reading a DAR reach the wire with
// Canton's code, cause and context keys.
func TestDamlErrorWire(t *testing.T) {
	pkg := func(name string, imports ...string) lftest.Package {
		p := lftest.Package{Name: name, Version: "1.0.0", Imports: append([]string{}, imports...)}
		m := lftest.Module{Name: "M", DataTypes: []lftest.DataType{{Name: "T", Serializable: true, Fields: []lftest.Field{{Name: "x", Type: lftest.B(lftest.Int64)}}}}}
		for i := range imports {
			m.DataTypes[0].Fields = append(m.DataTypes[0].Fields, lftest.Field{Name: fmt.Sprintf("d%d", i), Type: lftest.Con(lftest.Import(i), "M", "T")})
		}
		p.Modules = []lftest.Module{m}
		return p
	}
	_, dalf := lftest.Dalf(pkg("app"))
	dev := pkg("app")
	dev.Minor = "dev"
	devID, devDalf := lftest.Dalf(dev)
	xID, xDalf := lftest.Dalf(pkg("x"))
	mainID, _ := lftest.Dalf(pkg("app"))
	manifest := func(main string, deps ...string) lftest.File {
		return lftest.File{Name: lf.ManifestPath, Data: []byte(lftest.ManifestText(main, deps))}
	}
	small := lf.ReadOptions{MaxEntrySize: 3000, MaxTotalSize: 6000}

	tests := []struct {
		name    string
		dar     []byte
		opts    lf.ReadOptions
		code    apierr.Code
		cause   string
		context map[string]string
		is      error
	}{
		{name: "not a zip", dar: []byte("not a zip"), code: apierr.InvalidDar,
			cause: "The DAR is not a valid zip archive: zip: not a valid zip file", is: zip.ErrFormat},
		{name: "no manifest", dar: lftest.Zip(lftest.File{Name: "a.dalf", Data: dalf}), code: apierr.InvalidDar,
			cause: "The DAR has no META-INF/MANIFEST.MF"},
		{name: "duplicate entry", dar: lftest.Zip(manifest("a.dalf"), lftest.File{Name: "a.dalf", Data: dalf}, lftest.File{Name: "a.dalf", Data: dalf}),
			code: apierr.InvalidZipEntry, cause: `Duplicate zip entry "a.dalf"`, context: map[string]string{"entry": "a.dalf"}},
		{name: "entry above the limit", dar: lftest.Zip(manifest("a.dalf"), lftest.File{Name: "a.dalf", Data: dalf}, lftest.File{Name: "big.hi", Data: []byte(strings.Repeat("x", 4000))}),
			opts: small, code: apierr.ZipBomb, cause: `Zip entry "big.hi" is 4000 bytes uncompressed, above the limit of 3000 bytes`, context: map[string]string{"entry": "big.hi"}},
		{name: "garbage dalf", dar: lftest.Zip(manifest("a.dalf"), lftest.File{Name: "a.dalf", Data: []byte{0x0a, 0x05, 0x01}}),
			code: apierr.DarParseError, cause: "Failed to parse a.dalf: ", context: map[string]string{"dalf": "a.dalf"}},
		{name: "LF 2.dev", dar: lftest.Zip(manifest("a.dalf"), lftest.File{Name: "a.dalf", Data: devDalf}), code: apierr.AllowedLanguageVersions,
			cause:   "Disallowed language version in package " + devID + ": Expected version between 2.1 and 2.3 but got 2.dev",
			context: map[string]string{"packageId": devID, "languageVersion": "2.dev"}},
		{name: "extra package", dar: lftest.Zip(manifest("a.dalf", "x.dalf"), lftest.File{Name: "a.dalf", Data: dalf}, lftest.File{Name: "x.dalf", Data: xDalf}),
			code:    apierr.DarDependenciesNotValid,
			cause:   "The set of packages in the DAR is not self-consistent for main package " + mainID + ": missing dependencies [], extra dependencies [" + xID + "]",
			context: map[string]string{"mainPackageId": mainID, "missingDependencies": "", "extraDependencies": xID}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := lf.ReadDAR(tt.dar, tt.opts)
			if err == nil {
				err = d.CheckDependencies()
			}
			var e *apierr.Error
			if !errors.As(damlError(err), &e) {
				t.Fatalf("not an *apierr.Error: %v", err)
			}
			if e.Code != tt.code {
				t.Errorf("code %s, want %s", e.Code.Name, tt.code.Name)
			}
			if !strings.HasPrefix(e.Cause, tt.cause) {
				t.Errorf("cause %q, want prefix %q", e.Cause, tt.cause)
			}
			if diff := cmp.Diff(tt.context, e.Context); diff != "" {
				t.Errorf("context (-want +got):\n%s", diff)
			}
			var le *lf.Error
			if !errors.As(e, &le) {
				t.Error("the *lf.Error is not reachable")
			}
			if tt.is != nil && !errors.Is(e, tt.is) {
				t.Errorf("errors.Is(%v) is false", tt.is)
			}
		})
	}

	_, err := lf.DecodePayload([]byte{1, 2, 3}, lf.ReadOptions{})
	var e *apierr.Error
	if !errors.As(damlError(err), &e) || e.Code != apierr.DarParseError || e.Context != nil {
		t.Errorf("garbage payload: %#v", damlError(err))
	}
}
