package store

import (
	"bytes"
	"fmt"
	"sync"
	"testing"
)

// TestSetPooledValuesSurviveReuse commits values written with SetPooled
// from parallel operations, whose buffers the next values reuse, and
// checks that every value reads back as written: the store gives a
// buffer back only once Badger holds a copy (with -race, a read of a
// buffer given back races with its next writer).
func TestSetPooledValuesSurviveReuse(t *testing.T) {
	t.Parallel()
	s := openTest(t, 8<<20)
	const writers, each = 8, 200
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				key := fmt.Appendf(nil, "k/%d/%d", w, i)
				val := append(ValueBuffer(900), bytes.Repeat(key, 900/len(key))...)
				if _, err := s.Submit(func(tx *Tx) (any, error) {
					tx.SetPooled(key, val)
					return nil, nil
				}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	err := s.View(func(r *Reader) error {
		for w := range writers {
			for i := range each {
				key := fmt.Appendf(nil, "k/%d/%d", w, i)
				got, err := r.Get(key)
				if err != nil {
					return err
				}
				if want := bytes.Repeat(key, 900/len(key)); !bytes.Equal(got, want) {
					return fmt.Errorf("%s = %.40q…, want %.40q…", key, got, want)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestValueBufferReturnsCommittedBuffers checks that a committed
// SetPooled value's buffer comes back from ValueBuffer (in one of a few
// tries: a sync.Pool may drop what it is given, as it does at random
// under the race detector).
func TestValueBufferReturnsCommittedBuffers(t *testing.T) {
	s := openTest(t, 8<<20)
	for try := range 20 {
		val := append(ValueBuffer(1000), "v"...)
		if _, err := s.Submit(func(tx *Tx) (any, error) { tx.SetPooled(fmt.Appendf(nil, "k%d", try), val); return nil, nil }); err != nil {
			t.Fatal(err)
		}
		for range 100 {
			if b := ValueBuffer(1000); &b[:1][0] == &val[0] {
				return
			}
		}
	}
	t.Error("the buffer of a committed value did not come back")
}
