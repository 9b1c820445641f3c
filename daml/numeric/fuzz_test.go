package numeric

import (
	"math/big"
	"regexp"
	"strings"
	"testing"
)

// speedyTextToNumeric is Speedy's TEXT_TO_NUMERIC regex.
var speedyTextToNumeric = regexp.MustCompile(`^([+-]?)0*(\d+)(\.(\d*[1-9]|0)0*)?$`)

// refParseText is a direct transcription of Speedy's rule on math/big.
func refParseText(scale int, s string) (*big.Rat, bool) {
	m := speedyTextToNumeric.FindStringSubmatch(s)
	if m == nil {
		return nil, false
	}
	intPart, decPart := m[2], m[4]
	if decPart == "0" {
		decPart = ""
	}
	sigInt := len(intPart)
	if intPart == "0" {
		sigInt = 0
	}
	if sigInt > MaxPrecision-scale || len(decPart) > scale {
		return nil, false
	}
	r, ok := new(big.Rat).SetString(m[1] + intPart + "." + m[4] + "0")
	return r, ok
}

func FuzzTextToNumeric(f *testing.F) {
	for _, s := range []string{"1.5", "+1.5", "001.50000000000000", "-0.0", "1.", ".5", "1e5", " 1",
		"0.00000000001", "123456789012345678901234567890", "9999999999999999999999999999.9999999999", "-0", "+"} {
		f.Add(10, s)
	}
	f.Add(0, "99999999999999999999999999999999999999")
	f.Add(37, "-9.9999999999999999999999999999999999999")
	f.Fuzz(func(t *testing.T, scale int, s string) {
		if scale < 0 || scale > MaxScale {
			scale = ((scale % 38) + 38) % 38
		}
		x, ok := ParseText(scale, s)
		want, wantOK := refParseText(scale, s)
		if ok != wantOK {
			t.Fatalf("ParseText(%d, %q) ok = %v, Speedy's rule says %v", scale, s, ok, wantOK)
		}
		if !ok {
			return
		}
		got := new(big.Rat).SetFrac(x.Unscaled(), bigPow10(scale))
		if got.Cmp(want) != 0 || x.Scale() != scale {
			t.Fatalf("ParseText(%d, %q) = %s, want %s", scale, s, x.ScaledString(), want.FloatString(scale))
		}
		// printers round-trip
		if back, ok := ParseText(scale, x.String()); !ok || back != x {
			t.Fatalf("ParseText(String(%s)) = %v, %v", x.ScaledString(), back, ok)
		}
		if back, err := Parse(x.ScaledString()); err != nil || back != x {
			t.Fatalf("Parse(ScaledString(%s)) = %v, %v", x.ScaledString(), back, err)
		}
		if str := x.String(); strings.Contains(str, "e") || !strings.Contains(str, ".") ||
			strings.HasSuffix(str, "0") && !strings.HasSuffix(str, ".0") {
			t.Fatalf("String() = %q breaks the NUMERIC_TO_TEXT form", str)
		}
	})
}

// speedyScaled is Speedy's Numeric.fromString format.
var speedyScaled = regexp.MustCompile(`^-?([1-9]\d*|0)\.(\d*)$`)

func FuzzParse(f *testing.F) {
	for _, s := range []string{"0.", "1.50", "-0.0", "01.0", "1", "99999999999999999999999999999999999999."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		x, err := Parse(s)
		m := speedyScaled.FindStringSubmatch(s)
		wantOK := m != nil
		if wantOK {
			scale := len(m[2])
			prec := scale
			if m[1] != "0" {
				prec += len(m[1])
			}
			wantOK = prec <= MaxPrecision && scale <= MaxScale
		}
		if (err == nil) != wantOK {
			t.Fatalf("Parse(%q) err = %v, want ok=%v", s, err, wantOK)
		}
		if err == nil {
			if got := x.ScaledString(); got != s && got != strings.TrimPrefix(s, "-") {
				t.Fatalf("Parse(%q).ScaledString() = %q", s, got)
			}
		}
	})
}
