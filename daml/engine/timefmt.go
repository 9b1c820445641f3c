package engine

import (
	"fmt"
	"time"
)

// The Timestamp and Date ranges: 0001-01-01 … 9999-12-31.
const (
	minDate      = -719162
	maxDate      = 2932896
	minTimestamp = -62135596800000000
	maxTimestamp = 253402300799999999
)

// timestampText formats µs since the epoch like Java's ISO_INSTANT: the
// fraction is omitted when zero, else printed in groups of 3 or 6 digits.
func timestampText(us int64) string {
	sec, frac := us/1e6, us%1e6
	if frac < 0 {
		sec, frac = sec-1, frac+1e6
	}
	t := time.Unix(sec, 0).UTC()
	s := t.Format("2006-01-02T15:04:05")
	switch {
	case frac == 0:
	case frac%1000 == 0:
		s += fmt.Sprintf(".%03d", frac/1000)
	default:
		s += fmt.Sprintf(".%06d", frac)
	}
	return s + "Z"
}

// dateText formats days since the epoch as YYYY-MM-DD.
func dateText(days int32) string {
	t := time.Unix(int64(days)*86400, 0).UTC()
	return t.Format("2006-01-02")
}
