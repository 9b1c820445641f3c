//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package store

import (
	"testing"
	"time"

	badger "github.com/dgraph-io/badger/v4"
)

// TestOpenWaitsForALingeringLock: a directory lock that outlives its
// release for a moment (a forked child's copy of the descriptor, until it
// execs) does not make Open fail; a lock that stays held still does.
func TestOpenWaitsForALingeringLock(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	o := badger.DefaultOptions(dir).WithLogger(nil)
	unlock, free, err := lockDir(dir)
	if err != nil || !free {
		t.Fatalf("locking the new directory: free %v, %v", free, err)
	}
	go func() {
		time.Sleep(100 * time.Millisecond)
		unlock()
	}()
	s, err := Open(Options{Badger: o})
	if err != nil {
		t.Fatalf("Open while the lock lingers for 100 ms: %v", err)
	}
	defer s.Close()

	start := time.Now()
	if s2, err := Open(Options{Badger: o}); err == nil {
		s2.Close()
		t.Fatal("a second store opened a held directory")
	}
	if d := time.Since(start); d < lockRetry {
		t.Errorf("a held directory was refused after %v, before the %v retry window ended", d, lockRetry)
	}
}
