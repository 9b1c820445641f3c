//go:build unix

package scriptledger_test

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time the process has used so far (user and
// system, every thread: the garbage collector's too), a steadier measure
// than the wall time on a machine shared with other work.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
