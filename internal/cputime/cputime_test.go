package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestProcessGrows: busy work adds to the process's CPU time.
func TestProcessGrows(t *testing.T) {
	switch runtime.GOOS {
	case "windows", "plan9", "js", "wasip1":
		t.Skip("no getrusage here")
	}
	before := Process()
	x := 0
	for start := time.Now(); time.Since(start) < 50*time.Millisecond; {
		for i := range 100_000 {
			x += i
		}
	}
	if after := Process(); after <= before || x == 0 {
		t.Errorf("CPU time %v before 50 ms of work, %v after", before, after)
	}
}
