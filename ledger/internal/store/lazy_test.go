package store

import (
	"bytes"
	"sync/atomic"
	"testing"
)

// TestSetOwnedLazy checks that a value written with SetOwnedLazy reads
// back as its rendering through every read of an overlay store (Get,
// GetFunc, GetDecoded without a decoded form, Scan, Backup, a Tx's reads
// of its staged write), which renders it once and only when it is read,
// while a Badger store renders it at the write.
func TestSetOwnedLazy(t *testing.T) {
	t.Parallel()
	_, ov, bg := overlayFixture(t)
	for _, c := range []struct {
		name string
		s    *Store
		lazy bool
	}{{"overlay", ov, true}, {"badger", bg, false}} {
		t.Run(c.name, func(t *testing.T) {
			var calls atomic.Int32
			render := func() []byte { calls.Add(1); return []byte("lazy") }
			if _, err := c.s.Submit(func(tx *Tx) (any, error) {
				tx.SetOwnedLazy([]byte("l/1"), render)
				tx.SetOwnedLazy([]byte("l/2"), func() []byte { calls.Add(1); return []byte("two") })
				return nil, nil
			}); err != nil {
				t.Fatal(err)
			}
			want := int32(2)
			if c.lazy {
				want = 0
			}
			if n := calls.Load(); n != want {
				t.Fatalf("%d renderings after the commit; want %d", n, want)
			}
			err := c.s.View(func(r *Reader) error {
				if v, err := r.Get([]byte("l/1")); err != nil || string(v) != "lazy" {
					t.Errorf("Get = %q, %v", v, err)
				}
				if err := r.GetFunc([]byte("l/1"), func(v []byte) error {
					if string(v) != "lazy" {
						t.Errorf("GetFunc = %q", v)
					}
					return nil
				}); err != nil {
					t.Error(err)
				}
				if err := r.GetDecoded([]byte("l/1"), func(v []byte, d any) error {
					if string(v) != "lazy" || d != nil {
						t.Errorf("GetDecoded = %q, %v; want lazy, nil", v, d)
					}
					return nil
				}); err != nil {
					t.Error(err)
				}
				if d, ok := r.Decoded([]byte("l/1")); ok || d != nil {
					t.Errorf("Decoded = %v, %v; want none", d, ok)
				}
				var got []string
				if err := r.Scan([]byte("l/"), nil, func(k, v []byte) (bool, error) {
					got = append(got, string(k)+"="+string(v))
					return true, nil
				}); err != nil {
					t.Error(err)
				}
				if len(got) != 2 || got[0] != "l/1=lazy" || got[1] != "l/2=two" {
					t.Errorf("Scan = %q", got)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if n := calls.Load(); n != 2 {
				t.Errorf("%d renderings after the reads; want 2 (once each)", n)
			}
			var backup bytes.Buffer
			if err := c.s.Backup(&backup); err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(backup.Bytes(), []byte("lazy")) {
				t.Error("the backup lacks the lazy value")
			}
			// With a decoded form: kept (overlay) or dropped, as
			// SetOwnedDecoded's.
			form := &struct{ s string }{"four"}
			if _, err := c.s.Submit(func(tx *Tx) (any, error) {
				tx.SetOwnedLazyDecoded([]byte("l/4"), func() []byte { return []byte("four") }, form)
				if d, ok := tx.Decoded([]byte("l/4")); !ok || d != any(form) {
					t.Errorf("Tx.Decoded(l/4) = %v, %v; want the form", d, ok)
				}
				return nil, nil
			}); err != nil {
				t.Fatal(err)
			}
			if err := c.s.View(func(r *Reader) error {
				return r.GetDecoded([]byte("l/4"), func(v []byte, d any) error {
					if want := any(form); string(v) != "four" || (c.lazy && d != want) || (!c.lazy && d != nil) {
						t.Errorf("GetDecoded(l/4) = %q, %v", v, d)
					}
					return nil
				})
			}); err != nil {
				t.Fatal(err)
			}
			// A Tx reads its staged lazy write as its rendering.
			if _, err := c.s.Submit(func(tx *Tx) (any, error) {
				tx.SetOwnedLazy([]byte("l/3"), func() []byte { return []byte("three") })
				if v, err := tx.Get([]byte("l/3")); err != nil || string(v) != "three" {
					t.Errorf("Tx.Get = %q, %v", v, err)
				}
				if err := tx.GetDecoded([]byte("l/3"), func(v []byte, d any) error {
					if string(v) != "three" || d != nil {
						t.Errorf("Tx.GetDecoded = %q, %v", v, d)
					}
					return nil
				}); err != nil {
					t.Error(err)
				}
				if d, ok := tx.Decoded([]byte("l/3")); ok || d != nil {
					t.Errorf("Tx.Decoded = %v, %v; want none", d, ok)
				}
				var got []string
				if err := tx.Scan([]byte("l/"), nil, func(k, v []byte) (bool, error) {
					got = append(got, string(v))
					return true, nil
				}); err != nil {
					t.Error(err)
				}
				if len(got) != 4 || got[2] != "three" {
					t.Errorf("Tx.Scan = %q", got)
				}
				return nil, nil
			}); err != nil {
				t.Fatal(err)
			}
		})
	}
}
