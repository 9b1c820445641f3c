package value

// Field numbers of the Ledger API's value.proto messages
// (com.daml.ledger.api.v2: Value, Identifier, Optional, List, TextMap,
// GenMap, Record, RecordField, Variant, Enum), as EncodeProto writes and
// DecodeProto reads them.
const (
	// Value's sum.
	fValueUnit       = 1
	fValueBool       = 2
	fValueInt64      = 3
	fValueDate       = 4
	fValueTimestamp  = 5
	fValueNumeric    = 6
	fValueParty      = 7
	fValueText       = 8
	fValueContractID = 9
	fValueOptional   = 10
	fValueList       = 11
	fValueTextMap    = 12
	fValueGenMap     = 13
	fValueRecord     = 14
	fValueVariant    = 15
	fValueEnum       = 16

	fIdentifierPackageID = 1
	fIdentifierModule    = 2
	fIdentifierEntity    = 3

	fOptionalValue = 1
	fListElements  = 1

	fTextMapEntries    = 1
	fTextMapEntryKey   = 1
	fTextMapEntryValue = 2

	fGenMapEntries    = 1
	fGenMapEntryKey   = 1
	fGenMapEntryValue = 2

	fRecordID         = 1
	fRecordFields     = 2
	fRecordFieldLabel = 1
	fRecordFieldValue = 2

	fVariantID          = 1
	fVariantConstructor = 2
	fVariantValue       = 3

	fEnumID          = 1
	fEnumConstructor = 2
)
