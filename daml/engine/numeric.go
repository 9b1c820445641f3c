package engine

import (
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/numeric"
)

// numOp wires a Numeric builtin: a failure of f throws ArithmeticError
// with all the builtin's arguments.
func numOp(name string, f func(a []Value) (numeric.Numeric, error)) bf {
	return func(m *Machine, a []Value) {
		r, err := f(a)
		if err != nil {
			m.arithmeticError(name, a)
			return
		}
		m.ret(Numeric{r})
	}
}

func num(v Value) numeric.Numeric { return v.(Numeric).Numeric }

func registerNumeric(reg func(lf.BuiltinFunction, bf)) {
	reg(lf.BuiltinAddNumeric, numOp("ADD_NUMERIC", func(a []Value) (numeric.Numeric, error) { return num(a[0]).Add(num(a[1])) }))
	reg(lf.BuiltinSubNumeric, numOp("SUB_NUMERIC", func(a []Value) (numeric.Numeric, error) { return num(a[0]).Sub(num(a[1])) }))
	reg(lf.BuiltinMulNumeric, numOp("MUL_NUMERIC", func(a []Value) (numeric.Numeric, error) {
		return num(a[1]).Mul(num(a[2]), num(a[0]).Scale())
	}))
	reg(lf.BuiltinDivNumeric, numOp("DIV_NUMERIC", func(a []Value) (numeric.Numeric, error) {
		return num(a[1]).Div(num(a[2]), num(a[0]).Scale())
	}))
	reg(lf.BuiltinRoundNumeric, numOp("ROUND_NUMERIC", func(a []Value) (numeric.Numeric, error) {
		return num(a[1]).Round(int64(a[0].(Int64)))
	}))
	reg(lf.BuiltinCastNumeric, numOp("CAST_NUMERIC", func(a []Value) (numeric.Numeric, error) {
		return num(a[1]).Cast(num(a[0]).Scale())
	}))
	reg(lf.BuiltinShiftNumeric, func(m *Machine, a []Value) { m.ret(Numeric{num(a[1]).Shift(num(a[0]).Scale())}) })
	reg(lf.BuiltinInt64ToNumeric, numOp("INT64_TO_NUMERIC", func(a []Value) (numeric.Numeric, error) {
		return numeric.FromInt64(num(a[0]).Scale(), int64(a[1].(Int64)))
	}))
	reg(lf.BuiltinNumericToInt64, func(m *Machine, a []Value) {
		i, err := num(a[0]).ToInt64()
		if err != nil {
			m.arithmeticError("NUMERIC_TO_INT64", a)
			return
		}
		m.ret(Int64(i))
	})
	reg(lf.BuiltinNumericToText, func(m *Machine, a []Value) { m.ret(Text(num(a[0]).String())) })
	reg(lf.BuiltinTextToNumeric, func(m *Machine, a []Value) {
		if n, ok := numeric.ParseText(num(a[0]).Scale(), string(a[1].(Text))); ok {
			m.ret(Some(Numeric{n}))
			return
		}
		m.ret(None)
	})
}
