//go:build linux

package store

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
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
// resident bytes, from /proc/self/smaps.
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
		line := sc.Text()
		// A mapping's header: "start-end perms offset dev inode path";
		// its fields follow as "Name:   value kB".
		fields := strings.Fields(line)
		if len(fields) >= 5 && !strings.HasSuffix(fields[0], ":") && strings.Contains(fields[0], "-") {
			cur = nil
			if len(fields) < 6 || !strings.HasPrefix(fields[5], "/") {
				continue
			}
			lo, hi, _ := strings.Cut(fields[0], "-")
			start, err1 := strconv.ParseUint(lo, 16, 64)
			end, err2 := strconv.ParseUint(hi, 16, 64)
			if err1 != nil || err2 != nil {
				continue
			}
			out = append(out, mapping{start: uintptr(start), end: uintptr(end), path: strings.Join(fields[5:], " ")})
			cur = &out[len(out)-1]
			continue
		}
		if cur != nil && len(fields) >= 2 && fields[0] == "Rss:" {
			kb, _ := strconv.ParseInt(fields[1], 10, 64)
			cur.rss = kb << 10
		}
	}
	return out
}

// dontNeed unmaps the pages of [start, end) from the process
// (MADV_DONTNEED): a shared file mapping's pages stay in the page cache.
func dontNeed(start, end uintptr) bool {
	_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, start, end-start, syscall.MADV_DONTNEED)
	return errno == 0
}
