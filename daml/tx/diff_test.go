package tx

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestDiffAgainstNaive checks diff, which returns a run of a as it is,
// against the plain filter over random sorted sets, and that appending to
// its result never reaches into a.
func TestDiffAgainstNaive(t *testing.T) {
	names := []string{"a", "b", "c", "d", "e", "f"}
	r := rand.New(rand.NewPCG(1, 2))
	pick := func() []string {
		var s []string
		for _, n := range names {
			if r.IntN(2) == 0 {
				s = append(s, n)
			}
		}
		return s
	}
	for range 2000 {
		a, b := pick(), pick()
		var want []string
		for _, x := range a {
			if !slices.Contains(b, x) {
				want = append(want, x)
			}
		}
		before := slices.Clone(a)
		got := diff(a, b)
		if !slices.Equal(got, want) || (got == nil) != (want == nil) {
			t.Fatalf("diff(%v, %v) = %v, want %v", a, b, got, want)
		}
		_ = append(got, "z")
		if !slices.Equal(a, before) {
			t.Fatalf("appending to diff(%v, %v) changed a to %v", before, b, a)
		}
	}
}
