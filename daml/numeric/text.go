package numeric

import (
	"math/big"
	"strings"
)

// String returns Daml's text form of x (NUMERIC_TO_TEXT, and the form of
// Numeric arguments in ArithmeticError messages): plain notation, trailing
// zeros of the fraction stripped, ".0" appended when no fraction is left.
// 1.5000000000 gives "1.5", 100 gives "100.0", 0 gives "0.0".
func (x Numeric) String() string {
	var buf [48]byte
	return string(x.AppendText(buf[:0]))
}

// AppendText appends String's form of x to dst.
func (x Numeric) AppendText(dst []byte) []byte {
	dst = x.appendScaled(dst)
	// strip trailing zeros of the fraction, then a dangling point
	if x.scale == 0 {
		return append(dst, '0')
	}
	end := len(dst)
	for dst[end-1] == '0' {
		end--
	}
	if dst[end-1] == '.' {
		end++ // keep one zero: "1.0"
	}
	return dst[:end]
}

// ScaledString returns the canonical scaled form of x, the Ledger API's
// (JSON and gRPC) text form of a Numeric n: exactly n decimals, and a
// trailing "." at scale 0. 1.5 at scale 10 gives "1.5000000000", 42 at
// scale 0 gives "42.", 0 at scale 2 gives "0.00".
func (x Numeric) ScaledString() string {
	var buf [48]byte
	return string(x.appendScaled(buf[:0]))
}

// appendScaled appends the ScaledString form.
func (x Numeric) appendScaled(dst []byte) []byte {
	var digits [40]byte
	d := x.mag.appendDecimal(digits[:0])
	if x.neg {
		dst = append(dst, '-')
	}
	s := int(x.scale)
	if len(d) <= s {
		dst = append(dst, '0', '.')
		for i := len(d); i < s; i++ {
			dst = append(dst, '0')
		}
		return append(dst, d...)
	}
	dst = append(dst, d[:len(d)-s]...)
	dst = append(dst, '.')
	return append(dst, d[len(d)-s:]...)
}

// bigScaledString renders unscaled×10^-scale like ScaledString (Java's
// toPlainString, plus "." at scale 0) for any size; used in messages.
func bigScaledString(unscaled *big.Int, scale int) string {
	neg := unscaled.Sign() < 0
	d := new(big.Int).Abs(unscaled).String()
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	if len(d) <= scale {
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", scale-len(d)))
		b.WriteString(d)
		return b.String()
	}
	b.WriteString(d[:len(d)-scale])
	b.WriteByte('.')
	b.WriteString(d[len(d)-scale:])
	return b.String()
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// Parse reads the canonical scaled form `-?([1-9]\d*|0)\.(\d*)` (LF
// numeric literals, the Ledger API form); the number of decimals is the
// scale. It fails with KindSyntax when the text does not match, has more
// than 37 decimals or more than 38 significant digits (Speedy's
// Numeric.fromString).
func Parse(s string) (Numeric, error) {
	i := 0
	neg := false
	if i < len(s) && s[i] == '-' {
		neg = true
		i++
	}
	intStart := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	intPart := s[intStart:i]
	if intPart == "" || len(intPart) > 1 && intPart[0] == '0' || i >= len(s) || s[i] != '.' {
		return Numeric{}, syntaxErr(s)
	}
	i++
	dec := s[i:]
	for j := 0; j < len(dec); j++ {
		if !isDigit(dec[j]) {
			return Numeric{}, syntaxErr(s)
		}
	}
	scale := len(dec)
	precision := scale
	if intPart != "0" {
		precision += len(intPart)
	}
	if precision > MaxPrecision || scale > MaxScale {
		return Numeric{}, syntaxErr(s)
	}
	m := accumulate(u128{}, intPart)
	m = accumulate(m, dec)
	return mk(m, neg, scale), nil
}

// MustParse is Parse that panics on error; for tests and constants.
func MustParse(s string) Numeric {
	n, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return n
}

func syntaxErr(s string) *Error {
	return errorf(KindSyntax, "Could not read Numeric string %q", s)
}

// accumulate returns m·10^len(digits) + digits; the caller keeps the total
// within 38 digits.
func accumulate(m u128, digits string) u128 {
	for len(digits) > 0 {
		n := min(len(digits), 19)
		var chunk uint64
		for _, c := range []byte(digits[:n]) {
			chunk = chunk*10 + uint64(c-'0')
		}
		m, _ = m.mul64(pow10u64[n])
		m = m.add(u128{lo: chunk})
		digits = digits[n:]
	}
	return m
}

// ParseText implements TEXT_TO_NUMERIC at the given scale (the witness's):
// the whole text must match `[+-]?\d+(\.\d+)?` with ASCII digits (Speedy's
// `([+-]?)0*(\d+)(\.(\d*[1-9]|0)0*)?`, which accepts the same texts), and
// succeeds iff the integer digits without leading zeros number at most
// 38-scale and the decimals without trailing zeros at most scale. Leading
// and trailing zeros are unbounded. ok is false otherwise (and for an
// invalid scale). "-0.0" gives 0.
func ParseText(scale int, s string) (n Numeric, ok bool) {
	if !ValidScale(scale) {
		return Numeric{}, false
	}
	i := 0
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	intStart := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	intPart := s[intStart:i]
	if intPart == "" {
		return Numeric{}, false
	}
	var dec string
	if i < len(s) {
		if s[i] != '.' {
			return Numeric{}, false
		}
		dec = s[i+1:]
		if dec == "" {
			return Numeric{}, false
		}
		for j := 0; j < len(dec); j++ {
			if !isDigit(dec[j]) {
				return Numeric{}, false
			}
		}
	}
	intPart = strings.TrimLeft(intPart, "0")
	dec = strings.TrimRight(dec, "0")
	if len(intPart) > MaxPrecision-scale || len(dec) > scale {
		return Numeric{}, false
	}
	m := accumulate(u128{}, intPart)
	m = accumulate(m, dec)
	w, _ := m.wide().mulPow10(scale - len(dec)) // at most 38 digits
	m, _ = w.narrow()
	return mk(m, neg, scale), true
}
