package ledger

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/lf"
)

// TestSplitTypeCon: splitTypeCon's split of the stored form, without
// lf.SplitIdentifier, gives what SplitIdentifier gives, for every shape
// of id, odd ones included (the stored form only has the first).
func TestSplitTypeCon(t *testing.T) {
	t.Parallel()
	for _, tid := range []string{
		"pkg:Mod:Ent", "pkg:A.B.C:Ent.Sub", "#name:Mod:Ent", "pkg:Mod:Ent:", "pkg:Mod:Ent::",
		"::Ent", "pkg::Ent", ":Mod:Ent", "pkg:Mod:", "pkg:Mod", "pkg", "", "a:b:c:d", "pkg:Mod:Ent:x", "#:M:E",
	} {
		want, wantErr := lf.SplitIdentifier(tid)
		got, err := splitTypeCon(tid)
		if (err != nil) != (wantErr != nil) {
			t.Errorf("%q: error %v, SplitIdentifier's %v", tid, err, wantErr)
			continue
		}
		if err != nil {
			continue
		}
		if d := cmp.Diff(lf.TypeConID{PackageID: want.PackageID, Module: want.Module, Name: want.Entity}, got); d != "" {
			t.Errorf("%q (-SplitIdentifier +splitTypeCon):\n%s", tid, d)
		}
	}
}
