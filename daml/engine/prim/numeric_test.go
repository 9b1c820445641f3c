package prim

import (
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/daml/numeric"
)

func num(t *testing.T, s string, scale int) numeric.Numeric {
	t.Helper()
	x, ok := numeric.ParseText(scale, s)
	if !ok {
		t.Fatalf("bad numeric %q @%d", s, scale)
	}
	return x
}

func TestNumericBuiltins(t *testing.T) {
	w10 := numeric.Zero(10)
	one := num(t, "1", 10)
	got, err := MulNumeric(w10, num(t, "1.5", 10), num(t, "2.25", 10))
	if err != nil || got.ScaledString() != "3.3750000000" {
		t.Errorf("MUL_NUMERIC = %s, %v", got.ScaledString(), err)
	}
	got, err = DivNumeric(w10, num(t, "2", 10), num(t, "3", 10))
	if err != nil || got.ScaledString() != "0.6666666667" {
		t.Errorf("DIV_NUMERIC = %s, %v", got.ScaledString(), err)
	}
	got, err = DivNumeric(numeric.Zero(2), num(t, "1", 10), num(t, "8", 10))
	if err != nil || got.ScaledString() != "0.12" {
		t.Errorf("DIV_NUMERIC @2 = %s, %v", got.ScaledString(), err)
	}
	// the type witness is printed first, as Speedy's ArithmeticError
	// messages print the builtin's arguments
	_, err = DivNumeric(w10, one, numeric.Zero(10))
	wantAE(t, err, "ArithmeticError while evaluating (DIV_NUMERIC 0.0 1.0 0.0).")
	_, err = AddNumeric(numeric.MaxValue(10), one)
	wantAE(t, err, "ArithmeticError while evaluating (ADD_NUMERIC 9999999999999999999999999999.9999999999 1.0).")
	_, err = SubNumeric(numeric.MinValue(0), num(t, "1", 0))
	wantAE(t, err, "ArithmeticError while evaluating (SUB_NUMERIC -99999999999999999999999999999999999999.0 1.0).")
	_, err = MulNumeric(w10, numeric.MaxValue(10), num(t, "2", 10))
	wantAE(t, err, "ArithmeticError while evaluating (MUL_NUMERIC 0.0 9999999999999999999999999999.9999999999 2.0).")
	_, err = RoundNumeric(11, num(t, "1.25", 10))
	wantAE(t, err, "ArithmeticError while evaluating (ROUND_NUMERIC 11 1.25).")
	got, err = RoundNumeric(-1, num(t, "15", 10))
	if err != nil || got.String() != "20.0" {
		t.Errorf("ROUND_NUMERIC -1 15.0 = %s, %v", got, err)
	}
	_, err = CastNumeric(numeric.Zero(0), num(t, "0.5", 10))
	wantAE(t, err, "ArithmeticError while evaluating (CAST_NUMERIC 0.0 0.5).")
	got = ShiftNumeric(numeric.Zero(5), num(t, "1.23456789", 10))
	if got.ScaledString() != "123456.78900" {
		t.Errorf("SHIFT_NUMERIC = %s", got.ScaledString())
	}
	_, err = Int64ToNumeric(numeric.Zero(21), 1000000000000000000)
	wantAE(t, err, "ArithmeticError while evaluating (INT64_TO_NUMERIC 0.0 1000000000000000000).")
	_, err = NumericToInt64(num(t, "1"+strings.Repeat("0", 20), 10))
	wantAE(t, err, "ArithmeticError while evaluating (NUMERIC_TO_INT64 100000000000000000000.0).")
	i, err := NumericToInt64(num(t, "-2.9", 10))
	if err != nil || i != -2 {
		t.Errorf("NUMERIC_TO_INT64 -2.9 = %d, %v", i, err)
	}
	if s := NumericToText(num(t, "1.5", 10)); s != "1.5" {
		t.Errorf("NUMERIC_TO_TEXT = %q", s)
	}
	if x, ok := TextToNumeric(w10, "001.50000000000000"); !ok || x.String() != "1.5" || x.Scale() != 10 {
		t.Errorf("TEXT_TO_NUMERIC = %v, %v", x, ok)
	}
}
