//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package store

import (
	"errors"
	"os"
	"syscall"
)

// lockDir takes the lock badger.Open takes on a directory (an exclusive
// flock of the directory, not waiting). free is false when another open
// store holds it; a directory that does not exist is free (and unlock a
// no-op).
func lockDir(dir string) (unlock func(), free bool, err error) {
	f, err := os.Open(dir)
	if errors.Is(err, os.ErrNotExist) {
		return func() {}, true, nil
	}
	if err != nil {
		return nil, false, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, false, nil
		}
		return nil, false, err
	}
	return func() { f.Close() }, true, nil // closing the file releases the lock
}
