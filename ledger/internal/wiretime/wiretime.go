// Package wiretime prints times as the Ledger API's JSON does (Java's
// Instant.toString: UTC, with 0, 3, 6 or 9 fraction digits, the fewest that
// hold the time), for package ledger and its JSON layer.
package wiretime

import "time"

// Format returns t as the wire prints it.
func Format(t time.Time) string {
	var b [40]byte
	return string(Append(b[:0], t))
}

// Append appends t as Format prints it (Java's Instant.toString:
// UTC, 0, 3, 6 or 9 fraction digits) without time.Format's layout
// interpretation: every create prints its ledger time and record time. Years
// outside 0001–9999 go through time.Format.
func Append(b []byte, t time.Time) []byte {
	t = t.UTC()
	year, month, day := t.Date()
	if year < 1 || year > 9999 {
		return append(b, formatTimeLayout(t)...)
	}
	hour, min, sec := t.Clock()
	b = appendDigits(b, year, 4)
	b = append(b, '-')
	b = appendDigits(b, int(month), 2)
	b = append(b, '-')
	b = appendDigits(b, day, 2)
	b = append(b, 'T')
	b = appendDigits(b, hour, 2)
	b = append(b, ':')
	b = appendDigits(b, min, 2)
	b = append(b, ':')
	b = appendDigits(b, sec, 2)
	switch ns := t.Nanosecond(); {
	case ns == 0:
	case ns%1_000_000 == 0:
		b = appendDigits(append(b, '.'), ns/1_000_000, 3)
	case ns%1_000 == 0:
		b = appendDigits(append(b, '.'), ns/1_000, 6)
	default:
		b = appendDigits(append(b, '.'), ns, 9)
	}
	return append(b, 'Z')
}

// appendDigits appends v (≥ 0) with exactly n digits, zero-padded.
func appendDigits(b []byte, v, n int) []byte {
	var d [9]byte
	for i := n - 1; i >= 0; i-- {
		d[i] = byte('0' + v%10)
		v /= 10
	}
	return append(b, d[:n]...)
}

// formatTimeLayout is Format through time.Format (the reference of
// Append, and its printing of years outside 0001–9999).
func formatTimeLayout(t time.Time) string {
	t = t.UTC()
	ns := t.Nanosecond()
	switch {
	case ns == 0:
		return t.Format("2006-01-02T15:04:05Z")
	case ns%1_000_000 == 0:
		return t.Format("2006-01-02T15:04:05.000Z")
	case ns%1_000 == 0:
		return t.Format("2006-01-02T15:04:05.000000Z")
	default:
		return t.Format("2006-01-02T15:04:05.000000000Z")
	}
}
