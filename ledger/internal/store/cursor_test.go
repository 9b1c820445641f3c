package store

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestCursorVisitsAsGet: a cursor's visits of ascending keys — next to
// each other, a few apart and far apart, present and missing, spilled —
// give what Get gives, on a Badger store and on an overlay store.
func TestCursorVisitsAsGet(t *testing.T) {
	t.Parallel()
	_, ov, bg := overlayFixture(t)
	rng := rand.New(rand.NewPCG(3, 4))
	for name, s := range map[string]*Store{"overlay": ov, "badger": bg} {
		for round := range 20 {
			// Ascending keys of k/000..k/249 (k/200 and up are missing),
			// with gaps of 0 to 40.
			var keys [][]byte
			for i := rng.IntN(5); i < 250; i += 1 + rng.IntN(1+rng.IntN(40)) {
				keys = append(keys, fmt.Appendf(nil, "k/%03d", i))
			}
			err := s.View(func(r *Reader) error {
				c := r.Cursor([]byte("k/"))
				defer c.Close()
				for _, k := range keys {
					want, werr := r.Get(k)
					var got []byte
					gerr := c.Visit(k, func(v []byte) error { got = append([]byte(nil), v...); return nil })
					if !errors.Is(werr, gerr) || string(got) != string(want) {
						t.Errorf("%s round %d: Visit(%s) = %q, %v; Get gives %q, %v", name, round, k, got, gerr, want, werr)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		err := s.View(func(r *Reader) error {
			c := r.Cursor([]byte("a/"))
			defer c.Close()
			var n int
			if err := c.Visit([]byte("a/big"), func(v []byte) error { n = len(v); return nil }); err != nil || n != 300<<10 {
				t.Errorf("%s: the spilled value: %d bytes, %v", name, n, err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
