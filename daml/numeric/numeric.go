// Package numeric implements Daml-LF's Numeric type: a fixed-scale decimal
// with at most 38 significant digits and a scale between 0 and 37, with the
// exact arithmetic, rounding and text forms of Canton's Speedy engine.
//
// A Numeric n value x satisfies |x| < 10^(38-n) and has exactly n decimals.
// The representation is a small value type (a 128-bit magnitude, a sign and
// the scale): it is comparable with ==, usable as a map key, and the common
// operations allocate nothing. Operations that cannot be done in 256-bit
// fixed width fall back to math/big.
//
// Errors are *Error values whose Kind says what went wrong; the builtin
// layer (daml/engine/prim) turns them into the ArithmeticError that Speedy
// throws, built with NewArithmeticError.
package numeric

import (
	"math/big"
)

const (
	// MaxPrecision is the maximal number of significant digits of a Numeric.
	MaxPrecision = 38
	// MaxScale is the largest valid scale (Numeric 37); 1 must be
	// representable at every scale, so 38 is excluded.
	MaxScale = 37
)

// Numeric is a Daml-LF decimal of a fixed scale. The zero value is 0 at
// scale 0. Two Numerics are == iff they have the same scale and value.
type Numeric struct {
	mag   u128 // |unscaled value|, < 10^38
	neg   bool // never true for zero
	scale uint8
}

// ValidScale reports whether s is a valid Numeric scale (0 … 37).
func ValidScale(s int) bool { return 0 <= s && s <= MaxScale }

// Zero returns 0 at the given scale. It panics on an invalid scale.
func Zero(scale int) Numeric {
	mustScale(scale)
	return Numeric{scale: uint8(scale)}
}

// MaxValue returns the largest Numeric of the scale: 38 nines.
func MaxValue(scale int) Numeric {
	mustScale(scale)
	return Numeric{mag: pow10[38].sub(u128{lo: 1}), scale: uint8(scale)}
}

// MinValue returns the smallest Numeric of the scale: -(38 nines).
func MinValue(scale int) Numeric {
	n := MaxValue(scale)
	n.neg = true
	return n
}

func mustScale(scale int) {
	if !ValidScale(scale) {
		panic(badScale(scale))
	}
}

func badScale(scale int) *Error {
	return errorf(KindBadScale, "Bad scale %d, must be between 0 and %d", scale, MaxScale)
}

// FromUnscaled returns unscaled × 10^-scale, e.g. FromUnscaled(15, 1) is
// 1.5 at scale 1. It fails with KindBadScale or KindOverflow.
func FromUnscaled(unscaled int64, scale int) (Numeric, error) {
	if !ValidScale(scale) {
		return Numeric{}, badScale(scale)
	}
	return mk(u128{lo: unsignedAbs(unscaled)}, unscaled < 0, scale), nil
}

// FromBig returns unscaled × 10^-scale. It fails with KindBadScale, or
// KindOverflow when unscaled has more than 38 digits.
func FromBig(unscaled *big.Int, scale int) (Numeric, error) {
	if !ValidScale(scale) {
		return Numeric{}, badScale(scale)
	}
	m, ok := bigToU128(unscaled)
	if !ok || m.cmp(pow10[38]) >= 0 {
		return Numeric{}, errorf(KindOverflow, "Out-of-bounds (Numeric %d) %s", scale, bigScaledString(unscaled, scale))
	}
	return mk(m, unscaled.Sign() < 0, scale), nil
}

func mk(m u128, neg bool, scale int) Numeric {
	return Numeric{mag: m, neg: neg && !m.isZero(), scale: uint8(scale)}
}

func unsignedAbs(i int64) uint64 {
	if i < 0 {
		return uint64(-i) // also right for MinInt64
	}
	return uint64(i)
}

// Scale returns the scale n of a Numeric n.
func (x Numeric) Scale() int { return int(x.scale) }

// Sign returns -1, 0 or 1.
func (x Numeric) Sign() int {
	switch {
	case x.mag.isZero():
		return 0
	case x.neg:
		return -1
	}
	return 1
}

// IsZero reports whether x is 0.
func (x Numeric) IsZero() bool { return x.mag.isZero() }

// Unscaled returns the unscaled value: x × 10^scale.
func (x Numeric) Unscaled() *big.Int {
	b := u128ToBig(x.mag)
	if x.neg {
		b.Neg(b)
	}
	return b
}

// Neg returns -x (same scale; never fails).
func (x Numeric) Neg() Numeric {
	x.neg = !x.neg && !x.mag.isZero()
	return x
}

// Cmp compares x and y by value: -1, 0 or 1. Speedy only compares Numerics of
// one scale (the generic order, LESS/EQUAL …); different scales are compared
// by value too.
func (x Numeric) Cmp(y Numeric) int {
	if x.scale != y.scale {
		return x.Unscaled().Mul(x.Unscaled(), bigPow10(int(y.scale))).Cmp(
			y.Unscaled().Mul(y.Unscaled(), bigPow10(int(x.scale))))
	}
	switch {
	case x.neg && !y.neg:
		return -1
	case !x.neg && y.neg:
		return 1
	case x.neg:
		return y.mag.cmp(x.mag)
	}
	return x.mag.cmp(y.mag)
}

// overflow reports whether m has more than 38 digits.
func overflow(m u128) bool { return m.cmp(pow10[38]) >= 0 }

func (x Numeric) overflowErr(scale int, m u128, neg bool) *Error {
	return errorf(KindOverflow, "Out-of-bounds (Numeric %d) %s", scale, bigScaledString(signed(m, neg), scale))
}

func signed(m u128, neg bool) *big.Int {
	b := u128ToBig(m)
	if neg {
		b.Neg(b)
	}
	return b
}

// Add returns x+y (ADD_NUMERIC). Both must have the same scale; the result
// has that scale. It fails with KindOverflow when the sum needs more than 38
// digits, and KindScaleMismatch for operands of different scales.
func (x Numeric) Add(y Numeric) (Numeric, error) {
	if x.scale != y.scale {
		return Numeric{}, scaleMismatch(x, y)
	}
	var m u128
	neg := x.neg
	if x.neg == y.neg {
		m = x.mag.add(y.mag)
	} else if x.mag.cmp(y.mag) >= 0 {
		m = x.mag.sub(y.mag)
	} else {
		m = y.mag.sub(x.mag)
		neg = y.neg
	}
	if overflow(m) {
		return Numeric{}, x.overflowErr(int(x.scale), m, neg)
	}
	return mk(m, neg, int(x.scale)), nil
}

// Sub returns x-y (SUB_NUMERIC), with the rules of Add.
func (x Numeric) Sub(y Numeric) (Numeric, error) {
	return x.Add(y.Neg())
}

func scaleMismatch(x, y Numeric) *Error {
	return errorf(KindScaleMismatch, "scale mismatch: (Numeric %d) vs (Numeric %d)", x.scale, y.scale)
}

// Mul returns x×y at the given scale (MUL_NUMERIC, whose witness argument
// gives the scale): the exact product rounded half to even to scale
// decimals. It fails with KindOverflow when the rounded product needs more
// than 38 digits, and KindBadScale for an invalid scale.
func (x Numeric) Mul(y Numeric, scale int) (Numeric, error) {
	if !ValidScale(scale) {
		return Numeric{}, badScale(scale)
	}
	neg := x.neg != y.neg
	p := x.mag.mul(y.mag) // < 10^76, exact at scale sx+sy
	k := int(x.scale) + int(y.scale) - scale
	if k >= 0 {
		p = p.divPow10HalfEven(k)
	} else {
		var ovf bool
		if p, ovf = p.mulPow10(-k); ovf {
			return Numeric{}, errorf(KindOverflow, "Out-of-bounds (Numeric %d) product", scale)
		}
	}
	m, ok := p.narrow()
	if !ok || overflow(m) {
		return Numeric{}, errorf(KindOverflow, "Out-of-bounds (Numeric %d) %s", scale, u256ScaledString(p, neg, scale))
	}
	return mk(m, neg, scale), nil
}

// Div returns x÷y at the given scale (DIV_NUMERIC, whose witness gives the
// scale): the quotient rounded half to even to scale decimals. It fails
// with KindDivisionByZero, KindOverflow or KindBadScale.
func (x Numeric) Div(y Numeric, scale int) (Numeric, error) {
	if !ValidScale(scale) {
		return Numeric{}, badScale(scale)
	}
	if y.mag.isZero() {
		return Numeric{}, errorf(KindDivisionByZero, "Division by zero")
	}
	neg := x.neg != y.neg
	// q = |x|·10^(scale-sx) / (|y|·10^-sy) = |x|·10^e / |y|
	e := scale - int(x.scale) + int(y.scale)
	var num u256
	var den u128
	if e >= 0 {
		if e > 38 { // |x|·10^e might not fit in 256 bits
			return x.divSlow(y, scale, e, neg)
		}
		num, _ = x.mag.wide().mulPow10(e) // < 10^76: no overflow
		den = y.mag
	} else {
		d, ovf := y.mag.wide().mulPow10(-e)
		var fits bool
		den, fits = d.narrow()
		if ovf || !fits {
			return x.divSlow(y, scale, e, neg)
		}
		num = x.mag.wide()
	}
	var q u256
	var r u128
	if den.hi == 0 {
		var r64 uint64
		q, r64 = num.divmod64(den.lo)
		r = u128{lo: r64}
	} else {
		q, r = num.divmod128(den)
	}
	if c := r.cmp(den.sub(r)); c > 0 || c == 0 && q[0]&1 == 1 {
		q = q.inc()
	}
	m, ok := q.narrow()
	if !ok || overflow(m) {
		return Numeric{}, errorf(KindOverflow, "Out-of-bounds (Numeric %d) %s", scale, u256ScaledString(q, neg, scale))
	}
	return mk(m, neg, scale), nil
}

func (x Numeric) divSlow(y Numeric, scale, e int, neg bool) (Numeric, error) {
	num := u128ToBig(x.mag)
	den := u128ToBig(y.mag)
	if e >= 0 {
		num.Mul(num, bigPow10(e))
	} else {
		den.Mul(den, bigPow10(-e))
	}
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	r.Lsh(r, 1)
	if c := r.Cmp(den); c > 0 || c == 0 && q.Bit(0) == 1 {
		q.Add(q, big.NewInt(1))
	}
	m, ok := bigToU128(q)
	if !ok || overflow(m) {
		if neg {
			q.Neg(q)
		}
		return Numeric{}, errorf(KindOverflow, "Out-of-bounds (Numeric %d) %s", scale, bigScaledString(q, scale))
	}
	return mk(m, neg, scale), nil
}

// Round rounds x to d decimal places, half to even, keeping x's scale
// (ROUND_NUMERIC). d may be negative (ROUND_NUMERIC -1 15.0 = 20.0). It
// fails with KindBadScale unless scale-38 < d <= scale, and with
// KindOverflow when the rounded value needs more than 38 digits.
func (x Numeric) Round(d int64) (Numeric, error) {
	s := int64(x.scale)
	if !(d <= s && s-MaxPrecision < d) {
		return Numeric{}, errorf(KindBadScale, "Bad scale %d, must be between %d and %d", d, s-MaxPrecision-1, s)
	}
	k := int(s - d) // 0 … 37
	p := x.mag.wide().divPow10HalfEven(k)
	p, _ = p.mulPow10(k) // < 10^38·10^37: no overflow
	m, ok := p.narrow()
	if !ok || overflow(m) {
		return Numeric{}, errorf(KindOverflow, "Out-of-bounds (Numeric %d) %s", s, u256ScaledString(p, x.neg, int(s)))
	}
	return mk(m, x.neg, int(s)), nil
}

// Cast returns x at another scale without rounding (CAST_NUMERIC, whose
// witness gives the scale). It fails with KindPrecisionLoss when x has
// non-zero digits beyond scale decimals, KindOverflow when x needs more
// than 38 digits at the new scale, and KindBadScale.
func (x Numeric) Cast(scale int) (Numeric, error) {
	if !ValidScale(scale) {
		return Numeric{}, badScale(scale)
	}
	k := scale - int(x.scale)
	switch {
	case k == 0:
		return x, nil
	case k > 0:
		p, _ := x.mag.wide().mulPow10(k)
		m, ok := p.narrow()
		if !ok || overflow(m) {
			return Numeric{}, errorf(KindOverflow, "Out-of-bounds (Numeric %d) %s", scale, u256ScaledString(p, x.neg, scale))
		}
		return mk(m, x.neg, scale), nil
	default:
		p, inexact := x.mag.wide().divPow10Trunc(-k)
		if inexact {
			return Numeric{}, errorf(KindPrecisionLoss, "Cannot represent %s as (Numeric %d) without loss of precision", x.ScaledString(), scale)
		}
		m, _ := p.narrow()
		return mk(m, x.neg, scale), nil
	}
}

// Shift keeps x's unscaled digits and relabels the scale (SHIFT_NUMERIC,
// whose witness gives the scale): the result is x × 10^(x.Scale()-scale).
// It never fails for a valid scale; it panics on an invalid one.
func (x Numeric) Shift(scale int) Numeric {
	mustScale(scale)
	x.scale = uint8(scale)
	return x
}

// FromInt64 returns i at the given scale (INT64_TO_NUMERIC, whose witness
// gives the scale). It fails with KindOverflow when i has more than 38-scale
// digits (e.g. 10^18 at scale 21), and KindBadScale.
func FromInt64(scale int, i int64) (Numeric, error) {
	if !ValidScale(scale) {
		return Numeric{}, badScale(scale)
	}
	p, _ := u128{lo: unsignedAbs(i)}.wide().mulPow10(scale)
	m, ok := p.narrow()
	if !ok || overflow(m) {
		return Numeric{}, errorf(KindOverflow, "Out-of-bounds (Numeric %d) %s", scale, u256ScaledString(p, i < 0, scale))
	}
	return mk(m, i < 0, scale), nil
}

// ToInt64 returns x truncated toward zero (NUMERIC_TO_INT64). It fails with
// KindInt64Range when the integral part does not fit in an Int64.
func (x Numeric) ToInt64() (int64, error) {
	p, _ := x.mag.wide().divPow10Trunc(int(x.scale))
	m, ok := p.narrow()
	switch {
	case ok && m.hi == 0 && !x.neg && m.lo <= 1<<63-1:
		return int64(m.lo), nil
	case ok && m.hi == 0 && x.neg && m.lo <= 1<<63:
		return int64(-m.lo), nil // -2^63 wraps to itself
	}
	return 0, errorf(KindInt64Range, "(Numeric %d) %s does not fit into an Int64", x.scale, x.ScaledString())
}

func bigPow10(k int) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil)
}

func u128ToBig(m u128) *big.Int {
	b := new(big.Int).SetUint64(m.hi)
	b.Lsh(b, 64)
	return b.Or(b, new(big.Int).SetUint64(m.lo))
}

// bigToU128 returns |b| as a u128 and whether it fits.
func bigToU128(b *big.Int) (u128, bool) {
	a := new(big.Int).Abs(b)
	if a.BitLen() > 128 {
		return u128{}, false
	}
	lo := new(big.Int).And(a, new(big.Int).SetUint64(^uint64(0))).Uint64()
	hi := new(big.Int).Rsh(a, 64).Uint64()
	return u128{hi, lo}, true
}

func u256ToBig(a u256, neg bool) *big.Int {
	b := new(big.Int)
	for i := 3; i >= 0; i-- {
		b.Lsh(b, 64)
		b.Or(b, new(big.Int).SetUint64(a[i]))
	}
	if neg {
		b.Neg(b)
	}
	return b
}

func u256ScaledString(a u256, neg bool, scale int) string {
	return bigScaledString(u256ToBig(a, neg), scale)
}
