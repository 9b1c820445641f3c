package engine

import (
	"context"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/numeric"
)

func numV(s string) Value { return Numeric{numeric.MustParse(s)} }

func TestBuiltins(t *testing.T) {
	e := newTestEngine(nil, Options{})
	tm := func(kv ...Value) *Map {
		m := &Map{Text: true}
		for i := 0; i < len(kv); i += 2 {
			m.Keys = append(m.Keys, kv[i])
			m.Values = append(m.Values, kv[i+1])
		}
		return m
	}
	tests := []struct {
		f    lf.BuiltinFunction
		args []Value
		want Value  // the result, or
		msg  string // the ArithmeticError message / the error kind's name
	}{
		{lf.BuiltinEqual, []Value{Int64(1), Int64(1)}, Bool(true), ""},
		{lf.BuiltinEqual, []Value{ListOf(Int64(1)), ListOf(Int64(1), Int64(2))}, Bool(false), ""},
		{lf.BuiltinLess, []Value{ListOf(), ListOf(Int64(0))}, Bool(true), ""},
		{lf.BuiltinLess, []Value{None, Some(Int64(0))}, Bool(true), ""},
		{lf.BuiltinLessEq, []Value{Text("b"), Text("a")}, Bool(false), ""},
		{lf.BuiltinGreater, []Value{Text("é"), Text("z")}, Bool(true), ""},
		{lf.BuiltinGreaterEq, []Value{numV("1.0"), numV("1.0")}, Bool(true), ""},
		{lf.BuiltinAddInt64, []Value{Int64(2), Int64(3)}, Int64(5), ""},
		{lf.BuiltinSubInt64, []Value{Int64(-9223372036854775807), Int64(2)}, nil, "ArithmeticError while evaluating (SUB_INT64 -9223372036854775807 2)."},
		{lf.BuiltinMulInt64, []Value{Int64(4294967296), Int64(4294967296)}, nil, "ArithmeticError while evaluating (MUL_INT64 4294967296 4294967296)."},
		{lf.BuiltinMulInt64, []Value{Int64(-3), Int64(7)}, Int64(-21), ""},
		{lf.BuiltinDivInt64, []Value{Int64(-7), Int64(2)}, Int64(-3), ""},
		{lf.BuiltinDivInt64, []Value{Int64(-9223372036854775808), Int64(-1)}, nil, "ArithmeticError while evaluating (DIV_INT64 -9223372036854775808 -1)."},
		{lf.BuiltinModInt64, []Value{Int64(-7), Int64(2)}, Int64(-1), ""},
		{lf.BuiltinModInt64, []Value{Int64(1), Int64(0)}, nil, "ArithmeticError while evaluating (MOD_INT64 1 0)."},
		{lf.BuiltinExpInt64, []Value{Int64(0), Int64(0)}, Int64(1), ""},
		{lf.BuiltinExpInt64, []Value{Int64(-2), Int64(63)}, Int64(-9223372036854775808), ""},
		{lf.BuiltinExpInt64, []Value{Int64(2), Int64(63)}, nil, "ArithmeticError while evaluating (EXP_INT64 2 63)."},
		{lf.BuiltinExpInt64, []Value{Int64(2), Int64(-1)}, nil, "ArithmeticError while evaluating (EXP_INT64 2 -1)."},
		{lf.BuiltinAddNumeric, []Value{numV("1.50"), numV("2.25")}, numV("3.75"), ""},
		{lf.BuiltinSubNumeric, []Value{numV("1.50"), numV("2.25")}, numV("-0.75"), ""},
		{lf.BuiltinMulNumeric, []Value{numV("0.0000000000"), numV("1.5000000000"), numV("2.2500000000")}, numV("3.3750000000"), ""},
		{lf.BuiltinDivNumeric, []Value{numV("0.0000000000"), numV("1.0000000000"), numV("0.0000000000")}, nil, "ArithmeticError while evaluating (DIV_NUMERIC 0.0 1.0 0.0)."},
		{lf.BuiltinRoundNumeric, []Value{Int64(0), numV("2.5000000000")}, numV("2.0000000000"), ""},
		{lf.BuiltinCastNumeric, []Value{numV("0.0"), numV("1.25")}, nil, "ArithmeticError while evaluating (CAST_NUMERIC 0.0 1.25)."},
		{lf.BuiltinShiftNumeric, []Value{numV("0.00000"), numV("1.2345678900")}, numV("123456.78900"), ""},
		{lf.BuiltinInt64ToNumeric, []Value{numV("0.00"), Int64(3)}, numV("3.00"), ""},
		{lf.BuiltinNumericToInt64, []Value{numV("-3.99")}, Int64(-3), ""},
		{lf.BuiltinNumericToText, []Value{numV("100.0000000000")}, Text("100.0"), ""},
		{lf.BuiltinTextToNumeric, []Value{numV("0.0000000000"), Text("001.50000000000000")}, Some(numV("1.5000000000")), ""},
		{lf.BuiltinTextToNumeric, []Value{numV("0.0000000000"), Text("1.")}, None, ""},
		{lf.BuiltinInt64ToText, []Value{Int64(-42)}, Text("-42"), ""},
		{lf.BuiltinTimestampToText, []Value{Timestamp(1_500_000)}, Text("1970-01-01T00:00:01.500Z"), ""},
		{lf.BuiltinTimestampToText, []Value{Timestamp(-1)}, Text("1969-12-31T23:59:59.999999Z"), ""},
		{lf.BuiltinTimestampToText, []Value{Timestamp(minTimestamp)}, Text("0001-01-01T00:00:00Z"), ""},
		{lf.BuiltinDateToText, []Value{Date(minDate)}, Text("0001-01-01"), ""},
		{lf.BuiltinDateToText, []Value{Date(-33165)}, Text("1879-03-14"), ""},
		{lf.BuiltinPartyToText, []Value{Party("alice")}, Text("alice"), ""},
		{lf.BuiltinTextToParty, []Value{Text("alice::1220ab")}, Some(Party("alice::1220ab")), ""},
		{lf.BuiltinTextToParty, []Value{Text("a!")}, None, ""},
		{lf.BuiltinTextToInt64, []Value{Text("+007")}, Some(Int64(7)), ""},
		{lf.BuiltinTextToInt64, []Value{Text("9223372036854775808")}, None, ""},
		{lf.BuiltinTextToInt64, []Value{Text(" 7")}, None, ""},
		{lf.BuiltinContractIDToText, []Value{ContractID("00ab")}, None, ""},
		{lf.BuiltinSHA256Text, []Value{Text("")}, Text("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"), ""},
		{lf.BuiltinSHA256Hex, []Value{Text("")}, Text("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"), ""},
		{lf.BuiltinSHA256Hex, []Value{Text("AB")}, nil, "Crypto.MalformedByteEncoding"},
		{lf.BuiltinKeccak256Text, []Value{Text("")}, Text("c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"), ""},
		{lf.BuiltinHexToText, []Value{Text("4869")}, Text("Hi"), ""},
		{lf.BuiltinHexToText, []Value{Text("486")}, nil, "Crypto.MalformedByteEncoding"},
		{lf.BuiltinSecp256k1Bool, []Value{Text("zz"), Text("00"), Text("00")}, nil, "Crypto.MalformedByteEncoding"},
		{lf.BuiltinSecp256k1WithECDSABool, []Value{Text("00"), Text("00"), Text("zz")}, nil, "Crypto.MalformedByteEncoding"},
		{lf.BuiltinSecp256k1ValidateKey, []Value{Text("00")}, nil, "Crypto.MalformedKey"},
		{lf.BuiltinTextToHex, []Value{Text("Hi")}, Text("4869"), ""},
		{lf.BuiltinExplodeText, []Value{Text("aé😀")}, ListOf(Text("a"), Text("é"), Text("😀")), ""},
		{lf.BuiltinImplodeText, []Value{ListOf(Text("a"), Text("b"))}, Text("ab"), ""},
		{lf.BuiltinAppendText, []Value{Text("a"), Text("b")}, Text("ab"), ""},
		{lf.BuiltinTextToCodePoints, []Value{Text("a😀")}, ListOf(Int64(97), Int64(0x1F600)), ""},
		{lf.BuiltinCodePointsToText, []Value{ListOf(Int64(97), Int64(0))}, Text("a\x00"), ""},
		{lf.BuiltinCodePointsToText, []Value{ListOf(Int64(0xD800))}, nil, "Internal"},
		{lf.BuiltinDateToUnixDays, []Value{Date(5)}, Int64(5), ""},
		{lf.BuiltinUnixDaysToDate, []Value{Int64(maxDate + 1)}, nil, "ArithmeticError while evaluating (UNIX_DAYS_TO_DATE 2932897)."},
		{lf.BuiltinTimestampToUnixMicroseconds, []Value{Timestamp(5)}, Int64(5), ""},
		{lf.BuiltinUnixMicrosecondsToTimestamp, []Value{Int64(minTimestamp - 1)}, nil, "ArithmeticError while evaluating (UNIX_MICROSECONDS_TO_TIMESTAMP -62135596800000001)."},
		{lf.BuiltinCoerceContractID, []Value{ContractID("00ab")}, ContractID("00ab"), ""},
		{lf.BuiltinFoldL, []Value{builtinPAPs[lf.BuiltinSubInt64], Int64(10), ListOf(Int64(1), Int64(2))}, Int64(7), ""},
		{lf.BuiltinFoldR, []Value{builtinPAPs[lf.BuiltinSubInt64], Int64(10), ListOf(Int64(1), Int64(2))}, Int64(9), ""}, // 1 - (2 - 10)
		{lf.BuiltinEqualList, []Value{builtinPAPs[lf.BuiltinEqual], ListOf(Int64(1)), ListOf(Int64(1))}, Bool(true), ""},
		{lf.BuiltinEqualList, []Value{builtinPAPs[lf.BuiltinEqual], ListOf(Int64(1)), ListOf(Int64(1), Int64(2))}, Bool(false), ""},
		{lf.BuiltinEqualList, []Value{builtinPAPs[lf.BuiltinLess], ListOf(Int64(2), Int64(1)), ListOf(Int64(1), Int64(2))}, Bool(true), ""}, // f y1 x1, f x2 y2
		{lf.BuiltinTextMapInsert, []Value{Text("b"), Int64(2), tm(Text("a"), Int64(1))}, tm(Text("a"), Int64(1), Text("b"), Int64(2)), ""},
		{lf.BuiltinTextMapLookup, []Value{Text("a"), tm(Text("a"), Int64(1))}, Some(Int64(1)), ""},
		{lf.BuiltinTextMapDelete, []Value{Text("a"), tm(Text("a"), Int64(1))}, tm(), ""},
		{lf.BuiltinTextMapSize, []Value{tm(Text("a"), Int64(1))}, Int64(1), ""},
		{lf.BuiltinTextMapToList, []Value{tm(Text("a"), Int64(1))}, ListOf(&Struct{Names: []string{"key", "value"}, Values: []Value{Text("a"), Int64(1)}}), ""},
		{lf.BuiltinGenMapInsert, []Value{Int64(1), Text("x"), &Map{}}, &Map{Keys: []Value{Int64(1)}, Values: []Value{Text("x")}}, ""},
		{lf.BuiltinGenMapInsert, []Value{builtinPAPs[lf.BuiltinTrace], Text("x"), &Map{}}, nil, "NonComparableValues"},
		{lf.BuiltinGenMapKeys, []Value{&Map{Keys: []Value{Int64(1), Int64(2)}, Values: []Value{Unit{}, Unit{}}}}, ListOf(Int64(1), Int64(2)), ""},
		{lf.BuiltinGenMapValues, []Value{&Map{Keys: []Value{Int64(1)}, Values: []Value{Text("v")}}}, ListOf(Text("v")), ""},
		{lf.BuiltinGenMapSize, []Value{&Map{}}, Int64(0), ""},
		{lf.BuiltinGenMapLookup, []Value{Int64(3), &Map{Keys: []Value{Int64(1)}, Values: []Value{Unit{}}}}, None, ""},
		{lf.BuiltinGenMapDelete, []Value{Int64(1), &Map{Keys: []Value{Int64(1)}, Values: []Value{Unit{}}}}, &Map{}, ""},
		{lf.BuiltinError, []Value{Text("x")}, nil, "UserError"},
		{lf.BuiltinTrace, []Value{Text("x"), Int64(1)}, Int64(1), ""},
	}
	seen := map[lf.BuiltinFunction]bool{}
	for _, tc := range tests {
		seen[tc.f] = true
		t.Run(tc.f.String(), func(t *testing.T) {
			got, err := e.Apply(context.Background(), builtinPAPs[tc.f], tc.args...)
			if tc.msg != "" {
				ee, ok := err.(*Error)
				switch {
				case !ok:
					t.Fatalf("got %s, %v; want error %q", show(got), err, tc.msg)
				case ee.Kind == ErrFailureStatus && ee.ErrorID == "UNHANDLED_EXCEPTION/DA.Exception.ArithmeticError:ArithmeticError":
					if ee.Message != tc.msg {
						t.Errorf("message %q, want %q", ee.Message, tc.msg)
					}
				case ee.Kind.String() != tc.msg:
					t.Errorf("error %v, want %s", err, tc.msg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !valueEq(got, tc.want) {
				t.Errorf("got %s, want %s", show(got), show(tc.want))
			}
		})
	}
	for f := range builtins {
		if !seen[f] && !slices.Contains([]lf.BuiltinFunction{lf.BuiltinAnyExceptionMessage, lf.BuiltinFailWithStatus}, f) {
			t.Errorf("builtin %s is wired but not tested here", f)
		}
	}
}

// TestExplodeText: EXPLODE_TEXT gives one Text per code point (an invalid
// byte alone), and an ASCII text's list costs a fixed number of
// allocations, not two per character.
func TestExplodeText(t *testing.T) {
	for _, s := range []string{"", "a", "abc", "é", "aé€😀z", "a\xffb", "\xe2\x82"} {
		var want []Value
		for rest := s; rest != ""; {
			_, n := utf8.DecodeRuneInString(rest)
			want = append(want, Text(rest[:n]))
			rest = rest[n:]
		}
		if got := explodeText(s).Slice(); !slices.Equal(got, want) {
			t.Errorf("explodeText(%q) = %v, want %v", s, got, want)
		}
	}
	long := strings.Repeat("amulet-0.1.8 ", 20)
	if n := allocsPerRun(t, 100, func() { explodeText(long) }); n > 1 {
		t.Errorf("exploding %d ASCII characters: %v allocations, want 1", len(long), n)
	}
}
