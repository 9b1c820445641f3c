// Package lf is the Daml-LF language as ledgernode reads it: language
// versions, identifiers and name syntaxes, the package model (modules, data
// types, top-level values, templates, choices, interfaces, exceptions,
// types and kinds), the expression AST (Expr, Update, Pattern and the
// builtin functions), and the decoding of archives and DARs, with a
// process-wide cache of decoded packages (Cache).
//
// Decoded expressions are immutable DAGs: interned expressions are shared.
// Walk them with Inspect, or with an explicit stack; their depth is
// bounded (1000 levels within one archive message, 10000 through interned
// expressions).
//
// Everything here is a function of bytes and values: no store, no HTTP,
// no Canton error codes. Failures are *Error values (ErrorKind says which
// check failed) and, for the string syntaxes, *SyntaxError values; the
// ledger maps them to Canton's codes.
package lf
