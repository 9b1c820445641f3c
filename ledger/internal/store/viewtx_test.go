package store

import (
	"errors"
	"testing"
)

// TestViewTxReused: a ViewTx's Tx, which serves a later ViewTx, comes to
// it without the writes staged on it nor its snapshot.
func TestViewTxReused(t *testing.T) {
	s := openTest(t, 8<<20)
	defer s.Close()
	for i := range 3 {
		if err := s.ViewTx(func(tx *Tx) error {
			if len(tx.writes) != 0 || tx.keys != 0 || tx.next != 0 {
				t.Errorf("ViewTx %d: %d writes staged, keys %x, next %d", i, len(tx.writes), tx.keys, tx.next)
			}
			if _, err := tx.Get([]byte("k")); !errors.Is(err, ErrNotFound) {
				t.Errorf("ViewTx %d: k read as %v, want ErrNotFound", i, err)
			}
			tx.Set([]byte("k"), []byte("staged")) // dropped with the Tx
			tx.NextOffset()
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
}
