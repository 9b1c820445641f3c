package engine

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/ledgernode/ledgernode/daml/engine/prim"
	"github.com/ledgernode/ledgernode/daml/lf"
)

// builtin is a runtime builtin function of a fixed arity.
type builtin struct {
	name  string
	arity int
	fn    func(m *Machine, args []Value)
}

func (b *builtin) enter(m *Machine, args []Value) { b.fn(m, args) }

type bf = func(m *Machine, a []Value)

// builtins maps every wired builtin to its runtime arity and body.
var builtins = map[lf.BuiltinFunction]struct {
	arity int
	fn    bf
}{}

// builtinArity is the runtime arity of every stable builtin (term
// arguments only), wired or not.
var builtinArity = map[lf.BuiltinFunction]int{
	lf.BuiltinTrace: 2, lf.BuiltinError: 1, lf.BuiltinEqual: 2, lf.BuiltinLessEq: 2, lf.BuiltinLess: 2,
	lf.BuiltinGreaterEq: 2, lf.BuiltinGreater: 2,
	lf.BuiltinAddInt64: 2, lf.BuiltinSubInt64: 2, lf.BuiltinMulInt64: 2, lf.BuiltinDivInt64: 2,
	lf.BuiltinModInt64: 2, lf.BuiltinExpInt64: 2,
	lf.BuiltinAddNumeric: 2, lf.BuiltinSubNumeric: 2, lf.BuiltinMulNumeric: 3, lf.BuiltinDivNumeric: 3,
	lf.BuiltinRoundNumeric: 2, lf.BuiltinCastNumeric: 2, lf.BuiltinShiftNumeric: 2,
	lf.BuiltinInt64ToNumeric: 2, lf.BuiltinNumericToInt64: 1,
	lf.BuiltinInt64ToText: 1, lf.BuiltinNumericToText: 1, lf.BuiltinTimestampToText: 1, lf.BuiltinDateToText: 1,
	lf.BuiltinPartyToText: 1, lf.BuiltinTextToParty: 1, lf.BuiltinTextToInt64: 1, lf.BuiltinTextToNumeric: 2,
	lf.BuiltinContractIDToText: 1, lf.BuiltinSHA256Text: 1, lf.BuiltinSHA256Hex: 1, lf.BuiltinKeccak256Text: 1,
	lf.BuiltinTextToHex: 1, lf.BuiltinHexToText: 1,
	lf.BuiltinSecp256k1Bool: 3, lf.BuiltinSecp256k1WithECDSABool: 3, lf.BuiltinSecp256k1ValidateKey: 1,
	lf.BuiltinExplodeText: 1, lf.BuiltinImplodeText: 1, lf.BuiltinAppendText: 2,
	lf.BuiltinTextToCodePoints: 1, lf.BuiltinCodePointsToText: 1,
	lf.BuiltinDateToUnixDays: 1, lf.BuiltinUnixDaysToDate: 1,
	lf.BuiltinTimestampToUnixMicroseconds: 1, lf.BuiltinUnixMicrosecondsToTimestamp: 1,
	lf.BuiltinCoerceContractID: 1, lf.BuiltinFoldL: 3, lf.BuiltinFoldR: 3, lf.BuiltinEqualList: 3,
	lf.BuiltinTextMapInsert: 3, lf.BuiltinTextMapLookup: 2, lf.BuiltinTextMapDelete: 2,
	lf.BuiltinTextMapToList: 1, lf.BuiltinTextMapSize: 1,
	lf.BuiltinGenMapInsert: 3, lf.BuiltinGenMapLookup: 2, lf.BuiltinGenMapDelete: 2,
	lf.BuiltinGenMapKeys: 1, lf.BuiltinGenMapValues: 1, lf.BuiltinGenMapSize: 1,
	lf.BuiltinAnyExceptionMessage: 1, lf.BuiltinFailWithStatus: 4,
}

var builtinPAPs = map[lf.BuiltinFunction]Value{}

func init() {
	reg := func(f lf.BuiltinFunction, fn bf) {
		builtins[f] = struct {
			arity int
			fn    bf
		}{builtinArity[f], fn}
	}
	registerCore(reg)
	for f, ar := range builtinArity {
		name := f.String()
		if b, ok := builtins[f]; ok {
			builtinPAPs[f] = &PAP{fn: &builtin{name: name, arity: ar, fn: b.fn}, arity: ar}
			continue
		}
		builtinPAPs[f] = &PAP{fn: &builtin{name: name, arity: ar, fn: func(m *Machine, _ []Value) {
			m.fail(errorf(ErrUnsupported, "builtin %s is not implemented", name))
		}}, arity: ar}
	}
	builtinPAPs[lf.BuiltinTextMapEmpty] = &Map{Text: true}
	builtinPAPs[lf.BuiltinGenMapEmpty] = &Map{}
	builtinPAPs[lf.BuiltinCoerceContractID] = identityPAP
}

// builtinValue is the runtime value of a builtin: a function value of its
// arity, or the empty map for TEXTMAP_EMPTY and GENMAP_EMPTY.
func builtinValue(f lf.BuiltinFunction) (Value, *Error) {
	if v, ok := builtinPAPs[f]; ok {
		return v, nil
	}
	return nil, errorf(ErrUnsupported, "builtin %s is not supported", f)
}

// UnwiredBuiltins lists the stable builtins this engine does not
// implement yet (they fail with ErrUnsupported when called).
func UnwiredBuiltins() []lf.BuiltinFunction {
	var out []lf.BuiltinFunction
	for f := range builtinArity {
		if _, ok := builtins[f]; !ok && f != lf.BuiltinCoerceContractID {
			out = append(out, f)
		}
	}
	slices.Sort(out)
	return out
}

func boolOf(b bool) Value { return Bool(b) }

func cmpBuiltin(test func(int) bool) bf {
	return func(m *Machine, a []Value) {
		c, err := compare(a[0], a[1])
		if err != nil {
			m.fail(err)
			return
		}
		m.ret(boolOf(test(c)))
	}
}

func int64Op(name string, f func(x, y int64) (int64, error)) bf {
	return func(m *Machine, a []Value) {
		r, err := f(int64(a[0].(Int64)), int64(a[1].(Int64)))
		if err != nil {
			m.arithmeticError(name, a)
			return
		}
		m.ret(Int64(r))
	}
}

func int64Text(i int64) string { return prim.Int64ToText(i) }

func registerCore(reg func(lf.BuiltinFunction, bf)) {
	reg(lf.BuiltinTrace, func(m *Machine, a []Value) {
		if t := m.e.opts.TraceContext; t != nil {
			t(m.ctx, string(a[0].(Text)))
		} else if t := m.e.opts.Trace; t != nil {
			t(string(a[0].(Text)))
		}
		m.ret(a[1])
	})
	reg(lf.BuiltinError, func(m *Machine, a []Value) {
		m.fail(&Error{Kind: ErrUserError, Message: string(a[0].(Text))})
	})
	reg(lf.BuiltinEqual, cmpBuiltin(func(c int) bool { return c == 0 }))
	reg(lf.BuiltinLess, cmpBuiltin(func(c int) bool { return c < 0 }))
	reg(lf.BuiltinLessEq, cmpBuiltin(func(c int) bool { return c <= 0 }))
	reg(lf.BuiltinGreater, cmpBuiltin(func(c int) bool { return c > 0 }))
	reg(lf.BuiltinGreaterEq, cmpBuiltin(func(c int) bool { return c >= 0 }))

	reg(lf.BuiltinAddInt64, int64Op("ADD_INT64", prim.AddInt64))
	reg(lf.BuiltinSubInt64, int64Op("SUB_INT64", prim.SubInt64))
	reg(lf.BuiltinMulInt64, int64Op("MUL_INT64", prim.MulInt64))
	reg(lf.BuiltinDivInt64, int64Op("DIV_INT64", prim.DivInt64))
	reg(lf.BuiltinModInt64, int64Op("MOD_INT64", prim.ModInt64))
	reg(lf.BuiltinExpInt64, int64Op("EXP_INT64", prim.ExpInt64))
	reg(lf.BuiltinInt64ToText, func(m *Machine, a []Value) { m.ret(Text(int64Text(int64(a[0].(Int64))))) })
	reg(lf.BuiltinPartyToText, func(m *Machine, a []Value) { m.ret(Text(a[0].(Party))) })
	reg(lf.BuiltinTextToParty, func(m *Machine, a []Value) {
		if p, ok := prim.TextToParty(string(a[0].(Text))); ok {
			m.ret(Some(Party(p)))
			return
		}
		m.ret(None)
	})
	reg(lf.BuiltinTextToInt64, func(m *Machine, a []Value) {
		if i, ok := prim.TextToInt64(string(a[0].(Text))); ok {
			m.ret(Some(Int64(i)))
			return
		}
		m.ret(None)
	})
	reg(lf.BuiltinContractIDToText, func(m *Machine, a []Value) {
		if m.e.opts.OffLedger {
			m.ret(Some(Text(a[0].(ContractID))))
			return
		}
		m.ret(None)
	})
	reg(lf.BuiltinSHA256Text, func(m *Machine, a []Value) {
		m.ret(Text(prim.SHA256Text(string(a[0].(Text)))))
	})
	reg(lf.BuiltinTextToHex, func(m *Machine, a []Value) { m.ret(Text(prim.TextToHex(string(a[0].(Text))))) })
	reg(lf.BuiltinAppendText, func(m *Machine, a []Value) { m.ret(m.appendText(a[0].(Text), a[1].(Text))) })
	reg(lf.BuiltinExplodeText, func(m *Machine, a []Value) { m.ret(explodeText(string(a[0].(Text)))) })
	reg(lf.BuiltinImplodeText, func(m *Machine, a []Value) {
		var b strings.Builder
		for l := a[0].(*List); l != nil; l = l.Tail {
			b.WriteString(string(l.Head.(Text)))
		}
		m.ret(Text(b.String()))
	})
	reg(lf.BuiltinTextToCodePoints, func(m *Machine, a []Value) {
		rs := []rune(string(a[0].(Text)))
		out := make([]Value, len(rs))
		for i, r := range rs {
			out[i] = Int64(r)
		}
		m.ret(ListOf(out...))
	})
	reg(lf.BuiltinCodePointsToText, func(m *Machine, a []Value) {
		var cps []int64
		for l := a[0].(*List); l != nil; l = l.Tail {
			cps = append(cps, int64(l.Head.(Int64)))
		}
		s, err := prim.CodePointsToText(cps)
		if err != nil {
			m.fail(crash("%v", err))
			return
		}
		m.ret(Text(s))
	})
	reg(lf.BuiltinDateToUnixDays, func(m *Machine, a []Value) { m.ret(Int64(a[0].(Date))) })
	reg(lf.BuiltinUnixDaysToDate, func(m *Machine, a []Value) {
		d, err := prim.UnixDaysToDate(int64(a[0].(Int64)))
		if err != nil {
			m.arithmeticError("UNIX_DAYS_TO_DATE", a)
			return
		}
		m.ret(Date(d))
	})
	reg(lf.BuiltinTimestampToUnixMicroseconds, func(m *Machine, a []Value) { m.ret(Int64(a[0].(Timestamp))) })
	reg(lf.BuiltinUnixMicrosecondsToTimestamp, func(m *Machine, a []Value) {
		t, err := prim.UnixMicrosecondsToTimestamp(int64(a[0].(Int64)))
		if err != nil {
			m.arithmeticError("UNIX_MICROSECONDS_TO_TIMESTAMP", a)
			return
		}
		m.ret(Timestamp(t))
	})
	reg(lf.BuiltinTimestampToText, func(m *Machine, a []Value) { m.ret(Text(timestampText(int64(a[0].(Timestamp))))) })
	reg(lf.BuiltinDateToText, func(m *Machine, a []Value) { m.ret(Text(dateText(int32(a[0].(Date))))) })
	reg(lf.BuiltinFoldL, func(m *Machine, a []Value) { foldl(m, a[0], a[1], a[2].(*List)) })
	reg(lf.BuiltinFoldR, func(m *Machine, a []Value) {
		k := &kFoldR{f: a[0], xs: a[2].(*List).Slice()}
		k.resume(m, a[1])
	})
	reg(lf.BuiltinEqualList, func(m *Machine, a []Value) {
		k := &kEqualList{f: a[0], xs: a[1].(*List), ys: a[2].(*List)}
		k.resume(m, Bool(true))
	})
	registerMaps(reg)
	registerNumeric(reg)
	registerCrypto(reg)
	reg(lf.BuiltinAnyExceptionMessage, func(m *Machine, a []Value) { m.exceptionMessage(a[0].(*Any)) })
	reg(lf.BuiltinFailWithStatus, func(m *Machine, a []Value) {
		meta := map[string]string{}
		mp := a[3].(*Map)
		for i, k := range mp.Keys {
			meta[string(k.(Text))] = string(mp.Values[i].(Text))
		}
		m.fail(&Error{Kind: ErrFailureStatus, ErrorID: string(a[0].(Text)), Category: int64(a[1].(Int64)),
			Message: string(a[2].(Text)), Metadata: meta})
	})
}

// foldl runs FOLDL with one frame, pushed again for every element.
func foldl(m *Machine, f, acc Value, xs *List) {
	if xs == nil {
		m.ret(acc)
		return
	}
	k := &kFoldL{f: f, xs: xs}
	k.resume(m, acc)
}

// kFoldL applies f to the accumulator and the elements from the first
// to the last. args holds the arguments of the call being made: apply
// keeps no argument slice (a closure copies its arguments into its
// environment, a builtin keeps none, a partial or over-application
// copies them), so one buffer serves every element.
type kFoldL struct {
	f    Value
	xs   *List
	args [2]Value
}

func (k *kFoldL) resume(m *Machine, acc Value) {
	if k.xs == nil {
		m.ret(acc)
		return
	}
	x := k.xs.Head
	k.xs = k.xs.Tail
	m.push(k)
	k.args = [2]Value{acc, x}
	m.apply(k.f, k.args[:])
	k.args = [2]Value{}
}

// kFoldR applies f to the elements from the last to the first; args is
// as kFoldL's.
type kFoldR struct {
	f    Value
	xs   []Value
	args [2]Value
}

func (k *kFoldR) resume(m *Machine, acc Value) {
	if len(k.xs) == 0 {
		m.ret(acc)
		return
	}
	x := k.xs[len(k.xs)-1]
	k.xs = k.xs[:len(k.xs)-1]
	m.push(k)
	k.args = [2]Value{x, acc}
	m.apply(k.f, k.args[:])
	k.args = [2]Value{}
}

// kEqualList compares pairwise, swapping the lists at every step as
// Speedy does (f y1 x1, f x2 y2, …).
type kEqualList struct {
	f      Value
	xs, ys *List
	args   [2]Value // as kFoldL's
}

func (k *kEqualList) resume(m *Machine, v Value) {
	if !bool(v.(Bool)) {
		m.ret(Bool(false))
		return
	}
	switch {
	case k.xs == nil && k.ys == nil:
		m.ret(Bool(true))
		return
	case k.xs == nil || k.ys == nil:
		m.ret(Bool(false))
		return
	}
	x, y := k.xs.Head, k.ys.Head
	k.xs, k.ys = k.ys.Tail, k.xs.Tail
	m.push(k)
	k.args = [2]Value{y, x}
	m.apply(k.f, k.args[:])
	k.args = [2]Value{}
}

// asciiTexts are the one-character Texts of the ASCII characters, boxed
// once: explodeText's elements are mostly these.
var asciiTexts = func() (out [utf8.RuneSelf]Value) {
	for c := range out {
		out[c] = Text(string(rune(c)))
	}
	return out
}()

// explodeText is EXPLODE_TEXT: the list of s's characters, each a Text of
// one code point (an invalid UTF-8 byte is one element of its own). The
// list's cells are one allocation, and an ASCII character's Text is a
// shared value, so that exploding a text costs two allocations and one per
// non-ASCII character, not two per character.
func explodeText(s string) *List {
	n := utf8.RuneCountInString(s)
	if n == 0 {
		return nil
	}
	cells := newCells(n, nil)
	for i := range cells {
		if c := s[0]; c < utf8.RuneSelf {
			cells[i].Head = asciiTexts[c]
			s = s[1:]
		} else {
			_, w := utf8.DecodeRuneInString(s)
			cells[i].Head = Text(s[:w])
			s = s[w:]
		}
	}
	return &cells[0]
}
