package prim

import (
	"regexp"
	"strconv"
	"testing"
	"unicode/utf8"
)

var speedyTextToInt64 = regexp.MustCompile(`^[+-]?\d+$`)

func FuzzTextToInt64(f *testing.F) {
	for _, s := range []string{"+7", "007", "-9223372036854775808", " 7", "7 ", "1.0", "9223372036854775808", "-0", "+", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := TextToInt64(s)
		// Speedy: the regex, then Java's Long.parseLong (same as strconv on ASCII digits)
		want, err := strconv.ParseInt(s, 10, 64)
		wantOK := speedyTextToInt64.MatchString(s) && err == nil
		if ok != wantOK || ok && got != want {
			t.Fatalf("TextToInt64(%q) = %d, %v; want %d, %v", s, got, ok, want, wantOK)
		}
		if ok {
			if back, ok := TextToInt64(Int64ToText(got)); !ok || back != got {
				t.Fatalf("round trip of %d failed", got)
			}
		}
	})
}

func FuzzTextToTimestamp(f *testing.F) {
	f.Add(int64(0), "1970-01-01T00:00:00Z")
	f.Add(int64(MinTimestamp), "0001-01-01T00:00:00.5Z")
	f.Add(int64(MaxTimestamp), "9999-12-31T23:59:59.999999999Z")
	f.Add(int64(-1), "2000-02-29T12:34:56.123Z")
	f.Fuzz(func(t *testing.T, us int64, s string) {
		// printer → parser round trip on any valid timestamp
		if ts := Timestamp(us); ValidTimestamp(ts) {
			text := TimestampToText(ts)
			back, err := ParseTimestamp(text)
			if err != nil || back != ts {
				t.Fatalf("ParseTimestamp(TimestampToText(%d) = %q) = %d, %v", us, text, back, err)
			}
			d := Date(floorDiv(us, microsPerDay))
			if dt, err := ParseDate(DateToText(d)); err != nil || dt != d {
				t.Fatalf("ParseDate(DateToText(%d)) = %d, %v", d, dt, err)
			}
		}
		// parser → printer: the parsed value prints to a text that parses back
		ts, err := ParseTimestamp(s)
		if err != nil {
			return
		}
		if !ValidTimestamp(ts) {
			t.Fatalf("ParseTimestamp(%q) = %d out of range", s, ts)
		}
		if back, err := ParseTimestamp(TimestampToText(ts)); err != nil || back != ts {
			t.Fatalf("round trip of %q: %d, %v", s, back, err)
		}
	})
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func FuzzHexToText(f *testing.F) {
	for _, s := range []string{"", "00", "ff", "eda080", "f09f9882", "c3", "DeadBeef"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		text, err := HexToText(h)
		if err != nil {
			if IsHex(h) {
				t.Fatalf("HexToText(%q) failed on valid hex: %v", h, err)
			}
			return
		}
		if !utf8.ValidString(text) {
			t.Fatalf("HexToText(%q) = %q is not valid UTF-8", h, text)
		}
		if TextToHex(text) != h && utf8.ValidString(string(mustHex(h))) {
			t.Fatalf("TextToHex(HexToText(%q)) = %q", h, TextToHex(text))
		}
	})
}

func mustHex(h string) []byte {
	b, _ := decodeLowerHex(h)
	return b
}

func FuzzExplodeCodePoints(f *testing.F) {
	f.Add("a¶‱😂")
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		if ImplodeText(ExplodeText(s)) != s {
			t.Fatalf("implode(explode(%q)) differs", s)
		}
		back, err := CodePointsToText(TextToCodePoints(s))
		if err != nil || back != s {
			t.Fatalf("code point round trip of %q: %q, %v", s, back, err)
		}
	})
}
