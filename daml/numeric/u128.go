package numeric

import "math/bits"

// u128 is an unsigned 128-bit integer; every Numeric magnitude (< 10^38 < 2^127)
// fits in one, so the common paths of the arithmetic need no heap allocation.
type u128 struct{ hi, lo uint64 }

// u256 is an unsigned 256-bit integer, least significant limb first. It holds
// intermediate products (< 10^76 < 2^256).
type u256 [4]uint64

// pow10 holds 10^0 … 10^38.
var pow10 [39]u128

// pow10u64 holds 10^0 … 10^19 (the powers that fit in a uint64).
var pow10u64 [20]uint64

func init() {
	p := u128{lo: 1}
	for i := range pow10 {
		pow10[i] = p
		p, _ = p.mul64(10)
	}
	v := uint64(1)
	for i := range pow10u64 {
		pow10u64[i] = v
		v *= 10
	}
}

func (a u128) isZero() bool { return a.hi == 0 && a.lo == 0 }

func (a u128) cmp(b u128) int {
	switch {
	case a.hi < b.hi:
		return -1
	case a.hi > b.hi:
		return 1
	case a.lo < b.lo:
		return -1
	case a.lo > b.lo:
		return 1
	}
	return 0
}

// add returns a+b; the caller guarantees no overflow beyond 128 bits (both
// operands are below 2^127).
func (a u128) add(b u128) u128 {
	lo, c := bits.Add64(a.lo, b.lo, 0)
	hi, _ := bits.Add64(a.hi, b.hi, c)
	return u128{hi, lo}
}

// sub returns a-b; the caller guarantees a >= b.
func (a u128) sub(b u128) u128 {
	lo, br := bits.Sub64(a.lo, b.lo, 0)
	hi, _ := bits.Sub64(a.hi, b.hi, br)
	return u128{hi, lo}
}

// mul64 returns a*b and whether the product overflowed 128 bits.
func (a u128) mul64(b uint64) (u128, bool) {
	h1, l1 := bits.Mul64(a.lo, b)
	h2, l2 := bits.Mul64(a.hi, b)
	hi, c := bits.Add64(h1, l2, 0)
	return u128{hi, l1}, h2 != 0 || c != 0
}

// divmod64 returns a/d and a%d; d must not be 0.
func (a u128) divmod64(d uint64) (u128, uint64) {
	qh, r := a.hi/d, a.hi%d
	ql, r := bits.Div64(r, a.lo, d)
	return u128{qh, ql}, r
}

func (a u128) wide() u256 { return u256{a.lo, a.hi, 0, 0} }

// mul returns the full 256-bit product a*b.
func (a u128) mul(b u128) u256 {
	var r u256
	h, l := bits.Mul64(a.lo, b.lo)
	r[0] = l
	r[1] = h
	h, l = bits.Mul64(a.lo, b.hi)
	var c uint64
	r[1], c = bits.Add64(r[1], l, 0)
	r[2], c = bits.Add64(r[2], h, c)
	r[3] += c
	h, l = bits.Mul64(a.hi, b.lo)
	r[1], c = bits.Add64(r[1], l, 0)
	r[2], c = bits.Add64(r[2], h, c)
	r[3] += c
	h, l = bits.Mul64(a.hi, b.hi)
	r[2], c = bits.Add64(r[2], l, 0)
	r[3], _ = bits.Add64(r[3], h, c)
	return r
}

// narrow returns a as a u128 and whether it fits.
func (a u256) narrow() (u128, bool) {
	return u128{a[1], a[0]}, a[2] == 0 && a[3] == 0
}

// divmod64 returns a/d and a%d; d must not be 0.
func (a u256) divmod64(d uint64) (u256, uint64) {
	var q u256
	var r uint64
	i := 3
	for i > 0 && a[i] == 0 { // skip zero leading limbs
		i--
	}
	if i > 0 && a[i] < d { // the top quotient limb is zero
		r = a[i]
		i--
	}
	for ; i >= 0; i-- {
		q[i], r = bits.Div64(r, a[i], d)
	}
	return q, r
}

// mul64 returns a*b and whether the product overflowed 256 bits.
func (a u256) mul64(b uint64) (u256, bool) {
	var r u256
	var carry uint64
	for i := 0; i < 4; i++ {
		h, l := bits.Mul64(a[i], b)
		var c uint64
		r[i], c = bits.Add64(l, carry, 0)
		carry = h + c
	}
	return r, carry != 0
}

// mulPow10 returns a*10^k and whether it overflowed 256 bits.
func (a u256) mulPow10(k int) (u256, bool) {
	for k > 0 {
		s := min(k, 19)
		var ovf bool
		a, ovf = a.mul64(pow10u64[s])
		if ovf {
			return a, true
		}
		k -= s
	}
	return a, false
}

// divPow10HalfEven returns a/10^k rounded half to even (k >= 0).
func (a u256) divPow10HalfEven(k int) u256 {
	if k == 0 {
		return a
	}
	if k <= 19 {
		d := pow10u64[k]
		q, r := a.divmod64(d)
		if half := d / 2; r > half || r == half && q[0]&1 == 1 {
			q = q.inc()
		}
		return q
	}
	// Divide by 10^(k-1), remembering whether anything non-zero was dropped
	// (the sticky bit), then by 10 to get the rounding digit.
	sticky := false
	for rest := k - 1; rest > 0; {
		s := min(rest, 19)
		var r uint64
		a, r = a.divmod64(pow10u64[s])
		sticky = sticky || r != 0
		rest -= s
	}
	q, d := a.divmod64(10)
	if d > 5 || d == 5 && (sticky || q[0]&1 == 1) {
		q = q.inc()
	}
	return q
}

// divPow10Trunc returns a/10^k truncated and whether the remainder is non-zero.
func (a u256) divPow10Trunc(k int) (u256, bool) {
	inexact := false
	for k > 0 {
		s := min(k, 19)
		var r uint64
		a, r = a.divmod64(pow10u64[s])
		inexact = inexact || r != 0
		k -= s
	}
	return a, inexact
}

func (a u256) inc() u256 {
	var c uint64 = 1
	for i := 0; i < 4 && c != 0; i++ {
		a[i], c = bits.Add64(a[i], 0, c)
	}
	return a
}

// appendDecimal appends the decimal digits of a (no sign, "0" for zero).
func (a u128) appendDecimal(dst []byte) []byte {
	var buf [40]byte
	i := len(buf)
	for {
		q, r := a.divmod64(pow10u64[19])
		// emit the 19 low digits of r (or fewer when q is zero)
		for j := 0; j < 19; j++ {
			if q.isZero() && r == 0 && j > 0 {
				break
			}
			i--
			buf[i] = byte('0' + r%10)
			r /= 10
			if q.isZero() && r == 0 {
				break
			}
		}
		if q.isZero() {
			break
		}
		a = q
	}
	return append(dst, buf[i:]...)
}

// divmod128 returns a/v and a%v for a divisor with v.hi != 0 (Knuth's
// algorithm D on 64-bit limbs, as in Hacker's Delight's divmnu64).
func (a u256) divmod128(v u128) (u256, u128) {
	s := uint(bits.LeadingZeros64(v.hi))
	vn1, vn0 := v.hi, v.lo
	if s != 0 {
		vn1 = v.hi<<s | v.lo>>(64-s)
		vn0 = v.lo << s
	}
	var un [5]uint64
	if s == 0 {
		copy(un[:4], a[:])
	} else {
		un[4] = a[3] >> (64 - s)
		for i := 3; i > 0; i-- {
			un[i] = a[i]<<s | a[i-1]>>(64-s)
		}
		un[0] = a[0] << s
	}
	var q u256
	for j := 2; j >= 0; j-- {
		var qhat, rhat uint64
		rhatOverflow := false
		if un[j+2] >= vn1 {
			qhat = ^uint64(0)
			var c uint64
			rhat, c = bits.Add64(un[j+1], vn1, 0)
			rhatOverflow = c != 0
		} else {
			qhat, rhat = bits.Div64(un[j+2], un[j+1], vn1)
		}
		for !rhatOverflow {
			ph, pl := bits.Mul64(qhat, vn0)
			if ph < rhat || ph == rhat && pl <= un[j] {
				break
			}
			qhat--
			var c uint64
			rhat, c = bits.Add64(rhat, vn1, 0)
			rhatOverflow = c != 0
		}
		// un[j..j+2] -= qhat × (vn1, vn0)
		p0h, p0l := bits.Mul64(qhat, vn0)
		p1h, p1l := bits.Mul64(qhat, vn1)
		t1, c := bits.Add64(p0h, p1l, 0)
		t2 := p1h + c
		var b uint64
		un[j], b = bits.Sub64(un[j], p0l, 0)
		un[j+1], b = bits.Sub64(un[j+1], t1, b)
		un[j+2], b = bits.Sub64(un[j+2], t2, b)
		if b != 0 { // qhat was one too large: add the divisor back
			qhat--
			un[j], c = bits.Add64(un[j], vn0, 0)
			un[j+1], c = bits.Add64(un[j+1], vn1, c)
			un[j+2] += c
		}
		q[j] = qhat
	}
	var r u128
	if s == 0 {
		r = u128{un[1], un[0]}
	} else {
		r = u128{un[1] >> s, un[0]>>s | un[1]<<(64-s)}
	}
	return q, r
}
