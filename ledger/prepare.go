package ledger

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
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

// PrepareSubmission interprets commands for external signing through the
// Daml engine on a read snapshot (prepareOnEngine): the prepared
// transaction is the engine's, with every node, the node seeds and local
// (unsuffixed) ids for the contracts it creates, which execute suffixes at
// commit; its metadata lists the ledger contracts it used. The caller
// needs CanReadAs, CanActAs or CanExecuteAs (or CanExecuteAsAnyParty) for
// every actAs party and CanReadAs for every readAs party. The hashing
// scheme is V2 unless V3 is requested. A transaction with an informee the
// participant does not know (an unallocated actAs party among them) is
// refused with UNKNOWN_INFORMEES, as Canton routes it.
func (n *Node) PrepareSubmission(ctx context.Context, req JsPrepareSubmissionRequest) (JsPrepareSubmissionResponse, error) {
	if err := n.public(ctx); err != nil {
		return JsPrepareSubmissionResponse{}, err
	}
	if err := checkPrepareShape(&req); err != nil {
		return JsPrepareSubmissionResponse{}, err
	}
	p := caller(ctx)
	c := JsCommands{Commands: req.Commands, CommandID: req.CommandID, ActAs: req.ActAs, UserID: req.UserID, ReadAs: req.ReadAs,
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
	if c.UserID == "" {
		c.UserID = p.UserID
	}
	if c.UserID == "" && p.Wildcard {
		c.UserID = identity.DefaultParticipantAdmin
	}
	if len(c.ActAs) == 0 {
		return JsPrepareSubmissionResponse{}, apierr.MissingField.New("act_as")
	}
	for _, party := range append(slices.Clone(c.ActAs), c.ReadAs...) {
		if err := identity.ValidatePartyString(party); err != nil {
			return JsPrepareSubmissionResponse{}, apierr.InvalidField.New("act_as/read_as: %v", err)
		}
	}
	for _, party := range c.ActAs {
		if !p.CanReadAs(party) && !canExecuteAs(p, party) {
			return JsPrepareSubmissionResponse{}, denied("the caller may not prepare as %s", party)
		}
	}
	for _, party := range c.ReadAs {
		if !p.CanReadAs(party) && !p.Wildcard {
			return JsPrepareSubmissionResponse{}, denied("the caller may not read as %s", party)
		}
	}
	if c.UserID == "" {
		return JsPrepareSubmissionResponse{}, apierr.MissingField.New("user_id")
	}
	if err := identity.ValidateUserID(c.UserID); err != nil {
		return JsPrepareSubmissionResponse{}, apierr.InvalidField.New("user_id: %v", err)
	}
	if c.CommandID == "" {
		return JsPrepareSubmissionResponse{}, apierr.MissingField.New("command_id")
	}
	if err := identity.ValidateLedgerString(c.CommandID); err != nil {
		return JsPrepareSubmissionResponse{}, apierr.InvalidField.New("command_id: %v", err)
	}
	if len(c.Commands) == 0 {
		return JsPrepareSubmissionResponse{}, apierr.MissingField.New("commands")
	}
	if req.TapsMaxPasses != nil {
		if err := checkTapsMaxPasses(int64(*req.TapsMaxPasses)); err != nil {
			return JsPrepareSubmissionResponse{}, err
		}
	}
	scheme := interactive.HashingSchemeVersionV2
	if req.HashingSchemeVersion != "" {
		s, err := interactive.ParseHashingSchemeVersion(req.HashingSchemeVersion)
		if err != nil {
			return JsPrepareSubmissionResponse{}, apierr.InvalidField.New("hashing_scheme_version: %v", err)
		}
		if s != interactive.HashingSchemeVersionUnspecified {
			scheme = s
		}
	}
	if !slices.Contains(interactive.SupportedHashingSchemes(protocolVersion), scheme) {
		return JsPrepareSubmissionResponse{}, failedToPrepare("hashing scheme %s is not supported", scheme)
	}
	var maxRecordTime *uint64
	if req.MaxRecordTime != nil {
		t, err := time.Parse(time.RFC3339Nano, *req.MaxRecordTime)
		if err != nil || t.UnixMicro() < 0 {
			return JsPrepareSubmissionResponse{}, apierr.InvalidField.New("max_record_time: invalid timestamp %q", *req.MaxRecordTime)
		}
		us := uint64(t.UnixMicro())
		maxRecordTime = &us
	}
	sync, err := n.synchronizer(c.SynchronizerID)
	if err != nil {
		return JsPrepareSubmissionResponse{}, err
	}
	// The commands in Go types (jsoncommands.go), interpreted as a
	// submission's.
	sub, err := jsonFields(&c, "")
	if err != nil {
		return JsPrepareSubmissionResponse{}, err
	}
	sub.sync = sync
	if err := n.jsonArguments(sub, c.Commands, false); err != nil {
		return JsPrepareSubmissionResponse{}, err
	}
	pt, err := n.prepareOnEngine(ctx, sub, newUUID(), maxRecordTime)
	if err != nil {
		return JsPrepareSubmissionResponse{}, err
	}
	b, err := interactive.EncodePreparedTransaction(pt)
	if err != nil {
		return JsPrepareSubmissionResponse{}, failedToPrepare("%v", err)
	}
	h, err := interactive.HashDetailed(pt, scheme, req.VerboseHashing)
	if err != nil {
		return JsPrepareSubmissionResponse{}, failedToPrepare("%v", err)
	}
	resp := JsPrepareSubmissionResponse{PreparedTransaction: b, PreparedTransactionHash: h.Hash,
		HashingSchemeVersion: scheme.String(), CostEstimation: json.RawMessage("null")}
	if req.VerboseHashing {
		resp.HashingDetails = &h.Details
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
