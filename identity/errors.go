package identity

import (
	"errors"
	"fmt"

	"github.com/ledgernode/ledgernode/apierr"
)

// ErrorKind says which check an *Error comes from. Each kind has one
// Canton error code (ErrorKind.Code, the table codes).
type ErrorKind int

// The kinds of *Error.
const (
	// KindInvalid: a value breaks its rule: a party, LedgerString, user
	// id, unique identifier or identity-provider id with a bad syntax, a
	// malformed annotation key or an empty annotation value, a right
	// whose kind or party is wrong.
	KindInvalid ErrorKind = iota + 1
	// KindInvalidField: a named field of an identity-provider
	// configuration holds an invalid value (Field names it).
	KindInvalidField
	// KindMissingField: a required field of an identity-provider
	// configuration is empty (Field names it).
	KindMissingField
	// KindAnnotationsTooLarge: annotations exceed MaxAnnotationsSize. The
	// error wraps ErrAnnotationsTooLarge.
	KindAnnotationsTooLarge
	// KindUnauthenticated: an access token is refused (malformed, badly
	// signed, expired, for another participant, its key unavailable, ...).
	KindUnauthenticated
	// KindConfig: the configuration of token verification or minting is
	// unusable: an -auth spec, a key or PEM file, an empty secret or user
	// id. It is the operator's mistake, not a request's.
	KindConfig
)

var kindNames = map[ErrorKind]string{
	KindInvalid:             "Invalid",
	KindInvalidField:        "InvalidField",
	KindMissingField:        "MissingField",
	KindAnnotationsTooLarge: "AnnotationsTooLarge",
	KindUnauthenticated:     "Unauthenticated",
	KindConfig:              "Config",
}

// String returns the kind's Go name without the Kind prefix
// ("Unauthenticated").
func (k ErrorKind) String() string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	return fmt.Sprintf("ErrorKind(%d)", int(k))
}

// codes is the one place where identity's errors get their Canton codes:
// the code of each kind. Every kind has an entry (TestErrorTable checks
// it).
var codes = map[ErrorKind]apierr.Code{
	// Canton's FieldValidator reports a malformed identifier or annotation
	// it is not told the field of as invalidArgument; package ledger
	// reports most of them as INVALID_FIELD with the field's name.
	KindInvalid:      apierr.InvalidArgument,
	KindInvalidField: apierr.InvalidField,
	KindMissingField: apierr.MissingField,
	// As Canton's FieldValidator.verifyMetadataAnnotations. Package ledger
	// answers with the resource's own code instead
	// (MAX_USER_ANNOTATIONS_SIZE_EXCEEDED,
	// MAX_PARTY_DETAILS_ANNOTATIONS_SIZE_EXCEEDED), as Canton's user and
	// party stores do, by testing errors.Is(err, ErrAnnotationsTooLarge).
	KindAnnotationsTooLarge: apierr.InvalidArgument,
	KindUnauthenticated:     apierr.Unauthenticated,
	// A node that cannot verify tokens is broken, not the request.
	KindConfig: apierr.InternalError,
}

// Code returns the Canton error code of the kind (LEDGER_API_INTERNAL_ERROR
// for a value that is no kind).
func (k ErrorKind) Code() apierr.Code {
	if c, ok := codes[k]; ok {
		return c
	}
	return apierr.InternalError
}

// Error is the error type of this package. Message is the complete
// human-readable explanation; Field names the configuration field of the
// field kinds. Where the package answers a request by itself (a
// Verifier's Verify, a KeySource's Key) the *Error reaches the caller as
// its APIError, an *apierr.Error that wraps it; the validation and
// parsing functions return the *Error, and their caller decides how to
// report it (package ledger names the request field). errors.As finds the
// *Error in both cases.
type Error struct {
	// Kind says which check failed.
	Kind ErrorKind
	// Message explains the failure (Error returns it).
	Message string
	// Field is the field at fault (KindInvalidField, KindMissingField), or
	// "".
	Field string
	// Err is the underlying error, if any.
	Err error
}

// Error returns the message.
func (e *Error) Error() string { return e.Message }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// APIError returns the Canton error of e: the code of its kind, whose
// cause is the message (for KindMissingField, the field's name, as
// Canton's MISSING_FIELD prints it). The result wraps e.
func (e *Error) APIError() *apierr.Error {
	if e.Kind == KindMissingField {
		return e.Kind.Code().Wrap(e, "%s", e.Field)
	}
	return e.Kind.Code().Wrap(e, "%s", e.Message)
}

// APIError returns err as the Canton error a client receives: an
// *apierr.Error in err's chain is returned as it is, an *Error becomes
// its APIError, and any other error, nil included, is returned
// unchanged.
func APIError(err error) error {
	var ae *apierr.Error
	if errors.As(err, &ae) {
		return ae
	}
	var e *Error
	if errors.As(err, &e) {
		return e.APIError()
	}
	return err
}

// newError builds an *Error of kind k with a formatted message.
func newError(k ErrorKind, format string, args ...any) *Error {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	return &Error{Kind: k, Message: msg}
}

// wrapError is newError keeping err as the underlying error.
func wrapError(k ErrorKind, err error, format string, args ...any) *Error {
	e := newError(k, format, args...)
	e.Err = err
	return e
}

// unauthenticated is the Canton error of a refused token: a
// KindUnauthenticated *Error with a formatted message, as its APIError.
func unauthenticated(format string, args ...any) *apierr.Error {
	return newError(KindUnauthenticated, format, args...).APIError()
}

// unauthenticatedWrap is unauthenticated keeping err as the *Error's
// underlying error.
func unauthenticatedWrap(err error, format string, args ...any) *apierr.Error {
	return wrapError(KindUnauthenticated, err, format, args...).APIError()
}
