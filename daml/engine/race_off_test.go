//go:build !race

package engine

// raceEnabled reports whether the tests run with the race detector (see
// race_on_test.go).
const raceEnabled = false
