package shape

import (
	"strings"
	"testing"
)

func TestBadTimestamp(t *testing.T) {
	t.Parallel()
	str := func(s string) *string { return &s }
	tests := []struct {
		name string
		in   *string
		want string
	}{
		{"absent", nil, ""},
		{"empty", str(""), ""},
		{"micros", str("2025-01-28T14:49:33.525551Z"), ""},
		{"offset", str("2025-01-28T14:49:33+01:00"), ""},
		{"garbage", str("yesterday"), `text "yesterday" could not be parsed as a timestamp`},
		{"date only", str("2025-01-28"), `text "2025-01-28" could not be parsed as a timestamp`},
	}
	for _, tt := range tests {
		if got := BadTimestamp(tt.in); got != tt.want {
			t.Errorf("%s: BadTimestamp = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestCountSet(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   []bool
		want int
	}{
		{nil, 0},
		{[]bool{false, false}, 0},
		{[]bool{true, false, true}, 2},
		{[]bool{true, true, true, true}, 4},
	}
	for _, tt := range tests {
		if got := CountSet(tt.in...); got != tt.want {
			t.Errorf("CountSet(%v) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestIdentifier(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, id string
		ok       bool
	}{
		{"three parts", "pkg:Mod:T", true},
		{"package name", "#iou:Mod:T", true},
		{"two parts", "Mod:T", false},
		{"four parts", "pkg:Mod:T:x", false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		err := Identifier(tt.id, func() string { return "templateId" })
		if (err == nil) != tt.ok {
			t.Errorf("%s: Identifier(%q) = %v, want ok %v", tt.name, tt.id, err, tt.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "at 'templateId'") {
			t.Errorf("%s: error %q does not name the path", tt.name, err)
		}
	}
}
