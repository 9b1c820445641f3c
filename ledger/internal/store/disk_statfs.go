//go:build linux || darwin

package store

import "golang.org/x/sys/unix"

// freeSpace returns the bytes an unprivileged writer may still use on the
// file system of dir.
func freeSpace(dir string) (int64, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, err
	}
	return int64(uint64(st.Bavail) * uint64(st.Bsize)), nil
}
