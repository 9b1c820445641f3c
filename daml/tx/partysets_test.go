package tx

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSigsAndStakeholdersRandom checks sigsAndStakeholders against
// sortedSet and union on random party lists, sets (which it merges) and
// lists that are not (which it sorts), and has against a plain search.
func TestSigsAndStakeholdersRandom(t *testing.T) {
	names := []string{"alice::1220", "bob::1220", "bob::1221", "carol::12", "d", "eve::1220"}
	r := rand.New(rand.NewPCG(3, 4))
	pick := func() []string {
		var s []string
		for range r.IntN(7) {
			s = append(s, names[r.IntN(len(names))])
		}
		if r.IntN(2) == 0 {
			s = sortedSet(s)
		}
		return s
	}
	for range 5000 {
		sigs0, obs0 := pick(), pick()
		before := slices.Clone(obs0)
		sigs, stk := sigsAndStakeholders(make([]string, 0, r.IntN(8)), sigs0, obs0)
		wantSigs := sortedSet(sigs0)
		wantStk := union(wantSigs, obs0)
		if !slices.Equal(sigs, wantSigs) || !slices.Equal(stk, wantStk) {
			t.Fatalf("sigsAndStakeholders(%v, %v) = %v, %v, want %v, %v", sigs0, obs0, sigs, stk, wantSigs, wantStk)
		}
		if !slices.Equal(obs0, before) {
			t.Fatalf("sigsAndStakeholders changed the observers %v to %v", before, obs0)
		}
		set := sortedSet(obs0)
		for _, x := range names {
			if _, want := slices.BinarySearch(set, x); has(set, x) != want {
				t.Fatalf("has(%v, %q) = %v", set, x, !want)
			}
		}
	}
}
