// Package engine is a Daml-LF 2.x interpreter with the semantics of
// Canton's Speedy machine: strict evaluation with right-to-left
// arguments, closures and partial/over-application, top-level values
// evaluated at most once, erased types, and an explicit, heap-allocated
// continuation stack, so that Daml recursion never becomes Go recursion.
// The comments of this package cite Canton's Daml-LF sources by their
// path under community/daml-lf/<module>/src/main/scala/com/digitalasset/daml/lf/
// (speedy/SBuiltinFun.scala, speedy/compiler/Compiler.scala,
// crypto/Hash.scala, …) and a class or method in them.
//
// # Use
//
// An Engine holds the compiled form of the packages it reads through a
// PackageSource (a *lf.DAR or a PackageMap will do) and the values of
// top-level definitions; it is safe for concurrent use. Every call runs
// its own Machine:
//
//   - EvalValue evaluates a top-level value, Eval a closed expression,
//     Apply a function value to arguments;
//   - Submit runs commands (CreateCommand, ExerciseCommand,
//     ExerciseInterfaceCommand, or any update value) as the roots of one
//     transaction, against a ContractStore, and returns the *tx.Transaction
//     a tx.Builder built (node seeds, contract ids, authorization,
//     rollbacks and contract state are daml/tx's), with the command
//     results, its effects and the ledger-time bounds. Nothing is
//     committed.
//
// Options.Override replaces top-level values (the Daml Script runner maps
// Daml.Script.Internal.LowLevel:dangerousCast to Identity()),
// Options.Trace receives TRACE messages, Options.MaxSteps bounds the work
// of one call; the context cancels it. Options.Cache lets engines over
// different PackageSources share their compiled definitions and
// top-level values, each engine still seeing only its own packages.
// Every engine runs a few list functions of daml-prim and daml-stdlib
// (map, filter, all, sortBy, …) natively when their definitions are the
// expected ones (ListJet), with the same results, traces and errors in
// the same order; Options.NoListJets interprets them.
//
// # Errors
//
// Daml exceptions (throw, ArithmeticError) are catchable by try; when
// none catches them they become an *Error of kind ErrFailureStatus with
// error id UNHANDLED_EXCEPTION/<Module>:<Name>, category 9 and the
// exception's message. Every other failure is a fatal *Error whose Kind
// the ledger maps to a Canton error code. The engine is pure: no store,
// no I/O, no Canton error codes.
package engine
