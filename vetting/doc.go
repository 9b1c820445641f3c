// Package vetting is the pure domain of Daml packages: it reads DARs,
// decodes Daml-LF archives into packages (metadata, dependencies, data
// types, templates, choices, interfaces), checks a DAR's self-consistency,
// computes transitive dependencies for the vetting rules, and checks that
// one package version is a valid upgrade of another.
//
// Everything here is a function of bytes and values: no store, no HTTP.
// Failures are *apierr.Error values carrying Canton's error codes
// (INVALID_DAR, ZIP_BOMB, DAR_PARSE_ERROR, ALLOWED_LANGUAGE_VERSIONS,
// DAR_DEPENDENCIES_NOT_VALID, NOT_VALID_UPGRADE_PACKAGE, ...).
//
// Expressions are not decoded, only scanned for package references: the
// value checks of the JSON API and the upgrade checks need types only. A
// type checker (DAR_VALIDATION_ERROR) is left to a later stage.
package vetting
