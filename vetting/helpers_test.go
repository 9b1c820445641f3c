package vetting

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
)

// darDir holds the real DARs of ../shared (relative to this package).
const darDir = "../../shared/testdata/dars"

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

// code returns the apierr code name of err ("" for nil, "?" for a foreign
// error).
func code(err error) string {
	if err == nil {
		return ""
	}
	var e *apierr.Error
	if errors.As(err, &e) {
		return e.Code.Name
	}
	return "?"
}

// cause returns the apierr cause of err.
func cause(err error) string {
	var e *apierr.Error
	if errors.As(err, &e) {
		return e.Cause
	}
	if err != nil {
		return err.Error()
	}
	return ""
}

// decode encodes p with lfenc and decodes it back (any LF 2 version).
func decode(tb testing.TB, p lftest.Package) *lf.Package {
	tb.Helper()
	_, dalf := lftest.Dalf(p)
	pkg, err := lf.DecodeArchive(dalf, lf.ReadOptions{AllowDevLF: true})
	if err != nil {
		tb.Fatalf("decode %s %s: %v", p.Name, p.Version, err)
	}
	return pkg
}
