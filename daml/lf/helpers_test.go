package lf

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	lftest "github.com/ledgernode/ledgernode/daml/lf/internal/lfenc"
)

// darDir holds the real DARs of ../shared, relative to this package: next
// to the repository's checkout, or next to the folder of a git worktree
// (a checkout one level deeper).
var darDir = func() string {
	for _, d := range []string{"../../../shared/testdata/dars", "../../../../shared/testdata/dars"} {
		if _, err := os.Stat(d); err == nil {
			return d
		}
	}
	return "../../../shared/testdata/dars"
}()

// realDAR returns the bytes of a real DAR, skipping the test when the shared
// test data is not there.
func realDAR(tb testing.TB, name string) []byte {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(darDir, name))
	if errors.Is(err, os.ErrNotExist) {
		tb.Skipf("real DAR %s not found in %s (the shared test data is not checked out next to this repository)", name, darDir)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// kindOf returns the kind of err (0 for nil, -1 for an error that is not
// an *Error).
func kindOf(err error) ErrorKind {
	if err == nil {
		return 0
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return -1
}

// cantonNames are the Canton codes the ledger maps the decoding kinds to
// (ledger's damlError; its tests check the same pairs). decode_test.go's
// and bomb_test.go's tables are written with these names.
var cantonNames = map[ErrorKind]string{
	KindParse:           "DAR_PARSE_ERROR",
	KindLanguageVersion: "ALLOWED_LANGUAGE_VERSIONS",
	KindInvalidDAR:      "INVALID_DAR",
	KindInvalidZipEntry: "INVALID_ZIP_ENTRY",
	KindZipBomb:         "ZIP_BOMB",
}

// code returns the Canton code name of err's kind as cantonNames lists it
// ("" for nil, "?" for an error that is not an *Error or of another kind).
func code(err error) string {
	if err == nil {
		return ""
	}
	if n, ok := cantonNames[kindOf(err)]; ok {
		return n
	}
	return "?"
}

// cause returns the message of err ("" for nil).
func cause(err error) string {
	if err != nil {
		return err.Error()
	}
	return ""
}

// decode encodes p with lfenc and decodes it back (any LF 2 version).
func decode(tb testing.TB, p lftest.Package) *Package {
	tb.Helper()
	_, dalf := lftest.Dalf(p)
	pkg, err := DecodeArchive(dalf, ReadOptions{AllowDevLF: true})
	if err != nil {
		tb.Fatalf("decode %s %s: %v", p.Name, p.Version, err)
	}
	return pkg
}

// Type constructors for expectations.
func tcon(pkg, mod, name string) Type {
	return &TCon{ID: TypeConID{PackageID: pkg, Module: mod, Name: name}}
}
func tb(b BuiltinType) Type { return &TBuiltin{Builtin: b} }
func tvar(n string) Type    { return &TVar{Name: n} }
func tnat(n int) Type       { return &TNat{N: n} }
func tapp(f Type, args ...Type) Type {
	for _, a := range args {
		f = &TApp{Fun: f, Arg: a}
	}
	return f
}

var star = &Kind{Sort: KindStar}
