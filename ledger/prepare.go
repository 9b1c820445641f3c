package ledger

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/interactive"
)

// Interactive submission, the prepare side: the commands are interpreted
// by the Daml engine as by the command service (nothing is written, see
// prepareOnEngine), and the engine's transaction, before its contract ids
// are suffixed, is returned as an interactive.PreparedTransaction with the
// hash the external parties sign. The node keeps nothing: execute works
// from the bytes the client sends back.

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

// JsPrepareSubmissionResponse is the prepared transaction and its hash.
type JsPrepareSubmissionResponse struct {
	PreparedTransaction     []byte          `json:"preparedTransaction"`
	PreparedTransactionHash []byte          `json:"preparedTransactionHash"`
	HashingSchemeVersion    string          `json:"hashingSchemeVersion"`
	HashingDetails          *string         `json:"hashingDetails"`
	CostEstimation          json.RawMessage `json:"costEstimation"`
}

func failedToPrepare(format string, args ...any) error {
	return apierr.FailedToPrepareTransaction.New(format, args...)
}

// PrepareSubmission is Prepare for the JSON Ledger API's request
// (POST /v2/interactive-submission/prepare): the wire's shapes are
// checked, its fields converted to a PrepareRequest (the commands'
// arguments decoded from Daml JSON against the packages their templates
// resolve to, as a JSON submission's), and Prepare's rules applied.
func (n *Node) PrepareSubmission(ctx context.Context, req JsPrepareSubmissionRequest) (JsPrepareSubmissionResponse, error) {
	if err := n.public(ctx); err != nil {
		return JsPrepareSubmissionResponse{}, err
	}
	if err := checkPrepareShape(&req); err != nil {
		return JsPrepareSubmissionResponse{}, err
	}
	// The fields Prepare checks first; the commands, disclosed contracts
	// and times are converted once those pass (w.submission).
	typed := PrepareRequest{Commands: Commands{Commands: make([]Command, len(req.Commands)), ActAs: req.ActAs, ReadAs: req.ReadAs,
		UserID: req.UserID, CommandID: req.CommandID, SynchronizerID: req.SynchronizerID}, VerboseHashing: req.VerboseHashing}
	if req.TapsMaxPasses != nil {
		v := int(*req.TapsMaxPasses)
		typed.Commands.TapsMaxPasses = &v
	}
	var w prepareWire
	if req.HashingSchemeVersion != "" {
		s, err := interactive.ParseHashingSchemeVersion(req.HashingSchemeVersion)
		if err != nil {
			w.schemeErr = apierr.InvalidField.New("hashing_scheme_version: %v", err)
		}
		typed.HashingScheme = s
	}
	if req.MaxRecordTime != nil {
		t, err := time.Parse(time.RFC3339Nano, *req.MaxRecordTime)
		if err != nil || t.UnixMicro() < 0 {
			w.maxRecordTimeErr = apierr.InvalidField.New("max_record_time: invalid timestamp %q", *req.MaxRecordTime)
		}
		typed.MaxRecordTime = &t
	}
	w.submission = func(checked *Commands, sync string) (*submission, error) {
		c := JsCommands{Commands: req.Commands, CommandID: checked.CommandID, ActAs: checked.ActAs, UserID: checked.UserID, ReadAs: checked.ReadAs,
			SynchronizerID: req.SynchronizerID, DisclosedContracts: req.DisclosedContracts,
			PackageIDSelectionPreference: req.PackageIDSelectionPreference, PrefetchContractKeys: req.PrefetchContractKeys}
		if m := req.MinLedgerTime; m != nil {
			if m.Time.MinLedgerTimeAbs != nil {
				c.MinLedgerTimeAbs = &m.Time.MinLedgerTimeAbs.Value
			}
			if m.Time.MinLedgerTimeRel != nil {
				c.MinLedgerTimeRel = &m.Time.MinLedgerTimeRel.Value
			}
		}
		// The commands in Go types (jsoncommands.go), interpreted as a
		// submission's.
		sub, err := jsonFields(&c, "")
		if err != nil {
			return nil, err
		}
		sub.sync = sync
		if err := n.decodeArguments(sub, false); err != nil {
			return nil, err
		}
		return sub, nil
	}
	p, err := n.prepare(ctx, &typed, &w)
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

// newUUID returns a random lowercase canonical version-4 UUID.
func newUUID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
