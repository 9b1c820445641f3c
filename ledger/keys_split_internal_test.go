package ledger

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/lf"
)

// TestSplitTypeCon: splitTypeCon gives what lf.SplitIdentifier gives,
// for every shape of id, odd ones included (the stored form only has the
// first); and
// splitTemplateID (the reads' cache of splits) gives what splitTypeCon
// gives.
func TestSplitTypeCon(t *testing.T) {
	t.Parallel()
	for _, tid := range []string{
		"pkg:Mod:Ent", "pkg:A.B.C:Ent.Sub", "#name:Mod:Ent", "pkg:Mod:Ent:", "pkg:Mod:Ent::",
		"::Ent", "pkg::Ent", ":Mod:Ent", "pkg:Mod:", "pkg:Mod", "pkg", "", "a:b:c:d", "pkg:Mod:Ent:x", "#:M:E",
	} {
		want, wantErr := lf.SplitIdentifier(tid)
		got, err := splitTypeCon(tid)
		// The reads' cache of splits gives the same, the first time and
		// the next, by string and by bytes.
		for _, st := range []*splitTemplate{splitTemplateID(tid), splitTemplateID([]byte(tid))} {
			if st.id != tid || st.tc != got || (st.err == nil) != (err == nil) {
				t.Errorf("%q: splitTemplateID gives %q, %v, %v; splitTypeCon %v, %v", tid, st.id, st.tc, st.err, got, err)
			}
		}
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
