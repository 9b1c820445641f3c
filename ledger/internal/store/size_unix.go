//go:build unix

package store

import (
	"io/fs"
	"syscall"
)

// allocated returns the bytes fi's file takes on disk: its blocks (in
// units of 512 bytes, as stat(2) counts them), not its apparent size.
func allocated(fi fs.FileInfo) int64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int64(st.Blocks) * 512
	}
	return fi.Size()
}
