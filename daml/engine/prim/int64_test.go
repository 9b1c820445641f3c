package prim

import (
	"errors"
	"math"
	"math/big"
	"strings"
	"testing"
)

func wantAE(t *testing.T, err error, msg string) {
	t.Helper()
	var ae *ArithmeticError
	if !errors.As(err, &ae) {
		t.Fatalf("err = %v, want ArithmeticError %q", err, msg)
	}
	if ae.Message() != msg {
		t.Errorf("message = %q, want %q", ae.Message(), msg)
	}
}

func TestInt64Arithmetic(t *testing.T) {
	type op func(x, y int64) (int64, error)
	ops := map[string]op{
		"ADD_INT64": AddInt64, "SUB_INT64": SubInt64, "MUL_INT64": MulInt64,
		"DIV_INT64": DivInt64, "MOD_INT64": ModInt64, "EXP_INT64": ExpInt64,
	}
	tests := []struct {
		name string
		x, y int64
		want int64
		fail bool
	}{
		{"ADD_INT64", math.MaxInt64, 1, 0, true},
		{"ADD_INT64", math.MinInt64, -1, 0, true},
		{"ADD_INT64", math.MaxInt64, math.MinInt64, -1, false},
		{"ADD_INT64", 2, 3, 5, false},
		{"SUB_INT64", math.MinInt64, 1, 0, true},
		{"SUB_INT64", 0, math.MinInt64, 0, true},
		{"SUB_INT64", -1, math.MinInt64, math.MaxInt64, false},
		{"SUB_INT64", math.MaxInt64, -1, 0, true},
		{"MUL_INT64", math.MaxInt64, 2, 0, true},
		{"MUL_INT64", math.MinInt64, -1, 0, true},
		{"MUL_INT64", -1, math.MinInt64, 0, true},
		{"MUL_INT64", math.MinInt64, 1, math.MinInt64, false},
		{"MUL_INT64", 1 << 31, 1 << 32, 0, true},
		{"MUL_INT64", -(1 << 31), 1 << 32, math.MinInt64, false},
		{"MUL_INT64", 3037000499, 3037000499, 9223372030926249001, false},
		{"MUL_INT64", 3037000500, 3037000500, 0, true},
		{"MUL_INT64", -3037000500, 3037000500, 0, true},
		{"DIV_INT64", 7, 2, 3, false},
		{"DIV_INT64", -7, 2, -3, false},
		{"DIV_INT64", 7, -2, -3, false},
		{"DIV_INT64", 1, 0, 0, true},
		{"DIV_INT64", math.MinInt64, -1, 0, true},
		{"DIV_INT64", math.MinInt64, 1, math.MinInt64, false},
		{"MOD_INT64", -7, 2, -1, false},
		{"MOD_INT64", 7, -2, 1, false},
		{"MOD_INT64", math.MinInt64, -1, 0, false},
		{"MOD_INT64", 5, 0, 0, true},
		{"EXP_INT64", 0, 0, 1, false},
		{"EXP_INT64", 5, 0, 1, false},
		{"EXP_INT64", 2, 62, 1 << 62, false},
		{"EXP_INT64", 2, 63, 0, true},
		{"EXP_INT64", -2, 63, math.MinInt64, false},
		{"EXP_INT64", -2, 64, 0, true},
		{"EXP_INT64", 3, 39, 4052555153018976267, false},
		{"EXP_INT64", 3, 40, 0, true},
		{"EXP_INT64", 2, -1, 0, true},
		{"EXP_INT64", 1, math.MaxInt64, 1, false},
		{"EXP_INT64", -1, math.MaxInt64, -1, false},
		{"EXP_INT64", 0, math.MaxInt64, 0, false},
		{"EXP_INT64", 10, 18, 1000000000000000000, false},
	}
	for _, tc := range tests {
		got, err := ops[tc.name](tc.x, tc.y)
		if tc.fail {
			wantAE(t, err, "ArithmeticError while evaluating ("+tc.name+" "+Int64ToText(tc.x)+" "+Int64ToText(tc.y)+").")
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s %d %d = %d, %v; want %d", tc.name, tc.x, tc.y, got, err, tc.want)
		}
	}
	// the exact messages of Speedy's ArithmeticError (Canton's
	// speedy/ExceptionTest.scala)
	_, err := AddInt64(math.MaxInt64, 1)
	wantAE(t, err, "ArithmeticError while evaluating (ADD_INT64 9223372036854775807 1).")
	_, err = DivInt64(1, 0)
	wantAE(t, err, "ArithmeticError while evaluating (DIV_INT64 1 0).")
}

// TestInt64AgainstBig checks overflow detection on many operand pairs.
func TestInt64AgainstBig(t *testing.T) {
	vals := []int64{0, 1, -1, 2, -2, 3, 7, -7, 1 << 31, -(1 << 31), 3037000499, 3037000500, -3037000500,
		1<<62 - 1, 1 << 62, -(1 << 62), math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1}
	fits := func(b *big.Int) bool { return b.IsInt64() }
	for _, x := range vals {
		for _, y := range vals {
			bx, by := big.NewInt(x), big.NewInt(y)
			check := func(name string, got int64, err error, want *big.Int) {
				if fits(want) != (err == nil) || err == nil && got != want.Int64() {
					t.Errorf("%s %d %d = %d, %v; want %s", name, x, y, got, err, want)
				}
			}
			got, err := AddInt64(x, y)
			check("add", got, err, new(big.Int).Add(bx, by))
			got, err = SubInt64(x, y)
			check("sub", got, err, new(big.Int).Sub(bx, by))
			got, err = MulInt64(x, y)
			check("mul", got, err, new(big.Int).Mul(bx, by))
			if y != 0 {
				got, err = DivInt64(x, y)
				check("div", got, err, new(big.Int).Quo(bx, by))
				got, err = ModInt64(x, y)
				check("mod", got, err, new(big.Int).Rem(bx, by))
			}
		}
	}
}

func TestTextInt64(t *testing.T) {
	good := map[string]int64{
		"+7": 7, "007": 7, "-9223372036854775808": math.MinInt64, "-9223372036854775807": -9223372036854775807,
		"-22": -22, "0": 0, "42": 42, "9223372036854775806": 9223372036854775806, "9223372036854775807": math.MaxInt64,
		"+9223372036854775807": math.MaxInt64, "01": 1, strings.Repeat("0", 20) + "42": 42, "-003": -3, "-0": 0,
		strings.Repeat("0", 100000) + "1": 1,
	}
	for s, want := range good {
		got, ok := TextToInt64(s)
		if !ok || got != want {
			t.Errorf("TextToInt64(%.30q) = %d, %v; want %d", s, got, ok, want)
		}
	}
	bad := []string{" 7", "7 ", "1.0", "9223372036854775808", "pi", "0x11", "2.", "1L", "+-1", "9223372036854775809",
		"-9223372036854775809", "-9223372036854775810", strings.Repeat("1", 20), "", "+", "-", "١", "１",
		strings.Repeat("1", 100000)}
	for _, s := range bad {
		if got, ok := TextToInt64(s); ok {
			t.Errorf("TextToInt64(%.30q) = %d, want None", s, got)
		}
	}
	for _, i := range []int64{0, -1, 42, math.MaxInt64, math.MinInt64} {
		if back, ok := TextToInt64(Int64ToText(i)); !ok || back != i {
			t.Errorf("round trip %d", i)
		}
	}
	if Int64ToText(-5) != "-5" || Int64ToText(5) != "5" {
		t.Error("INT64_TO_TEXT form")
	}
}
