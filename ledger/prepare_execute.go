package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/interactive"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// Interactive submission, the execute side (Canton's
// InteractiveSubmissionServiceImpl.execute, in
// community/ledger/ledger-api-core,
// platform/apiserver/services/command/interactive): the node keeps nothing
// between prepare and execute; execute decodes the prepared transaction
// the client sends back, recomputes its hash, verifies the external
// parties' signatures against their stored keys, re-interprets the
// transaction's root actions with the engine and requires the same
// transaction (reinterpretPrepared), then commits it through the same
// committer step as ordinary commands.

// SinglePartySignatures are one party's signatures over the prepared
// transaction hash.
type SinglePartySignatures struct {
	Party      string      `json:"party"`
	Signatures []Signature `json:"signatures"`
}

// PartySignatures are the signatures of an execute request.
type PartySignatures struct {
	Signatures []SinglePartySignatures `json:"signatures"`
}

// ExecuteSubmissionRequest is JsExecuteSubmissionRequest (the bodies of
// execute and executeAndWait).
type ExecuteSubmissionRequest struct {
	PreparedTransaction  []byte               `json:"preparedTransaction"`
	PartySignatures      *PartySignatures     `json:"partySignatures"`
	DeduplicationPeriod  *DeduplicationPeriod `json:"deduplicationPeriod"`
	SubmissionID         string               `json:"submissionId"`
	UserID               string               `json:"userId"`
	HashingSchemeVersion string               `json:"hashingSchemeVersion"`
	// MinLedgerTime is the earliest ledger time the submitter accepts; it
	// must lie within the prepared transaction's ledger-time bounds.
	MinLedgerTime *MinLedgerTime `json:"minLedgerTime,omitempty"`
}

// MinLedgerTime is {"time": {"MinLedgerTimeAbs": {"value": ts}}},
// {"time": {"MinLedgerTimeRel": {"value": Duration}}} or {"time": {"Empty": {}}}.
type MinLedgerTime struct {
	Time MinLedgerTimeKind `json:"time"`
}

// MinLedgerTimeKind holds the variant of a MinLedgerTime.
type MinLedgerTimeKind struct {
	MinLedgerTimeAbs *Wrapped[string]   `json:"MinLedgerTimeAbs,omitempty"`
	MinLedgerTimeRel *Wrapped[Duration] `json:"MinLedgerTimeRel,omitempty"`
	Empty            *struct{}          `json:"Empty,omitempty"`
}

// checkTimeBounds checks the execution time against the prepared
// transaction's bounds: the requested minimum ledger time may not exceed
// the prepared maximum ledger time, the ledger time (now) must lie within
// the prepared bounds, and the prepared maximum record time must not have
// passed.
func checkTimeBounds(req *ExecuteSubmissionRequest, md interactive.Metadata, now time.Time) error {
	micros := func(t time.Time) uint64 { return uint64(t.UnixMicro()) }
	if m := req.MinLedgerTime; m != nil {
		var min time.Time
		switch k := m.Time; {
		case k.MinLedgerTimeAbs != nil:
			t, err := time.Parse(time.RFC3339Nano, k.MinLedgerTimeAbs.Value)
			if err != nil {
				return apierr.InvalidField.New("min_ledger_time: %q is not a timestamp", k.MinLedgerTimeAbs.Value)
			}
			min = t
		case k.MinLedgerTimeRel != nil:
			d := k.MinLedgerTimeRel.Value
			min = now.Add(time.Duration(d.Seconds)*time.Second + time.Duration(d.Nanos))
		}
		if !min.IsZero() {
			if md.MaxLedgerEffectiveTime != nil && micros(min) > *md.MaxLedgerEffectiveTime {
				return failedToExecute("the minimum ledger time %s is after the prepared maximum ledger time", formatTime(min))
			}
			if min.After(now) {
				return failedToExecute("the minimum ledger time %s is in the future", formatTime(min))
			}
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

// ExecuteSubmissionAndWaitForTransactionRequest is execute with the
// format of the transaction to return (nil: ACS delta for the actAs
// parties).
type ExecuteSubmissionAndWaitForTransactionRequest struct {
	ExecuteSubmissionRequest
	TransactionFormat *TransactionFormat `json:"transactionFormat"`
}

// ExecuteSubmissionAndWaitResponse tells where the transaction was
// committed.
type ExecuteSubmissionAndWaitResponse struct {
	UpdateID         string `json:"updateId"`
	CompletionOffset int64  `json:"completionOffset"`
}

// ExecuteSubmissionAndWaitForTransactionResponse carries the committed
// transaction.
type ExecuteSubmissionAndWaitForTransactionResponse struct {
	Transaction JsTransaction `json:"transaction"`
}

func failedToExecute(format string, args ...any) error {
	return apierr.FailedToExecuteTransaction.New(format, args...)
}

// ExecuteSubmission executes an externally signed prepared transaction
// (POST /v2/interactive-submission/execute); it returns after the commit.
func (n *Node) ExecuteSubmission(ctx context.Context, req ExecuteSubmissionRequest) (Empty, error) {
	_, err := n.execute(ctx, req)
	return Empty{}, err
}

// ExecuteSubmissionAndWait executes an externally signed prepared
// transaction and returns its update id and offset.
func (n *Node) ExecuteSubmissionAndWait(ctx context.Context, req ExecuteSubmissionRequest) (ExecuteSubmissionAndWaitResponse, error) {
	e, err := n.execute(ctx, req)
	if err != nil {
		return ExecuteSubmissionAndWaitResponse{}, err
	}
	return ExecuteSubmissionAndWaitResponse{UpdateID: e.UpdateID, CompletionOffset: e.Offset}, nil
}

// ExecuteSubmissionAndWaitForTransaction executes an externally signed
// prepared transaction and returns it in the requested format.
func (n *Node) ExecuteSubmissionAndWaitForTransaction(ctx context.Context, req ExecuteSubmissionAndWaitForTransactionRequest) (ExecuteSubmissionAndWaitForTransactionResponse, error) {
	if err := checkTransactionFormatShape(req.TransactionFormat, "transactionFormat."); err != nil {
		return ExecuteSubmissionAndWaitForTransactionResponse{}, err
	}
	if f := req.TransactionFormat; f != nil {
		if err := n.checkFormat(ctx, UpdateFormat{IncludeTransactions: f}); err != nil {
			return ExecuteSubmissionAndWaitForTransactionResponse{}, err
		}
	}
	e, err := n.execute(ctx, req.ExecuteSubmissionRequest)
	if err != nil {
		return ExecuteSubmissionAndWaitForTransactionResponse{}, err
	}
	f := req.TransactionFormat
	if f == nil {
		f = actAsFormat(e.ActAs, nil, ShapeACSDelta)
	}
	t := renderTransaction(e, f, newEventFilter(&f.EventFormat, n))
	if t == nil {
		t = &JsTransaction{UpdateID: e.UpdateID, CommandID: e.CommandID, WorkflowID: e.WorkflowID, EffectiveAt: e.EffectiveAt,
			Events: []JsEvent{}, Offset: e.Offset, SynchronizerID: e.SynchronizerID, RecordTime: e.RecordTime}
	}
	return ExecuteSubmissionAndWaitForTransactionResponse{Transaction: *t}, nil
}

// canExecuteAs reports whether p may execute as party: CanActAs,
// CanExecuteAs or CanExecuteAsAnyParty.
func canExecuteAs(p identity.Principal, party string) bool {
	return p.Wildcard || p.CanActAs(party) || p.Has(identity.Right{Kind: identity.RightCanExecuteAs, Party: party}) ||
		p.Has(identity.Right{Kind: identity.RightCanExecuteAsAnyParty})
}

// partyKeys reads the signing keys of the parties that have them.
func (n *Node) partyKeys(parties []string) (map[string]interactive.PartyKeys, error) {
	out := map[string]interactive.PartyKeys{}
	err := n.st.View(func(r *store.Reader) error {
		for _, p := range parties {
			raw, err := r.Get(store.PartyKey(p))
			if errors.Is(err, store.ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			var rec partyRecord
			if err := json.Unmarshal(raw, &rec); err != nil {
				return err
			}
			if len(rec.SigningKeys) > 0 {
				out[p] = interactive.PartyKeys{Keys: rec.SigningKeys, Threshold: rec.SigningThreshold}
			}
		}
		return nil
	})
	return out, err
}

// execute validates, verifies and commits an execute request.
func (n *Node) execute(ctx context.Context, req ExecuteSubmissionRequest) (e *logEntry, err error) {
	if err := n.public(ctx); err != nil {
		return nil, err
	}
	p := caller(ctx)
	userID := req.UserID
	if userID == "" {
		userID = p.UserID
	}
	if userID == "" && p.Wildcard {
		userID = identity.DefaultParticipantAdmin
	}
	if userID == "" {
		return nil, apierr.MissingField.New("user_id")
	}
	if err := identity.ValidateUserID(userID); err != nil {
		return nil, apierr.InvalidField.New("user_id: %v", err)
	}
	if len(req.PreparedTransaction) == 0 {
		return nil, apierr.MissingField.New("prepared_transaction")
	}
	if req.PartySignatures == nil {
		return nil, apierr.MissingField.New("party_signatures")
	}
	if req.SubmissionID == "" {
		return nil, apierr.MissingField.New("submission_id")
	}
	if err := identity.ValidateLedgerString(req.SubmissionID); err != nil {
		return nil, apierr.InvalidField.New("submission_id: %v", err)
	}
	if d := req.DeduplicationPeriod; d != nil && d.DeduplicationDuration != nil {
		if v := d.DeduplicationDuration.Value; v.Seconds < 0 || v.Nanos < 0 {
			return nil, apierr.InvalidField.New("deduplication_period: the duration must not be negative")
		}
	}
	scheme, err := interactive.ParseHashingSchemeVersion(req.HashingSchemeVersion)
	if err != nil || scheme == interactive.HashingSchemeVersionUnspecified {
		return nil, apierr.InvalidField.New("hashing_scheme_version: unsupported value %q", req.HashingSchemeVersion)
	}
	pt, err := interactive.DecodePreparedTransaction(req.PreparedTransaction)
	if err != nil {
		return nil, apierr.InvalidField.New("prepared_transaction: %v", err)
	}
	md := pt.Metadata
	now := n.now()
	if err := checkTimeBounds(&req, md, now); err != nil {
		return nil, err
	}
	actAs := union(md.SubmitterInfo.ActAs)
	if len(actAs) == 0 {
		return nil, failedToExecute("the prepared transaction has no act_as party")
	}
	for _, party := range actAs {
		if err := identity.ValidatePartyString(party); err != nil {
			return nil, failedToExecute("invalid act_as party: %v", err)
		}
	}
	if err := identity.ValidateLedgerString(md.SubmitterInfo.CommandID); err != nil {
		return nil, failedToExecute("invalid command id: %v", err)
	}
	logical, _, _, err := interactive.ParsePhysicalSynchronizerID(md.SynchronizerID)
	if err != nil {
		logical = md.SynchronizerID
	}
	sync, err := n.synchronizer(logical)
	if err != nil {
		return nil, err
	}
	keys, err := n.partyKeys(actAs)
	if err != nil {
		return nil, storeErr(err)
	}
	sigs := make([]interactive.PartySignatures, 0, len(req.PartySignatures.Signatures))
	for i, s := range req.PartySignatures.Signatures {
		is, err := toSignatures(s.Signatures, fmt.Sprintf("party_signatures.signatures[%d].signatures", i))
		if err != nil {
			return nil, err
		}
		sigs = append(sigs, interactive.PartySignatures{Party: s.Party, Signatures: is})
	}
	if _, err := interactive.VerifyExecute(interactive.ExecuteRequest{Prepared: pt, HashingScheme: scheme,
		ProtocolVersion: protocolVersion, Synchronizer: sync, Signatures: sigs,
		PartyKeys: func(party string) (interactive.PartyKeys, bool) { k, ok := keys[party]; return k, ok }}); err != nil {
		return nil, err
	}
	for _, party := range actAs {
		if !canExecuteAs(p, party) {
			return nil, denied("the caller may not execute as %s", party)
		}
	}
	c := JsCommands{UserID: userID, ActAs: actAs, CommandID: md.SubmitterInfo.CommandID,
		DeduplicationPeriod: req.DeduplicationPeriod, SubmissionID: req.SubmissionID}
	s, err := jsonFields(&c, "")
	if err != nil {
		return nil, err
	}
	s.sync = sync
	defer n.tracker.track(n.now, s)(&e, &err) // command_status.go
	it, err := n.reinterpretPrepared(ctx, pt, s, now.Truncate(time.Microsecond))
	if err != nil {
		return nil, err
	}
	if h := n.hookInterpreted; h != nil {
		h()
	}
	return n.commitInterpreted(s, it)
}
