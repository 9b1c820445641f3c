package prim

import (
	"errors"
	"strconv"

	"github.com/ledgernode/ledgernode/daml/value"
)

// Timestamp is a Daml Timestamp: microseconds since 1970-01-01T00:00:00Z
// (UTC, no leap seconds), within [MinTimestamp, MaxTimestamp].
type Timestamp int64

// Date is a Daml Date: days since 1970-01-01, within [MinDate, MaxDate].
type Date int32

const (
	// MinDate is 0001-01-01.
	MinDate Date = -719162
	// MaxDate is 9999-12-31.
	MaxDate Date = 2932896
	// MinTimestamp is 0001-01-01T00:00:00Z.
	MinTimestamp Timestamp = -62135596800000000
	// MaxTimestamp is 9999-12-31T23:59:59.999999Z.
	MaxTimestamp Timestamp = 253402300799999999

	microsPerDay = 86400 * 1000000
)

// ValidTimestamp reports whether t is within the Daml range.
func ValidTimestamp(t Timestamp) bool { return MinTimestamp <= t && t <= MaxTimestamp }

// ValidDate reports whether d is within the Daml range.
func ValidDate(d Date) bool { return MinDate <= d && d <= MaxDate }

// DateToUnixDays implements DATE_TO_UNIX_DAYS: days since 1970-01-01.
func DateToUnixDays(d Date) int64 { return int64(d) }

// UnixDaysToDate implements UNIX_DAYS_TO_DATE: an ArithmeticError outside
// 0001-01-01 … 9999-12-31.
func UnixDaysToDate(days int64) (Date, error) {
	if days < int64(MinDate) || days > int64(MaxDate) {
		return 0, &ArithmeticError{Builtin: "UNIX_DAYS_TO_DATE", Args: []string{strconv.FormatInt(days, 10)}}
	}
	return Date(days), nil
}

// TimestampToUnixMicroseconds implements TIMESTAMP_TO_UNIX_MICROSECONDS.
func TimestampToUnixMicroseconds(t Timestamp) int64 { return int64(t) }

// UnixMicrosecondsToTimestamp implements UNIX_MICROSECONDS_TO_TIMESTAMP: an
// ArithmeticError outside 0001-01-01T00:00:00Z … 9999-12-31T23:59:59.999999Z.
func UnixMicrosecondsToTimestamp(us int64) (Timestamp, error) {
	t := Timestamp(us)
	if !ValidTimestamp(t) {
		return 0, &ArithmeticError{Builtin: "UNIX_MICROSECONDS_TO_TIMESTAMP", Args: []string{strconv.FormatInt(us, 10)}}
	}
	return t, nil
}

func appendPadded(dst []byte, v int64, width int) []byte {
	var buf [20]byte
	s := strconv.AppendInt(buf[:0], v, 10)
	for i := len(s); i < width; i++ {
		dst = append(dst, '0')
	}
	return append(dst, s...)
}

func appendDate(dst []byte, days int64) []byte {
	y, m, d := value.CivilFromDays(days)
	dst = appendPadded(dst, y, 4)
	dst = append(dst, '-')
	dst = appendPadded(dst, int64(m), 2)
	dst = append(dst, '-')
	return appendPadded(dst, int64(d), 2)
}

// DateToText implements DATE_TO_TEXT: "YYYY-MM-DD" with a 4-digit year
// ("0001-01-01", "1879-03-14").
func DateToText(d Date) string {
	var buf [16]byte
	return string(appendDate(buf[:0], int64(d)))
}

// String returns DateToText(d).
func (d Date) String() string { return DateToText(d) }

// TimestampToText implements TIMESTAMP_TO_TEXT (Java's ISO_INSTANT in UTC):
// "YYYY-MM-DDThh:mm:ss", then the fraction of the second, omitted when
// zero and otherwise printed with 3 digits when it is a whole number of
// milliseconds and 6 digits otherwise, then "Z". 1 500 000 µs gives
// "1970-01-01T00:00:01.500Z", -1 µs gives "1969-12-31T23:59:59.999999Z".
func TimestampToText(t Timestamp) string {
	us := int64(t)
	days := us / microsPerDay
	rem := us % microsPerDay
	if rem < 0 {
		days--
		rem += microsPerDay
	}
	var buf [32]byte
	b := appendDate(buf[:0], days)
	secs := rem / 1000000
	frac := rem % 1000000
	b = append(b, 'T')
	b = appendPadded(b, secs/3600, 2)
	b = append(b, ':')
	b = appendPadded(b, secs/60%60, 2)
	b = append(b, ':')
	b = appendPadded(b, secs%60, 2)
	switch {
	case frac == 0:
	case frac%1000 == 0:
		b = append(b, '.')
		b = appendPadded(b, frac/1000, 3)
	default:
		b = append(b, '.')
		b = appendPadded(b, frac, 6)
	}
	b = append(b, 'Z')
	return string(b)
}

// String returns TimestampToText(t).
func (t Timestamp) String() string { return TimestampToText(t) }

// ErrTimeSyntax is returned by ParseDate and ParseTimestamp for a malformed
// or out-of-range text.
var ErrTimeSyntax = errors.New("prim: not a Daml date or timestamp text")

func digits(s string, n int) (int64, bool) {
	if len(s) < n {
		return 0, false
	}
	var v int64
	for i := 0; i < n; i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, true
}

func daysInMonth(y int64, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// parseDatePrefix reads "YYYY-MM-DD" at the start of s.
func parseDatePrefix(s string) (int64, bool) {
	if len(s) < 10 || s[4] != '-' || s[7] != '-' {
		return 0, false
	}
	y, ok1 := digits(s, 4)
	mo, ok2 := digits(s[5:], 2)
	d, ok3 := digits(s[8:], 2)
	if !ok1 || !ok2 || !ok3 || mo < 1 || mo > 12 || d < 1 || int(d) > daysInMonth(y, int(mo)) {
		return 0, false
	}
	return value.DaysFromCivil(y, int(mo), int(d)), true
}

// ParseDate reads DateToText's form "YYYY-MM-DD" (a real calendar day
// between 0001-01-01 and 9999-12-31). It is the inverse of DateToText, for
// callers that meet dates as text (LF2 has no TEXT_TO_DATE builtin).
func ParseDate(s string) (Date, error) {
	if len(s) != 10 {
		return 0, ErrTimeSyntax
	}
	days, ok := parseDatePrefix(s)
	if !ok || !ValidDate(Date(days)) {
		return 0, ErrTimeSyntax
	}
	return Date(days), nil
}

// ParseTimestamp reads "YYYY-MM-DDThh:mm:ss[.f]Z" with 1 to 9 fraction
// digits, rounding sub-microsecond digits down (Speedy's
// Timestamp.fromString rounding, FLOOR), within the Daml range. It accepts
// every TimestampToText output and is its inverse there. LF2 has no
// TEXT_TO_TIMESTAMP builtin; this is for callers that meet timestamps as
// text.
func ParseTimestamp(s string) (Timestamp, error) {
	days, ok := parseDatePrefix(s)
	if !ok || len(s) < 20 || s[10] != 'T' || s[13] != ':' || s[16] != ':' || s[len(s)-1] != 'Z' {
		return 0, ErrTimeSyntax
	}
	h, ok1 := digits(s[11:], 2)
	mi, ok2 := digits(s[14:], 2)
	sec, ok3 := digits(s[17:], 2)
	if !ok1 || !ok2 || !ok3 || h > 23 || mi > 59 || sec > 59 {
		return 0, ErrTimeSyntax
	}
	var micros int64
	if rest := s[19 : len(s)-1]; rest != "" {
		f := rest[1:]
		if rest[0] != '.' || len(f) < 1 || len(f) > 9 {
			return 0, ErrTimeSyntax
		}
		v, ok := digits(f, len(f))
		if !ok {
			return 0, ErrTimeSyntax
		}
		for i := len(f); i < 9; i++ {
			v *= 10
		}
		micros = v / 1000 // nanoseconds to microseconds, rounding down
	}
	t := Timestamp(days*microsPerDay + ((h*60+mi)*60+sec)*1000000 + micros)
	if !ValidTimestamp(t) {
		return 0, ErrTimeSyntax
	}
	return t, nil
}
