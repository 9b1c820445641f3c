package jsontext

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestScanTokens(t *testing.T) {
	for _, tc := range []struct {
		s   string
		end int // -1: none
	}{
		{"0", 1}, {"-0", 2}, {"01", 1}, {"12.5e+3,", 7}, {"1E9", 3}, {"-", -1}, {"1.", -1},
		{".5", -1}, {"1e", -1}, {"1e+", -1}, {"-x", -1}, {"", -1}, {"123]", 3},
	} {
		end, ok := NumberEnd([]byte(tc.s), 0)
		if !ok {
			end = -1
		}
		if end != tc.end {
			t.Errorf("NumberEnd(%q) = %d, want %d", tc.s, end, tc.end)
		}
	}
	if got := SkipSpace([]byte("x \t\r\n y"), 1); got != 6 {
		t.Errorf("SkipSpace = %d, want 6", got)
	}
	if got := SkipSpace([]byte("  "), 0); got != 2 {
		t.Errorf("SkipSpace of spaces only = %d, want 2", got)
	}
	for _, tc := range []struct {
		s, lit string
		end    int
	}{{"true]", "true", 4}, {"tru", "true", -1}, {"[null", "null", 5}, {"fals", "false", -1}} {
		i := 0
		if tc.s[0] == '[' {
			i = 1
		}
		end, ok := LiteralEnd([]byte(tc.s), i, tc.lit)
		if !ok {
			end = -1
		}
		if end != tc.end {
			t.Errorf("LiteralEnd(%q, %q) = %d, want %d", tc.s, tc.lit, end, tc.end)
		}
	}
}

// FuzzNumberEnd: NumberEnd takes what json.Valid takes as a number, and
// all of it but trailing whitespace.
func FuzzNumberEnd(f *testing.F) {
	for _, s := range []string{"0", "-12.5e+3", "01", "1.", "1e", "-", "2E-07"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b := []byte(s)
		end, ok := NumberEnd(b, 0)
		if ok && !json.Valid(b[:end]) {
			t.Fatalf("NumberEnd took %q of %q, which json.Valid refuses", b[:end], s)
		}
		// json.Valid takes whitespace after a value too.
		if s != "" && (s[0] == '-' || '0' <= s[0] && s[0] <= '9') && json.Valid(b) && (!ok || SkipSpace(b, end) != len(b)) {
			t.Fatalf("NumberEnd(%q) = %d, %v; json.Valid takes all of it", s, end, ok)
		}
	})
}

// TestTrimSpace: TrimSpace drops JSON's four whitespace bytes at both
// ends, as bytes.Trim with them does, and nothing else.
func TestTrimSpace(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", " ", " \t\r\n", "{}", " {} ", "\n\t{\"a\": 1}\r\n", "\v{}\f", "\u00a0{}", " a b ", "x"} {
		if got, want := string(TrimSpace([]byte(s))), string(bytes.Trim([]byte(s), " \t\r\n")); got != want {
			t.Errorf("TrimSpace(%q) = %q, want %q", s, got, want)
		}
	}
}
