package lf

import "fmt"

// BuiltinFunction is a Daml-LF builtin function; the values are those of
// the BuiltinFunction enum of daml_lf2.proto. String returns the proto
// name ("ADD_INT64"), which is also the name Speedy prints in
// ArithmeticError messages.
type BuiltinFunction int

// The builtin functions.
const (
	// BuiltinTrace is TRACE.
	BuiltinTrace BuiltinFunction = 0
	// BuiltinError is ERROR.
	BuiltinError BuiltinFunction = 1
	// BuiltinEqual is EQUAL.
	BuiltinEqual BuiltinFunction = 2
	// BuiltinLessEq is LESS_EQ.
	BuiltinLessEq BuiltinFunction = 3
	// BuiltinLess is LESS.
	BuiltinLess BuiltinFunction = 4
	// BuiltinGreaterEq is GREATER_EQ.
	BuiltinGreaterEq BuiltinFunction = 5
	// BuiltinGreater is GREATER.
	BuiltinGreater BuiltinFunction = 6
	// BuiltinAddInt64 is ADD_INT64.
	BuiltinAddInt64 BuiltinFunction = 7
	// BuiltinSubInt64 is SUB_INT64.
	BuiltinSubInt64 BuiltinFunction = 8
	// BuiltinMulInt64 is MUL_INT64.
	BuiltinMulInt64 BuiltinFunction = 9
	// BuiltinDivInt64 is DIV_INT64.
	BuiltinDivInt64 BuiltinFunction = 10
	// BuiltinModInt64 is MOD_INT64.
	BuiltinModInt64 BuiltinFunction = 11
	// BuiltinExpInt64 is EXP_INT64.
	BuiltinExpInt64 BuiltinFunction = 12
	// BuiltinAddNumeric is ADD_NUMERIC.
	BuiltinAddNumeric BuiltinFunction = 13
	// BuiltinSubNumeric is SUB_NUMERIC.
	BuiltinSubNumeric BuiltinFunction = 14
	// BuiltinMulNumeric is MUL_NUMERIC.
	BuiltinMulNumeric BuiltinFunction = 15
	// BuiltinDivNumeric is DIV_NUMERIC.
	BuiltinDivNumeric BuiltinFunction = 16
	// BuiltinRoundNumeric is ROUND_NUMERIC.
	BuiltinRoundNumeric BuiltinFunction = 17
	// BuiltinCastNumeric is CAST_NUMERIC.
	BuiltinCastNumeric BuiltinFunction = 18
	// BuiltinShiftNumeric is SHIFT_NUMERIC.
	BuiltinShiftNumeric BuiltinFunction = 19
	// BuiltinInt64ToNumeric is INT64_TO_NUMERIC.
	BuiltinInt64ToNumeric BuiltinFunction = 20
	// BuiltinNumericToInt64 is NUMERIC_TO_INT64.
	BuiltinNumericToInt64 BuiltinFunction = 21
	// BuiltinInt64ToText is INT64_TO_TEXT.
	BuiltinInt64ToText BuiltinFunction = 22
	// BuiltinNumericToText is NUMERIC_TO_TEXT.
	BuiltinNumericToText BuiltinFunction = 23
	// BuiltinTimestampToText is TIMESTAMP_TO_TEXT.
	BuiltinTimestampToText BuiltinFunction = 25
	// BuiltinDateToText is DATE_TO_TEXT.
	BuiltinDateToText BuiltinFunction = 26
	// BuiltinPartyToText is PARTY_TO_TEXT.
	BuiltinPartyToText BuiltinFunction = 27
	// BuiltinTextToParty is TEXT_TO_PARTY.
	BuiltinTextToParty BuiltinFunction = 28
	// BuiltinTextToInt64 is TEXT_TO_INT64.
	BuiltinTextToInt64 BuiltinFunction = 29
	// BuiltinTextToNumeric is TEXT_TO_NUMERIC.
	BuiltinTextToNumeric BuiltinFunction = 30
	// BuiltinContractIDToText is CONTRACT_ID_TO_TEXT.
	BuiltinContractIDToText BuiltinFunction = 31
	// BuiltinSHA256Text is SHA256_TEXT.
	BuiltinSHA256Text BuiltinFunction = 32
	// BuiltinExplodeText is EXPLODE_TEXT.
	BuiltinExplodeText BuiltinFunction = 33
	// BuiltinAppendText is APPEND_TEXT.
	BuiltinAppendText BuiltinFunction = 34
	// BuiltinImplodeText is IMPLODE_TEXT.
	BuiltinImplodeText BuiltinFunction = 35
	// BuiltinCodePointsToText is CODE_POINTS_TO_TEXT.
	BuiltinCodePointsToText BuiltinFunction = 36
	// BuiltinTextToCodePoints is TEXT_TO_CODE_POINTS.
	BuiltinTextToCodePoints BuiltinFunction = 37
	// BuiltinDateToUnixDays is DATE_TO_UNIX_DAYS.
	BuiltinDateToUnixDays BuiltinFunction = 38
	// BuiltinUnixDaysToDate is UNIX_DAYS_TO_DATE.
	BuiltinUnixDaysToDate BuiltinFunction = 39
	// BuiltinTimestampToUnixMicroseconds is TIMESTAMP_TO_UNIX_MICROSECONDS.
	BuiltinTimestampToUnixMicroseconds BuiltinFunction = 40
	// BuiltinUnixMicrosecondsToTimestamp is UNIX_MICROSECONDS_TO_TIMESTAMP.
	BuiltinUnixMicrosecondsToTimestamp BuiltinFunction = 41
	// BuiltinCoerceContractID is COERCE_CONTRACT_ID.
	BuiltinCoerceContractID BuiltinFunction = 42
	// BuiltinFoldL is FOLDL.
	BuiltinFoldL BuiltinFunction = 43
	// BuiltinFoldR is FOLDR.
	BuiltinFoldR BuiltinFunction = 44
	// BuiltinEqualList is EQUAL_LIST.
	BuiltinEqualList BuiltinFunction = 45
	// BuiltinGenMapEmpty is GENMAP_EMPTY.
	BuiltinGenMapEmpty BuiltinFunction = 52
	// BuiltinGenMapInsert is GENMAP_INSERT.
	BuiltinGenMapInsert BuiltinFunction = 53
	// BuiltinGenMapLookup is GENMAP_LOOKUP.
	BuiltinGenMapLookup BuiltinFunction = 54
	// BuiltinGenMapDelete is GENMAP_DELETE.
	BuiltinGenMapDelete BuiltinFunction = 55
	// BuiltinGenMapKeys is GENMAP_KEYS.
	BuiltinGenMapKeys BuiltinFunction = 56
	// BuiltinGenMapValues is GENMAP_VALUES.
	BuiltinGenMapValues BuiltinFunction = 57
	// BuiltinGenMapSize is GENMAP_SIZE.
	BuiltinGenMapSize BuiltinFunction = 58
	// BuiltinAnyExceptionMessage is ANY_EXCEPTION_MESSAGE.
	BuiltinAnyExceptionMessage BuiltinFunction = 59
	// BuiltinTextMapEmpty is TEXTMAP_EMPTY.
	BuiltinTextMapEmpty BuiltinFunction = 60
	// BuiltinTextMapInsert is TEXTMAP_INSERT.
	BuiltinTextMapInsert BuiltinFunction = 61
	// BuiltinTextMapLookup is TEXTMAP_LOOKUP.
	BuiltinTextMapLookup BuiltinFunction = 62
	// BuiltinTextMapDelete is TEXTMAP_DELETE.
	BuiltinTextMapDelete BuiltinFunction = 63
	// BuiltinTextMapToList is TEXTMAP_TO_LIST.
	BuiltinTextMapToList BuiltinFunction = 64
	// BuiltinTextMapSize is TEXTMAP_SIZE.
	BuiltinTextMapSize BuiltinFunction = 65
	// BuiltinFailWithStatus is FAIL_WITH_STATUS.
	BuiltinFailWithStatus BuiltinFunction = 66
	// BuiltinKeccak256Text is KECCAK256_TEXT.
	BuiltinKeccak256Text BuiltinFunction = 67
	// BuiltinSecp256k1Bool is SECP256K1_BOOL.
	BuiltinSecp256k1Bool BuiltinFunction = 68
	// BuiltinHexToText is HEX_TO_TEXT.
	BuiltinHexToText BuiltinFunction = 69
	// BuiltinTextToHex is TEXT_TO_HEX.
	BuiltinTextToHex BuiltinFunction = 70
	// BuiltinSHA256Hex is SHA256_HEX.
	BuiltinSHA256Hex BuiltinFunction = 71
	// BuiltinSecp256k1WithECDSABool is SECP256K1_WITH_ECDSA_BOOL.
	BuiltinSecp256k1WithECDSABool BuiltinFunction = 72
	// BuiltinSecp256k1ValidateKey is SECP256K1_VALIDATE_KEY.
	BuiltinSecp256k1ValidateKey BuiltinFunction = 73
	// BuiltinScaleBigNumeric is SCALE_BIGNUMERIC.
	BuiltinScaleBigNumeric BuiltinFunction = 2001
	// BuiltinPrecisionBigNumeric is PRECISION_BIGNUMERIC.
	BuiltinPrecisionBigNumeric BuiltinFunction = 2002
	// BuiltinAddBigNumeric is ADD_BIGNUMERIC.
	BuiltinAddBigNumeric BuiltinFunction = 2003
	// BuiltinSubBigNumeric is SUB_BIGNUMERIC.
	BuiltinSubBigNumeric BuiltinFunction = 2004
	// BuiltinMulBigNumeric is MUL_BIGNUMERIC.
	BuiltinMulBigNumeric BuiltinFunction = 2005
	// BuiltinDivBigNumeric is DIV_BIGNUMERIC.
	BuiltinDivBigNumeric BuiltinFunction = 2006
	// BuiltinShiftRightBigNumeric is SHIFT_RIGHT_BIGNUMERIC.
	BuiltinShiftRightBigNumeric BuiltinFunction = 2007
	// BuiltinBigNumericToNumeric is BIGNUMERIC_TO_NUMERIC.
	BuiltinBigNumericToNumeric BuiltinFunction = 2008
	// BuiltinNumericToBigNumeric is NUMERIC_TO_BIGNUMERIC.
	BuiltinNumericToBigNumeric BuiltinFunction = 2009
	// BuiltinBigNumericToText is BIGNUMERIC_TO_TEXT.
	BuiltinBigNumericToText BuiltinFunction = 2010
	// BuiltinTypeRepTyConName is TYPE_REP_TYCON_NAME.
	BuiltinTypeRepTyConName BuiltinFunction = 3011
)

// builtinFunctions maps each builtin to its proto name and the first LF
// version that has it.
var builtinFunctions = map[BuiltinFunction]struct {
	name string
	min  LFVersion
}{
	BuiltinTrace:                       {"TRACE", LF21},
	BuiltinError:                       {"ERROR", LF21},
	BuiltinEqual:                       {"EQUAL", LF21},
	BuiltinLessEq:                      {"LESS_EQ", LF21},
	BuiltinLess:                        {"LESS", LF21},
	BuiltinGreaterEq:                   {"GREATER_EQ", LF21},
	BuiltinGreater:                     {"GREATER", LF21},
	BuiltinAddInt64:                    {"ADD_INT64", LF21},
	BuiltinSubInt64:                    {"SUB_INT64", LF21},
	BuiltinMulInt64:                    {"MUL_INT64", LF21},
	BuiltinDivInt64:                    {"DIV_INT64", LF21},
	BuiltinModInt64:                    {"MOD_INT64", LF21},
	BuiltinExpInt64:                    {"EXP_INT64", LF21},
	BuiltinAddNumeric:                  {"ADD_NUMERIC", LF21},
	BuiltinSubNumeric:                  {"SUB_NUMERIC", LF21},
	BuiltinMulNumeric:                  {"MUL_NUMERIC", LF21},
	BuiltinDivNumeric:                  {"DIV_NUMERIC", LF21},
	BuiltinRoundNumeric:                {"ROUND_NUMERIC", LF21},
	BuiltinCastNumeric:                 {"CAST_NUMERIC", LF21},
	BuiltinShiftNumeric:                {"SHIFT_NUMERIC", LF21},
	BuiltinInt64ToNumeric:              {"INT64_TO_NUMERIC", LF21},
	BuiltinNumericToInt64:              {"NUMERIC_TO_INT64", LF21},
	BuiltinInt64ToText:                 {"INT64_TO_TEXT", LF21},
	BuiltinNumericToText:               {"NUMERIC_TO_TEXT", LF21},
	BuiltinTimestampToText:             {"TIMESTAMP_TO_TEXT", LF21},
	BuiltinDateToText:                  {"DATE_TO_TEXT", LF21},
	BuiltinPartyToText:                 {"PARTY_TO_TEXT", LF21},
	BuiltinTextToParty:                 {"TEXT_TO_PARTY", LF21},
	BuiltinTextToInt64:                 {"TEXT_TO_INT64", LF21},
	BuiltinTextToNumeric:               {"TEXT_TO_NUMERIC", LF21},
	BuiltinContractIDToText:            {"CONTRACT_ID_TO_TEXT", LF21},
	BuiltinSHA256Text:                  {"SHA256_TEXT", LF21},
	BuiltinExplodeText:                 {"EXPLODE_TEXT", LF21},
	BuiltinAppendText:                  {"APPEND_TEXT", LF21},
	BuiltinImplodeText:                 {"IMPLODE_TEXT", LF21},
	BuiltinCodePointsToText:            {"CODE_POINTS_TO_TEXT", LF21},
	BuiltinTextToCodePoints:            {"TEXT_TO_CODE_POINTS", LF21},
	BuiltinDateToUnixDays:              {"DATE_TO_UNIX_DAYS", LF21},
	BuiltinUnixDaysToDate:              {"UNIX_DAYS_TO_DATE", LF21},
	BuiltinTimestampToUnixMicroseconds: {"TIMESTAMP_TO_UNIX_MICROSECONDS", LF21},
	BuiltinUnixMicrosecondsToTimestamp: {"UNIX_MICROSECONDS_TO_TIMESTAMP", LF21},
	BuiltinCoerceContractID:            {"COERCE_CONTRACT_ID", LF21},
	BuiltinFoldL:                       {"FOLDL", LF21},
	BuiltinFoldR:                       {"FOLDR", LF21},
	BuiltinEqualList:                   {"EQUAL_LIST", LF21},
	BuiltinGenMapEmpty:                 {"GENMAP_EMPTY", LF21},
	BuiltinGenMapInsert:                {"GENMAP_INSERT", LF21},
	BuiltinGenMapLookup:                {"GENMAP_LOOKUP", LF21},
	BuiltinGenMapDelete:                {"GENMAP_DELETE", LF21},
	BuiltinGenMapKeys:                  {"GENMAP_KEYS", LF21},
	BuiltinGenMapValues:                {"GENMAP_VALUES", LF21},
	BuiltinGenMapSize:                  {"GENMAP_SIZE", LF21},
	BuiltinAnyExceptionMessage:         {"ANY_EXCEPTION_MESSAGE", LF21},
	BuiltinTextMapEmpty:                {"TEXTMAP_EMPTY", LF21},
	BuiltinTextMapInsert:               {"TEXTMAP_INSERT", LF21},
	BuiltinTextMapLookup:               {"TEXTMAP_LOOKUP", LF21},
	BuiltinTextMapDelete:               {"TEXTMAP_DELETE", LF21},
	BuiltinTextMapToList:               {"TEXTMAP_TO_LIST", LF21},
	BuiltinTextMapSize:                 {"TEXTMAP_SIZE", LF21},
	BuiltinFailWithStatus:              {"FAIL_WITH_STATUS", LF21},
	BuiltinKeccak256Text:               {"KECCAK256_TEXT", LF21},
	BuiltinSecp256k1Bool:               {"SECP256K1_BOOL", LF21},
	BuiltinHexToText:                   {"HEX_TO_TEXT", LF21},
	BuiltinTextToHex:                   {"TEXT_TO_HEX", LF21},
	BuiltinSHA256Hex:                   {"SHA256_HEX", LF21},
	BuiltinSecp256k1WithECDSABool:      {"SECP256K1_WITH_ECDSA_BOOL", LF21},
	BuiltinSecp256k1ValidateKey:        {"SECP256K1_VALIDATE_KEY", LF23},
	BuiltinScaleBigNumeric:             {"SCALE_BIGNUMERIC", LF2Dev},
	BuiltinPrecisionBigNumeric:         {"PRECISION_BIGNUMERIC", LF2Dev},
	BuiltinAddBigNumeric:               {"ADD_BIGNUMERIC", LF2Dev},
	BuiltinSubBigNumeric:               {"SUB_BIGNUMERIC", LF2Dev},
	BuiltinMulBigNumeric:               {"MUL_BIGNUMERIC", LF2Dev},
	BuiltinDivBigNumeric:               {"DIV_BIGNUMERIC", LF2Dev},
	BuiltinShiftRightBigNumeric:        {"SHIFT_RIGHT_BIGNUMERIC", LF2Dev},
	BuiltinBigNumericToNumeric:         {"BIGNUMERIC_TO_NUMERIC", LF2Dev},
	BuiltinNumericToBigNumeric:         {"NUMERIC_TO_BIGNUMERIC", LF2Dev},
	BuiltinBigNumericToText:            {"BIGNUMERIC_TO_TEXT", LF2Dev},
	BuiltinTypeRepTyConName:            {"TYPE_REP_TYCON_NAME", LF2Dev},
}

// String returns the builtin's proto name, e.g. "ADD_INT64".
func (b BuiltinFunction) String() string {
	if f, ok := builtinFunctions[b]; ok {
		return f.name
	}
	return fmt.Sprintf("BuiltinFunction(%d)", int(b))
}

// Known reports whether b is a builtin of daml_lf2.proto.
func (b BuiltinFunction) Known() bool {
	_, ok := builtinFunctions[b]
	return ok
}
