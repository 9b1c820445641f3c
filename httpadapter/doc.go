// Package httpadapter serves a *ledger.Node over HTTP as Canton's JSON
// Ledger API v2 (release line 3.5), so that unmodified Canton clients
// (the TypeScript @canton-network packages, curl, generated OpenAPI
// clients) talk to it as to a real participant.
//
// The adapter is thin on purpose. Each route decodes its path, query and
// body, calls one *ledger.Node method and encodes the result; every
// business rule, authorization included, lives in package ledger. The
// adapter only authenticates: it reads the access token, verifies it with
// Options.Verifier and resolves it to an identity.Principal with
// (*ledger.Node).Authenticate, which it attaches to the request context
// with ledger.WithPrincipal.
//
// Wire behaviour follows Canton's JSON API:
//
//   - 2xx answers are application/json, always with a body ("{}" where
//     Canton's would be empty, e.g. POST /v2/dars/validate), except GET
//     /readyz (text/plain) and GET /v2/packages/{package-id} (the archive
//     payload as application/octet-stream, with the Canton-Package-Hash
//     header);
//   - errors from the node are JsCantonError bodies with the HTTP status of
//     their category; security-sensitive categories are redacted to code
//     "NA" and logged server-side under a correlation id;
//   - decode failures of a body, path or query parameter are 400 text/plain
//     "Invalid value for: …": a body that is not UTF-8 JSON of the
//     request's OpenAPI types, and a page or continuation token that is
//     not base64 (tokens are passed on in padded base64);
//   - what Canton's codecs reject while decoding (a template or interface
//     id that does not split into <package>:<module>:<entity>, a Command
//     that is not exactly one of its variants, a proto one-of with two
//     variants, an unknown enum name, a timestamp that does not parse) is
//     checked by the node, for Go and WebSocket callers too, and reaches
//     the adapter as an apierr.Malformed error, which is answered as the
//     same 400 text/plain decode failure; error messages quote outside
//     input through apierr.Quote, so they never grow with it;
//   - a WebSocket stream answers any failure, including a malformed
//     request, as one JsCantonError frame and a normal close;
//   - the deprecated GET /v2/package-vetting takes its JSON body, and an
//     absent one means the empty request;
//   - the list ("asList") routes (/v2/updates, /flats, /trees,
//     /v2/state/active-contracts) answer a JSON array; their limit and
//     stream_idle_timeout_ms query parameters become ledger.ListOptions,
//     and the blocking call ends when the client goes away (the request
//     context is the call's context);
//   - as in Canton's JSON layer, an update whose path id differs from the
//     body's (PATCH /v2/users/{user-id}, its rights and
//     identity-provider-id, PATCH /v2/idps/{idp-id}, PATCH
//     /v2/parties/{party}) and a malformed {user-id} on GET/DELETE
//     /v2/users/{user-id} and GET …/rights are 400 INVALID_ARGUMENT
//     JsCantonErrors with definiteAnswer false, answered before the node
//     is called.
//
// Authentication runs before the body is read: a request that is both
// unauthenticated and malformed gets the 401 (Canton's tapir layer would
// report the 400 first), and no body is buffered for a caller without a
// valid token.
//
// Mount the handler at the root of a server or under a prefix with
// http.StripPrefix.
//
// Timeouts follow Canton's defaults: every request but a WebSocket stream
// must be read and answered within Options.RequestTimeout (20 s), else the
// client gets pekko-http's 503 text/plain answer and the connection is
// closed; stream_idle_timeout_ms is capped (Options.MaxStreamIdleTimeout,
// 15 s); a WebSocket stream is closed after Options.MaxWebSocketDuration
// (1 h). ServerTimeouts sets an http.Server's header and keep-alive
// timeouts (10 s, 60 s); leave its ReadTimeout and WriteTimeout unset, as
// they would cut WebSocket streams.
package httpadapter
