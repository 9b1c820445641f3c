//go:build linux

package store

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// trimSupported reports whether trimMapped can work here.
const trimSupported = true

// fileRSS returns the process's resident file-backed pages in bytes
// (RssFile of /proc/self/status), 0 when unknown.
func fileRSS() int64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range bytes.Lines(status) {
		if rest, ok := bytes.CutPrefix(line, []byte("RssFile:")); ok {
			f := strings.Fields(string(rest))
			if len(f) == 0 {
				return 0
			}
			kb, _ := strconv.ParseInt(f[0], 10, 64)
			return kb << 10
		}
	}
	return 0
}

// residentMappings returns the process's file mappings with their
// resident bytes, from /proc/self/smaps (nil when it cannot be read).
func residentMappings() []mapping {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return nil
	}
	defer f.Close()
	return parseSmaps(f)
}

// dontNeed unmaps the pages of [start, end) from the process
// (MADV_DONTNEED): a shared file mapping's pages stay in the page cache.
func dontNeed(start, end uintptr) bool {
	_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, start, end-start, syscall.MADV_DONTNEED)
	return errno == 0
}

// pageOut reclaims the clean pages of [start, end) (MADV_PAGEOUT, Linux
// 5.4 and later): a shared file mapping's pages leave the process and the
// page cache; the range's contents stay what they were, whatever is
// mapped there. False where the kernel does not know the advice.
func pageOut(start, end uintptr) bool {
	_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, start, end-start, unix.MADV_PAGEOUT)
	return errno == 0
}
