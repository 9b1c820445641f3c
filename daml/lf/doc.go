// Package lf is the Daml-LF language as ledgernode reads it: language
// versions, identifiers and name syntaxes, the package model (modules, data
// types, templates, choices, interfaces, types and kinds), and the decoding
// of archives and DARs.
//
// Everything here is a function of bytes and values: no store, no HTTP,
// no Canton error codes. Failures are *Error values (ErrorKind says which
// check failed) and, for the string syntaxes, *SyntaxError values; the
// ledger maps them to Canton's codes.
package lf
