package prim

import (
	"strconv"

	"github.com/ledgernode/ledgernode/daml/numeric"
)

func numericError(builtin string, cause error, args ...numeric.Numeric) *ArithmeticError {
	s := make([]string, len(args))
	for i, a := range args {
		s[i] = a.String()
	}
	return numeric.NewArithmeticError(builtin, cause, s...)
}

// AddNumeric implements ADD_NUMERIC: x+y at their common scale, or an
// ArithmeticError when the sum needs more than 38 digits.
func AddNumeric(x, y numeric.Numeric) (numeric.Numeric, error) {
	z, err := x.Add(y)
	if err != nil {
		return numeric.Numeric{}, numericError("ADD_NUMERIC", err, x, y)
	}
	return z, nil
}

// SubNumeric implements SUB_NUMERIC: x-y, with AddNumeric's failures.
func SubNumeric(x, y numeric.Numeric) (numeric.Numeric, error) {
	z, err := x.Sub(y)
	if err != nil {
		return numeric.Numeric{}, numericError("SUB_NUMERIC", err, x, y)
	}
	return z, nil
}

// MulNumeric implements MUL_NUMERIC w x y: the product rounded half to even
// to the witness w's scale (w's value is ignored but printed in the error),
// or an ArithmeticError on overflow.
func MulNumeric(w, x, y numeric.Numeric) (numeric.Numeric, error) {
	z, err := x.Mul(y, w.Scale())
	if err != nil {
		return numeric.Numeric{}, numericError("MUL_NUMERIC", err, w, x, y)
	}
	return z, nil
}

// DivNumeric implements DIV_NUMERIC w x y: the quotient rounded half to even
// to w's scale, or an ArithmeticError when y is 0 or on overflow.
func DivNumeric(w, x, y numeric.Numeric) (numeric.Numeric, error) {
	z, err := x.Div(y, w.Scale())
	if err != nil {
		return numeric.Numeric{}, numericError("DIV_NUMERIC", err, w, x, y)
	}
	return z, nil
}

// RoundNumeric implements ROUND_NUMERIC d x: x rounded half to even to d
// decimals (d may be negative), keeping x's scale n; an ArithmeticError
// unless n-38 < d <= n, or on overflow after rounding.
func RoundNumeric(d int64, x numeric.Numeric) (numeric.Numeric, error) {
	z, err := x.Round(d)
	if err != nil {
		return numeric.Numeric{}, numeric.NewArithmeticError("ROUND_NUMERIC", err, strconv.FormatInt(d, 10), x.String())
	}
	return z, nil
}

// CastNumeric implements CAST_NUMERIC w x: x at w's scale, never rounding;
// an ArithmeticError if digits would be lost or on overflow.
func CastNumeric(w, x numeric.Numeric) (numeric.Numeric, error) {
	z, err := x.Cast(w.Scale())
	if err != nil {
		return numeric.Numeric{}, numericError("CAST_NUMERIC", err, w, x)
	}
	return z, nil
}

// ShiftNumeric implements SHIFT_NUMERIC w x: x's unscaled digits relabelled
// with w's scale (x × 10^(x.Scale()-w.Scale())). Never fails.
func ShiftNumeric(w, x numeric.Numeric) numeric.Numeric {
	return x.Shift(w.Scale())
}

// Int64ToNumeric implements INT64_TO_NUMERIC w i: i at w's scale, or an
// ArithmeticError when i has more than 38-scale digits.
func Int64ToNumeric(w numeric.Numeric, i int64) (numeric.Numeric, error) {
	z, err := numeric.FromInt64(w.Scale(), i)
	if err != nil {
		return numeric.Numeric{}, numeric.NewArithmeticError("INT64_TO_NUMERIC", err, w.String(), strconv.FormatInt(i, 10))
	}
	return z, nil
}

// NumericToInt64 implements NUMERIC_TO_INT64: x truncated toward zero, or an
// ArithmeticError when it does not fit in an Int64.
func NumericToInt64(x numeric.Numeric) (int64, error) {
	i, err := x.ToInt64()
	if err != nil {
		return 0, numericError("NUMERIC_TO_INT64", err, x)
	}
	return i, nil
}

// NumericToText implements NUMERIC_TO_TEXT: trailing zeros stripped, at
// least one decimal ("1.5", "100.0", "0.0"); see numeric.Numeric.String.
func NumericToText(x numeric.Numeric) string { return x.String() }

// TextToNumeric implements TEXT_TO_NUMERIC w s: s read at w's scale, ok
// false when it is not `[+-]?\d+(\.\d+)?` or does not fit without loss;
// see numeric.ParseText.
func TextToNumeric(w numeric.Numeric, s string) (numeric.Numeric, bool) {
	return numeric.ParseText(w.Scale(), s)
}
