package ledger

import (
	"fmt"
	"time"
)

// parseTime reads a time the log stores as text (formatTime).
func parseTime(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, ok := parseStoredTime(s); ok {
		return t, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("stored time %q: %w", s, err)
	}
	return t, nil
}

// parseStoredTime reads the form formatTime writes for years 1 to 9999,
// "YYYY-MM-DDTHH:MM:SS[.F]Z" with 1 to 9 fraction digits, as
// time.Parse(time.RFC3339Nano) reads it, without time.Parse's generality
// (every event of a typed read has its times parsed); false for any
// other text, which parseTime leaves to time.Parse.
func parseStoredTime(s string) (time.Time, bool) {
	if len(s) < 20 || s[len(s)-1] != 'Z' || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' {
		return time.Time{}, false
	}
	year, ok1 := digits(s[0:4])
	month, ok2 := digits(s[5:7])
	day, ok3 := digits(s[8:10])
	hour, ok4 := digits(s[11:13])
	minute, ok5 := digits(s[14:16])
	sec, ok6 := digits(s[17:19])
	nsec, ok := 0, ok1 && ok2 && ok3 && ok4 && ok5 && ok6
	switch frac := s[19 : len(s)-1]; {
	case frac == "":
	case frac[0] != '.' || len(frac) < 2 || len(frac) > 10:
		return time.Time{}, false
	default:
		nsec, ok1 = digits(frac[1:])
		ok = ok && ok1
		for range 10 - len(frac) {
			nsec *= 10
		}
	}
	if !ok || year < 1 || month < 1 || month > 12 || day < 1 || day > daysIn(month, year) || hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, false
	}
	secs := daysSinceEpoch(year, month, day)*86400 + int64(hour*3600+minute*60+sec)
	return time.Unix(secs, int64(nsec)).UTC(), true
}

// digits reads a decimal number of at most 9 digits.
func digits(s string) (int, bool) {
	v := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

// daysIn is the number of days of a month (1 to 12) of a year.
func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// daysSinceEpoch is the number of days from 1970-01-01 to a date of the
// proleptic Gregorian calendar (year ≥ 0), by counting from a March 1st
// in 400-year eras.
func daysSinceEpoch(year, month, day int) int64 {
	if month <= 2 {
		year--
	}
	era := year / 400
	yoe := year - era*400                          // [0, 399]
	doy := (153*((month+9)%12)+2)/5 + day - 1      // [0, 365], from March 1st
	doe := yoe*365 + yoe/4 - yoe/100 + doy         // [0, 146096]
	return int64(era)*146097 + int64(doe) - 719468 // 719468: 0000-03-01 to 1970-01-01
}
