package wiretime

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestFormatIsTimeFormat: Format prints what time.Format does with
// Instant.toString's layouts, for every fraction precision, time zones other
// than UTC, and years at and beyond the four-digit range.
func TestFormatIsTimeFormat(t *testing.T) {
	t.Parallel()
	zone := time.FixedZone("x", -7*3600-30*60)
	times := []time.Time{
		{},
		time.Unix(0, 0),
		time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999_999_999, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-5, 3, 4, 5, 6, 7, 8, time.UTC),
		time.Date(2026, 11, 27, 13, 59, 1, 120_000_000, zone),
		time.Date(2026, 2, 28, 23, 0, 0, 1_000, zone),
		time.Date(1969, 12, 31, 23, 59, 59, 1, time.UTC),
	}
	times = append(times, randomTimes(rand.New(rand.NewPCG(1, 2)), 20000)...)
	for _, at := range times {
		if got, want := Format(at), formatTimeLayout(at); got != want {
			t.Fatalf("formatTime(%v) = %q, time.Format gives %q", at, got, want)
		}
	}
}

// BenchmarkFormatTime measures printing a record time.
func BenchmarkFormatTime(b *testing.B) {
	at := time.Date(2026, 11, 27, 13, 59, 1, 123_456_000, time.UTC)
	b.ReportAllocs()
	for b.Loop() {
		_ = Format(at)
	}
}

// BenchmarkFormatTimeLayout measures the same through time.Format.
func BenchmarkFormatTimeLayout(b *testing.B) {
	at := time.Date(2026, 11, 27, 13, 59, 1, 123_456_000, time.UTC)
	b.ReportAllocs()
	for b.Loop() {
		_ = formatTimeLayout(at)
	}
}

// randomTimes returns n times from 1770 to 2170 of every fraction
// precision (seconds, milliseconds, microseconds, nanoseconds).
func randomTimes(r *rand.Rand, n int) []time.Time {
	out := make([]time.Time, n)
	for i := range out {
		const span = 400 * 365 * 24 * 3600
		at := time.Unix(r.Int64N(span)-span/2, r.Int64N(1e9))
		switch r.IntN(4) {
		case 0:
			at = at.Truncate(time.Second)
		case 1:
			at = at.Truncate(time.Millisecond)
		case 2:
			at = at.Truncate(time.Microsecond)
		}
		out[i] = at
	}
	return out
}
