// Package pb holds the Go code generated from Canton 3.5's gRPC Ledger API
// v2 protos (../shared/reference/proto-3.5 beside the module, read in place,
// never copied), in one package per proto package:
//
//	v2                                 com.daml.ledger.api.v2 (ledgerv2)
//	v2/admin                           com.daml.ledger.api.v2.admin
//	v2/interactive                     com.daml.ledger.api.v2.interactive
//	v2/interactive/commondata          interactive_submission_common_data.proto
//	v2/interactive/transaction/v1      com.daml.ledger.api.v2.interactive.transaction.v1
//	v2/testing                         com.daml.ledger.api.v2.testing (ledgertesting)
//
// interactive_submission_common_data.proto has a Go package of its own:
// in one package with the rest of interactive, interactive and
// transaction/v1 would import each other. google/rpc's status and
// error_details are Google's, used from
// google.golang.org/genproto/googleapis/rpc/{status,errdetails}.
//
// The code is committed. gen.sh holds the one protoc command that makes it
// (protoc 3.21 from Debian's protobuf-compiler, protoc-gen-go v1.36.12,
// protoc-gen-go-grpc v1.6.2, both installed by the script with go install);
// TestGeneratedCodeIsCurrent fails when the committed files differ from
// what it produces.
package pb

//go:generate sh gen.sh
