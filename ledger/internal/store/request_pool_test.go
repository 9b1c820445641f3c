package store

import (
	"errors"
	"fmt"
	"testing"
)

// TestPooledRequestStartsClean checks that an operation's Tx, whose
// request and writes' array come from the pool (requests), sees none of
// the writes an earlier operation staged: neither a failed one's nor a
// committed one's beyond what the commit wrote.
func TestPooledRequestStartsClean(t *testing.T) {
	s := openTest(t, 8<<20)
	for i := range 50 {
		failed := []byte(fmt.Sprintf("failed-%d", i))
		_, err := s.Submit(func(tx *Tx) (any, error) {
			for j := range 20 { // past indexFrom: the Tx indexes its writes
				tx.Set([]byte(fmt.Sprintf("staged-%d-%d", i, j)), []byte("x"))
			}
			tx.Set(failed, []byte("x"))
			return nil, errors.New("rejected")
		})
		if err == nil {
			t.Fatal("the failing operation succeeded")
		}
		_, err = s.Submit(func(tx *Tx) (any, error) {
			if len(tx.writes) != 0 || tx.index != nil {
				return nil, fmt.Errorf("a new operation's Tx holds %d staged writes (index %v)", len(tx.writes), tx.index != nil)
			}
			if _, err := tx.Get(failed); !errors.Is(err, ErrNotFound) {
				return nil, fmt.Errorf("reading %s after the failed operation: %v", failed, err)
			}
			tx.Set([]byte(fmt.Sprintf("kept-%d", i)), []byte("y"))
			return nil, nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	err := s.View(func(r *Reader) error {
		for i := range 50 {
			if _, err := r.Get([]byte(fmt.Sprintf("kept-%d", i))); err != nil {
				return fmt.Errorf("kept-%d: %v", i, err)
			}
			if _, err := r.Get([]byte(fmt.Sprintf("failed-%d", i))); !errors.Is(err, ErrNotFound) {
				return fmt.Errorf("failed-%d: %v", i, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
