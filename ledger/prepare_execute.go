package ledger

import (
	"context"
	"encoding/json"
	"errors"
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
	_, _, err := n.executeJSON(ctx, req)
	return Empty{}, err
}

// ExecuteSubmissionAndWait executes an externally signed prepared
// transaction and returns its update id and offset.
func (n *Node) ExecuteSubmissionAndWait(ctx context.Context, req ExecuteSubmissionRequest) (ExecuteSubmissionAndWaitResponse, error) {
	e, _, err := n.executeJSON(ctx, req)
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
	e, _, err := n.executeJSON(ctx, req.ExecuteSubmissionRequest)
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

// executeJSON converts a JSON execute request to an ExecuteRequest and
// executes it (execute): the hashing scheme and signature enums by their
// proto names, the minimum ledger time from its one-of, the
// deduplication period from its protobuf-shaped duration.
func (n *Node) executeJSON(ctx context.Context, req ExecuteSubmissionRequest) (*logEntry, *interpreted, error) {
	typed := ExecuteRequest{PreparedTransaction: req.PreparedTransaction, SubmissionID: req.SubmissionID, UserID: req.UserID}
	var w executeWire
	if s, err := interactive.ParseHashingSchemeVersion(req.HashingSchemeVersion); err != nil {
		w.schemeErr = apierr.InvalidField.New("hashing_scheme_version: unsupported value %q", req.HashingSchemeVersion)
	} else {
		typed.HashingScheme = s
	}
	if d := req.DeduplicationPeriod; d != nil {
		switch {
		case d.DeduplicationDuration != nil:
			typed.Deduplication = DeduplicationDuration(durationOf(d.DeduplicationDuration.Value))
		case d.DeduplicationOffset != nil:
			typed.Deduplication = DeduplicationOffset(d.DeduplicationOffset.Value)
		}
	}
	if m := req.MinLedgerTime; m != nil {
		switch k := m.Time; {
		case k.MinLedgerTimeAbs != nil:
			t, err := time.Parse(time.RFC3339Nano, k.MinLedgerTimeAbs.Value)
			if err != nil {
				w.minLedgerTimeErr = apierr.InvalidField.New("min_ledger_time: %q is not a timestamp", k.MinLedgerTimeAbs.Value)
			}
			typed.MinLedgerTime = t
		case k.MinLedgerTimeRel != nil:
			d := k.MinLedgerTimeRel.Value
			typed.MinLedgerTimeRel = time.Duration(d.Seconds)*time.Second + time.Duration(d.Nanos)
		}
	}
	if ps := req.PartySignatures; ps != nil {
		typed.PartySignatures = make([]interactive.PartySignatures, 0, len(ps.Signatures))
		for i, s := range ps.Signatures {
			is, err := toSignatures(s.Signatures, partySignaturesPath(i))
			if err != nil {
				w.signaturesErr = err
				break
			}
			typed.PartySignatures = append(typed.PartySignatures, interactive.PartySignatures{Party: s.Party, Signatures: is})
		}
	}
	return n.execute(ctx, &typed, &w)
}
