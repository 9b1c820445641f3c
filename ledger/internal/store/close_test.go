package store

import (
	"errors"
	"testing"
	"time"
)

// TestCloseWaitsForReads closes a store while a read is under way (a
// stream's page read when its node closes): Close waits for the read,
// which finishes on the open database, and reads after Close are
// refused with ErrClosed. Badger panicked ("DB Closed") in the read's
// iterator when Close closed the database under it.
func TestCloseWaitsForReads(t *testing.T) {
	s := openTest(t, 1<<20)
	if _, err := s.Submit(func(tx *Tx) (any, error) { tx.Set([]byte("k/1"), []byte("v")); return nil, nil }); err != nil {
		t.Fatal(err)
	}
	started, readErr := make(chan struct{}), make(chan error, 1)
	go func() {
		readErr <- s.View(func(r *Reader) error {
			close(started)
			// Long enough for Close to get to the database first, were
			// it not waiting for this read.
			time.Sleep(50 * time.Millisecond)
			n := 0
			err := r.Scan([]byte("k/"), nil, func(_, _ []byte) (bool, error) { n++; return true, nil })
			if err == nil && n != 1 {
				return errors.New("the read saw no entry")
			}
			return err
		})
	}()
	<-started
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-readErr; err != nil {
		t.Errorf("the read under way at Close: %v", err)
	}
	if err := s.View(func(*Reader) error { return nil }); !errors.Is(err, ErrClosed) {
		t.Errorf("a read after Close: %v, want ErrClosed", err)
	}
}
