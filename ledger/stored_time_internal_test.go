package ledger

import (
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/ledger/internal/wiretime"
)

// TestParseStoredTime: the stored form of times (formatTime) reads as
// time.Parse reads it; other texts are left to time.Parse (false).
func TestParseStoredTime(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s  string
		ok bool
	}{
		{"2024-05-06T07:08:09Z", true},
		{"2024-05-06T07:08:09.1Z", true},
		{"2024-05-06T07:08:09.120Z", true},
		{"2024-05-06T07:08:09.123456Z", true},
		{"2024-05-06T07:08:09.123456789Z", true},
		{"1970-01-01T00:00:00Z", true},
		{"1969-12-31T23:59:59.999999999Z", true},
		{"0001-01-01T00:00:00Z", true},
		{"9999-12-31T23:59:59.999999999Z", true},
		{"2000-02-29T00:00:00Z", true},
		{"2024-02-29T12:00:00Z", true},
		{"1900-02-29T00:00:00Z", false}, // not a leap year: time.Parse refuses
		{"2023-02-29T00:00:00Z", false},
		{"2024-04-31T00:00:00Z", false},
		{"2024-13-01T00:00:00Z", false},
		{"2024-00-01T00:00:00Z", false},
		{"2024-01-00T00:00:00Z", false},
		{"2024-01-01T24:00:00Z", false},
		{"2024-01-01T00:60:00Z", false},
		{"2024-01-01T00:00:60Z", false},
		{"0000-01-01T00:00:00Z", false}, // wiretime prints year 0 through time.Format: left to it
		{"2024-05-06T07:08:09.1234567891Z", false},
		{"2024-05-06T07:08:09.Z", false},
		{"2024-05-06T07:08:09,5Z", false},
		{"2024-05-06T07:08:09+00:00", false},
		{"2024-05-06T07:08:09z", false},
		{"2024-05-06 07:08:09Z", false},
		{"2024-5-06T07:08:09Z", false},
		{"2024-05-06T07:08:0xZ", false},
		{"+024-05-06T07:08:09Z", false},
		{"2024-05-06T07:08:09.-1Z", false},
	} {
		got, ok := parseStoredTime(tc.s)
		if ok != tc.ok {
			t.Errorf("%q: ok %v, want %v", tc.s, ok, tc.ok)
			continue
		}
		if ok {
			checkLikeTimeParse(t, tc.s, got)
		}
	}
}

// checkLikeTimeParse fails unless time.Parse reads s as got.
func checkLikeTimeParse(t *testing.T, s string, got time.Time) {
	t.Helper()
	want, err := time.Parse(time.RFC3339Nano, s)
	if err != nil || got != want {
		t.Errorf("%q: %v (%s), time.Parse %v (%s), %v", s, got, got.Location(), want, want.Location(), err)
	}
}

// FuzzParseStoredTime: any text parseStoredTime reads, time.Parse reads
// as the same time.Time (==: instant and location); every time formatTime
// prints in years 1 to 9999 is such a text; parseTime fails exactly when
// time.Parse does.
func FuzzParseStoredTime(f *testing.F) {
	f.Add("2024-05-06T07:08:09.123Z", int64(1700000000), int64(123456789))
	f.Add("1900-02-29T00:00:00Z", int64(-62135596800), int64(0))
	f.Add("2024-05-06T07:08:09.1234567891Z", int64(253402300799), int64(999999999))
	f.Fuzz(func(t *testing.T, s string, secs, nanos int64) {
		if got, ok := parseStoredTime(s); ok {
			checkLikeTimeParse(t, s, got)
		}
		_, err := parseTime(s)
		if _, perr := time.Parse(time.RFC3339Nano, s); s != "" && (err == nil) != (perr == nil) {
			t.Errorf("%q: parseTime %v, time.Parse %v", s, err, perr)
		}
		// An instant of the years 1 to 9999.
		const first, last = -62135596800, 253402300799 // 0001-01-01T00:00:00Z, 9999-12-31T23:59:59Z
		secs = first + (secs%(last-first+1)+(last-first+1))%(last-first+1)
		at := time.Unix(secs, (nanos%1e9+1e9)%1e9).UTC()
		w := wiretime.Format(at)
		got, ok := parseStoredTime(w)
		if !ok || got != at {
			t.Errorf("%s (%d, %d): %v, %v", w, secs, nanos, got, ok)
		}
	})
}

// BenchmarkParseTime: a stored time as the typed reads parse it, against
// time.Parse (two per transaction read).
func BenchmarkParseTime(b *testing.B) {
	const s = "2026-11-27T16:22:54.123456Z"
	b.Run("parseTime", func(b *testing.B) {
		for b.Loop() {
			if _, err := parseTime(s); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("time.Parse", func(b *testing.B) {
		for b.Loop() {
			if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
				b.Fatal(err)
			}
		}
	})
}
