package vetting

import (
	"fmt"
	"strings"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
)

// ErrorKind says which check an *Error comes from. Each kind has one
// Canton error code (ErrorKind.Code, the table codes).
type ErrorKind int

// The kinds of *Error.
const (
	// KindInvalidRef: a reference has neither a package id nor a package
	// name (Ref).
	KindInvalidRef ErrorKind = iota + 1
	// KindUnresolvedRef: a reference matches no package (Ref).
	KindUnresolvedRef
	// KindAmbiguousRef: a reference to vet matches several packages (Ref,
	// and Packages the ids matched).
	KindAmbiguousRef
	// KindMissingPackages: a package to vet (PackageID), or some of its
	// transitive dependencies (Packages), are not in the participant's
	// package store.
	KindMissingPackages
	// KindLineageMissingDependencies: direct dependencies (Packages) of a
	// member (PackageID) of a lineage CheckLineage checks are not in the
	// participant's package store.
	KindLineageMissingDependencies
	// KindDependenciesNotVetted: dependencies (Packages) of the packages
	// the change vets would not be vetted.
	KindDependenciesNotVetted
	// KindNotUtilityPackage: a package named daml-prim or daml-stdlib
	// (PackageID) is not a utility package.
	KindNotUtilityPackage
	// KindKnownPackageVersion: two packages of a lineage (Packages, the two
	// ids) have the same name and version.
	KindKnownPackageVersion
	// KindNotValidUpgrade: New is not a valid upgrade of Old; Rule names
	// the first upgrade rule it breaks.
	KindNotValidUpgrade
)

var kindNames = map[ErrorKind]string{
	KindInvalidRef:                 "InvalidRef",
	KindUnresolvedRef:              "UnresolvedRef",
	KindAmbiguousRef:               "AmbiguousRef",
	KindMissingPackages:            "MissingPackages",
	KindLineageMissingDependencies: "LineageMissingDependencies",
	KindDependenciesNotVetted:      "DependenciesNotVetted",
	KindNotUtilityPackage:          "NotUtilityPackage",
	KindKnownPackageVersion:        "KnownPackageVersion",
	KindNotValidUpgrade:            "NotValidUpgrade",
}

// String returns the kind's Go name without the Kind prefix
// ("NotValidUpgrade").
func (k ErrorKind) String() string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	return fmt.Sprintf("ErrorKind(%d)", int(k))
}

// codes is the one place where the vetting checks get their Canton codes:
// the code of each kind. Every kind has an entry (TestErrorTable checks
// it).
var codes = map[ErrorKind]apierr.Code{
	KindInvalidRef:                 apierr.InvalidArgument,
	KindUnresolvedRef:              apierr.UnresolvedVettingReference,
	KindAmbiguousRef:               apierr.AmbiguousVettingReference,
	KindMissingPackages:            apierr.TopologyCannotVetDueToMissingPackages,
	KindLineageMissingDependencies: apierr.TopologyCannotVetDueToMissingPackages,
	KindDependenciesNotVetted:      apierr.TopologyDependenciesNotVetted,
	KindNotUtilityPackage:          apierr.DamlPrimNotUtilityPackage,
	KindKnownPackageVersion:        apierr.KnownPackageVersion,
	KindNotValidUpgrade:            apierr.NotValidUpgradePackage,
}

// Code returns the Canton error code of the kind (LEDGER_API_INTERNAL_ERROR
// for a value that is no kind).
func (k ErrorKind) Code() apierr.Code {
	if c, ok := codes[k]; ok {
		return c
	}
	return apierr.InternalError
}

// Error is the error type of the vetting checks: Apply, CheckUpgrade and
// CheckLineage return its APIError, an *apierr.Error with the code of its
// kind that wraps it, so errors.As reaches both. The fields that apply to
// the Kind are set.
type Error struct {
	// Kind says which check failed.
	Kind ErrorKind
	// Message explains the failure in Canton's words. It is the cause,
	// except for KindNotValidUpgrade, whose Message is the upgrade
	// checker's reason alone (the cause quotes it, see CheckUpgrade).
	Message string
	// Ref is the reference at fault (the reference kinds).
	Ref Ref
	// PackageID is the package at fault (KindMissingPackages,
	// KindLineageMissingDependencies, KindNotUtilityPackage).
	PackageID string
	// Packages are the package ids involved: the missing or unvetted
	// dependencies, the packages an ambiguous reference matches, the two
	// packages of KindKnownPackageVersion.
	Packages []string
	// Old and New are the two packages of KindNotValidUpgrade, and Rule
	// the upgrade rule broken, as Canton's upgrade checker names it
	// ("RecordFieldsNewNonOptional", "MissingChoice", ...; Canton prints
	// the message alone).
	Old, New *lf.Package
	Rule     string
}

// UpgradeError is the Error of the upgrade checks (KindNotValidUpgrade),
// by the name it had when it was a type of its own.
type UpgradeError = Error

// Error returns the cause.
func (e *Error) Error() string { return e.cause() }

// cause is the cause of the Canton error: the message, and for an upgrade
// Canton's sentence around the reason.
func (e *Error) cause() string {
	if e.Kind == KindNotValidUpgrade && e.Old != nil && e.New != nil {
		return fmt.Sprintf("Upgrade checks indicate that %s cannot be an upgrade of %s. Reason: %s", e.New, e.Old, e.Message)
	}
	return e.Message
}

// APIError returns the Canton error of e: the code of its kind, the cause,
// and the resources and context keys Canton gives the kind. It wraps e.
func (e *Error) APIError() *apierr.Error {
	ae := e.Kind.Code().Wrap(e, "%s", e.cause())
	switch e.Kind {
	case KindMissingPackages:
		ae.WithResource("PACKAGE", e.PackageID)
	case KindLineageMissingDependencies:
		ae.WithContext("packages", strings.Join(e.Packages, ","))
	case KindNotUtilityPackage:
		ae.WithContext("packageId", e.PackageID)
	case KindKnownPackageVersion:
		if len(e.Packages) == 2 {
			ae.WithContext("firstPackage", e.Packages[0]).WithContext("secondPackage", e.Packages[1])
		}
	case KindNotValidUpgrade:
		if e.Old != nil && e.New != nil {
			ae.WithContext("oldPackage", e.Old.String()).
				WithContext("newPackage", e.New.String()).
				WithContext("upgradeError", e.Message)
		}
	}
	return ae
}

// newError builds an *Error of kind k with a formatted message.
func newError(k ErrorKind, format string, args ...any) *Error {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	return &Error{Kind: k, Message: msg}
}
