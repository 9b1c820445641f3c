package store

import (
	"os"
	"path/filepath"
	"testing"

	badger "github.com/dgraph-io/badger/v4"
)

// TestOpenAfterKillLeftEmptyLogFiles: a process killed between creating a
// memtable or value-log file and writing it leaves an empty file, on
// which badger.Open fails (dgraph-io/badger#2207). The store opens, and
// keeps what was committed before.
func TestOpenAfterKillLeftEmptyLogFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	o := badger.DefaultOptions(dir).WithLogger(nil)
	s, err := Open(Options{Badger: o})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Submit(func(tx *Tx) (any, error) { tx.Set([]byte("k"), []byte("v")); return nil, nil }); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"00099.mem", "000099.vlog"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err = Open(Options{Badger: o})
	if err != nil {
		t.Fatalf("opening after a kill left empty log files: %v", err)
	}
	defer s.Close()
	err = s.View(func(r *Reader) error {
		v, err := r.Get([]byte("k"))
		if err == nil && string(v) != "v" {
			t.Errorf("k = %q after reopening, want v", v)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestOpenLeavesAHeldDirectory: opening a directory another store holds
// fails on Badger's lock and removes nothing: an empty log file there may
// be the one the running store has just created and is about to write.
func TestOpenLeavesAHeldDirectory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	o := badger.DefaultOptions(dir).WithLogger(nil)
	s, err := Open(Options{Badger: o})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fresh := filepath.Join(dir, "00099.mem") // as the running store creates it
	if err := os.WriteFile(fresh, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if s2, err := Open(Options{Badger: o}); err == nil {
		s2.Close()
		t.Fatal("a second store opened a held directory")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("the running store's empty log file after another open: %v", err)
	}
}
