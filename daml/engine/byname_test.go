package engine

import (
	"fmt"
	"sync"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// TestByName stores ids of a few names in several modules and looks
// them up, from several goroutines at once, before and after they are
// published to the lock-free map.
func TestByName(t *testing.T) {
	var r byName[int]
	id := func(i int) lf.TypeConID {
		return lf.TypeConID{PackageID: "pkg", Module: fmt.Sprintf("M%d", i%3), Name: fmt.Sprintf("T%d", i/3)}
	}
	const n = 60
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range n {
				if got := r.load(id(i)); got != 0 && got != i+1 {
					t.Errorf("load(%v) = %d before its store", id(i), got)
				}
				if got := r.loadOrStore(id(i), i+1); got != i+1 {
					t.Errorf("loadOrStore(%v) = %d, want %d", id(i), got, i+1)
				}
				for j := range i + 1 {
					if got := r.load(id(j)); got != j+1 {
						t.Errorf("goroutine %d: load(%v) = %d, want %d", g, id(j), got, j+1)
					}
				}
			}
		})
	}
	wg.Wait()
	if got := r.load(lf.TypeConID{PackageID: "other", Module: "M0", Name: "T0"}); got != 0 {
		t.Errorf("load of an id not stored = %d", got)
	}
	if got := r.loadOrStore(id(0), 99); got != 1 {
		t.Errorf("loadOrStore of a stored id = %d, want 1", got)
	}
}
