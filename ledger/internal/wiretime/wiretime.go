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
// interpretation: every create prints its ledger time and record time. The
// text is put together in an array, two digits at a time, and appended
// at once. Years outside 0001–9999 go through time.Format.
func Append(b []byte, t time.Time) []byte {
	t = t.UTC()
	year, month, day := t.Date()
	if year < 1 || year > 9999 {
		return append(b, formatTimeLayout(t)...)
	}
	hour, min, sec := t.Clock()
	var d [30]byte // "2006-01-02T15:04:05.000000000Z"
	put2(d[0:], year/100)
	put2(d[2:], year%100)
	d[4] = '-'
	put2(d[5:], int(month))
	d[7] = '-'
	put2(d[8:], day)
	d[10] = 'T'
	put2(d[11:], hour)
	d[13] = ':'
	put2(d[14:], min)
	d[16] = ':'
	put2(d[17:], sec)
	n := 19
	if ns := t.Nanosecond(); ns != 0 {
		d[19] = '.'
		switch {
		case ns%1_000_000 == 0:
			ms := ns / 1_000_000
			d[20] = byte('0' + ms/100)
			put2(d[21:], ms%100)
			n = 23
		case ns%1_000 == 0:
			us := ns / 1_000
			put2(d[20:], us/10_000)
			put2(d[22:], us/100%100)
			put2(d[24:], us%100)
			n = 26
		default:
			d[20] = byte('0' + ns/100_000_000)
			put2(d[21:], ns/1_000_000%100)
			put2(d[23:], ns/10_000%100)
			put2(d[25:], ns/100%100)
			put2(d[27:], ns%100)
			n = 29
		}
	}
	d[n] = 'Z'
	return append(b, d[:n+1]...)
}

// put2 writes v (0 to 99) as two digits.
func put2(d []byte, v int) {
	const pairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839" +
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879" +
		"8081828384858687888990919293949596979899"
	_ = d[1]
	d[0], d[1] = pairs[2*v], pairs[2*v+1]
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
