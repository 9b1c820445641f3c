// Package script runs Daml Script values on ledgernode's Daml engine,
// without a JVM, for every line of the daml-script library from 3.2
// (daml3-script) to 3.5: payloads and answers whose shape changed between
// lines are read and built by field and constructor name, and the
// questions are dispatched on (name, version). The comments cite Daml's
// JVM runner (github.com/digital-asset/daml, under
// sdk/daml-script/runner/src/main/scala/com/digitalasset/daml/lf/engine/:
// script/v2/ScriptF.scala, free/Free.scala, …) and the library (under
// sdk/daml-script/daml/Daml/Script/: Internal/Questions/*.daml).
//
// A Runner evaluates a script value (a Script record), then steps its Free
// structure: each question the script asks (Submit, QueryACS,
// AllocateParty, SetTime, Catch, …, as ScriptF.scala parses them) is
// answered by the runner, against a Ledger for the ledger questions, and
// the answer is fed to the question's continuation until the script
// returns. Unknown questions or versions fail the script naming them.
//
// Discover lists the scripts of a package in `daml script --all` order.
// The package is pure: of the module it imports only daml/engine,
// daml/lf, daml/value and daml/tx (and the secp256k1 library the engine's
// crypto builtins use, for the signing questions); ledger/scriptledger
// implements Ledger over a *ledger.Node.
package script
