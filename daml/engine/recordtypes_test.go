package engine

import (
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// TestRecordTypes checks the engine's record-type map (byName), keyed by type name:
// types of one name in other modules and packages stay apart, and the
// first type stored for an id is the one kept.
func TestRecordTypes(t *testing.T) {
	ids := []lf.TypeConID{
		{PackageID: "p1", Module: "A", Name: "T"},
		{PackageID: "p1", Module: "B", Name: "T"},
		{PackageID: "p2", Module: "A", Name: "T"},
		{PackageID: "p1", Module: "A", Name: "U"},
	}
	var r byName[*RecordType]
	for _, id := range ids {
		if got := r.load(id); got != nil {
			t.Fatalf("load(%v) on an empty map: %v", id, got)
		}
	}
	kept := map[lf.TypeConID]*RecordType{}
	for _, id := range ids {
		rt := &RecordType{ID: id}
		if got := r.loadOrStore(id, rt); got != rt {
			t.Errorf("loadOrStore(%v) of a new type returned %v", id, got)
		}
		kept[id] = rt
	}
	for _, id := range ids {
		if got := r.load(id); got != kept[id] {
			t.Errorf("load(%v) = %v, want %v", id, got, kept[id])
		}
		if got := r.loadOrStore(id, &RecordType{ID: id}); got != kept[id] {
			t.Errorf("loadOrStore(%v) again = %v, want the first %v", id, got, kept[id])
		}
	}
	if got := r.load(lf.TypeConID{PackageID: "p3", Module: "A", Name: "T"}); got != nil {
		t.Errorf("load of an unknown id of a known name: %v", got)
	}
}
