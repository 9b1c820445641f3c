//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package store

// lockDir reports every directory free: without flock(2) the lock
// badger.Open takes cannot be tested here.
func lockDir(string) (unlock func(), free bool, err error) { return func() {}, true, nil }
