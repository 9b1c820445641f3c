//go:build race

package engine

// raceEnabled reports whether the tests run with the race detector, whose
// sync.Pool drops a quarter of what is put back on purpose: allocation
// counts of code that reuses pooled machines mean nothing then.
const raceEnabled = true
