package grpcadapter

import (
	"context"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/ledgernode/ledgernode/apierr"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	interactivepb "github.com/ledgernode/ledgernode/grpcadapter/pb/v2/interactive"
	"github.com/ledgernode/ledgernode/interactive"
	"github.com/ledgernode/ledgernode/ledger"
)

// InteractiveSubmissionService's prepare and execute RPCs, the gRPC twins
// of /v2/interactive-submission/prepare, execute, executeAndWait and
// executeAndWaitForTransaction, on the Node's typed Prepare and Execute
// (ledger/prepare_typed.go). The prepared transaction travels as the
// PreparedTransaction message: prepare decodes the Node's protobuf bytes
// into it, execute encodes it back to bytes for the Node, which decodes
// and hashes them itself (a field it does not know is part of neither the
// hash nor the re-interpretation, as in Canton, so a tampered message is
// refused by the signature check). The enums of the hashing scheme and
// the signatures have the Node's numbers.

// PrepareSubmission prepares commands for external signing
// (Node.Prepare): the prepared transaction, its hash, the hashing scheme
// and, when verbose_hashing is set, the hash's trace. A cost estimation
// is never returned (ledgernode has no traffic costs), as over JSON.
func (s *interactiveService) PrepareSubmission(ctx context.Context, req *interactivepb.PrepareSubmissionRequest) (*interactivepb.PrepareSubmissionResponse, error) {
	// The commands as a Commands message, so that they are read as a
	// submission's (commandsFromProto): the same fields and checks.
	pc := &ledgerv2.Commands{
		UserId:                       req.GetUserId(),
		CommandId:                    req.GetCommandId(),
		Commands:                     req.GetCommands(),
		ActAs:                        req.GetActAs(),
		ReadAs:                       req.GetReadAs(),
		DisclosedContracts:           req.GetDisclosedContracts(),
		SynchronizerId:               req.GetSynchronizerId(),
		PackageIdSelectionPreference: req.GetPackageIdSelectionPreference(),
		PrefetchContractKeys:         req.GetPrefetchContractKeys(),
		TapsMaxPasses:                req.TapsMaxPasses,
	}
	switch t := req.GetMinLedgerTime().GetTime().(type) {
	case *interactivepb.MinLedgerTime_MinLedgerTimeAbs:
		pc.MinLedgerTimeAbs = t.MinLedgerTimeAbs
	case *interactivepb.MinLedgerTime_MinLedgerTimeRel:
		pc.MinLedgerTimeRel = t.MinLedgerTimeRel
	}
	c, err := commandsFromProto(pc)
	if err != nil {
		return nil, err
	}
	in := ledger.PrepareRequest{Commands: c, VerboseHashing: req.GetVerboseHashing(),
		HashingScheme: interactive.HashingSchemeVersion(req.GetHashingSchemeVersion())}
	if req.MaxRecordTime != nil {
		t, err := validTime(req.MaxRecordTime, "max_record_time")
		if err != nil {
			return nil, err
		}
		in.MaxRecordTime = &t
	}
	p, err := s.a.node.Prepare(ctx, in)
	if err != nil {
		return nil, err
	}
	pt := &interactivepb.PreparedTransaction{}
	if err := proto.Unmarshal(p.PreparedTransaction, pt); err != nil {
		return nil, apierr.InternalError.Wrap(err, "decoding the prepared transaction")
	}
	out := &interactivepb.PrepareSubmissionResponse{PreparedTransaction: pt, PreparedTransactionHash: p.Hash,
		HashingSchemeVersion: interactivepb.HashingSchemeVersion(p.HashingScheme)}
	if req.GetVerboseHashing() {
		out.HashingDetails = proto.String(p.HashingDetails)
	}
	return out, nil
}

// ExecuteSubmission executes an externally signed prepared transaction
// (Node.Execute); it answers after the commit.
func (s *interactiveService) ExecuteSubmission(ctx context.Context, req *interactivepb.ExecuteSubmissionRequest) (*interactivepb.ExecuteSubmissionResponse, error) {
	var dedup ledger.Deduplication
	switch d := req.GetDeduplicationPeriod().(type) {
	case *interactivepb.ExecuteSubmissionRequest_DeduplicationDuration:
		dedup = durationDedup(d.DeduplicationDuration)
	case *interactivepb.ExecuteSubmissionRequest_DeduplicationOffset:
		dedup = ledger.DeduplicationOffset(d.DeduplicationOffset)
	}
	in, err := executeFromProto(req, dedup)
	if err != nil {
		return nil, err
	}
	if _, err := s.a.node.Execute(ctx, in); err != nil {
		return nil, err
	}
	return &interactivepb.ExecuteSubmissionResponse{}, nil
}

// ExecuteSubmissionAndWait executes an externally signed prepared
// transaction and returns its update id and offset.
func (s *interactiveService) ExecuteSubmissionAndWait(ctx context.Context, req *interactivepb.ExecuteSubmissionAndWaitRequest) (*interactivepb.ExecuteSubmissionAndWaitResponse, error) {
	var dedup ledger.Deduplication
	switch d := req.GetDeduplicationPeriod().(type) {
	case *interactivepb.ExecuteSubmissionAndWaitRequest_DeduplicationDuration:
		dedup = durationDedup(d.DeduplicationDuration)
	case *interactivepb.ExecuteSubmissionAndWaitRequest_DeduplicationOffset:
		dedup = ledger.DeduplicationOffset(d.DeduplicationOffset)
	}
	in, err := executeFromProto(req, dedup)
	if err != nil {
		return nil, err
	}
	res, err := s.a.node.Execute(ctx, in)
	if err != nil {
		return nil, err
	}
	return &interactivepb.ExecuteSubmissionAndWaitResponse{UpdateId: res.UpdateID, CompletionOffset: res.Offset}, nil
}

// ExecuteSubmissionAndWaitForTransaction executes an externally signed
// prepared transaction and returns it as the request's transaction format
// shows it, as SubmitAndWaitForTransaction does: without a format, the
// ACS delta as the prepared transaction's act_as parties see it, verbose;
// a format is checked before the execution (Node.ExecuteForTransaction: a
// refused format commits nothing).
func (s *interactiveService) ExecuteSubmissionAndWaitForTransaction(ctx context.Context, req *interactivepb.ExecuteSubmissionAndWaitForTransactionRequest) (*interactivepb.ExecuteSubmissionAndWaitForTransactionResponse, error) {
	var dedup ledger.Deduplication
	switch d := req.GetDeduplicationPeriod().(type) {
	case *interactivepb.ExecuteSubmissionAndWaitForTransactionRequest_DeduplicationDuration:
		dedup = durationDedup(d.DeduplicationDuration)
	case *interactivepb.ExecuteSubmissionAndWaitForTransactionRequest_DeduplicationOffset:
		dedup = ledger.DeduplicationOffset(d.DeduplicationOffset)
	}
	in, err := executeFromProto(req, dedup)
	if err != nil {
		return nil, err
	}
	f, verbose, err := submissionFormatFromProto(req.GetTransactionFormat())
	if err != nil {
		return nil, err
	}
	t, err := s.a.node.ExecuteForTransaction(ctx, in, f)
	if err != nil {
		return nil, err
	}
	pt, err := transactionToProto(t, verbose)
	if err != nil {
		return nil, err
	}
	return &interactivepb.ExecuteSubmissionAndWaitForTransactionResponse{Transaction: pt}, nil
}

// executeProto is the fields the three execute requests share.
type executeProto interface {
	GetPreparedTransaction() *interactivepb.PreparedTransaction
	GetPartySignatures() *interactivepb.PartySignatures
	GetSubmissionId() string
	GetUserId() string
	GetHashingSchemeVersion() interactivepb.HashingSchemeVersion
	GetMinLedgerTime() *interactivepb.MinLedgerTime
}

// executeFromProto converts an execute request with its deduplication
// period (read from the request's own one-of). The prepared transaction
// is encoded for the Node; absent, it is empty, which the Node refuses
// as MISSING_FIELD prepared_transaction. Absent party signatures are
// missing; present ones with no entry sign for nobody.
func executeFromProto(req executeProto, dedup ledger.Deduplication) (ledger.ExecuteRequest, error) {
	out := ledger.ExecuteRequest{SubmissionID: req.GetSubmissionId(), UserID: req.GetUserId(), Deduplication: dedup,
		HashingScheme: interactive.HashingSchemeVersion(req.GetHashingSchemeVersion())}
	if pt := req.GetPreparedTransaction(); pt != nil {
		b, err := proto.Marshal(pt)
		if err != nil {
			return ledger.ExecuteRequest{}, apierr.InvalidField.New("prepared_transaction: %v", err)
		}
		out.PreparedTransaction = b
	}
	if ps := req.GetPartySignatures(); ps != nil {
		out.PartySignatures = make([]interactive.PartySignatures, 0, len(ps.GetSignatures()))
		for _, sp := range ps.GetSignatures() {
			p := interactive.PartySignatures{Party: sp.GetParty()}
			for _, sig := range sp.GetSignatures() {
				p.Signatures = append(p.Signatures, signatureFromProto(sig))
			}
			out.PartySignatures = append(out.PartySignatures, p)
		}
	}
	switch t := req.GetMinLedgerTime().GetTime().(type) {
	case *interactivepb.MinLedgerTime_MinLedgerTimeAbs:
		var err error
		if out.MinLedgerTime, err = validTime(t.MinLedgerTimeAbs, "min_ledger_time"); err != nil {
			return ledger.ExecuteRequest{}, err
		}
	case *interactivepb.MinLedgerTime_MinLedgerTimeRel:
		out.MinLedgerTimeRel = t.MinLedgerTimeRel.AsDuration()
	}
	return out, nil
}

// signatureFromProto converts a Ledger API signature; the enums have the
// same numbers in the Node's model (interactive.SignatureFormat,
// interactive.SigningAlgorithmSpec), and the Node checks them.
func signatureFromProto(s *ledgerv2.Signature) interactive.Signature {
	return interactive.Signature{Format: interactive.SignatureFormat(s.GetFormat()), Signature: s.GetSignature(),
		SignedBy: s.GetSignedBy(), SigningAlgorithmSpec: interactive.SigningAlgorithmSpec(s.GetSigningAlgorithmSpec())}
}

// durationDedup is a deduplication duration (the Node refuses a negative
// one).
func durationDedup(d *durationpb.Duration) ledger.Deduplication {
	return ledger.DeduplicationDuration(d.AsDuration())
}
