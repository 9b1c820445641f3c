// Package cputime reads the CPU time the process has used, for the
// benchmarks that report it: on a machine shared with other work it is a
// steadier measure than the wall time.
package cputime

import "time"

// Process returns the CPU time the process has used so far: user and
// system, every thread's (the garbage collector's too). It is 0 where the
// system does not tell (getrusage is Unix's).
func Process() time.Duration { return process() }
