// Package interactive is the pure, byte-level part of Canton 3.5's
// interactive (externally signed) submission and external-party
// onboarding: no store, no HTTP.
//
// Prepared transactions: PreparedTransaction is a Go model of
// com.daml.ledger.api.v2.interactive.PreparedTransaction in Canton's field
// numbering; EncodePreparedTransaction and DecodePreparedTransaction
// convert it to and from protobuf bytes, and Hash/HashDetailed compute the
// hash parties sign, for hashing schemes V2 and V3, byte by byte as
// Canton's TransactionHash, NodeHashBuilder, TransactionMetadataHasher and
// LfValueHashBuilder compute it (in
// community/base/src/main/scala/com/digitalasset/canton/protocol/hash/ of
// github.com/digital-asset/canton; with the verbose trace Canton returns as
// hashingDetails, HashTracer). VerifyPartySignatures and VerifyExecute
// check the party signatures of an execute request.
//
// External parties: GenerateTopology builds the single self-authorizing
// PartyToParticipant transaction of GenerateExternalPartyTopology and its
// multi-hash; VerifyOnboarding decodes and checks the signed transactions
// of AllocateExternalParty and returns the party, its keys and threshold.
// TopologyTransactionHash, MultiHash and Encode/DecodeTopologyTransaction
// are the building blocks.
//
// Signatures follow Canton's JCE rules (VerifySignature): Ed25519 over the
// message as is (CONCAT), ECDSA P-256/P-384 over SHA-256/SHA-384 of the
// message (DER). Interactive submission signs the raw 32-byte hash;
// topology transactions and the multi-hash are signed in their 34-byte
// multihash form (1220 ‖ digest).
//
// Errors meant for API clients are *apierr.Error values with Canton's codes
// (INVALID_ARGUMENT, FAILED_TO_EXECUTE_TRANSACTION,
// TOPOLOGY_INVALID_TX_SIGNATURE, …); the codecs and Hash return plain
// errors that callers wrap.
package interactive
