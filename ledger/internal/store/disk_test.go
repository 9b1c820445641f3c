package store

import (
	"bytes"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDiskLowRefusesWrites runs an on-disk store down to less free space
// than it keeps: Submit and PutBlob answer ErrDiskLow with the figures,
// store nothing, and reads go on; once the space is back, writes resume.
func TestDiskLowRefusesWrites(t *testing.T) {
	t.Parallel()
	s := openDiskTest(t, t.TempDir(), false) // no look at the disk: the test looks itself
	const keep = 100 << 20
	free := int64(keep - 1)
	s.minFreeDisk = keep
	s.freeSpace = func(string) (int64, error) { return free, nil }
	var logs bytes.Buffer
	s.log = slog.New(slog.NewTextHandler(&logs, nil))
	fill(t, s, 100, 10, 1)
	end := s.end.Load()

	s.lookAtDisk()
	s.lookAtDisk() // still low: logged once
	if got := strings.Count(logs.String(), "writes are refused"); got != 1 {
		t.Errorf("%d log lines say writes are refused, want 1:\n%s", got, logs.String())
	}
	_, err := s.Submit(func(tx *Tx) (any, error) {
		tx.Set([]byte("v/000000"), []byte("refused"))
		return nil, nil
	})
	if !errors.Is(err, ErrDiskLow) || !strings.Contains(err.Error(), "99 MiB free") || !strings.Contains(err.Error(), "100 MiB") {
		t.Fatalf("Submit on a nearly full disk: %v; want ErrDiskLow with the free and kept MiB", err)
	}
	if err := s.PutBlob([]byte("blob/"), []byte("refused")); !errors.Is(err, ErrDiskLow) {
		t.Fatalf("PutBlob on a nearly full disk: %v; want ErrDiskLow", err)
	}
	// Nothing stored; reads go on.
	if got := s.end.Load(); got != end {
		t.Errorf("ledger end %d after the refusals, want %d", got, end)
	}
	readAll(t, s, 100, 10, 1)
	err = s.View(func(r *Reader) error {
		if _, err := r.GetBlob([]byte("blob/")); !errors.Is(err, ErrNotFound) {
			t.Errorf("the refused blob reads back: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	free = keep
	s.lookAtDisk()
	if !strings.Contains(logs.String(), "free disk space is back: writes resume") {
		t.Errorf("no log line says writes resume:\n%s", logs.String())
	}
	fill(t, s, 100, 10, 2)
	readAll(t, s, 100, 10, 2)
	if err := s.PutBlob([]byte("blob/"), []byte("stored")); err != nil {
		t.Errorf("PutBlob with the space back: %v", err)
	}

	// An unknown free space (statfs failing) refuses nothing, and says so.
	free = 0
	s.lookAtDisk()
	s.freeSpace = func(string) (int64, error) { return 0, errors.New("no statfs") }
	s.lookAtDisk()
	if err := s.diskLow(); err != nil || !strings.Contains(logs.String(), "free disk space unknown: writes resume") {
		t.Errorf("with the free space unknown: %v; want no refusal, and a log line:\n%s", err, logs.String())
	}
}

// TestSubmitFreeingOnANearlyFullDisk: what frees space (pruning, the
// cleanup of a refused upload) goes through the disk guard.
func TestSubmitFreeingOnANearlyFullDisk(t *testing.T) {
	t.Parallel()
	s := openDiskTest(t, t.TempDir(), false)
	fill(t, s, 10, 10, 1)
	s.minFreeDisk = 100 << 20
	s.freeSpace = func(string) (int64, error) { return 1 << 20, nil }
	s.lookAtDisk()
	if _, err := s.SubmitFreeing(func(tx *Tx) (any, error) {
		tx.Delete([]byte("v/000000"))
		return nil, nil
	}); err != nil {
		t.Fatalf("SubmitFreeing on a nearly full disk: %v", err)
	}
	err := s.View(func(r *Reader) error {
		if _, err := r.Get([]byte("v/000000")); !errors.Is(err, ErrNotFound) {
			t.Errorf("the deleted value reads back: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRestoreNeedsRoom: a Restore into a file system with less free
// space than the store keeps is refused before anything is written.
func TestRestoreNeedsRoom(t *testing.T) {
	if _, err := freeSpace(t.TempDir()); err != nil {
		t.Skipf("no free space here: %v", err)
	}
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "new", "store")
	_, err := Open(Options{Badger: DiskBadgerOptions(dir, false), Restore: strings.NewReader("never read"), MinFreeDisk: 1 << 62})
	if !errors.Is(err, ErrDiskLow) {
		t.Fatalf("Open with a Restore on a nearly full disk: %v; want ErrDiskLow", err)
	}
	if _, err := os.Stat(filepath.Dir(dir)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the refused restore left %s: %v", filepath.Dir(dir), err)
	}
}

// TestDiskLooksAtOpen opens an on-disk store that keeps more free space
// than any disk has: its first look, at Open, already refuses writes.
func TestDiskLooksAtOpen(t *testing.T) {
	if _, err := freeSpace(t.TempDir()); err != nil {
		t.Skipf("no free space here: %v", err)
	}
	t.Parallel()
	s, err := Open(Options{Badger: DiskBadgerOptions(t.TempDir(), false), Logger: slog.New(slog.DiscardHandler), MinFreeDisk: 1 << 62})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.diskDone == nil {
		t.Fatal("no loop looks at the disk")
	}
	if _, err := s.Submit(func(tx *Tx) (any, error) { tx.Set([]byte("k"), []byte("v")); return nil, nil }); !errors.Is(err, ErrDiskLow) {
		t.Errorf("Submit: %v; want ErrDiskLow", err)
	}
}
