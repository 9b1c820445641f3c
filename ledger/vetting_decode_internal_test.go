package ledger

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/vetting"
)

// TestDecodeVettingShared: decoding a vetting record's bytes again gives
// the same state as the first decoding, but no state shares anything a
// caller may change with another (a caller that changes its packages or
// their times changes no later decoding); other bytes decode as
// themselves; invalid JSON is an error.
func TestDecodeVettingShared(t *testing.T) {
	from := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	want := vetting.State{Serial: 3, Packages: []vetting.VettedPackage{{PackageID: "p1", ValidFrom: &from}, {PackageID: "p2"}}}
	raw := vettingJSON(want)
	first, err := decodeVetting(raw)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, first); diff != "" {
		t.Fatalf("first decoding (-want +got):\n%s", diff)
	}
	// Each state a caller gets is its own: change the first (decoded)
	// and the second (copied from the kept one), then decode once more.
	change := func(st vetting.State) {
		st.Packages[0].PackageID = "changed"
		*st.Packages[0].ValidFrom = time.Time{}
		_ = append(st.Packages[:1], vetting.VettedPackage{PackageID: "appended"})
	}
	change(first)
	second, err := decodeVetting(append([]byte(nil), raw...))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, second); diff != "" {
		t.Errorf("decoding again after the first state changed (-want +got):\n%s", diff)
	}
	change(second)
	third, err := decodeVetting(raw)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, third); diff != "" {
		t.Errorf("decoding again after the second state changed (-want +got):\n%s", diff)
	}
	other := vetting.State{Serial: 4, Packages: []vetting.VettedPackage{{PackageID: "p3"}}}
	if got, err := decodeVetting(vettingJSON(other)); err != nil || !cmp.Equal(other, got) {
		t.Errorf("other bytes: %+v, %v; want %+v", got, err, other)
	}
	empty := vetting.State{Serial: 1}
	if got, err := decodeVetting(vettingJSON(empty)); err != nil || !cmp.Equal(empty, got) || got.Packages != nil {
		t.Errorf("no packages: %#v, %v; want %#v", got, err, empty)
	}
	if _, err := decodeVetting([]byte(`{"serial":`)); err == nil {
		t.Error("invalid JSON decoded without error")
	}
}
