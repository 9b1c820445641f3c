package ledger

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/interactive"
	"github.com/ledgernode/ledgernode/ledger/apierr"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// Interactive submission, the prepare side: the commands are interpreted
// as by the command service (nothing is written), and the resulting
// transaction is returned as an interactive.PreparedTransaction with the
// hash the external parties sign. The node keeps nothing: execute works
// from the bytes the client sends back.

// JsPrepareSubmissionRequest is the body of
// POST /v2/interactive-submission/prepare.
type JsPrepareSubmissionRequest struct {
	UserID                       string                `json:"userId"`
	CommandID                    string                `json:"commandId"`
	Commands                     []Command             `json:"commands"`
	MinLedgerTime                *MinLedgerTime        `json:"minLedgerTime,omitempty"`
	ActAs                        []string              `json:"actAs"`
	ReadAs                       []string              `json:"readAs"`
	DisclosedContracts           []DisclosedContract   `json:"disclosedContracts"`
	SynchronizerID               string                `json:"synchronizerId"`
	PackageIDSelectionPreference []string              `json:"packageIdSelectionPreference"`
	VerboseHashing               bool                  `json:"verboseHashing"`
	PrefetchContractKeys         []PrefetchContractKey `json:"prefetchContractKeys"`
	MaxRecordTime                *string               `json:"maxRecordTime"`
	EstimateTrafficCost          *CostEstimationHints  `json:"estimateTrafficCost,omitempty"`
	TapsMaxPasses                *int32                `json:"tapsMaxPasses"`
	HashingSchemeVersion         string                `json:"hashingSchemeVersion"`
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

// PrepareSubmission interprets commands for external signing. The caller
// needs CanReadAs, CanActAs or CanExecuteAs (or CanExecuteAsAnyParty) for
// every actAs party and CanReadAs for every readAs party. The hashing
// scheme is V2 unless V3 is requested.
func (n *Node) PrepareSubmission(ctx context.Context, req JsPrepareSubmissionRequest) (JsPrepareSubmissionResponse, error) {
	if err := n.public(ctx); err != nil {
		return JsPrepareSubmissionResponse{}, err
	}
	if err := wellFormedPrepare(&req); err != nil {
		return JsPrepareSubmissionResponse{}, err
	}
	p := caller(ctx)
	c := JsCommands{Commands: req.Commands, CommandID: req.CommandID, ActAs: req.ActAs, UserID: req.UserID, ReadAs: req.ReadAs,
		SynchronizerID: req.SynchronizerID}
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
	uuid := newUUID()
	// Preparing reads a snapshot and writes nothing: it does not take a turn
	// of the committer.
	var v any
	err = n.st.View(func(r *store.Reader) error {
		tx := store.ReadOnlyTx(r)
		// Not loadPkgView: the view cache may only be filled inside the
		// committer, where it is ordered with the commits that change it.
		pkgs, err := n.readPkgView(tx, sync)
		if err != nil {
			return err
		}
		now := n.now()
		at := formatTime(now)
		e := &logEntry{Kind: kindTransaction, CommandID: c.CommandID, EffectiveAt: at, RecordTime: at, SynchronizerID: sync,
			UserID: c.UserID, ActAs: union(c.ActAs), UpdateID: "prepare:" + uuid}
		in := newInterpretation(n, tx, pkgs, &c, sync, e)
		if err := in.run(c.Commands); err != nil {
			return err
		}
		v, err = in.prepared(now, uuid, maxRecordTime)
		return err
	})
	if err != nil {
		return JsPrepareSubmissionResponse{}, storeErr(err)
	}
	pt := v.(*interactive.PreparedTransaction)
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

func seed32() []byte {
	b := make([]byte, 32)
	rand.Read(b)
	return b
}

func identifierOf(tid string) interactive.Identifier {
	pkg, m, e, _ := splitTemplateID(tid)
	return interactive.Identifier{PackageID: pkg, ModuleName: m, EntityName: e}
}

// prepared builds the prepared transaction of an interpreted entry: its
// nodes (all roots, in order), a seed per node, and the metadata with the
// input contracts (contracts used but not created here), sorted by id.
func (in *interpretation) prepared(now time.Time, uuid string, maxRecordTime *uint64) (*interactive.PreparedTransaction, error) {
	pt := &interactive.PreparedTransaction{Transaction: interactive.Transaction{Version: "2.1"}}
	created := map[string]bool{}
	inputs := map[string]bool{}
	for i := range in.entry.Nodes {
		node := &in.entry.Nodes[i]
		id := strconv.Itoa(int(node.ID))
		pn := interactive.Node{NodeID: id}
		if !node.Exercise {
			cr, err := in.createNode(node)
			if err != nil {
				return nil, err
			}
			pn.Create = cr
			created[node.ContractID] = true
		} else {
			c := in.touched[node.ContractID]
			if c == nil {
				return nil, failedToPrepare("contract %s is unknown", node.ContractID)
			}
			if !created[node.ContractID] {
				inputs[node.ContractID] = true
			}
			arg, err := in.choiceValue(node)
			if err != nil {
				return nil, err
			}
			pn.Exercise = &interactive.Exercise{LFVersion: "2.1", ContractID: node.ContractID, PackageName: node.PackageName,
				TemplateID: identifierOf(node.TemplateID), Signatories: union(c.Create.Signatories), Stakeholders: node.Stakeholders,
				ActingParties: node.Acting, ChoiceID: node.Choice, ChosenValue: arg, Consuming: node.Consuming,
				Children: []string{}, ExerciseResult: value.Unit{}, ChoiceObservers: []string{}}
		}
		pt.Transaction.Roots = append(pt.Transaction.Roots, id)
		pt.Transaction.Nodes = append(pt.Transaction.Nodes, pn)
		pt.Transaction.NodeSeeds = append(pt.Transaction.NodeSeeds, interactive.NodeSeed{NodeID: node.ID, Seed: seed32()})
	}
	cids := make([]string, 0, len(inputs))
	for cid := range inputs {
		cids = append(cids, cid)
	}
	sort.Strings(cids)
	md := interactive.Metadata{
		SubmitterInfo:   interactive.SubmitterInfo{ActAs: union(in.cmds.ActAs), CommandID: in.cmds.CommandID},
		SynchronizerID:  physicalSynchronizer(in.sync),
		TransactionUUID: uuid,
		PreparationTime: uint64(now.UnixMicro()),
		MaxRecordTime:   maxRecordTime,
	}
	for _, cid := range cids {
		c := in.touched[cid]
		cr, err := in.createNode(&c.Create)
		if err != nil {
			return nil, err
		}
		at, err := time.Parse(time.RFC3339Nano, c.Create.CreatedAt)
		if err != nil {
			return nil, failedToPrepare("contract %s: invalid creation time %q", cid, c.Create.CreatedAt)
		}
		md.InputContracts = append(md.InputContracts, interactive.InputContract{Contract: *cr, CreatedAt: uint64(at.UnixMicro()),
			EventBlob: mustJSON(c.Create)})
	}
	pt.Metadata = md
	return pt, nil
}

// createNode converts a create txNode.
func (in *interpretation) createNode(node *txNode) (*interactive.Create, error) {
	pkg, m, e, _ := splitTemplateID(node.TemplateID)
	arg, err := in.typedValue(node.Argument, value.TypeOf(pkg, m, e))
	if err != nil {
		return nil, failedToPrepare("create argument of %s: %v", node.TemplateID, err)
	}
	return &interactive.Create{LFVersion: "2.1", ContractID: node.ContractID, PackageName: node.PackageName,
		TemplateID: identifierOf(node.TemplateID), Argument: arg, Signatories: union(node.Signatories),
		Stakeholders: node.stakeholders()}, nil
}

// choiceValue converts an exercise's argument with the choice's type.
func (in *interpretation) choiceValue(node *txNode) (value.Value, error) {
	pkgID, m, e, _ := splitTemplateID(node.TemplateID)
	pkg := in.pkgs.lookup(pkgID)
	var ch *lf.Choice
	if pkg != nil {
		if t := pkg.Template(m, e); t != nil {
			ch = t.Choice(node.Choice)
		}
	}
	if ch == nil {
		if node.Choice == "Archive" {
			return value.Record{Fields: []value.RecordField{}}, nil
		}
		return nil, failedToPrepare("choice %s of %s not found", node.Choice, node.TemplateID)
	}
	v, err := in.typedValue(node.Argument, ch.ArgType)
	if err != nil {
		return nil, failedToPrepare("argument of choice %s: %v", node.Choice, err)
	}
	return v, nil
}

// typedValue converts canonical Daml-LF JSON (as value.CheckValue
// returns it) to a typed value of LF type t.
func (in *interpretation) typedValue(raw json.RawMessage, t lf.Type) (value.Value, error) {
	return value.FromJSON(raw, t, in.pkgs.lookup)
}
