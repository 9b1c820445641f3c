package prim

import (
	"math"
	"math/bits"
	"strconv"
)

func int64Error(builtin string, args ...int64) *ArithmeticError {
	s := make([]string, len(args))
	for i, a := range args {
		s[i] = strconv.FormatInt(a, 10)
	}
	return &ArithmeticError{Builtin: builtin, Args: s}
}

// AddInt64 implements ADD_INT64: x+y, or an ArithmeticError on overflow.
func AddInt64(x, y int64) (int64, error) {
	z := x + y
	if (x >= 0) == (y >= 0) && (z >= 0) != (x >= 0) {
		return 0, int64Error("ADD_INT64", x, y)
	}
	return z, nil
}

// SubInt64 implements SUB_INT64: x-y, or an ArithmeticError on overflow.
func SubInt64(x, y int64) (int64, error) {
	z := x - y
	if (x >= 0) != (y >= 0) && (z >= 0) != (x >= 0) {
		return 0, int64Error("SUB_INT64", x, y)
	}
	return z, nil
}

// mulExact returns x*y and whether it fits in an int64.
func mulExact(x, y int64) (int64, bool) {
	hi, lo := bits.Mul64(uint64(x), uint64(y))
	// signed 128-bit product: correct the high word for negative operands
	if x < 0 {
		hi -= uint64(y)
	}
	if y < 0 {
		hi -= uint64(x)
	}
	z := int64(lo)
	return z, int64(hi) == z>>63
}

// MulInt64 implements MUL_INT64: x*y, or an ArithmeticError on overflow.
func MulInt64(x, y int64) (int64, error) {
	z, ok := mulExact(x, y)
	if !ok {
		return 0, int64Error("MUL_INT64", x, y)
	}
	return z, nil
}

// DivInt64 implements DIV_INT64: the quotient truncated toward zero, or an
// ArithmeticError when y is 0 or for MinInt64 / -1.
func DivInt64(x, y int64) (int64, error) {
	if y == 0 || x == math.MinInt64 && y == -1 {
		return 0, int64Error("DIV_INT64", x, y)
	}
	return x / y, nil
}

// ModInt64 implements MOD_INT64: the remainder with the sign of the
// dividend (-7 mod 2 = -1), or an ArithmeticError when y is 0.
// MinInt64 mod -1 is 0.
func ModInt64(x, y int64) (int64, error) {
	if y == 0 {
		return 0, int64Error("MOD_INT64", x, y)
	}
	if y == -1 {
		return 0, nil // Go's x % -1 is 0 too, but avoid relying on MinInt64 behaviour
	}
	return x % y, nil
}

// ExpInt64 implements EXP_INT64: base^exponent by squaring; x^0 = 1 (also
// 0^0). An ArithmeticError for a negative exponent or on overflow of any
// intermediate product Speedy computes (as Speedy's loop does, a squaring
// that overflows fails even if its result would not be needed).
func ExpInt64(base, exponent int64) (int64, error) {
	switch {
	case exponent < 0:
		return 0, int64Error("EXP_INT64", base, exponent)
	case exponent == 0:
		return 1, nil
	}
	x, y, n := base, int64(1), exponent
	var ok bool
	for n > 1 {
		if n%2 == 1 {
			if y, ok = mulExact(y, x); !ok {
				return 0, int64Error("EXP_INT64", base, exponent)
			}
		}
		if x, ok = mulExact(x, x); !ok {
			return 0, int64Error("EXP_INT64", base, exponent)
		}
		n >>= 1
	}
	z, ok := mulExact(x, y)
	if !ok {
		return 0, int64Error("EXP_INT64", base, exponent)
	}
	return z, nil
}

// Int64ToText implements INT64_TO_TEXT: decimal, "-" for negatives, no "+".
func Int64ToText(i int64) string { return strconv.FormatInt(i, 10) }

// TextToInt64 implements TEXT_TO_INT64: the whole text must match
// `[+-]?[0-9]+` (ASCII digits; leading zeros allowed, any number of them);
// ok is false on other syntax or when the value does not fit in an Int64.
func TextToInt64(s string) (int64, bool) {
	i := 0
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	if i == len(s) {
		return 0, false
	}
	var mag uint64
	for ; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		if mag > (1<<63)/10 {
			// keep scanning for syntax errors would not change the answer
			return 0, false
		}
		mag = mag*10 + uint64(c-'0')
		if mag > 1<<63 {
			return 0, false
		}
	}
	if neg {
		return int64(-mag), true // -2^63 wraps to itself
	}
	if mag > math.MaxInt64 {
		return 0, false
	}
	return int64(mag), true
}
