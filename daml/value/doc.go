// Package value is the Daml-LF value model of ledgernode: typed values
// (Value and its kinds), Daml-LF's total order on them (Compare, Equal),
// the JSON encoding of the JSON Ledger API checked against LF types
// (CheckValue, FromJSON, AppendJSON) and the protobuf encoding of the
// Ledger API's value.proto (EncodeProto, DecodeProto).
//
// Errors of the JSON codec are *Error values with a JSON path and an
// ErrorKind; the package knows no Canton error codes (the ledger maps the
// kinds to them).
package value
