//go:build !linux && !darwin

package store

import "errors"

// freeSpace is unknown here: the store never refuses a write for want of
// disk space.
func freeSpace(dir string) (int64, error) {
	return 0, errors.New("store: free disk space unknown on this system")
}
