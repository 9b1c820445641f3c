//go:build linux

package store

import (
	"bufio"
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
// resident bytes, from /proc/self/smaps. It runs every trimInterval while
// a compaction writes, over hundreds of mappings at a million contracts:
// it parses the lines it needs in place and converts no other.
func residentMappings() []mapping {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []mapping
	var cur *mapping
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Bytes()
		// A mapping's header: "start-end perms offset dev inode path";
		// its fields follow as "Name:   value kB".
		if rest, ok := bytes.CutPrefix(line, []byte("Rss:")); ok {
			if cur != nil {
				cur.rss = kiloBytes(rest)
			}
			continue
		}
		if rest, ok := bytes.CutPrefix(line, []byte("Anonymous:")); ok {
			if cur != nil {
				cur.anon = kiloBytes(rest)
			}
			continue
		}
		lo, rest, ok := bytes.Cut(line, []byte("-"))
		if !ok || len(lo) == 0 || !isHex(lo) {
			continue // another field
		}
		cur = nil
		hi, rest, _ := bytes.Cut(rest, []byte(" "))
		slash := bytes.IndexByte(rest, '/')
		if slash < 0 {
			continue // anonymous, or [heap], [stack]…
		}
		start, err1 := strconv.ParseUint(string(lo), 16, 64)
		end, err2 := strconv.ParseUint(string(hi), 16, 64)
		if err1 != nil || err2 != nil {
			continue
		}
		out = append(out, mapping{start: uintptr(start), end: uintptr(end), path: string(rest[slash:])})
		cur = &out[len(out)-1]
	}
	return out
}

// kiloBytes returns the bytes of an smaps field's value ("   123 kB").
func kiloBytes(field []byte) int64 {
	f := bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(field), []byte("kB")))
	kb, _ := strconv.ParseInt(string(f), 10, 64)
	return kb << 10
}

// isHex reports whether b is lower-case hexadecimal digits.
func isHex(b []byte) bool {
	for _, c := range b {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
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
