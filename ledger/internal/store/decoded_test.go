package store

import (
	"errors"
	"testing"
)

// TestGetDecoded checks that an overlay store hands out the decoded form
// written with a value (SetOwnedDecoded) as long as that value stays,
// and nothing for values written without one, while a Badger store hands
// out none; a Tx sees the decoded form of its own staged write.
func TestGetDecoded(t *testing.T) {
	t.Parallel()
	_, ov, bg := overlayFixture(t)
	type form struct{ s string }
	a, b := &form{"a"}, &form{"b"}
	for _, c := range []struct {
		name string
		s    *Store
		keep bool
	}{{"overlay", ov, true}, {"badger", bg, false}} {
		t.Run(c.name, func(t *testing.T) {
			get := func(key string) (string, any, error) {
				var val string
				var dec any
				err := c.s.View(func(r *Reader) error {
					return r.GetDecoded([]byte(key), func(v []byte, d any) error { val, dec = string(v), d; return nil })
				})
				return val, dec, err
			}
			submit := func(op func(tx *Tx)) {
				t.Helper()
				if _, err := c.s.Submit(func(tx *Tx) (any, error) { op(tx); return nil, nil }); err != nil {
					t.Fatal(err)
				}
			}
			want := func(key, wantVal string, wantDec any) {
				t.Helper()
				val, dec, err := get(key)
				if err != nil || val != wantVal || dec != wantDec {
					t.Errorf("GetDecoded(%s) = %q, %v, %v; want %q, %v", key, val, dec, err, wantVal, wantDec)
				}
				// Decoded hands out the same decoded form, without the value.
				var d any
				var ok bool
				if err := c.s.View(func(r *Reader) error { d, ok = r.Decoded([]byte(key)); return nil }); err != nil {
					t.Fatal(err)
				}
				if d != wantDec || ok != (wantDec != nil) {
					t.Errorf("Decoded(%s) = %v, %v; want %v", key, d, ok, wantDec)
				}
			}
			keep := func(f *form) any {
				if c.keep {
					return f
				}
				return nil
			}
			submit(func(tx *Tx) {
				tx.SetOwnedDecoded([]byte("d/1"), []byte("one"), a)
				tx.SetOwnedDecoded([]byte("d/2"), []byte("two"), b)
				// The Tx sees the decoded form staged with its write.
				var staged any
				if err := tx.GetDecoded([]byte("d/1"), func(_ []byte, d any) error { staged = d; return nil }); err != nil || staged != any(a) {
					t.Errorf("Tx.GetDecoded(d/1) = %v, %v; want %v", staged, err, a)
				}
				if d, ok := tx.Decoded([]byte("d/2")); d != any(b) || !ok {
					t.Errorf("Tx.Decoded(d/2) = %v, %v; want %v", d, ok, b)
				}
				tx.Delete([]byte("d/3"))
				if d, ok := tx.Decoded([]byte("d/3")); d != nil || ok {
					t.Errorf("Tx.Decoded(d/3) after its deletion = %v, %v", d, ok)
				}
			})
			want("d/1", "one", keep(a))
			want("d/2", "two", keep(b))
			want("k/000", "v0", nil) // the snapshot's: none
			// A value written again without one, or deleted, drops it.
			submit(func(tx *Tx) {
				tx.Set([]byte("d/1"), []byte("uno"))
				tx.Delete([]byte("d/2"))
			})
			want("d/1", "uno", nil)
			if _, _, err := get("d/2"); !errors.Is(err, ErrNotFound) {
				t.Errorf("GetDecoded(d/2) after its deletion: %v; want ErrNotFound", err)
			}
		})
	}
}
