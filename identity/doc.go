// Package identity holds the pure identity domain of a Canton participant:
// Canton identifiers and their validation, fingerprints, users and their
// rights, identity-provider configurations, object metadata, the
// authenticated Principal, and ledger-API JWT verification (with JWKS
// fetching and caching).
//
// Nothing here touches a store; package ledger persists these values and
// enforces authorization with them.
//
// Every failure is an *Error whose Kind says which check failed; the one
// table of the kinds' Canton codes is in errors.go (ErrorKind.Code,
// Error.APIError). Verifiers and key sources answer the Ledger API
// themselves, so their errors are the *apierr.Error of the kind's code,
// wrapping the *Error; the validation and parsing functions return the
// *Error, and their caller reports it (package ledger names the request
// field, or calls APIError).
package identity
