// Package script runs Daml Script (daml-script 3.3) values on ledgernode's
// Daml engine, without a JVM (daml-script.md).
//
// A Runner evaluates a script value (a Script record), then steps its
// Free structure: each question the script asks (Submit, QueryACS,
// AllocateParty, SetTime, Catch, …, §2 of the sheet) is answered by the
// runner, against a Ledger for the ledger questions, and the answer is
// fed to the question's continuation until the script returns. Unknown
// questions or versions fail the script naming them.
//
// Discover lists the scripts of a package in `daml script --all` order.
// The package is pure: it imports only daml/engine, daml/lf, daml/value
// and daml/tx; ledger/scriptledger implements Ledger over a
// *ledger.Node.
package script
