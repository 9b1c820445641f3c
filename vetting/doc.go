// Package vetting is the vetting domain of Daml packages: the vetted-package
// state of a synchronizer and its change sets (Apply), the dependency rule
// (a package is vetted only with its dependency closure), and the upgrade
// checks between versions of one package name (CheckUpgrade,
// CheckLineage).
//
// Packages come decoded from package daml/lf; everything here is a
// function of values: no store, no HTTP. A failure is an *Error whose Kind
// says which check failed, returned as its APIError: the *apierr.Error of
// the kind's Canton code (TOPOLOGY_DEPENDENCIES_NOT_VETTED,
// NOT_VALID_UPGRADE_PACKAGE, ...; the table is in errors.go) that wraps
// it, so errors.As reaches both.
package vetting
