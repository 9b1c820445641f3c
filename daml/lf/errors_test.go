package lf

import (
	"archive/zip"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	e "github.com/ledgernode/ledgernode/daml/lf/internal/lfenc"
)

// TestErrorFields: each kind carries its structured context.
func TestErrorFields(t *testing.T) {
	_, dalf := e.Dalf(simplePkg("app", "1.0.0"))
	devID, devDalf := e.Dalf(func() e.Package { p := simplePkg("app", "1.0.0"); p.Minor = "dev"; return p }())
	tests := []struct {
		name string
		dar  []byte
		opts ReadOptions
		want Error // Message and Err are not compared
	}{
		{"not a zip", []byte("nope"), ReadOptions{}, Error{Kind: KindInvalidDAR}},
		{"missing dalf", e.Zip(manifestFile("a.dalf")), ReadOptions{}, Error{Kind: KindInvalidZipEntry, Entry: "a.dalf"}},
		{"entry too big", e.Zip(manifestFile("a.dalf"), e.File{Name: "a.dalf", Data: dalf}), ReadOptions{MaxEntrySize: 10},
			Error{Kind: KindZipBomb, Entry: ManifestPath}},
		{"garbage dalf", e.Zip(manifestFile("a.dalf"), e.File{Name: "a.dalf", Data: []byte{0x0a, 0x05, 0x01}}), ReadOptions{},
			Error{Kind: KindParse, Dalf: "a.dalf"}},
		{"LF 2.dev", e.Zip(manifestFile("a.dalf"), e.File{Name: "a.dalf", Data: devDalf}), ReadOptions{},
			Error{Kind: KindLanguageVersion, PackageID: devID, LanguageVersion: "2.dev"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadDAR(tt.dar, tt.opts)
			var le *Error
			if !errors.As(err, &le) {
				t.Fatalf("error %v is not an *Error", err)
			}
			if le.Message == "" || le.Error() != le.Message {
				t.Errorf("message %q, Error() %q", le.Message, le.Error())
			}
			if diff := cmp.Diff(tt.want, *le, cmpopts.IgnoreFields(Error{}, "Message", "Err")); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	// The zip reader's error stays reachable.
	if _, err := ReadDAR([]byte("nope"), ReadOptions{}); !errors.Is(err, zip.ErrFormat) {
		t.Errorf("errors.Is(zip.ErrFormat) is false for %v", err)
	}
	// A payload outside a DAR names no dalf.
	_, err := DecodePayload([]byte{1, 2, 3}, ReadOptions{})
	var le *Error
	if !errors.As(err, &le) || le.Kind != KindParse || le.Dalf != "" {
		t.Errorf("DecodePayload: %#v", err)
	}
}

func TestErrorKindString(t *testing.T) {
	if got := KindZipBomb.String(); got != "ZipBomb" {
		t.Errorf("KindZipBomb.String() = %q", got)
	}
	if got := ErrorKind(99).String(); got != "ErrorKind(99)" {
		t.Errorf("ErrorKind(99).String() = %q", got)
	}
}
