// Package script runs Daml Script values on ledgernode's Daml engine,
// without a JVM (daml-script.md), for every line of the daml-script
// library from 3.2 (daml3-script) to 3.5 (daml-script-versions.md):
// payloads and answers whose shape changed between lines are read and
// built by field and constructor name, and the questions are dispatched
// on (name, version).
//
// A Runner evaluates a script value (a Script record), then steps its
// Free structure: each question the script asks (Submit, QueryACS,
// AllocateParty, SetTime, Catch, …, §2 of the sheet) is answered by the
// runner, against a Ledger for the ledger questions, and the answer is
// fed to the question's continuation until the script returns. Unknown
// questions or versions fail the script naming them.
//
// Discover lists the scripts of a package in `daml script --all` order.
// The package is pure: of the module it imports only daml/engine,
// daml/lf, daml/value and daml/tx (and the secp256k1 library the engine's
// crypto builtins use, for the signing questions); ledger/scriptledger
// implements Ledger over a *ledger.Node.
package script
