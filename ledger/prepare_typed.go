package ledger

import (
	"context"
	"slices"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/interactive"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// Interactive submission in Go types: Prepare and Execute hold the one
// copy of its rules. The JSON Ledger API (ledger/jsonapi) and the gRPC
// adapter convert their wire requests to these; what a wire conversion
// finds wrong (a timestamp or enum name that does not parse) is reported
// where the typed rules check that field (ConversionError), so that a
// request with several faults is refused for the same one over every
// API.

// PrepareRequest is a request to prepare commands for external signing
// (Canton's PrepareSubmissionRequest).
type PrepareRequest struct {
	// Commands are the commands and their submitters, as Submit takes
	// them. A prepare request has no workflow id, submission id or
	// deduplication period (they belong to execute): WorkflowID,
	// SubmissionID and Deduplication must be unset.
	Commands Commands
	// VerboseHashing asks for the hash's trace (Prepared.HashingDetails).
	VerboseHashing bool
	// MaxRecordTime, when set, is the latest record time at which the
	// transaction may be committed; it is part of the signed metadata.
	MaxRecordTime *time.Time
	// HashingScheme is the hashing scheme of the hash
	// (HashingSchemeVersionUnspecified: V2).
	HashingScheme interactive.HashingSchemeVersion
}

// Prepared is a prepared transaction and the hash its submitters sign.
type Prepared struct {
	// PreparedTransaction is the protobuf encoding of Transaction
	// (com.daml.ledger.api.v2.interactive.PreparedTransaction), the bytes
	// execute takes back.
	PreparedTransaction []byte
	// Transaction is the prepared transaction.
	Transaction *interactive.PreparedTransaction
	// Hash is the prepared transaction's hash under HashingScheme.
	Hash []byte
	// HashingScheme is the scheme the hash was computed with.
	HashingScheme interactive.HashingSchemeVersion
	// HashingDetails is the hash's trace when VerboseHashing was asked
	// for, else "".
	HashingDetails string
}

// RequestField names a field of a Prepare or Execute request that its
// caller converts from an encoding of its own and whose conversion may
// fail (ConversionError).
type RequestField int

// The fields a conversion error may stand for.
const (
	// FieldHashingScheme is PrepareRequest.HashingScheme and
	// ExecuteRequest.HashingScheme.
	FieldHashingScheme RequestField = iota + 1
	// FieldMaxRecordTime is PrepareRequest.MaxRecordTime.
	FieldMaxRecordTime
	// FieldMinLedgerTime is the minimum ledger time, absolute or relative
	// (Commands.MinLedgerTime…, ExecuteRequest.MinLedgerTime…).
	FieldMinLedgerTime
	// FieldDisclosedContracts is Commands.DisclosedContracts.
	FieldDisclosedContracts
	// FieldPartySignatures is ExecuteRequest.PartySignatures.
	FieldPartySignatures
)

// ConversionError makes Prepare or Execute refuse the request with err,
// the failure of converting field f from the caller's encoding (a
// timestamp or an enum name that does not parse, say), at the point
// where their rules check f: after the checks of the fields before it,
// in Canton's order, and instead of f's own checks. A request with
// several faults is thus refused for the same one whatever encoding it
// came in — the JSON Ledger API's conversion (ledger/jsonapi) reports its
// errors so. Of the SubmitOptions, Execute takes only ConversionError
// (the others are about interpreting commands).
func ConversionError(f RequestField, err error) SubmitOption {
	return func(c *submitConfig) {
		if err == nil {
			return
		}
		if c.conversionErrs == nil {
			c.conversionErrs = map[RequestField]error{}
		}
		c.conversionErrs[f] = err
	}
}

// Prepare interprets commands for external signing through the Daml
// engine on a read snapshot (prepareOnEngine): the prepared transaction
// is the engine's, with every node, the node seeds and local (unsuffixed)
// ids for the contracts it creates, which execute suffixes at commit; its
// metadata lists the ledger contracts it used. Nothing is written. The
// caller needs CanReadAs, CanActAs or CanExecuteAs (or
// CanExecuteAsAnyParty) for every actAs party and CanReadAs for every
// readAs party. The hashing scheme is V2 unless another is requested; one
// the protocol version does not support is refused with
// FAILED_TO_PREPARE_TRANSACTION. A transaction with an informee the
// participant does not know (an unallocated actAs party among them) is
// refused with UNKNOWN_INFORMEES, as Canton routes it. Prepare takes the
// options of Submit: DecodeArguments decodes the commands' arguments
// once the fields before them pass their checks, ConversionError reports
// a field the caller could not convert.
func (n *Node) Prepare(ctx context.Context, req PrepareRequest, opts ...SubmitOption) (*Prepared, error) {
	if err := n.public(ctx); err != nil {
		return nil, err
	}
	c := &req.Commands
	switch {
	case c.WorkflowID != "":
		return nil, apierr.InvalidArgument.New("workflow_id: a prepare request has no workflow id")
	case c.SubmissionID != "":
		return nil, apierr.InvalidArgument.New("submission_id: a prepare request has no submission id (execute takes it)")
	case c.Deduplication != nil:
		return nil, apierr.InvalidArgument.New("deduplication_period: a prepare request has no deduplication period (execute takes it)")
	}
	s := newSubmission(c, opts)
	p := caller(ctx)
	if c.UserID == "" {
		c.UserID = p.UserID
	}
	if c.UserID == "" && p.Wildcard {
		c.UserID = identity.DefaultParticipantAdmin
	}
	if len(c.ActAs) == 0 {
		return nil, apierr.MissingField.New("act_as")
	}
	for _, party := range append(slices.Clone(c.ActAs), c.ReadAs...) {
		if err := identity.ValidatePartyString(party); err != nil {
			return nil, apierr.InvalidField.New("act_as/read_as: %v", err)
		}
	}
	for _, party := range c.ActAs {
		if !p.CanReadAs(party) && !canExecuteAs(p, party) {
			return nil, denied("the caller may not prepare as %s", party)
		}
	}
	for _, party := range c.ReadAs {
		if !p.CanReadAs(party) && !p.Wildcard {
			return nil, denied("the caller may not read as %s", party)
		}
	}
	if err := requireOwnUserID(p, c.UserID); err != nil {
		return nil, err
	}
	if c.UserID == "" {
		return nil, apierr.MissingField.New("user_id")
	}
	if err := identity.ValidateUserID(c.UserID); err != nil {
		return nil, apierr.InvalidField.New("user_id: %v", err)
	}
	if c.CommandID == "" {
		return nil, apierr.MissingField.New("command_id")
	}
	if err := identity.ValidateLedgerString(c.CommandID); err != nil {
		return nil, apierr.InvalidField.New("command_id: %v", err)
	}
	if len(c.Commands) == 0 {
		return nil, apierr.MissingField.New("commands")
	}
	if c.TapsMaxPasses != nil {
		if err := checkTapsMaxPasses(int64(*c.TapsMaxPasses)); err != nil {
			return nil, err
		}
	}
	if err := s.conversionErrs[FieldHashingScheme]; err != nil {
		return nil, err
	}
	scheme := req.HashingScheme
	switch scheme {
	case interactive.HashingSchemeVersionUnspecified:
		scheme = interactive.HashingSchemeVersionV2
	case interactive.HashingSchemeVersionV2, interactive.HashingSchemeVersionV3:
	default:
		return nil, apierr.InvalidField.New("hashing_scheme_version: unknown HashingSchemeVersion %s", scheme)
	}
	if !slices.Contains(interactive.SupportedHashingSchemes(protocolVersion), scheme) {
		return nil, failedToPrepare("hashing scheme %s is not supported", scheme)
	}
	if err := s.conversionErrs[FieldMaxRecordTime]; err != nil {
		return nil, err
	}
	var maxRecordTime *uint64
	if t := req.MaxRecordTime; t != nil {
		if t.UnixMicro() < 0 {
			return nil, apierr.InvalidField.New("max_record_time: invalid timestamp %s", formatTime(*t))
		}
		us := uint64(t.UnixMicro())
		maxRecordTime = &us
	}
	sync, err := n.submissionSynchronizer(c.SynchronizerID)
	if err != nil {
		return nil, err
	}
	s.sync = sync
	if err := s.conversionErrs[FieldDisclosedContracts]; err != nil {
		return nil, err
	}
	if _, err := s.disclosedBlobs(""); err != nil {
		return nil, err
	}
	if err := s.conversionErrs[FieldMinLedgerTime]; err != nil {
		return nil, err
	}
	if !c.MinLedgerTime.IsZero() && c.MinLedgerTimeRel != 0 {
		return nil, apierr.InvalidArgument.New("min_ledger_time_abs and min_ledger_time_rel are exclusive: set one")
	}
	if s.decoder != nil {
		if err := n.decodeArguments(s, false); err != nil {
			return nil, err
		}
	}
	pt, err := n.prepareOnEngine(ctx, s, newUUID(), maxRecordTime)
	if err != nil {
		return nil, err
	}
	b, err := interactive.EncodePreparedTransaction(pt)
	if err != nil {
		return nil, failedToPrepare("%v", err)
	}
	h, err := interactive.HashDetailed(pt, scheme, req.VerboseHashing)
	if err != nil {
		return nil, failedToPrepare("%v", err)
	}
	out := &Prepared{PreparedTransaction: b, Transaction: pt, Hash: h.Hash, HashingScheme: scheme}
	if req.VerboseHashing {
		out.HashingDetails = h.Details
	}
	return out, nil
}

// ExecuteRequest is a request to execute an externally signed prepared
// transaction (Canton's ExecuteSubmissionRequest).
type ExecuteRequest struct {
	// PreparedTransaction is the prepared transaction as Prepare encoded
	// it (required).
	PreparedTransaction []byte
	// PartySignatures are the act_as parties' signatures over the hash
	// (required: nil is a missing field; an empty non-nil list is present
	// and signs for nobody).
	PartySignatures []interactive.PartySignatures
	// Deduplication is the deduplication period; nil is the node's
	// MaxDeduplicationDuration.
	Deduplication Deduplication
	// SubmissionID identifies the submission (required).
	SubmissionID string
	// UserID is the submitting user; "" is the caller's.
	UserID string
	// HashingScheme is the scheme the parties signed the hash under
	// (required: V2 or V3).
	HashingScheme interactive.HashingSchemeVersion
	// MinLedgerTime, or the node's time plus MinLedgerTimeRel, is the
	// earliest ledger time the submitter accepts; it must lie within the
	// prepared transaction's ledger-time bounds. The zero value of each
	// is unset; they are exclusive.
	MinLedgerTime    time.Time
	MinLedgerTimeRel time.Duration
}

// Executed is an executed prepared transaction.
type Executed struct {
	// Committed is the committed transaction.
	Committed
	// ActAs are the prepared transaction's act_as parties, sorted.
	ActAs []string
}

// Execute executes an externally signed prepared transaction: the node
// keeps nothing between prepare and execute; execute decodes the prepared
// transaction, recomputes its hash, verifies the external parties'
// signatures against their stored keys, re-interprets the transaction's
// root actions with the engine and requires the same transaction, then
// commits it through the same committer step as Submit. The caller needs
// CanActAs or CanExecuteAs (or CanExecuteAsAnyParty) for every act_as
// party of the prepared transaction. A bad or missing signature, a
// tampered transaction and an unsupported hashing scheme are refused with
// FAILED_TO_EXECUTE_TRANSACTION. A ConversionError option reports a
// field the caller could not convert; Execute ignores the other options.
func (n *Node) Execute(ctx context.Context, req ExecuteRequest, opts ...SubmitOption) (*Executed, error) {
	e, it, err := n.execute(ctx, &req, opts)
	if err != nil {
		return nil, err
	}
	return &Executed{Committed: Committed{UpdateID: e.UpdateID, Offset: e.Offset, CommandID: e.CommandID, WorkflowID: e.WorkflowID,
		SynchronizerID: e.SynchronizerID, EffectiveAt: it.let, RecordTime: e.recordTime, Transaction: it.tx}, ActAs: e.ActAs}, nil
}

// ExecuteForTransaction executes req as Execute does and returns the
// committed transaction as f shows it, as Canton's
// ExecuteSubmissionAndWaitForTransaction
// (interactive_submission_service.proto) does: f nil is the ACS delta as
// the prepared transaction's act_as parties see it, verbose. f is checked
// — the rights to read as its parties, its filters' templates and
// interfaces — before the execution's own checks, so that a refused
// format commits nothing (see SubmitForTransaction). A transaction f
// shows nothing of comes back without events.
func (n *Node) ExecuteForTransaction(ctx context.Context, req ExecuteRequest, f *ReadFormat, opts ...SubmitOption) (*update.Transaction, error) {
	var tf *txSpec
	if f != nil {
		var err error
		if tf, err = n.checkedTxSpec(ctx, *f); err != nil {
			return nil, err
		}
	}
	e, it, err := n.execute(ctx, &req, opts)
	if err != nil {
		return nil, err
	}
	if tf == nil {
		// Reading as the act_as parties is authorized by the execution's
		// own checks.
		tf = actAsSpec(e.ActAs, nil)
	}
	return n.committedTransaction(ctx, e, it, tf)
}

// execute applies execute's rules, in Canton's order, to req (with the
// conversion errors of opts), and commits.
func (n *Node) execute(ctx context.Context, req *ExecuteRequest, opts []SubmitOption) (e *logEntry, it *interpreted, err error) {
	var cfg submitConfig
	for _, o := range opts {
		o(&cfg)
	}
	if err := n.public(ctx); err != nil {
		return nil, nil, err
	}
	p := caller(ctx)
	userID := req.UserID
	if userID == "" {
		userID = p.UserID
	}
	if userID == "" && p.Wildcard {
		userID = identity.DefaultParticipantAdmin
	}
	if err := requireOwnUserID(p, userID); err != nil {
		return nil, nil, err
	}
	if userID == "" {
		return nil, nil, apierr.MissingField.New("user_id")
	}
	if err := identity.ValidateUserID(userID); err != nil {
		return nil, nil, apierr.InvalidField.New("user_id: %v", err)
	}
	if len(req.PreparedTransaction) == 0 {
		return nil, nil, apierr.MissingField.New("prepared_transaction")
	}
	if req.PartySignatures == nil {
		return nil, nil, apierr.MissingField.New("party_signatures")
	}
	if req.SubmissionID == "" {
		return nil, nil, apierr.MissingField.New("submission_id")
	}
	if err := identity.ValidateLedgerString(req.SubmissionID); err != nil {
		return nil, nil, apierr.InvalidField.New("submission_id: %v", err)
	}
	if err := checkDeduplication(req.Deduplication); err != nil {
		return nil, nil, err
	}
	if err := cfg.conversionErrs[FieldHashingScheme]; err != nil {
		return nil, nil, err
	}
	switch req.HashingScheme {
	case interactive.HashingSchemeVersionV2, interactive.HashingSchemeVersionV3:
	default:
		return nil, nil, apierr.InvalidField.New("hashing_scheme_version: unsupported value %q", req.HashingScheme.String())
	}
	pt, err := interactive.DecodePreparedTransaction(req.PreparedTransaction)
	if err != nil {
		return nil, nil, apierr.InvalidField.New("prepared_transaction: %v", err)
	}
	md := pt.Metadata
	now := n.now()
	if err := cfg.conversionErrs[FieldMinLedgerTime]; err != nil {
		return nil, nil, err
	}
	if err := checkTimeBounds(req, md, now); err != nil {
		return nil, nil, err
	}
	actAs := union(md.SubmitterInfo.ActAs)
	if len(actAs) == 0 {
		return nil, nil, failedToExecute("the prepared transaction has no act_as party")
	}
	for _, party := range actAs {
		if err := identity.ValidatePartyString(party); err != nil {
			return nil, nil, failedToExecute("invalid act_as party: %v", err)
		}
	}
	if err := identity.ValidateLedgerString(md.SubmitterInfo.CommandID); err != nil {
		return nil, nil, failedToExecute("invalid command id: %v", err)
	}
	logical, _, _, err := interactive.ParsePhysicalSynchronizerID(md.SynchronizerID)
	if err != nil {
		logical = md.SynchronizerID
	}
	sync, err := n.synchronizer(logical)
	if err != nil {
		return nil, nil, err
	}
	keys, err := n.partyKeys(actAs)
	if err != nil {
		return nil, nil, storeErr(err)
	}
	if err := cfg.conversionErrs[FieldPartySignatures]; err != nil {
		return nil, nil, err
	}
	for i, ps := range req.PartySignatures {
		for j, s := range ps.Signatures {
			if err := interactive.CheckSignatureFields(s); err != nil {
				return nil, nil, apierr.InvalidField.New("party_signatures.signatures[%d].signatures[%d]: %v", i, j, err)
			}
		}
	}
	if _, err := interactive.VerifyExecute(interactive.ExecuteRequest{Prepared: pt, HashingScheme: req.HashingScheme,
		ProtocolVersion: protocolVersion, Synchronizer: sync, Signatures: req.PartySignatures,
		PartyKeys: func(party string) (interactive.PartyKeys, bool) { k, ok := keys[party]; return k, ok }}); err != nil {
		return nil, nil, err
	}
	for _, party := range actAs {
		if !canExecuteAs(p, party) {
			return nil, nil, denied("the caller may not execute as %s", party)
		}
	}
	s := newSubmission(&Commands{UserID: userID, ActAs: actAs, CommandID: md.SubmitterInfo.CommandID,
		Deduplication: req.Deduplication, SubmissionID: req.SubmissionID}, nil)
	s.sync = sync
	n.tracker.track(n.now(), s) // command_status.go
	defer n.tracker.done(n.now, s, &e, &err)
	it, err = n.reinterpretPrepared(ctx, pt, s, now.Truncate(time.Microsecond))
	if err != nil {
		return nil, nil, err
	}
	if h := n.hookInterpreted; h != nil {
		h()
	}
	e, err = n.commitInterpreted(s, it)
	if err != nil {
		return nil, nil, err
	}
	return e, it, nil
}

// checkTimeBounds checks the execution time against the prepared
// transaction's bounds: the requested minimum ledger time may not exceed
// the prepared maximum ledger time or lie in the future, the ledger time
// (now) must lie within the prepared bounds, and the prepared maximum
// record time must not have passed.
func checkTimeBounds(req *ExecuteRequest, md interactive.Metadata, now time.Time) error {
	micros := func(t time.Time) uint64 { return uint64(t.UnixMicro()) }
	if !req.MinLedgerTime.IsZero() && req.MinLedgerTimeRel != 0 {
		return apierr.InvalidArgument.New("min_ledger_time_abs and min_ledger_time_rel are exclusive: set one")
	}
	min := req.MinLedgerTime
	if req.MinLedgerTimeRel != 0 {
		min = now.Add(req.MinLedgerTimeRel)
	}
	if !min.IsZero() {
		if md.MaxLedgerEffectiveTime != nil && micros(min) > *md.MaxLedgerEffectiveTime {
			return failedToExecute("the minimum ledger time %s is after the prepared maximum ledger time", formatTime(min))
		}
		if min.After(now) {
			return failedToExecute("the minimum ledger time %s is in the future", formatTime(min))
		}
	}
	if md.MinLedgerEffectiveTime != nil && micros(now) < *md.MinLedgerEffectiveTime {
		return failedToExecute("the ledger time is before the prepared minimum ledger time")
	}
	if md.MaxLedgerEffectiveTime != nil && micros(now) > *md.MaxLedgerEffectiveTime {
		return failedToExecute("the ledger time is after the prepared maximum ledger time")
	}
	if md.MaxRecordTime != nil && micros(now) > *md.MaxRecordTime {
		return failedToExecute("the prepared maximum record time has passed")
	}
	return nil
}
