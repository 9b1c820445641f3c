//go:build linux

package store

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestResidentMappingsAndAdvice maps a file of its own (as Badger maps a
// table), reads every page, and finds the mapping with its pages resident
// in /proc/self/smaps; each advice trimMapped gives then takes the pages
// out of the process, and the file's bytes read back the same.
func TestResidentMappingsAndAdvice(t *testing.T) {
	if !trimSupported {
		t.Skip("no /proc/self/smaps or madvise here")
	}
	t.Parallel()
	for _, tc := range []struct {
		name   string
		advise func(start, end uintptr) bool
	}{
		{"MADV_DONTNEED", dontNeed},
		{"MADV_PAGEOUT", pageOut},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "000001.sst")
			want := bytes.Repeat([]byte("ledgernode"), (1<<20)/10)
			data := mapTable(t, path, want)
			find := func() mapping { return mappingOf(t, path) }
			m := find()
			if m.end-m.start < uintptr(len(want)) || m.rss < int64(len(want))/2 || m.anon != 0 {
				t.Fatalf("mapping %#x-%#x, %d bytes resident (%d anonymous): want %d bytes mapped, most resident, none anonymous", m.start, m.end, m.rss, m.anon, len(want))
			}
			if !tc.advise(m.start, m.end) {
				t.Skipf("the kernel refuses %s", tc.name)
			}
			if got := find().rss; got > int64(len(want))/8 {
				t.Errorf("after %s, %d bytes resident; want almost none", tc.name, got)
			}
			if !bytes.Equal(data, want) {
				t.Error("after the advice, the mapping no longer holds the file")
			}
		})
	}
}

// TestTrimMappedReclaimsTablesNotInALevel maps a table file that is in
// no level of Badger's, as a compaction's new tables are until it ends
// (they were the largest part of the resident set's peak at a million
// contracts, and trimMapped once left them alone): trimMapped reclaims
// its pages too, and the file still reads the same.
func TestTrimMappedReclaimsTablesNotInALevel(t *testing.T) {
	if !trimSupported {
		t.Skip("no /proc/self/smaps or madvise here")
	}
	t.Parallel()
	s := openDiskTest(t, t.TempDir(), false)
	s.mappedResident = 1 << 20
	path := filepath.Join(s.dir, "999999.sst")
	want := bytes.Repeat([]byte("a compaction's new table "), (4<<20)/25)
	data := mapTable(t, path, want)
	resident := func() int64 { return mappingOf(t, path).rss }
	if got := resident(); got < int64(len(want))/2 {
		t.Fatalf("%d KiB of the table resident after reading it all; want most of its %d KiB", got>>10, len(want)>>10)
	}
	if s.tableIDs()[999999] {
		t.Fatal("the table is in a level")
	}
	if got, _ := s.trimMapped(); got < int64(len(want))/2 {
		t.Errorf("trimMapped trimmed %d KiB; want at least the table's", got>>10)
	}
	if got := resident(); got > int64(len(want))/8 {
		t.Errorf("after trimMapped, %d KiB of the table resident; want almost none", got>>10)
	}
	if !bytes.Equal(data, want) {
		t.Error("after trimMapped, the mapping no longer holds the file")
	}
}

// mapTable writes want to path, syncs it (as Badger syncs a table it
// built, so that no page is being written back) and maps it shared,
// read-only, as Badger maps a table, for the test's duration; it returns
// the mapping, read through.
func mapTable(t *testing.T, path string, want []byte) []byte {
	t.Helper()
	if err := os.WriteFile(path, want, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, len(want), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Munmap(data) })
	if !bytes.Equal(data, want) {
		t.Fatal("the mapping does not hold the file")
	}
	return data
}

// mappingOf returns path's mapping among residentMappings.
func mappingOf(t *testing.T, path string) mapping {
	t.Helper()
	for _, m := range residentMappings() {
		if m.path == path {
			return m
		}
	}
	t.Fatalf("%s not among residentMappings", path)
	return mapping{}
}
