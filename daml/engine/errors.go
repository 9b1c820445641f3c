package engine

import (
	"fmt"
	"strings"
)

// ErrorKind classifies an *Error. The ledger maps each kind to a Canton
// error code (ledger/daml_errors.go, as Canton's RejectionGenerators maps
// the engine's interpretation/Error.scala).
type ErrorKind int

// The error kinds.
const (
	// ErrInternal is an internal crash of the machine (no matching case
	// alternative, a value of the wrong shape, an invalid code point …).
	ErrInternal ErrorKind = iota + 1
	// ErrUserError is the ERROR builtin (UserError).
	ErrUserError
	// ErrFailureStatus is FAIL_WITH_STATUS or an unhandled exception.
	ErrFailureStatus
	// ErrNonComparableValues is the comparison of function values.
	ErrNonComparableValues
	// ErrContractIDComparability is the comparison of a local contract id
	// with a global one that has the same discriminator.
	ErrContractIDComparability
	// ErrValueNesting is a value nested deeper than 100 levels.
	ErrValueNesting
	// ErrMalformedText is a text with a NUL or an unpaired surrogate.
	ErrMalformedText
	// ErrWronglyTypedContract is unsafe_from_interface on a contract of
	// another template.
	ErrWronglyTypedContract
	// ErrContractDoesNotImplementRequiringInterface is
	// unsafe_from_required_interface on a contract that does not implement
	// the requiring interface.
	ErrContractDoesNotImplementRequiringInterface
	// ErrCryptoMalformedByteEncoding is a malformed hex argument.
	ErrCryptoMalformedByteEncoding
	// ErrCryptoMalformedKey is a malformed public key.
	ErrCryptoMalformedKey
	// ErrCryptoMalformedSignature is a malformed signature.
	ErrCryptoMalformedSignature
	// ErrPackage is a missing package or definition, or one the compiler
	// cannot translate.
	ErrPackage
	// ErrStepLimit is the step budget of Options.MaxSteps exhausted.
	ErrStepLimit
	// ErrCanceled is the evaluation's context canceled or past its
	// deadline; Cause holds ctx.Err().
	ErrCanceled
	// ErrUnsupported is a feature this engine does not implement yet.
	ErrUnsupported
	// ErrContractNotFound is a contract id that is neither created in
	// this transaction nor returned by the ContractStore (or rolled back).
	ErrContractNotFound
	// ErrContractNotActive is a contract consumed earlier in this
	// transaction.
	ErrContractNotActive
	// ErrFailedAuthorization is a node whose required authorizers are missing
	// (speedy/AuthorizationChecker.scala).
	ErrFailedAuthorization
	// ErrTemplatePreconditionViolated is a precondition that returned
	// False.
	ErrTemplatePreconditionViolated
	// ErrContractDoesNotImplementInterface is an interface fetch or
	// exercise on a contract whose template does not implement the
	// interface.
	ErrContractDoesNotImplementInterface
	// ErrEffectfulRollback is a rollback of a create or a consuming
	// exercise when Submission.ForbidEffectfulRollback is set (NUCK mode).
	ErrEffectfulRollback
	// ErrUpgradeTranslationFailed is a contract that cannot be translated to
	// the template version a command or a choice uses (Speedy's
	// ValueTranslator; Upgrade.TranslationFailed).
	ErrUpgradeTranslationFailed
	// ErrUpgradeValidationFailed is a contract whose metadata recomputed under
	// another template version differs from the stored one
	// (SBuiltinFun.checkContractUpgradable; Upgrade.ValidationFailed).
	ErrUpgradeValidationFailed
	// ErrContractKeyNotFound is a fetch_by_key or exercise_by_key whose
	// key matches no active contract (LF 2.3).
	ErrContractKeyNotFound
	// ErrCreateEmptyContractKeyMaintainers is a create whose key has no
	// maintainers.
	ErrCreateEmptyContractKeyMaintainers
	// ErrFetchEmptyContractKeyMaintainers is a key lookup whose key has
	// no maintainers.
	ErrFetchEmptyContractKeyMaintainers
	// ErrContractIDInContractKey is a contract key that contains a
	// contract id.
	ErrContractIDInContractKey
	// ErrUnresolvedPackageName is an interface fetch or exercise on a contract
	// whose package name has no entry in a non-nil Submission.Preference
	// (Speedy's packageResolution); the Message names the package name.
	ErrUnresolvedPackageName
)

var kindNames = map[ErrorKind]string{
	ErrInternal: "Internal", ErrUserError: "UserError", ErrFailureStatus: "FailureStatus",
	ErrNonComparableValues: "NonComparableValues", ErrContractIDComparability: "ContractIdComparability",
	ErrValueNesting: "ValueNesting", ErrMalformedText: "MalformedText",
	ErrWronglyTypedContract:                       "WronglyTypedContract",
	ErrContractDoesNotImplementRequiringInterface: "ContractDoesNotImplementRequiringInterface",
	ErrCryptoMalformedByteEncoding:                "Crypto.MalformedByteEncoding",
	ErrCryptoMalformedKey:                         "Crypto.MalformedKey",
	ErrCryptoMalformedSignature:                   "Crypto.MalformedSignature",
	ErrPackage:                                    "Package", ErrStepLimit: "StepLimit", ErrCanceled: "Canceled",
	ErrUnsupported: "Unsupported", ErrContractNotFound: "ContractNotFound", ErrContractNotActive: "ContractNotActive",
	ErrFailedAuthorization: "FailedAuthorization", ErrTemplatePreconditionViolated: "TemplatePreconditionViolated",
	ErrContractDoesNotImplementInterface: "ContractDoesNotImplementInterface",
	ErrEffectfulRollback:                 "EffectfulRollback",
	ErrUpgradeTranslationFailed:          "Upgrade.TranslationFailed",
	ErrUpgradeValidationFailed:           "Upgrade.ValidationFailed",
	ErrContractKeyNotFound:               "ContractKeyNotFound",
	ErrCreateEmptyContractKeyMaintainers: "CreateEmptyContractKeyMaintainers",
	ErrFetchEmptyContractKeyMaintainers:  "FetchEmptyContractKeyMaintainers",
	ErrContractIDInContractKey:           "ContractIdInContractKey",
	ErrUnresolvedPackageName:             "UnresolvedPackageName",
}

// String returns the kind's name, e.g. "UserError".
func (k ErrorKind) String() string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	return fmt.Sprintf("ErrorKind(%d)", int(k))
}

// Error is a fatal interpretation error: it ends the evaluation and no
// Daml try can catch it. Reach it with errors.As.
type Error struct {
	// Kind classifies the error.
	Kind ErrorKind
	// Message is the human-readable message (for ErrUserError the user's
	// text, for ErrFailureStatus the failure's message).
	Message string
	// ErrorID is the FailureStatus error id, e.g.
	// "UNHANDLED_EXCEPTION/DA.Exception.GeneralError:GeneralError".
	ErrorID string
	// Category is the FailureStatus Canton category id (8 or 9).
	Category int64
	// Metadata is the FailureStatus metadata.
	Metadata map[string]string
	// Exception is the uncaught exception (an *Any) when the error comes
	// from an unhandled exception, nil otherwise.
	Exception *Any
	// Cause is an underlying Go error, or nil: ctx.Err(), a ContractStore
	// error, or the daml/tx error the transaction model reported
	// (*tx.AuthorizationError for ErrFailedAuthorization,
	// *tx.ContractNotActiveError, *tx.ContractNotFoundError for a
	// rolled-back contract, *tx.EffectfulRollbackError), whose text is
	// then the Message.
	Cause error
}

// Error returns the kind and the message.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("daml engine: ")
	b.WriteString(e.Kind.String())
	if e.ErrorID != "" {
		fmt.Fprintf(&b, " %s (category %d)", e.ErrorID, e.Category)
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	return b.String()
}

// Unwrap returns Cause.
func (e *Error) Unwrap() error { return e.Cause }

func errorf(kind ErrorKind, format string, args ...any) *Error {
	return &Error{Kind: kind, Message: fmt.Sprintf(format, args...)}
}

func crash(format string, args ...any) *Error { return errorf(ErrInternal, format, args...) }
