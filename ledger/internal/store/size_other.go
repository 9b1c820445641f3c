//go:build !unix

package store

import "io/fs"

// allocated returns the size of fi's file: without stat(2)'s block count,
// its apparent size.
func allocated(fi fs.FileInfo) int64 { return fi.Size() }
