package ledger

import (
	"context"
	"log/slog"
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
	"github.com/ledgernode/ledgernode/vetting"
)

// TestVettedSetsShared: the package views read from one vetting record
// share its vetted set (vettedSet), which is the record's packages; a
// change of the vetting gives the next view the new set and leaves the
// one handed out before as it was. Not parallel: the process keeps the
// last record decoded (decodedVettingOf), which another test's decoding
// would replace between the two reads.
func TestVettedSetsShared(t *testing.T) {
	ctx := context.Background()
	n, err := Open(Options{InMemory: true, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	dar, ids := lftest.DAR(lftest.IouPackage("1.0.0"))
	if err := n.UploadDAR(ctx, UploadDARRequest{DAR: dar}); err != nil {
		t.Fatal(err)
	}
	sync, err := n.vettingSynchronizer("")
	if err != nil {
		t.Fatal(err)
	}
	read := func() (map[string]bool, []string) {
		t.Helper()
		var v *pkgView
		var st vetting.State
		if err := n.st.View(func(r *store.Reader) error {
			tx := store.ReadOnlyTx(r)
			var err error
			if v, err = n.readPkgView(tx, sync); err != nil {
				return err
			}
			st, err = loadVetting(tx, sync)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, p := range st.Packages {
			want = append(want, p.PackageID)
		}
		slices.Sort(want)
		return v.vetted, want
	}
	keys := func(m map[string]bool) []string { return slices.Sorted(maps.Keys(m)) }
	first, want := read()
	if got := keys(first); !slices.Equal(got, want) || !first[ids[0]] {
		t.Fatalf("vetted set %v; want %v, with %s", got, want, ids[0])
	}
	again, _ := read()
	if reflect.ValueOf(again).UnsafePointer() != reflect.ValueOf(first).UnsafePointer() {
		t.Error("two views of one vetting record do not share its vetted set")
	}
	if _, _, err := n.UpdateVettedPackages(ctx, UpdateVettedPackagesRequest{Changes: []vetting.Change{{Op: vetting.Unvet, Refs: []vetting.Ref{{PackageID: ids[0]}}}}}); err != nil {
		t.Fatal(err)
	}
	after, want := read()
	if got := keys(after); !slices.Equal(got, want) || after[ids[0]] {
		t.Errorf("vetted set after unvetting %s: %v; want %v", ids[0], got, want)
	}
	if !first[ids[0]] {
		t.Error("the set handed out before the change changed")
	}
}
