package typecheck

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// darDir holds the real DARs of ../shared, relative to this package: next
// to the repository's checkout, or next to the folder of a git worktree.
var darDir = func() string {
	for _, d := range []string{"../../../shared/testdata/dars", "../../../../shared/testdata/dars"} {
		if _, err := os.Stat(d); err == nil {
			return d
		}
	}
	return "../../../shared/testdata/dars"
}()

// realDAR reads and decodes a real DAR, skipping the test when the shared
// test data is not there.
func realDAR(tb testing.TB, name string, opts lf.ReadOptions) *lf.DAR {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(darDir, name))
	if errors.Is(err, os.ErrNotExist) {
		tb.Skipf("real DAR %s not found in %s (the shared test data is not checked out next to this repository)", name, darDir)
	}
	if err != nil {
		tb.Fatal(err)
	}
	dar, err := lf.ReadDAR(data, opts)
	if err != nil {
		tb.Fatalf("ReadDAR %s: %v", name, err)
	}
	return dar
}

// realDARs are the DARs of ../shared/testdata/dars that Canton accepts.
var realDARs = []string{
	"canton-builtin-admin-workflow-ping.dar",
	"canton-builtin-admin-workflow-party-replication-alpha.dar",
	"splice-amulet-0.1.8.dar",
	"splice-amulet-test-0.1.8.dar",
	"splice-util-0.1.2.dar",
	"splice-wallet-0.1.8.dar",
	"splice-wallet-payments-0.1.8.dar",
	"splice-wallet-test-0.1.6.dar",
}

// TestRealDARsAccepted: every package of every real DAR type-checks,
// stable packages included (Canton skips them, being loaded already, but
// they are well-typed too). A false positive here would refuse a real
// upload.
func TestRealDARsAccepted(t *testing.T) {
	t.Parallel()
	for _, name := range realDARs {
		t.Run(name, func(t *testing.T) {
			dar := realDAR(t, name, lf.ReadOptions{})
			for _, p := range dar.Packages {
				if err := Check(p, dar.Package); err != nil {
					t.Errorf("package %s (%s): %v", p.ID, p.Name, err)
				}
			}
			if err := CheckDAR(dar, nil); err != nil {
				t.Errorf("CheckDAR: %v", err)
			}
		})
	}
}

// TestRealDevDAR: the LF 2.dev DAR decodes only with AllowDevLF; its
// daml-stdlib uses a development builtin (number 4000) this version does
// not know the type of, so the dev DAR is not supported and refused
// rather than accepted unchecked. The other packages check.
func TestRealDevDAR(t *testing.T) {
	t.Parallel()
	dar := realDAR(t, "DamlDefinitionsServiceMain.dar", lf.ReadOptions{AllowDevLF: true})
	unsupported := 0
	for _, p := range dar.Packages {
		err := Check(p, dar.Package)
		var e *Error
		switch {
		case err == nil:
		case errors.As(err, &e) && e.Kind == EUnknownDefinition && e.Name == "BuiltinFunction(4000)":
			unsupported++
			t.Logf("2.dev features not supported: %s (%s): %v", p.ID, p.Name, err)
		default:
			t.Errorf("package %s (%s): %v", p.ID, p.Name, err)
		}
	}
	if unsupported != 1 {
		t.Errorf("%d packages use the unknown 2.dev builtin, want 1 (daml-stdlib)", unsupported)
	}
}

// TestRealIllformed: illformed.dar's main package (val x : Bool = ())
// is refused with ETypeMismatch in value Mod:x, rendered as Canton does.
func TestRealIllformed(t *testing.T) {
	t.Parallel()
	dar := realDAR(t, "illformed.dar", lf.ReadOptions{})
	err := CheckDAR(dar, nil)
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("CheckDAR = %v, want an *Error", err)
	}
	id := "dc0563f935abf08b498003bcf8ec6b070a619ff05ae4a091572863947cc8901c"
	want := "com.digitalasset.daml.lf.validation.ETypeMismatch: validation error in value " + id +
		":Mod:x: type mismatch:\n * expected type: Bool\n * found type: Unit"
	if e.Kind != ETypeMismatch || e.PackageID != id || e.CantonString() != want {
		t.Errorf("got kind %v package %s\n%s\nwant\n%s", e.Kind, e.PackageID, e.CantonString(), want)
	}
	if e.Context != (Context{Sort: ContextValue, ID: lf.TypeConID{PackageID: id, Module: "Mod", Name: "x"}}) {
		t.Errorf("context %+v", e.Context)
	}
}
