package numeric

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// n parses a canonical literal and rescales it to scale (tests only).
func n(t testing.TB, s string, scale int) Numeric {
	t.Helper()
	x, ok := ParseText(scale, strings.TrimSuffix(s, "."))
	if !ok {
		t.Fatalf("ParseText(%d, %q) failed", scale, s)
	}
	return x
}

// tenPow returns 10^i as text (i may be negative).
func tenPow(i int) string {
	if i >= 0 {
		return "1" + strings.Repeat("0", i)
	}
	return "0." + strings.Repeat("0", -i-1) + "1"
}

func TestStringAndScaledString(t *testing.T) {
	tests := []struct {
		in     string
		scale  int
		text   string
		scaled string
	}{
		{"1.5", 10, "1.5", "1.5000000000"},
		{"1", 10, "1.0", "1.0000000000"},
		{"100", 10, "100.0", "100.0000000000"},
		{"0", 10, "0.0", "0.0000000000"},
		{"0", 0, "0.0", "0."},
		{"-0", 3, "0.0", "0.000"},
		{"0.0000000001", 10, "0.0000000001", "0.0000000001"},
		{"-2.7182818285", 10, "-2.7182818285", "-2.7182818285"},
		{"42", 0, "42.0", "42."},
		{"-42", 0, "-42.0", "-42."},
		{"-0.5", 1, "-0.5", "-0.5"},
		{"1000000000000000000000000000000000000", 0, "1000000000000000000000000000000000000.0", "1000000000000000000000000000000000000."},
		{"0.1", 37, "0.1", "0.1000000000000000000000000000000000000"},
		{"-9.9999999999999999999999999999999999999", 37, "-9.9999999999999999999999999999999999999", "-9.9999999999999999999999999999999999999"},
		{"12345678901234567890.123456789", 18, "12345678901234567890.123456789", "12345678901234567890.123456789000000000"},
	}
	for _, tc := range tests {
		x := n(t, tc.in, tc.scale)
		if got := x.String(); got != tc.text {
			t.Errorf("(%s @%d).String() = %q, want %q", tc.in, tc.scale, got, tc.text)
		}
		if got := x.ScaledString(); got != tc.scaled {
			t.Errorf("(%s @%d).ScaledString() = %q, want %q", tc.in, tc.scale, got, tc.scaled)
		}
		back, err := Parse(tc.scaled)
		if err != nil || back != x {
			t.Errorf("Parse(%q) = %v, %v; want %v", tc.scaled, back, err, x)
		}
	}
	for s := 0; s <= MaxScale; s++ {
		mx := MaxValue(s)
		want := strings.Repeat("9", 38-s) + "." + strings.Repeat("9", s)
		if s == 0 {
			want = strings.Repeat("9", 38) + ".0"
		}
		if got := mx.String(); got != want {
			t.Errorf("MaxValue(%d) = %q, want %q", s, got, want)
		}
		if got := MinValue(s).String(); got != "-"+want {
			t.Errorf("MinValue(%d) = %q", s, got)
		}
	}
}

func TestParse(t *testing.T) {
	good := []struct {
		in    string
		scale int
	}{
		{"0.", 0}, {"1.", 0}, {"-1.", 0}, {"0.0", 1}, {"1.50", 2},
		{strings.Repeat("9", 38) + ".", 0},
		{"0." + strings.Repeat("0", 36) + "1", 37},
		{strings.Repeat("9", 28) + "." + strings.Repeat("9", 10), 10},
	}
	for _, tc := range good {
		x, err := Parse(tc.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if x.Scale() != tc.scale || x.ScaledString() != tc.in && !(tc.in == "-0." || tc.in == "-0.0") {
			t.Errorf("Parse(%q) = %s at scale %d", tc.in, x.ScaledString(), x.Scale())
		}
	}
	bad := []string{"", "1", "+1.0", "01.0", ".5", "1e5", " 1.0", "1.0 ", "--1.0", "1.a",
		strings.Repeat("9", 39) + ".", strings.Repeat("9", 29) + "." + strings.Repeat("9", 10),
		"0." + strings.Repeat("0", 38)}
	for _, s := range bad {
		if x, err := Parse(s); !errors.Is(err, ErrSyntax) {
			t.Errorf("Parse(%q) = %v, %v; want syntax error", s, x, err)
		}
	}
}

func TestParseText(t *testing.T) {
	ok := []struct{ in, want string }{
		// NumericModule.fromString's accepted forms (Canton's
		// community/daml-lf/data/src/main/scala/com/digitalasset/daml/lf/data/NumericModule.scala)
		{"1.5", "1.5"}, {"+1.5", "1.5"}, {"001.50000000000000", "1.5"}, {"-0.0", "0.0"},
		// Speedy's SBuiltinTest table (scale 10)
		{strings.Repeat("9", 28) + "." + strings.Repeat("9", 10), strings.Repeat("9", 28) + "." + strings.Repeat("9", 10)},
		{strings.Repeat("0", 20) + strings.Repeat("1", 28), strings.Repeat("1", 28) + ".0"},
		{"161803398.87499", "161803398.87499"}, {"3.1415926536", "3.1415926536"},
		{"0.0000000001", "0.0000000001"}, {"0.0005" + strings.Repeat("0", 20), "0.0005"},
		{"+0.0", "0.0"}, {"0.0", "0.0"}, {"0", "0.0"}, {"-0", "0.0"}, {"42", "42.0"},
		{"-0.0005" + strings.Repeat("0", 20), "-0.0005"}, {"-0.0000000001", "-0.0000000001"},
		{"-" + strings.Repeat("0", 20) + strings.Repeat("1", 28), "-" + strings.Repeat("1", 28) + ".0"},
		{"1." + strings.Repeat("0", 100000), "1.0"},
		{strings.Repeat("0", 100000) + "1.0", "1.0"},
		{"+" + strings.Repeat("0", 1000) + "2.0", "2.0"},
		{"-" + strings.Repeat("0", 1000) + "3.0", "-3.0"},
	}
	for _, tc := range ok {
		x, good := ParseText(10, tc.in)
		if !good {
			t.Errorf("ParseText(10, %.40q) = None", tc.in)
			continue
		}
		if x.Scale() != 10 || x.String() != tc.want {
			t.Errorf("ParseText(10, %.40q) = %s @%d, want %s", tc.in, x, x.Scale(), tc.want)
		}
	}
	bad := []string{"1.", ".5", "1e5", "1E10", " 1", "1 ", "0.00000000001", "pi", "0x11", "2.", "1L", "+-1", "",
		"+", "-", "1.5.", "١", // Arabic-Indic digit: not ASCII
		"123456789012345678901234567890", strings.Repeat("1", 29), "-" + strings.Repeat("1", 29),
		"+" + strings.Repeat("1", 29), "0." + strings.Repeat("0", 10) + "1", "42" + strings.Repeat("0", 24) + "2019",
		strings.Repeat("1", 100000)}
	for _, s := range bad {
		if x, good := ParseText(10, s); good {
			t.Errorf("ParseText(10, %.40q) = %s, want None", s, x)
		}
	}
	// scale bounds
	if _, good := ParseText(0, strings.Repeat("9", 38)); !good {
		t.Error("38 nines at scale 0 rejected")
	}
	if _, good := ParseText(37, "9.9999999999999999999999999999999999999"); !good {
		t.Error("max at scale 37 rejected")
	}
	if _, good := ParseText(37, "10"); good {
		t.Error("10 at scale 37 accepted")
	}
	if _, good := ParseText(38, "1"); good {
		t.Error("scale 38 accepted")
	}
}

func mustAE(t *testing.T, err error, kind *Error) {
	t.Helper()
	if !errors.Is(err, kind) {
		t.Errorf("err = %v, want %v", err, kind.Msg)
	}
}

func TestAddSub(t *testing.T) {
	x, err := n(t, "1.5", 10).Add(n(t, "-2.25", 10))
	if err != nil || x.String() != "-0.75" {
		t.Errorf("1.5 + -2.25 = %v, %v", x, err)
	}
	x, err = n(t, "-1.5", 10).Sub(n(t, "-1.5", 10))
	if err != nil || x != Zero(10) {
		t.Errorf("-1.5 - -1.5 = %#v, %v", x, err)
	}
	for s := 0; s <= MaxScale; s++ {
		one, _ := FromInt64(s, 0)
		one, _ = one.Add(Numeric{mag: u128{lo: 1}, scale: uint8(s)})
		_, err := MaxValue(s).Add(one)
		mustAE(t, err, ErrOverflow)
		_, err = MinValue(s).Sub(one)
		mustAE(t, err, ErrOverflow)
		y, err := MaxValue(s).Sub(one)
		if err != nil || y.Cmp(MaxValue(s)) >= 0 {
			t.Errorf("max-ulp at %d: %v %v", s, y, err)
		}
		y, err = MaxValue(s).Add(MinValue(s))
		if err != nil || !y.IsZero() {
			t.Errorf("max+min at %d: %v %v", s, y, err)
		}
	}
	_, err = Zero(1).Add(Zero(2))
	mustAE(t, err, ErrScaleMismatch)
}

func TestMulDivRound(t *testing.T) {
	type tc struct {
		op     string
		x, y   string
		sx, sy int
		out    int
		want   string // "" means error
	}
	tests := []tc{
		// NumericModule.multiply and divide, rounding half-even to the
		// output scale
		{"mul", "1.5", "2.25", 10, 10, 10, "3.3750000000"},
		{"div", "2.0", "3.0", 10, 10, 10, "0.6666666667"},
		{"div", "1.0", "8.0", 10, 10, 2, "0.12"},
		{"div", "3.0", "8.0", 10, 10, 2, "0.38"},
		{"div", "-1.0", "8.0", 10, 10, 2, "-0.12"},
		{"div", "-5", "2", 0, 0, 0, "-2."},
		{"div", "-7", "2", 0, 0, 0, "-4."},
		{"div", "1", "3", 0, 0, 37, "0.3333333333333333333333333333333333333"},
		{"div", "1", "0.0000000000000000000000000000000000001", 0, 37, 0, "10000000000000000000000000000000000000."},
		{"div", "10", "0.0000000000000000000000000000000000001", 0, 37, 0, ""},
		{"div", "1", "0", 0, 0, 0, ""},
		{"div", "0", "0", 10, 10, 10, ""},
		{"div", "99999999999999999999999999999999999999", "99999999999999999999999999999999999999", 0, 0, 37, "1.0000000000000000000000000000000000000"},
		{"div", "99999999999999999999999999999999999999", "3", 0, 0, 0, "33333333333333333333333333333333333333."},
		{"div", "99999999999999999999999999999999999999", "0.1", 0, 1, 0, ""},
		{"mul", "0.05", "0.5", 2, 1, 2, "0.02"},
		{"mul", "0.15", "0.5", 2, 1, 2, "0.08"},
		{"mul", "-0.15", "0.5", 2, 1, 2, "-0.08"},
		{"mul", "9999999999999999999.9999999999999999999", "9999999999999999999.9999999999999999999", 19, 19, 0, "99999999999999999999999999999999999998."},
		{"mul", "9999999999999999999.9999999999999999999", "10000000000000000001", 19, 0, 0, ""},
		{"mul", "9.9999999999999999999999999999999999999", "9.9999999999999999999999999999999999999", 37, 37, 36, "99.999999999999999999999999999999999998"},
		{"mul", "9.9999999999999999999999999999999999999", "9.9999999999999999999999999999999999999", 37, 37, 37, ""},
		{"mul", "0.0000000000000000000000000000000000001", "0.0000000000000000000000000000000000005", 37, 37, 37, "0.0000000000000000000000000000000000000"},
		{"mul", "3", "4", 0, 0, 37, ""},
		{"mul", "3", "3", 0, 0, 36, "9.000000000000000000000000000000000000"},
		{"mul", "12345678901234567890123456789", "1", 0, 0, 9, "12345678901234567890123456789.000000000"},
		// ROUND_NUMERIC: y holds d
		{"round", "2.5", "0", 10, 0, 10, "2.0000000000"},
		{"round", "3.5", "0", 10, 0, 10, "4.0000000000"},
		{"round", "-2.5", "0", 10, 0, 10, "-2.0000000000"},
		{"round", "-3.5", "0", 10, 0, 10, "-4.0000000000"},
		{"round", "2.5000000001", "0", 10, 0, 10, "3.0000000000"},
		{"round", "15.0", "-1", 10, 0, 10, "20.0000000000"},
		{"round", "25.0", "-1", 10, 0, 10, "20.0000000000"},
		{"round", "1.2345", "10", 10, 0, 10, "1.2345000000"},
		{"round", "1.2345", "11", 10, 0, 10, ""},
		{"round", "1.2345", "-28", 10, 0, 10, ""},
		{"round", "1.2345", "-27", 10, 0, 10, "0E-10"},
		{"round", "500000000000000000000000000", "-27", 10, 0, 10, "0E-10"},
		{"round", "500000000000000000000000000.0000000001", "-27", 10, 0, 10, "1000000000000000000000000000"},
		{"round", "1500000000000000000000000000", "-27", 10, 0, 10, "2000000000000000000000000000"},
		{"round", "9500000000000000000000000000", "-27", 10, 0, 10, ""},
		{"round", "9999999999999999999999999999.9", "0", 10, 0, 10, ""},
		{"round", "99999999999999999999999999999999999999", "-1", 0, 0, 0, ""},
		{"round", "99999999999999999999999999999999999994", "-1", 0, 0, 0, "99999999999999999999999999999999999990."},
	}
	for _, c := range tests {
		x := n(t, c.x, c.sx)
		var got Numeric
		var err error
		switch c.op {
		case "mul":
			got, err = x.Mul(n(t, c.y, c.sy), c.out)
		case "div":
			got, err = x.Div(n(t, c.y, c.sy), c.out)
		case "round":
			d, _ := new(big.Int).SetString(c.y, 10)
			got, err = x.Round(d.Int64())
		}
		if c.want == "" {
			if err == nil {
				t.Errorf("%s %s %s @%d = %s, want error", c.op, c.x, c.y, c.out, got.ScaledString())
			}
			continue
		}
		want := c.want
		if strings.HasPrefix(want, "0E-") { // zero at the output scale
			want = Zero(c.out).ScaledString()
		} else if !strings.Contains(want, ".") {
			want = n(t, want, c.out).ScaledString()
		}
		if err != nil || got.ScaledString() != want || got.Scale() != c.out {
			t.Errorf("%s %s %s @%d = %s (scale %d), %v; want %s", c.op, c.x, c.y, c.out, got.ScaledString(), got.Scale(), err, want)
		}
	}
	_, err := Zero(10).Div(Zero(10), 10)
	mustAE(t, err, ErrDivisionByZero)
	_, err = Zero(10).Round(11)
	mustAE(t, err, ErrBadScale)
	_, err = Zero(10).Mul(Zero(10), 38)
	mustAE(t, err, ErrBadScale)
}

// TestArithmeticAgainstBig cross-checks Mul, Div, Round and Cast with a
// math/big reference on random operands of random scales.
func TestArithmeticAgainstBig(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	randNum := func() (Numeric, *big.Int) {
		s := r.IntN(MaxScale + 1)
		digits := r.IntN(39)
		u := new(big.Int)
		for range digits {
			u.Mul(u, big.NewInt(10))
			u.Add(u, big.NewInt(int64(r.IntN(10))))
		}
		if r.IntN(2) == 0 {
			u.Neg(u)
		}
		x, err := FromBig(u, s)
		if err != nil {
			t.Fatal(err)
		}
		return x, u
	}
	// ref returns round_half_even(num/den) as a Numeric at scale, or ok=false.
	ref := func(num, den *big.Int, scale int) (string, bool) {
		neg := (num.Sign() < 0) != (den.Sign() < 0)
		a, b := new(big.Int).Abs(num), new(big.Int).Abs(den)
		q, rem := new(big.Int).QuoRem(a, b, new(big.Int))
		rem.Lsh(rem, 1)
		if c := rem.Cmp(b); c > 0 || c == 0 && q.Bit(0) == 1 {
			q.Add(q, big.NewInt(1))
		}
		if neg {
			q.Neg(q)
		}
		x, err := FromBig(q, scale)
		if err != nil {
			return "", false
		}
		return x.ScaledString(), true
	}
	for range 20000 {
		x, xu := randNum()
		y, yu := randNum()
		out := r.IntN(MaxScale + 1)
		// mul: xu*yu / 10^(sx+sy-out)
		num := new(big.Int).Mul(xu, yu)
		den := big.NewInt(1)
		if k := x.Scale() + y.Scale() - out; k >= 0 {
			den = bigPow10(k)
		} else {
			num.Mul(num, bigPow10(-k))
		}
		want, wantOK := ref(num, den, out)
		got, err := x.Mul(y, out)
		if (err == nil) != wantOK || wantOK && got.ScaledString() != want {
			t.Fatalf("Mul(%s, %s, %d) = %s, %v; want %s, %v", x.ScaledString(), y.ScaledString(), out, got.ScaledString(), err, want, wantOK)
		}
		// div: xu*10^(out-sx+sy) / yu
		if yu.Sign() != 0 {
			num = new(big.Int).Set(xu)
			den = new(big.Int).Set(yu)
			if e := out - x.Scale() + y.Scale(); e >= 0 {
				num.Mul(num, bigPow10(e))
			} else {
				den.Mul(den, bigPow10(-e))
			}
			want, wantOK = ref(num, den, out)
			got, err = x.Div(y, out)
			if (err == nil) != wantOK || wantOK && got.ScaledString() != want {
				t.Fatalf("Div(%s, %s, %d) = %s, %v; want %s, %v", x.ScaledString(), y.ScaledString(), out, got.ScaledString(), err, want, wantOK)
			}
		}
		// round to d in (s-38, s]
		d := x.Scale() - r.IntN(38)
		k := x.Scale() - d
		want, wantOK = ref(xu, bigPow10(k), x.Scale())
		if wantOK {
			q, _ := FromBig(mustBig(t, want, x.Scale()), x.Scale())
			u := new(big.Int).Mul(q.Unscaled(), bigPow10(k))
			rq, err := FromBig(u, x.Scale())
			want, wantOK = rq.ScaledString(), err == nil
		}
		got, err = x.Round(int64(d))
		if (err == nil) != wantOK || wantOK && got.ScaledString() != want {
			t.Fatalf("Round(%s, %d) = %s, %v; want %s, %v", x.ScaledString(), d, got.ScaledString(), err, want, wantOK)
		}
		// cast to out
		got, err = x.Cast(out)
		var castOK bool
		var castWant string
		if e := out - x.Scale(); e >= 0 {
			c, err := FromBig(new(big.Int).Mul(xu, bigPow10(e)), out)
			castOK, castWant = err == nil, c.ScaledString()
		} else if q, rem := new(big.Int).QuoRem(xu, bigPow10(-e), new(big.Int)); rem.Sign() == 0 {
			c, err := FromBig(q, out)
			castOK, castWant = err == nil, c.ScaledString()
		}
		if (err == nil) != castOK || castOK && got.ScaledString() != castWant {
			t.Fatalf("Cast(%s, %d) = %s, %v; want %s, %v", x.ScaledString(), out, got.ScaledString(), err, castWant, castOK)
		}
		// Cmp against big
		yc, _ := FromBig(yu, x.Scale())
		if c := x.Cmp(yc); c != xu.Cmp(yu) {
			t.Fatalf("Cmp(%s, %s) = %d", x.ScaledString(), yc.ScaledString(), c)
		}
		// text round trips
		if back, ok := ParseText(x.Scale(), x.String()); !ok || back != x {
			t.Fatalf("ParseText(String(%s)) = %v, %v", x.ScaledString(), back, ok)
		}
	}
}

func mustBig(t *testing.T, scaled string, scale int) *big.Int {
	t.Helper()
	x, err := Parse(scaled)
	if err != nil || x.Scale() != scale {
		t.Fatalf("Parse(%q): %v", scaled, err)
	}
	return x.Unscaled()
}

func TestCastShift(t *testing.T) {
	// Speedy SBuiltinTest CAST_NUMERIC tables: (input scale, output scale, x)
	fail := []struct {
		in, out int
		x       string
		kind    *Error
	}{
		{0, 1, MaxValue(0).ScaledString(), ErrOverflow},
		{0, 37, "10.", ErrOverflow},
		{20, 30, tenPow(15), ErrOverflow},
		{36, 37, MinValue(36).ScaledString(), ErrOverflow},
		{1, 0, tenPow(-1), ErrPrecisionLoss},
		{37, 0, tenPow(-37), ErrPrecisionLoss},
		{20, 10, "-" + tenPow(-15), ErrPrecisionLoss},
		{37, 36, tenPow(-37), ErrPrecisionLoss},
	}
	for _, c := range fail {
		_, err := n(t, c.x, c.in).Cast(c.out)
		if !errors.Is(err, c.kind) {
			t.Errorf("Cast @%d→@%d %s: err %v, want %s", c.in, c.out, c.x, err, c.kind.Msg)
		}
	}
	good := []struct {
		in, out int
		x       string
	}{{1, 0, "1.0"}, {10, 20, tenPow(-5)}, {20, 10, tenPow(-5)}, {10, 20, tenPow(10)}, {20, 10, tenPow(10)}}
	for _, c := range good {
		got, err := n(t, c.x, c.in).Cast(c.out)
		if err != nil || got != n(t, c.x, c.out) {
			t.Errorf("Cast @%d→@%d %s = %v, %v", c.in, c.out, c.x, got, err)
		}
	}
	// SHIFT_NUMERIC table: (in, out, input, output)
	shifts := []struct {
		in, out       int
		input, output string
	}{
		{0, 1, MaxValue(0).ScaledString(), MaxValue(1).ScaledString()},
		{0, 37, tenPow(1), tenPow(-36)},
		{20, 30, tenPow(15), tenPow(5)},
		{20, 10, tenPow(15), tenPow(25)},
		{10, 20, tenPow(-5), tenPow(-15)},
		{20, 10, tenPow(-5), tenPow(5)},
		{10, 20, tenPow(10), tenPow(0)},
		{20, 10, tenPow(10), tenPow(20)},
		{10, 5, "1.23456789", "123456.789"},
	}
	for _, c := range shifts {
		got := n(t, c.input, c.in).Shift(c.out)
		if want := n(t, c.output, c.out); got != want {
			t.Errorf("Shift @%d→@%d %s = %s, want %s", c.in, c.out, c.input, got.ScaledString(), want.ScaledString())
		}
	}
}

func TestInt64Conversions(t *testing.T) {
	tests := []struct {
		scale int
		i     int64
		want  string // "" = overflow
	}{
		{0, math.MaxInt64, "9223372036854775807."},
		{0, math.MinInt64, "-9223372036854775808."},
		{10, -1, "-1.0000000000"},
		{19, math.MaxInt64, "9223372036854775807.0000000000000000000"},
		{20, math.MaxInt64, ""},
		{20, 999999999999999999, "999999999999999999.00000000000000000000"},
		{21, 1000000000000000000, ""},
		{37, 9, "9.0000000000000000000000000000000000000"},
		{37, 10, ""},
		{37, -10, ""},
		{37, 0, "0.0000000000000000000000000000000000000"},
	}
	for _, c := range tests {
		got, err := FromInt64(c.scale, c.i)
		if c.want == "" {
			mustAE(t, err, ErrOverflow)
			continue
		}
		if err != nil || got.ScaledString() != c.want {
			t.Errorf("FromInt64(%d, %d) = %s, %v; want %s", c.scale, c.i, got.ScaledString(), err, c.want)
			continue
		}
		back, err := got.ToInt64()
		if err != nil || back != c.i {
			t.Errorf("ToInt64(%s) = %d, %v", c.want, back, err)
		}
	}
	trunc := []struct {
		x     string
		scale int
		want  int64
		fails bool
	}{
		{"1.9", 1, 1, false}, {"-1.9", 1, -1, false}, {"-0.5", 1, 0, false},
		{"9223372036854775807.9999999999", 10, math.MaxInt64, false},
		{"-9223372036854775808.9999999999", 10, math.MinInt64, false},
		{"9223372036854775808", 10, 0, true},
		{"-9223372036854775809", 10, 0, true},
		{strings.Repeat("9", 38), 0, 0, true},
	}
	for _, c := range trunc {
		got, err := n(t, c.x, c.scale).ToInt64()
		if c.fails {
			mustAE(t, err, ErrInt64Range)
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("ToInt64(%s) = %d, %v; want %d", c.x, got, err, c.want)
		}
	}
}

func TestArithmeticErrorMessage(t *testing.T) {
	tests := []struct {
		e    *ArithmeticError
		want string
	}{
		{NewArithmeticError("ADD_INT64", nil, "9223372036854775807", "1"), "ArithmeticError while evaluating (ADD_INT64 9223372036854775807 1)."},
		{NewArithmeticError("DIV_NUMERIC", ErrDivisionByZero, Zero(10).String(), n(t, "1", 10).String(), Zero(10).String()), "ArithmeticError while evaluating (DIV_NUMERIC 0.0 1.0 0.0)."},
		{NewArithmeticError("UNIX_DAYS_TO_DATE", nil, "9223372036854775807"), "ArithmeticError while evaluating (UNIX_DAYS_TO_DATE 9223372036854775807)."},
	}
	for _, c := range tests {
		if diff := cmp.Diff(c.want, c.e.Message()); diff != "" {
			t.Errorf("message (-want +got):\n%s", diff)
		}
		if c.e.Error() != c.want {
			t.Errorf("Error() = %q", c.e.Error())
		}
	}
	if !errors.Is(tests[1].e, ErrDivisionByZero) {
		t.Error("ArithmeticError does not unwrap to its cause")
	}
}

func TestZeroValueAndEquality(t *testing.T) {
	var z Numeric
	if z != Zero(0) || z.String() != "0.0" || z.Sign() != 0 {
		t.Errorf("zero value = %#v %q", z, z.String())
	}
	if Zero(1) == Zero(2) {
		t.Error("zeros of different scales are ==")
	}
	if n(t, "-0", 3) != Zero(3) || n(t, "1", 3).Neg().Neg() != n(t, "1", 3) || Zero(3).Neg() != Zero(3) {
		t.Error("negative zero is not canonical")
	}
	if got := n(t, "0.5", 1).Cmp(n(t, "0.50", 2)); got != 0 {
		t.Errorf("cross-scale Cmp = %d", got)
	}
	if _, err := FromUnscaled(1, 38); !errors.Is(err, ErrBadScale) {
		t.Error("scale 38 accepted")
	}
	if _, err := FromBig(bigPow10(38), 0); !errors.Is(err, ErrOverflow) {
		t.Error("10^38 accepted")
	}
}
