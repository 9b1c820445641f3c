package store

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	badger "github.com/dgraph-io/badger/v4"
)

// backupOfBatches is the Backup stream of a store of a few hundred KB
// values (several batches) and a ledger end, with the offsets at which
// its batches start and its trailer's offset.
func backupOfBatches(t *testing.T) (stream []byte, batches []int, trailer int) {
	t.Helper()
	src := openSpilling(t)
	for i := range 8 {
		if _, err := src.Submit(func(tx *Tx) (any, error) {
			tx.NextOffset()
			tx.Set([]byte{'a', '/', byte(i)}, pattern(60<<10, byte(i)))
			for j := range 40 {
				tx.Set([]byte{'c', '/', byte(i), byte(j)}, pattern(10<<10, byte(j)))
			}
			return nil, nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	buf := backupOf(t, src)
	stream = buf.Bytes()
	p := len(backupMagic)
	for {
		size := binary.LittleEndian.Uint64(stream[p:])
		if size == endMark {
			break
		}
		batches = append(batches, p)
		p += 8 + int(size) + 4
	}
	if len(batches) < 3 {
		t.Fatalf("the backup has %d batches, want several", len(batches))
	}
	return stream, batches, p
}

// diskOptions are the Badger options of a durable store in dir.
func diskOptions(dir string) badger.Options {
	return badger.DefaultOptions(dir).WithLogger(nil)
}

// TestRestoreRefusesDamagedSnapshots: a snapshot cut anywhere (at a batch
// boundary too, which Badger's own format cannot tell from its end) or
// with an altered byte is refused, in memory, by Prepare and into a
// directory; the directory is left as it was (none when there was none),
// and the whole snapshot restores there afterwards.
func TestRestoreRefusesDamagedSnapshots(t *testing.T) {
	t.Parallel()
	stream, batches, trailer := backupOfBatches(t)
	flip := func(at int) []byte { b := slices.Clone(stream); b[at] ^= 0x40; return b }
	damaged := map[string][]byte{
		"cut at the second batch":     stream[:batches[1]],
		"cut at the last batch":       stream[:batches[len(batches)-1]],
		"cut before the trailer":      stream[:trailer],
		"cut in the trailer":          stream[:trailer+9],
		"cut in a batch":              stream[:batches[1]+100],
		"a value byte altered":        flip(batches[1] + 5000),
		"a size byte altered":         flip(batches[1] + 2),
		"the trailer's count":         flip(trailer + 8),
		"bytes after the trailer":     append(slices.Clone(stream), 0),
		"a version 1 snapshot":        append([]byte("ledgernode-store-backup/1\n"), stream[len(backupMagic):]...),
		"the header only":             stream[:len(backupMagic)],
		"a batch dropped":             append(slices.Clone(stream[:batches[1]]), stream[batches[2]:]...),
		"the checksum of a batch cut": slices.Delete(slices.Clone(stream), batches[1]-4, batches[1]),
	}
	for name, snap := range damaged {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			mem := badger.DefaultOptions("").WithInMemory(true).WithLogger(nil)
			if s, err := Open(Options{Badger: mem, Restore: bytes.NewReader(snap)}); err == nil {
				s.Close()
				t.Error("restored in memory")
			}
			if _, err := Prepare(snap); err == nil {
				t.Error("prepared")
			}
			dir := filepath.Join(t.TempDir(), "new")
			if s, err := Open(Options{Badger: diskOptions(dir), Restore: bytes.NewReader(snap)}); err == nil {
				s.Close()
				t.Fatal("restored into a directory")
			} else if !strings.Contains(err.Error(), "snapshot") {
				t.Errorf("error %q does not name the snapshot", err)
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("the failed restore left its directory: %v", err)
			}
			kept := t.TempDir()
			if err := os.WriteFile(filepath.Join(kept, "note"), []byte("mine"), 0o600); err != nil {
				t.Fatal(err)
			}
			if s, err := Open(Options{Badger: diskOptions(kept), Restore: bytes.NewReader(snap)}); err == nil {
				s.Close()
				t.Fatal("restored into an existing directory")
			}
			if names := dirNames(t, kept); !slices.Equal(names, []string{"note"}) {
				t.Errorf("the failed restore left %v in an existing directory, want [note]", names)
			}
			s, err := Open(Options{Badger: diskOptions(kept), Restore: bytes.NewReader(stream)})
			if err != nil {
				t.Fatalf("restoring the whole snapshot after a failed restore: %v", err)
			}
			defer s.Close()
			if s.LedgerEnd() != 8 {
				t.Errorf("ledger end %d after the restore, want 8", s.LedgerEnd())
			}
		})
	}
}

// TestOpenRefusesAnUnfinishedRestore: a directory whose restore stopped
// before its end (the process died: the marker is still there) holds part
// of a snapshot, and Open says so rather than serve it.
func TestOpenRefusesAnUnfinishedRestore(t *testing.T) {
	t.Parallel()
	stream, _, _ := backupOfBatches(t)
	dir := t.TempDir()
	s, err := Open(Options{Badger: diskOptions(dir), Restore: bytes.NewReader(stream)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, restoringMarker)); !os.IsNotExist(err) {
		t.Errorf("the marker after a finished restore: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// As a process killed during the restore leaves it.
	if err := os.WriteFile(filepath.Join(dir, restoringMarker), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err = Open(Options{Badger: diskOptions(dir)})
	if err == nil {
		s.Close()
		t.Fatal("opened a directory with an unfinished restore")
	}
	if !strings.Contains(err.Error(), "unfinished restore") {
		t.Errorf("error %q", err)
	}
}

// TestDiscardUndoesARestore: Discard of a store restored into a new
// directory removes it, and the restore can run again; Discard of any
// other store closes it and removes nothing.
func TestDiscardUndoesARestore(t *testing.T) {
	t.Parallel()
	stream, _, _ := backupOfBatches(t)
	dir := filepath.Join(t.TempDir(), "d")
	s, err := Open(Options{Badger: diskOptions(dir), Restore: bytes.NewReader(stream)})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Discard(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("the directory after Discard: %v", err)
	}
	s, err = Open(Options{Badger: diskOptions(dir), Restore: bytes.NewReader(stream)})
	if err != nil {
		t.Fatalf("restoring again: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(Options{Badger: diskOptions(dir)})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Discard(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(Options{Badger: diskOptions(dir)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.LedgerEnd() != 8 {
		t.Errorf("ledger end %d after Discard of a reopened store, want 8", s.LedgerEnd())
	}
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}
