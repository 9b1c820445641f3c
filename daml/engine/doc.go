// Package engine is a Daml-LF 2.x interpreter with the semantics of
// Canton's Speedy machine: strict evaluation with right-to-left argument
// order, closures and partial application, top-level values evaluated at
// most once, erased types, and an explicit, heap-allocated continuation
// stack so that Daml recursion never becomes Go recursion.
//
// An Engine holds the compiled form of the packages it reads through a
// PackageSource; it is safe for concurrent use by many goroutines. Each
// evaluation runs on its own Machine, which is not shared. The engine is
// pure: it has no store, does no I/O and returns typed errors (*Error);
// mapping them to Canton error codes is the caller's job.
package engine
