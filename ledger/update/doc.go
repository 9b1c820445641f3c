// Package update holds the updates a participant records — transactions
// and their events, reassignments, topology transactions, offset
// checkpoints — and the completions of commands, as Go values: what the
// Ledger API's gRPC services return with verbose values (Canton's
// com.daml.ledger.api.v2 transaction.proto, event.proto,
// reassignment.proto, topology_transaction.proto, offset_checkpoint.proto
// and completion.proto), under Canton's names.
//
// The values are pure data: Daml values are daml/value values,
// identifiers parsed daml/lf types, times time.Time. A *ledger.Node
// produces them (its typed reads decode the stored log with the types of
// its packages); ledger/jsonapi and grpcadapter render them on their
// wires, and ledger/scriptledger hands them to Daml Script. The package
// depends on no part of the node (internal/importrules checks that it
// imports only daml/value, daml/lf, apierr and the standard library), so
// any package may hold and compare them.
package update
