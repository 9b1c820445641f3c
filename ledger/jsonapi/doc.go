// Package jsonapi is Canton's JSON Ledger API v2 (release line 3.5) as a
// layer over the typed API of a *ledger.Node, as Canton's JSON API
// (community/ledger/ledger-json-api, http/json/v2) is a layer over its
// gRPC services: the wire types of the services it serves (with their
// json tags and one-of shapes), the JSON rules of those services, and the
// conversion from the wire to the Node's Go types and back.
//
// httpadapter serves an *API over HTTP and WebSocket; a Go caller that
// wants the JSON shapes in process may call it too. Everything that is not
// about the JSON wire (authorization, field checks, limits, the store)
// stays in the Node, so the JSON, gRPC and Go callers get the same answers.
//
// Only httpadapter, examples/..., ledger/ledgertest, ledger/scriptledger (a
// JSON API client: its Remote sends these wire types) and tests import this
// package (internal/importrules checks it).
package jsonapi
