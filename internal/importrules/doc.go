// Package importrules holds the test that enforces the module's
// dependency rules (ARCHITECTURE.md, "Dependencies and the rules CI
// checks"):
//
//   - nothing under daml/ imports, directly or through other packages of
//     the module, ledger (and ledger/...), identity, vetting, registry,
//     interactive or httpadapter — tests included;
//   - only ledger (its tests and ledger/internal/...) imports
//     ledger/internal/store;
//   - apierr imports nothing of the module but internal/...;
//   - ledger/update, the typed updates the Node's reads return, imports
//     nothing of the module but daml/value, daml/lf and apierr (never
//     ledger);
//   - only examples/... and ledger/ledgertest (and httpadapter's own tests)
//     import httpadapter;
//   - only httpadapter (and its subpackages), examples/...,
//     ledger/ledgertest and ledger/scriptledger (whose Remote is a JSON
//     Ledger API client) import ledger/jsonapi, the JSON Ledger API layer
//     (tests of any package may).
//
// It reads the import graph with "go list -json", so it needs the go
// command; .ci/run runs it as its own step.
package importrules
