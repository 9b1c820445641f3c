package typecheck

import "github.com/ledgernode/ledgernode/daml/lf"

// builtinFunctionTypes is the type of every builtin function an LF 2
// archive can name (Typing.scala typeOfBuiltinFunction). The type
// variables are named as Canton names them, so that messages match.
var builtinFunctionTypes = func() map[lf.BuiltinFunction]lf.Type {
	a, b, g := &lf.TVar{Name: "$alpha$"}, &lf.TVar{Name: "$beta$"}, &lf.TVar{Name: "$gamma$"}
	fns := func(ts ...lf.Type) lf.Type { // t1 -> t2 -> ... -> tn
		r := ts[len(ts)-1]
		for i := len(ts) - 2; i >= 0; i-- {
			r = fn(ts[i], r)
		}
		return r
	}
	fa := func(body lf.Type) lf.Type { return forall(a.Name, kStar, body) }
	fab := func(body lf.Type) lf.Type { return forall(a.Name, kStar, forall(b.Name, kStar, body)) }
	na := func(body lf.Type) lf.Type { return forall(a.Name, kNat, body) }
	binop := func(t lf.Type) lf.Type { return fns(t, t, t) }
	numBinop := na(binop(tNumeric(a)))
	multiNumBinop := forall(a.Name, kNat, forall(b.Name, kNat, forall(g.Name, kNat,
		fns(tNumeric(g), tNumeric(a), tNumeric(b), tNumeric(g)))))
	numConversion := forall(a.Name, kNat, forall(b.Name, kNat, fns(tNumeric(b), tNumeric(a), tNumeric(b))))
	comparison := fa(fns(a, a, tBool))
	t2t := fns(tText, tText)
	m := map[lf.BuiltinFunction]lf.Type{
		lf.BuiltinTrace:                       fa(fns(tText, a, a)),
		lf.BuiltinAddNumeric:                  numBinop,
		lf.BuiltinSubNumeric:                  numBinop,
		lf.BuiltinMulNumeric:                  multiNumBinop,
		lf.BuiltinDivNumeric:                  multiNumBinop,
		lf.BuiltinRoundNumeric:                na(fns(tInt64, tNumeric(a), tNumeric(a))),
		lf.BuiltinCastNumeric:                 numConversion,
		lf.BuiltinShiftNumeric:                numConversion,
		lf.BuiltinAddInt64:                    binop(tInt64),
		lf.BuiltinSubInt64:                    binop(tInt64),
		lf.BuiltinMulInt64:                    binop(tInt64),
		lf.BuiltinDivInt64:                    binop(tInt64),
		lf.BuiltinModInt64:                    binop(tInt64),
		lf.BuiltinExpInt64:                    binop(tInt64),
		lf.BuiltinInt64ToNumeric:              na(fns(tNumeric(a), tInt64, tNumeric(a))),
		lf.BuiltinNumericToInt64:              na(fns(tNumeric(a), tInt64)),
		lf.BuiltinDateToUnixDays:              fns(tDate, tInt64),
		lf.BuiltinUnixDaysToDate:              fns(tInt64, tDate),
		lf.BuiltinTimestampToUnixMicroseconds: fns(tTimestamp, tInt64),
		lf.BuiltinUnixMicrosecondsToTimestamp: fns(tInt64, tTimestamp),
		lf.BuiltinFoldL:                       fab(fns(fns(b, a, b), b, tList(a), b)),
		lf.BuiltinFoldR:                       fab(fns(fns(a, b, b), b, tList(a), b)),
		lf.BuiltinTextMapEmpty:                fa(tTextMap(a)),
		lf.BuiltinTextMapInsert:               fa(fns(tText, a, tTextMap(a), tTextMap(a))),
		lf.BuiltinTextMapLookup:               fa(fns(tText, tTextMap(a), tOptional(a))),
		lf.BuiltinTextMapDelete:               fa(fns(tText, tTextMap(a), tTextMap(a))),
		lf.BuiltinTextMapToList: fa(fns(tTextMap(a),
			tList(&lf.TStruct{Fields: []lf.Field{{Name: "key", Type: tText}, {Name: "value", Type: a}}}))),
		lf.BuiltinTextMapSize:            fa(fns(tTextMap(a), tInt64)),
		lf.BuiltinGenMapEmpty:            fab(tGenMap(a, b)),
		lf.BuiltinGenMapInsert:           fab(fns(a, b, tGenMap(a, b), tGenMap(a, b))),
		lf.BuiltinGenMapLookup:           fab(fns(a, tGenMap(a, b), tOptional(b))),
		lf.BuiltinGenMapDelete:           fab(fns(a, tGenMap(a, b), tGenMap(a, b))),
		lf.BuiltinGenMapKeys:             fab(fns(tGenMap(a, b), tList(a))),
		lf.BuiltinGenMapValues:           fab(fns(tGenMap(a, b), tList(b))),
		lf.BuiltinGenMapSize:             fab(fns(tGenMap(a, b), tInt64)),
		lf.BuiltinExplodeText:            fns(tText, tList(tText)),
		lf.BuiltinAppendText:             binop(tText),
		lf.BuiltinInt64ToText:            fns(tInt64, tText),
		lf.BuiltinNumericToText:          na(fns(tNumeric(a), tText)),
		lf.BuiltinTimestampToText:        fns(tTimestamp, tText),
		lf.BuiltinPartyToText:            fns(tParty, tText),
		lf.BuiltinDateToText:             fns(tDate, tText),
		lf.BuiltinContractIDToText:       fa(fns(tContractID(a), tOptional(tText))),
		lf.BuiltinSHA256Text:             t2t,
		lf.BuiltinSHA256Hex:              t2t,
		lf.BuiltinKeccak256Text:          t2t,
		lf.BuiltinHexToText:              t2t,
		lf.BuiltinTextToHex:              t2t,
		lf.BuiltinCodePointsToText:       fns(tList(tInt64), tText),
		lf.BuiltinTextToParty:            fns(tText, tOptional(tParty)),
		lf.BuiltinTextToInt64:            fns(tText, tOptional(tInt64)),
		lf.BuiltinTextToNumeric:          na(fns(tNumeric(a), tText, tOptional(tNumeric(a)))),
		lf.BuiltinTextToCodePoints:       fns(tText, tList(tInt64)),
		lf.BuiltinError:                  fa(fns(tText, a)),
		lf.BuiltinImplodeText:            fns(tList(tText), tText),
		lf.BuiltinEqualList:              fa(fns(fns(a, a, tBool), tList(a), tList(a), tBool)),
		lf.BuiltinEqual:                  comparison,
		lf.BuiltinLess:                   comparison,
		lf.BuiltinLessEq:                 comparison,
		lf.BuiltinGreater:                comparison,
		lf.BuiltinGreaterEq:              comparison,
		lf.BuiltinSecp256k1Bool:          fns(tText, tText, tText, tBool),
		lf.BuiltinSecp256k1WithECDSABool: fns(tText, tText, tText, tBool),
		lf.BuiltinSecp256k1ValidateKey:   fns(tText, tBool),
		lf.BuiltinCoerceContractID:       fab(fns(tContractID(a), tContractID(b))),
		lf.BuiltinScaleBigNumeric:        fns(tBigNumeric, tInt64),
		lf.BuiltinPrecisionBigNumeric:    fns(tBigNumeric, tInt64),
		lf.BuiltinAddBigNumeric:          binop(tBigNumeric),
		lf.BuiltinSubBigNumeric:          binop(tBigNumeric),
		lf.BuiltinMulBigNumeric:          binop(tBigNumeric),
		lf.BuiltinDivBigNumeric:          fns(tInt64, tRoundingMode, tBigNumeric, tBigNumeric, tBigNumeric),
		lf.BuiltinShiftRightBigNumeric:   fns(tInt64, tBigNumeric, tBigNumeric),
		lf.BuiltinBigNumericToNumeric:    na(fns(tNumeric(a), tBigNumeric, tNumeric(a))),
		lf.BuiltinNumericToBigNumeric:    na(fns(tNumeric(a), tBigNumeric)),
		lf.BuiltinBigNumericToText:       fns(tBigNumeric, tText),
		lf.BuiltinAnyExceptionMessage:    fns(tAnyException, tText),
		lf.BuiltinTypeRepTyConName:       fns(tTypeRep, tOptional(tText)),
		lf.BuiltinFailWithStatus:         fa(fns(tText, tFailureCat, tText, tTextMap(tText), a)),
	}
	// EXTERNAL_CALL (5001) exists in 2.dev from Canton v3.5.10 on; the
	// decoder keeps unknown 2.dev builtins as they are.
	m[lf.BuiltinFunction(5001)] = fns(tText, tText, tText, tText, tUpdate(tText))
	return m
}()
