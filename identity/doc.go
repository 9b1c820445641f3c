// Package identity holds the pure identity domain of a Canton participant:
// Canton identifiers and their validation, fingerprints, users and their
// rights, identity-provider configurations, object metadata, the
// authenticated Principal, and ledger-API JWT verification (with JWKS
// fetching and caching).
//
// Nothing here touches a store; package ledger persists these values and
// enforces authorization with them.
package identity
