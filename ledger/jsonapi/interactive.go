package jsonapi

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/interactive"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/internal/rawjson"
	"github.com/ledgernode/ledgernode/ledger/internal/shape"
)

// The interactive submission service (Canton's
// JsInteractiveSubmissionService: /v2/interactive-submission/prepare,
// execute, executeAndWait, executeAndWaitForTransaction): the wire
// requests converted to the Node's PrepareRequest and ExecuteRequest and
// run through Node.Prepare and Node.Execute. What the wire has that does
// not convert — a timestamp or enum name that does not parse, a
// disclosed contract's blob that is no base64 — is handed to the Node as
// a ledger.ConversionError, which reports it where the typed rules check
// that field; the commands' arguments are decoded from Daml JSON by
// ledger.DecodeArguments, as a JSON submission's are.

// JsPrepareSubmissionRequest is the body of
// POST /v2/interactive-submission/prepare.
type JsPrepareSubmissionRequest struct {
	UserID                       string                  `json:"userId"`
	CommandID                    string                  `json:"commandId"`
	Commands                     []JsCommand             `json:"commands"`
	MinLedgerTime                *MinLedgerTime          `json:"minLedgerTime,omitempty"`
	ActAs                        []string                `json:"actAs"`
	ReadAs                       []string                `json:"readAs"`
	DisclosedContracts           []JsDisclosedContract   `json:"disclosedContracts"`
	SynchronizerID               string                  `json:"synchronizerId"`
	PackageIDSelectionPreference []string                `json:"packageIdSelectionPreference"`
	VerboseHashing               bool                    `json:"verboseHashing"`
	PrefetchContractKeys         []JsPrefetchContractKey `json:"prefetchContractKeys"`
	MaxRecordTime                *string                 `json:"maxRecordTime"`
	EstimateTrafficCost          *CostEstimationHints    `json:"estimateTrafficCost,omitempty"`
	TapsMaxPasses                *int32                  `json:"tapsMaxPasses"`
	HashingSchemeVersion         string                  `json:"hashingSchemeVersion"`
}

// CostEstimationHints tune the traffic-cost estimate of a prepared
// transaction. ledgernode makes no estimate (costEstimation is null), so
// the hints change nothing.
type CostEstimationHints struct {
	Disabled           bool     `json:"disabled"`
	ExpectedSignatures []string `json:"expectedSignatures"`
}

// JsPrepareSubmissionResponse is the prepared transaction and its hash.
type JsPrepareSubmissionResponse struct {
	PreparedTransaction     []byte          `json:"preparedTransaction"`
	PreparedTransactionHash []byte          `json:"preparedTransactionHash"`
	HashingSchemeVersion    string          `json:"hashingSchemeVersion"`
	HashingDetails          *string         `json:"hashingDetails"`
	CostEstimation          json.RawMessage `json:"costEstimation"`
}

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

// PrepareSubmission prepares commands for external signing
// (POST /v2/interactive-submission/prepare) through Node.Prepare: the
// wire's shapes are checked, its fields converted to a PrepareRequest
// (the commands' arguments decoded from Daml JSON against the packages
// their templates resolve to, as a JSON submission's), and Prepare's
// rules applied.
func (a *API) PrepareSubmission(ctx context.Context, req JsPrepareSubmissionRequest) (JsPrepareSubmissionResponse, error) {
	if err := a.ready(ctx); err != nil {
		return JsPrepareSubmissionResponse{}, err
	}
	if err := checkPrepareShape(&req); err != nil {
		return JsPrepareSubmissionResponse{}, err
	}
	typed := ledger.PrepareRequest{Commands: ledger.Commands{Commands: make([]ledger.Command, len(req.Commands)), ActAs: req.ActAs,
		ReadAs: req.ReadAs, UserID: req.UserID, CommandID: req.CommandID, SynchronizerID: req.SynchronizerID,
		PackageIDSelectionPreference: req.PackageIDSelectionPreference}, VerboseHashing: req.VerboseHashing}
	for i, jc := range req.Commands {
		typed.Commands.Commands[i] = commandOf(jc)
	}
	opts := []ledger.SubmitOption{ledger.DecodeArguments(jsonArgs(req.Commands))}
	if req.TapsMaxPasses != nil {
		v := int(*req.TapsMaxPasses)
		typed.Commands.TapsMaxPasses = &v
	}
	if req.HashingSchemeVersion != "" {
		s, err := interactive.ParseHashingSchemeVersion(req.HashingSchemeVersion)
		if err != nil {
			opts = append(opts, ledger.ConversionError(ledger.FieldHashingScheme, apierr.InvalidField.New("hashing_scheme_version: %v", err)))
		}
		typed.HashingScheme = s
	}
	if req.MaxRecordTime != nil {
		t, err := time.Parse(time.RFC3339Nano, *req.MaxRecordTime)
		if err != nil || t.UnixMicro() < 0 {
			opts = append(opts, ledger.ConversionError(ledger.FieldMaxRecordTime, apierr.InvalidField.New("max_record_time: invalid timestamp %q", *req.MaxRecordTime)))
		}
		typed.MaxRecordTime = &t
	}
	dcs, err := disclosedOf(req.DisclosedContracts, "")
	if err != nil {
		opts = append(opts, ledger.ConversionError(ledger.FieldDisclosedContracts, err))
	}
	typed.Commands.DisclosedContracts = dcs
	if m := req.MinLedgerTime; m != nil {
		// The shape check leaves at most one variant.
		if abs := m.Time.MinLedgerTimeAbs; abs != nil && abs.Value != "" {
			t, err := time.Parse(time.RFC3339Nano, abs.Value)
			if err != nil {
				opts = append(opts, ledger.ConversionError(ledger.FieldMinLedgerTime, apierr.InvalidField.New("min_ledger_time_abs: invalid timestamp %s", apierr.Quote(abs.Value))))
			}
			typed.Commands.MinLedgerTime = t
		}
		if rel := m.Time.MinLedgerTimeRel; rel != nil {
			typed.Commands.MinLedgerTimeRel = durationOf(rel.Value)
		}
	}
	p, err := a.Node.Prepare(ctx, typed, opts...)
	if err != nil {
		return JsPrepareSubmissionResponse{}, err
	}
	resp := JsPrepareSubmissionResponse{PreparedTransaction: p.PreparedTransaction, PreparedTransactionHash: p.Hash,
		HashingSchemeVersion: p.HashingScheme.String(), CostEstimation: json.RawMessage("null")}
	if req.VerboseHashing {
		resp.HashingDetails = &p.HashingDetails
	}
	return resp, nil
}

// ExecuteSubmission executes an externally signed prepared transaction
// (POST /v2/interactive-submission/execute) through Node.Execute; it
// returns after the commit.
func (a *API) ExecuteSubmission(ctx context.Context, req ExecuteSubmissionRequest) (Empty, error) {
	if err := checkExecuteShape(&req); err != nil {
		return Empty{}, err
	}
	typed, opts := executeRequestOf(&req)
	_, err := a.Node.Execute(ctx, typed, opts...)
	return Empty{}, err
}

// ExecuteSubmissionAndWait executes an externally signed prepared
// transaction and returns its update id and offset.
func (a *API) ExecuteSubmissionAndWait(ctx context.Context, req ExecuteSubmissionRequest) (ExecuteSubmissionAndWaitResponse, error) {
	if err := checkExecuteShape(&req); err != nil {
		return ExecuteSubmissionAndWaitResponse{}, err
	}
	typed, opts := executeRequestOf(&req)
	e, err := a.Node.Execute(ctx, typed, opts...)
	if err != nil {
		return ExecuteSubmissionAndWaitResponse{}, err
	}
	return ExecuteSubmissionAndWaitResponse{UpdateID: e.UpdateID, CompletionOffset: e.Offset}, nil
}

// ExecuteSubmissionAndWaitForTransaction serves POST
// /v2/interactive-submission/executeAndWaitForTransaction: it executes an
// externally signed prepared transaction and returns it in the requested
// format (default: ACS delta for the prepared transaction's act_as
// parties, verbose) through Node.ExecuteForTransaction, which checks the
// format before executing; a transaction with no visible event comes back
// without events. The answer is an
// ExecuteSubmissionAndWaitForTransactionResponse as the JSON API writes
// it: the transaction's values as the node stored them, written by the
// emitters — the bytes of the JSON read of the same update in the same
// format, without reading it back.
func (a *API) ExecuteSubmissionAndWaitForTransaction(ctx context.Context, req ExecuteSubmissionAndWaitForTransactionRequest) (Body, error) {
	if err := checkExecuteShape(&req.ExecuteSubmissionRequest); err != nil {
		return nil, err
	}
	if err := checkTransactionFormatShape(req.TransactionFormat, "transactionFormat."); err != nil {
		return nil, err
	}
	rf, exact, err := submissionReadFormat(req.TransactionFormat)
	if err != nil {
		return nil, err
	}
	typed, opts := executeRequestOf(&req.ExecuteSubmissionRequest)
	t, err := a.Node.ExecuteForTransaction(rawjson.WithStoredValues(ctx), typed, rf, opts...)
	if err != nil {
		return nil, err
	}
	return a.transactionAnswer(ctx, t, req.TransactionFormat, exact)
}

// executeRequestOf converts a JSON execute request to an ExecuteRequest
// and the conversion errors of its fields: the hashing scheme and
// signature enums by their proto names, the minimum ledger time from its
// one-of, the deduplication period from its protobuf-shaped duration.
func executeRequestOf(req *ExecuteSubmissionRequest) (ledger.ExecuteRequest, []ledger.SubmitOption) {
	typed := ledger.ExecuteRequest{PreparedTransaction: req.PreparedTransaction, SubmissionID: req.SubmissionID, UserID: req.UserID}
	var opts []ledger.SubmitOption
	if s, err := interactive.ParseHashingSchemeVersion(req.HashingSchemeVersion); err != nil {
		opts = append(opts, ledger.ConversionError(ledger.FieldHashingScheme,
			apierr.InvalidField.New("hashing_scheme_version: unsupported value %q", req.HashingSchemeVersion)))
	} else {
		typed.HashingScheme = s
	}
	if d := req.DeduplicationPeriod; d != nil {
		switch {
		case d.DeduplicationDuration != nil:
			typed.Deduplication = ledger.DeduplicationDuration(durationOf(d.DeduplicationDuration.Value))
		case d.DeduplicationOffset != nil:
			typed.Deduplication = ledger.DeduplicationOffset(d.DeduplicationOffset.Value)
		}
	}
	if m := req.MinLedgerTime; m != nil {
		switch k := m.Time; {
		case k.MinLedgerTimeAbs != nil:
			t, err := time.Parse(time.RFC3339Nano, k.MinLedgerTimeAbs.Value)
			if err != nil {
				opts = append(opts, ledger.ConversionError(ledger.FieldMinLedgerTime,
					apierr.InvalidField.New("min_ledger_time: %q is not a timestamp", k.MinLedgerTimeAbs.Value)))
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
			is, err := typedSignatures(s.Signatures, partySignaturesPath(i))
			if err != nil {
				opts = append(opts, ledger.ConversionError(ledger.FieldPartySignatures, err))
				break
			}
			typed.PartySignatures = append(typed.PartySignatures, interactive.PartySignatures{Party: s.Party, Signatures: is})
		}
	}
	return typed, opts
}

// partySignaturesPath is the field path of a party's signatures.
func partySignaturesPath(i int) string {
	return "party_signatures.signatures[" + strconv.Itoa(i) + "].signatures"
}

// checkExecuteShape checks the one-ofs of an ExecuteSubmissionRequest as
// checkJsCommandsShape checks a submission's: the deduplication
// period and the minimum ledger time hold at most one variant (the node
// would otherwise take one of them).
func checkExecuteShape(req *ExecuteSubmissionRequest) error {
	if d := req.DeduplicationPeriod; d != nil {
		if n := shape.CountSet(d.DeduplicationDuration != nil, d.DeduplicationOffset != nil, d.Empty != nil); n > 1 {
			return apierr.Malformed("a one-of holds %d variants, expected one at 'deduplicationPeriod'", n)
		}
	}
	if m := req.MinLedgerTime; m != nil {
		k := m.Time
		if n := shape.CountSet(k.MinLedgerTimeAbs != nil, k.MinLedgerTimeRel != nil, k.Empty != nil); n > 1 {
			return apierr.Malformed("a one-of holds %d variants, expected one at 'minLedgerTime.time'", n)
		}
	}
	return nil
}

// checkPrepareShape checks a JsPrepareSubmissionRequest: the shape of its
// commands, of its minLedgerTime one-of and of its traffic-cost hints.
func checkPrepareShape(req *JsPrepareSubmissionRequest) error {
	if err := checkCommandListShape(req.Commands, ""); err != nil {
		return err
	}
	if m := req.MinLedgerTime; m != nil {
		k := m.Time
		if n := shape.CountSet(k.MinLedgerTimeAbs != nil, k.MinLedgerTimeRel != nil, k.Empty != nil); n > 1 {
			return apierr.Malformed("a one-of holds %d variants, expected one at 'minLedgerTime.time'", n)
		}
		if k.MinLedgerTimeAbs != nil {
			if bad := shape.BadTimestamp(&k.MinLedgerTimeAbs.Value); bad != "" {
				return apierr.Malformed("%s at 'minLedgerTime.time.MinLedgerTimeAbs.value'", bad)
			}
		}
	}
	if h := req.EstimateTrafficCost; h != nil {
		for i, s := range h.ExpectedSignatures {
			if _, err := interactive.ParseSigningAlgorithmSpec(s); err != nil {
				return apierr.Malformed("unknown enum value %q at 'estimateTrafficCost.expectedSignatures[%d]'", apierr.Quote(s), i)
			}
		}
	}
	return nil
}
