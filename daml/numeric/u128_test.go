package numeric

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

func TestDivmod128AgainstBig(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	limb := func() uint64 {
		switch r.IntN(4) {
		case 0:
			return 0
		case 1:
			return ^uint64(0)
		case 2:
			return 1 << r.IntN(64)
		}
		return r.Uint64()
	}
	for range 200000 {
		a := u256{limb(), limb(), limb(), limb()}
		v := u128{limb(), limb()}
		if v.hi == 0 {
			v.hi = 1 + r.Uint64()>>r.IntN(64)
		}
		q, rem := a.divmod128(v)
		ba, bv := u256ToBig(a, false), u128ToBig(v)
		bq, br := new(big.Int).QuoRem(ba, bv, new(big.Int))
		if u256ToBig(q, false).Cmp(bq) != 0 || u128ToBig(rem).Cmp(br) != 0 {
			t.Fatalf("%v / %v = %v rem %v; want %s rem %s", a, v, q, rem, bq, br)
		}
	}
}

func TestDivmod64AgainstBig(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 200000 {
		var a u256
		for i := range a {
			if r.IntN(3) > 0 {
				a[i] = r.Uint64() >> r.IntN(64)
			}
		}
		d := r.Uint64()>>r.IntN(64) | 1
		q, rem := a.divmod64(d)
		bq, br := new(big.Int).QuoRem(u256ToBig(a, false), new(big.Int).SetUint64(d), new(big.Int))
		if u256ToBig(q, false).Cmp(bq) != 0 || rem != br.Uint64() {
			t.Fatalf("%v / %d = %v rem %d; want %s rem %s", a, d, q, rem, bq, br)
		}
	}
}
