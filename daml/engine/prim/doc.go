// Package prim holds the pure primitive operations behind Daml-LF 2.x
// builtin functions, with the exact results, text forms and failures of
// Canton's Speedy engine (release line 3.5). It works on plain Go types
// (int64, string, numeric.Numeric, Timestamp, Date) and knows nothing of
// the engine's runtime values or the LF AST: the engine maps each builtin
// to one function here.
//
// Failures:
//   - *ArithmeticError (numeric.ArithmeticError): the catchable Daml
//     exception DA.Exception.ArithmeticError:ArithmeticError. Its Message is
//     exactly Speedy's "ArithmeticError while evaluating (NAME args…).",
//     with every runtime argument (witness included) printed.
//   - *CryptoError: the fatal interpretation errors Crypto.MalformedByteEncoding,
//     MalformedKey and MalformedSignature.
//   - *InvalidCodePointError: CODE_POINTS_TO_TEXT's internal crash (not an
//     LF error; clients see LEDGER_API_INTERNAL_ERROR).
//
// Text is Go's string holding valid UTF-8; its order is Unicode code-point
// order, which is Go's byte-wise string order (CompareText).
package prim

import "github.com/ledgernode/ledgernode/daml/numeric"

// ArithmeticError is the error every arithmetic builtin returns; see
// numeric.ArithmeticError.
type ArithmeticError = numeric.ArithmeticError
