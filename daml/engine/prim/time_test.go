package prim

import (
	"math"
	"testing"
	"time"
)

func TestTimeConstants(t *testing.T) {
	minT := time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)
	maxT := time.Date(9999, 12, 31, 23, 59, 59, 999999000, time.UTC)
	if got := Timestamp(minT.Unix() * 1000000); got != MinTimestamp {
		t.Errorf("MinTimestamp = %d, want %d", MinTimestamp, got)
	}
	if got := Timestamp(maxT.Unix()*1000000 + 999999); got != MaxTimestamp {
		t.Errorf("MaxTimestamp = %d, want %d", MaxTimestamp, got)
	}
	if got := Date(minT.Unix() / 86400); got != MinDate {
		t.Errorf("MinDate = %d, want %d", MinDate, got)
	}
	if got := Date(maxT.Unix() / 86400); got != MaxDate {
		t.Errorf("MaxDate = %d, want %d", MaxDate, got)
	}
}

func TestTimestampToText(t *testing.T) {
	tests := []struct {
		us   int64
		want string
	}{
		{0, "1970-01-01T00:00:00Z"},
		{1, "1970-01-01T00:00:00.000001Z"},
		{1500000, "1970-01-01T00:00:01.500Z"},
		{120000, "1970-01-01T00:00:00.120Z"},
		{123456, "1970-01-01T00:00:00.123456Z"},
		{123450, "1970-01-01T00:00:00.123450Z"},
		{1000, "1970-01-01T00:00:00.001Z"},
		{-1, "1969-12-31T23:59:59.999999Z"},
		{-1000000, "1969-12-31T23:59:59Z"},
		{int64(MinTimestamp), "0001-01-01T00:00:00Z"},
		{int64(MaxTimestamp), "9999-12-31T23:59:59.999999Z"},
		{951782400000000, "2000-02-29T00:00:00Z"},
		{-14160140000000, "1969-07-21T02:37:40Z"},
	}
	for _, tc := range tests {
		if got := TimestampToText(Timestamp(tc.us)); got != tc.want {
			t.Errorf("TimestampToText(%d) = %q, want %q", tc.us, got, tc.want)
		}
		if back, err := ParseTimestamp(tc.want); err != nil || back != Timestamp(tc.us) {
			t.Errorf("ParseTimestamp(%q) = %d, %v", tc.want, back, err)
		}
	}
}

// TestTimestampAgainstTime compares with Go's time formatting on many
// instants across the whole range.
func TestTimestampAgainstTime(t *testing.T) {
	step := (int64(MaxTimestamp) - int64(MinTimestamp)) / 5003
	for us := int64(MinTimestamp); us <= int64(MaxTimestamp) && us >= int64(MinTimestamp); us += step {
		for _, v := range []int64{us, us + 1, us - us%1000000, us - us%1000} {
			if !ValidTimestamp(Timestamp(v)) {
				continue
			}
			tm := time.UnixMicro(v).UTC()
			frac := v % 1000000
			if frac < 0 {
				frac += 1000000
			}
			layout := "2006-01-02T15:04:05"
			switch {
			case frac == 0:
			case frac%1000 == 0:
				layout += ".000"
			default:
				layout += ".000000"
			}
			want := tm.Format(layout) + "Z"
			if got := TimestampToText(Timestamp(v)); got != want {
				t.Fatalf("TimestampToText(%d) = %q, want %q", v, got, want)
			}
		}
	}
}

func TestDates(t *testing.T) {
	tests := []struct {
		days int64
		want string
	}{
		{0, "1970-01-01"},
		{-1, "1969-12-31"},
		{int64(MinDate), "0001-01-01"},
		{int64(MaxDate), "9999-12-31"},
		{-33165, "1879-03-14"},
		{11016, "2000-02-29"},
		{-25509, "1900-02-28"},
		{-25508, "1900-03-01"},
		{47540, "2100-02-28"},
		{12477, "2004-02-29"},
	}
	for _, tc := range tests {
		if got := DateToText(Date(tc.days)); got != tc.want {
			t.Errorf("DateToText(%d) = %q, want %q", tc.days, got, tc.want)
		}
		if back, err := ParseDate(tc.want); err != nil || back != Date(tc.days) {
			t.Errorf("ParseDate(%q) = %d, %v", tc.want, back, err)
		}
		d, err := UnixDaysToDate(tc.days)
		if err != nil || DateToUnixDays(d) != tc.days {
			t.Errorf("UnixDaysToDate(%d) = %d, %v", tc.days, d, err)
		}
	}
	// every day against Go's calendar
	for d := int64(MinDate); d <= int64(MaxDate); d += 37 {
		want := time.Unix(d*86400, 0).UTC().Format("2006-01-02")
		if got := DateToText(Date(d)); got != want {
			t.Fatalf("DateToText(%d) = %q, want %q", d, got, want)
		}
	}
	for _, s := range []string{"2001-02-29", "1900-02-29", "2000-13-01", "2000-00-10", "2000-01-32", "0000-12-31",
		"1-01-01", "2000-1-01", "2000-01-01Z", " 2000-01-01", "2000/01/01", "+2000-01-01"} {
		if d, err := ParseDate(s); err == nil {
			t.Errorf("ParseDate(%q) = %d, want error", s, d)
		}
	}
}

func TestTimeRangeErrors(t *testing.T) {
	for _, days := range []int64{int64(MinDate) - 1, int64(MaxDate) + 1, math.MaxInt64, math.MinInt64, math.MaxInt32} {
		_, err := UnixDaysToDate(days)
		wantAE(t, err, "ArithmeticError while evaluating (UNIX_DAYS_TO_DATE "+Int64ToText(days)+").")
	}
	_, err := UnixDaysToDate(math.MaxInt64)
	wantAE(t, err, "ArithmeticError while evaluating (UNIX_DAYS_TO_DATE 9223372036854775807).")
	for _, us := range []int64{int64(MinTimestamp) - 1, int64(MaxTimestamp) + 1, math.MaxInt64, math.MinInt64} {
		_, err := UnixMicrosecondsToTimestamp(us)
		wantAE(t, err, "ArithmeticError while evaluating (UNIX_MICROSECONDS_TO_TIMESTAMP "+Int64ToText(us)+").")
	}
	for _, us := range []int64{int64(MinTimestamp), int64(MaxTimestamp), 0} {
		ts, err := UnixMicrosecondsToTimestamp(us)
		if err != nil || TimestampToUnixMicroseconds(ts) != us {
			t.Errorf("UnixMicrosecondsToTimestamp(%d) = %d, %v", us, ts, err)
		}
	}
}

func TestParseTimestamp(t *testing.T) {
	good := map[string]int64{
		"1970-01-01T00:00:00.1Z":         100000,
		"1970-01-01T00:00:00.000000001Z": 0,
		"1970-01-01T00:00:00.999999999Z": 999999,
		"1969-12-31T23:59:59.9999999Z":   -1,
		"1969-07-21T02:56:15.000000Z":    -14159025000000,
		"2000-12-31T23:00:00.000000Z":    978303600000000,
		"9999-12-31T23:59:59.999999999Z": int64(MaxTimestamp),
	}
	for s, want := range good {
		if got, err := ParseTimestamp(s); err != nil || got != Timestamp(want) {
			t.Errorf("ParseTimestamp(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"", "1970-01-01T00:00:00", "1970-01-01T00:00:00z", "1970-01-01t00:00:00Z",
		"1970-01-01T24:00:00Z", "1970-01-01T00:60:00Z", "1970-01-01T00:00:60Z", "1970-01-01T00:00:00.Z",
		"1970-01-01T00:00:00.1234567890Z", "1970-01-01T00:00:00+01:00", "1970-02-30T00:00:00Z",
		"1970-01-01 00:00:00Z", "1970-01-01T00:00:00.12a Z"} {
		if got, err := ParseTimestamp(s); err == nil {
			t.Errorf("ParseTimestamp(%q) = %d, want error", s, got)
		}
	}
}
