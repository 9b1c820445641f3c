package quote

import (
	"strings"
	"testing"
)

func TestForms(t *testing.T) {
	long := strings.Repeat("x", 300)
	// "é" is 2 bytes: 99 x's then "é" puts byte 100 inside the rune.
	split := strings.Repeat("x", 99) + "é" + strings.Repeat("y", 200)
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"bare empty", Bare(""), ""},
		{"bare at the limit", Bare(long[:Limit]), long[:Limit]},
		{"bare one over", Bare(long[:Limit+1]), long[:Head] + "…(257 bytes)"},
		{"bare cut at a rune start", Bare(split), strings.Repeat("x", 99) + "…(301 bytes)"},
		{"go empty", Go(""), `""`},
		{"go escapes", Go("a\x00b"), `"a\x00b"`},
		{"go at the limit", Go(long[:Head]), `"` + long[:Head] + `"`},
		{"go one over", Go(long[:Head+1]), `"` + long[:Head] + `"… (101 bytes)`},
		{"go bytes", Go([]byte(long[:Head+1])), `"` + long[:Head] + `"… (101 bytes)`},
		{"go cut at a rune start", Go(split), `"` + strings.Repeat("x", 99) + `"… (301 bytes)`},
		{"truncate short", Truncate("abc"), "abc"},
		{"truncate at the limit", Truncate(long[:Head]), long[:Head]},
		{"truncate one over", Truncate(long[:Head+1]), long[:Head] + "…"},
		{"truncate cut at a rune start", Truncate(split), strings.Repeat("x", 99) + "…"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}

func TestCut(t *testing.T) {
	tests := []struct {
		s           string
		limit, head int
		want        string
		cut         bool
	}{
		{"abc", 3, 1, "abc", false},
		{"abcd", 3, 1, "a", true},
		{"abcd", 3, 10, "abcd", true}, // head beyond the input
		{"\xe2\x82\xac\xe2\x82\xac", 3, 4, "\xe2\x82\xac", true},
		{"\x80\x80\x80\x80", 3, 2, "", true}, // no rune start: nothing kept
	}
	for _, tt := range tests {
		got, cut := Cut(tt.s, tt.limit, tt.head)
		if got != tt.want || cut != tt.cut {
			t.Errorf("Cut(%q, %d, %d) = %q, %v; want %q, %v", tt.s, tt.limit, tt.head, got, cut, tt.want, tt.cut)
		}
	}
}
