package ledger

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"slices"
	"strconv"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
	"github.com/ledgernode/ledgernode/vetting"
)

// purposeReassignmentID is the hash purpose of reassignment ids.
const purposeReassignmentID identity.HashPurpose = 0x4c4e0002

// UnassignCommand moves a contract off its source synchronizer.
type UnassignCommand struct {
	ContractID string `json:"contractId"`
	Source     string `json:"source"`
	Target     string `json:"target"`
}

// AssignCommand completes an unassignment on the target synchronizer.
type AssignCommand struct {
	ReassignmentID string `json:"reassignmentId"`
	Source         string `json:"source"`
	Target         string `json:"target"`
}

// ReassignmentCommandKind is {"UnassignCommand": {"value": …}},
// {"AssignCommand": {"value": …}} or {"Empty": {}}.
type ReassignmentCommandKind struct {
	AssignCommand   *Wrapped[AssignCommand]   `json:"AssignCommand,omitempty"`
	UnassignCommand *Wrapped[UnassignCommand] `json:"UnassignCommand,omitempty"`
	Empty           *struct{}                 `json:"Empty,omitempty"`
}

// ReassignmentCommand is one reassignment command.
type ReassignmentCommand struct {
	Command ReassignmentCommandKind `json:"command"`
}

// ReassignmentCommands is a reassignment submission: all commands are of
// one kind, between the same synchronizers, and commit as one update.
type ReassignmentCommands struct {
	WorkflowID   string                `json:"workflowId"`
	UserID       string                `json:"userId"`
	CommandID    string                `json:"commandId"`
	Submitter    string                `json:"submitter"`
	SubmissionID string                `json:"submissionId"`
	Commands     []ReassignmentCommand `json:"commands"`
}

// SubmitReassignmentRequest is the body of async/submit-reassignment.
type SubmitReassignmentRequest struct {
	ReassignmentCommands ReassignmentCommands `json:"reassignmentCommands"`
}

// SubmitAndWaitForReassignmentRequest submits a reassignment and asks for
// it in an event format (nil: the reassignment has no events).
type SubmitAndWaitForReassignmentRequest struct {
	ReassignmentCommands ReassignmentCommands `json:"reassignmentCommands"`
	EventFormat          *EventFormat         `json:"eventFormat"`
}

// SubmitAndWaitForReassignmentResponse carries the committed reassignment.
type SubmitAndWaitForReassignmentResponse struct {
	Reassignment JsReassignment `json:"reassignment"`
}

// reassignmentRecord is an unassignment, open until its assignment.
type reassignmentRecord struct {
	ContractID string `json:"cid"`
	Source     string `json:"src"`
	Target     string `json:"dst"`
	Counter    int64  `json:"cnt"`
	Completed  bool   `json:"done"`
}

func (n *Node) connected(id, field string) error {
	if !slices.Contains(n.syncs, id) {
		return apierr.InvalidField.New("%s: the participant is not connected to synchronizer %q", field, apierr.Quote(id))
	}
	return nil
}

// submitReassignment validates, authorizes (CanActAs for the submitter)
// and commits a reassignment; it returns the committed entry.
func (n *Node) submitReassignment(ctx context.Context, rc ReassignmentCommands) (*logEntry, error) {
	if err := n.public(ctx); err != nil {
		return nil, err
	}
	p := caller(ctx)
	if rc.UserID == "" {
		rc.UserID = p.UserID
	}
	if rc.Submitter == "" {
		return nil, apierr.MissingField.New("submitter")
	}
	if err := identity.ValidatePartyString(rc.Submitter); err != nil {
		return nil, apierr.InvalidField.New("submitter: %v", err)
	}
	if !p.Wildcard && !p.CanActAs(rc.Submitter) {
		return nil, denied("the caller may not act as %s", rc.Submitter)
	}
	if rc.CommandID == "" {
		return nil, apierr.MissingField.New("command_id")
	}
	for _, id := range []struct{ field, value string }{
		{"command_id", rc.CommandID}, {"workflow_id", rc.WorkflowID}, {"submission_id", rc.SubmissionID},
	} {
		if id.value == "" {
			continue
		}
		if err := identity.ValidateLedgerString(id.value); err != nil {
			return nil, apierr.InvalidField.New("%s: %v", id.field, err)
		}
	}
	if rc.UserID != "" {
		if err := identity.ValidateUserID(rc.UserID); err != nil {
			return nil, apierr.InvalidField.New("user_id: %v", err)
		}
	}
	if len(rc.Commands) == 0 {
		return nil, apierr.MissingField.New("commands")
	}
	var src, dst string
	unassign := rc.Commands[0].Command.UnassignCommand != nil
	for i, c := range rc.Commands {
		var s, t string
		switch k := c.Command; {
		case k.UnassignCommand != nil && unassign:
			s, t = k.UnassignCommand.Value.Source, k.UnassignCommand.Value.Target
		case k.AssignCommand != nil && !unassign:
			s, t = k.AssignCommand.Value.Source, k.AssignCommand.Value.Target
		case k.UnassignCommand == nil && k.AssignCommand == nil:
			return nil, apierr.MissingField.New("commands[%d].command", i)
		default:
			return nil, apierr.InvalidArgument.New("commands[%d]: all reassignment commands of a submission must be of one kind", i)
		}
		if i == 0 {
			src, dst = s, t
		} else if s != src || t != dst {
			return nil, apierr.InvalidArgument.New("commands[%d]: all reassignment commands of a submission must have the same source and target", i)
		}
	}
	if err := n.connected(src, "source"); err != nil {
		return nil, err
	}
	if err := n.connected(dst, "target"); err != nil {
		return nil, err
	}
	if src == dst {
		return nil, apierr.InvalidArgument.New("source and target synchronizer are the same: %s", apierr.Quote(src))
	}
	v, err := n.st.Submit(func(tx *store.Tx) (any, error) {
		off := tx.NextOffset()
		at := formatTime(n.now())
		sync := dst
		if unassign {
			sync = src
		}
		e := &logEntry{Kind: kindReassignment, Offset: off, CommandID: rc.CommandID, WorkflowID: rc.WorkflowID,
			RecordTime: at, SynchronizerID: sync, UserID: rc.UserID, ActAs: []string{rc.Submitter}, SubmissionID: rc.SubmissionID}
		e.UpdateID = newUpdateID("reassignment", n.participantID, strconv.FormatInt(off, 10), rc.UserID, rc.CommandID, at)
		for i, c := range rc.Commands {
			var node *reassignNode
			var err error
			if unassign {
				node, err = n.unassign(tx, c.Command.UnassignCommand.Value, rc.Submitter, e, i)
			} else {
				node, err = n.assign(tx, c.Command.AssignCommand.Value, rc.Submitter)
			}
			if err != nil {
				return nil, err
			}
			if i == 0 {
				e.Reassign = node
			} else {
				return nil, apierr.Unimplemented.New("ledgernode reassigns one contract per submission")
			}
		}
		appendEntry(tx, e)
		return e, nil
	})
	if err != nil {
		return nil, storeErr(err)
	}
	return v.(*logEntry), nil
}

func loadContract(tx *store.Tx, cid string) (*contractRecord, error) {
	raw, err := tx.Get(store.ContractKey(cid))
	if errors.Is(err, store.ErrNotFound) {
		return nil, apierr.ContractNotFound.New("Contract could not be found with id %s", apierr.Quote(cid)).WithResource("CONTRACT_ID", cid)
	}
	if err != nil {
		return nil, err
	}
	var c contractRecord
	return &c, decodeContractRecord(raw, &c)
}

func (n *Node) unassign(tx *store.Tx, u UnassignCommand, submitter string, e *logEntry, i int) (*reassignNode, error) {
	c, err := loadContract(tx, u.ContractID)
	if err != nil {
		return nil, err
	}
	if c.State == contractArchived {
		return nil, apierr.ContractNotFound.New("Contract could not be found with id %s", apierr.Quote(u.ContractID)).WithResource("CONTRACT_ID", u.ContractID)
	}
	if c.State != contractActive || c.SynchronizerID != u.Source {
		return nil, apierr.ContractNotActive.New("Contract %s is not active on synchronizer %s", apierr.Quote(u.ContractID), apierr.Quote(u.Source)).WithResource("CONTRACT_ID", u.ContractID)
	}
	if !slices.Contains(c.Create.stakeholders(), submitter) {
		return nil, apierr.DamlAuthorizationError.New("the submitter %s is not a stakeholder of contract %s", submitter, apierr.Quote(u.ContractID))
	}
	st, err := loadVetting(tx, u.Target)
	if err != nil {
		return nil, err
	}
	pkgID := packageOf(c.Create.TemplateID)
	if !slices.ContainsFunc(st.Packages, func(v vetting.VettedPackage) bool { return v.PackageID == pkgID }) {
		return nil, apierr.ReassignmentMismatch.New("the package %s of contract %s is not vetted on the target synchronizer %s", pkgID, apierr.Quote(u.ContractID), apierr.Quote(u.Target))
	}
	counter := c.Counter + 1
	rid := "00" + hex.EncodeToString(identity.CantonHash(purposeReassignmentID,
		mustJSON([]any{u.Source, u.Target, e.RecordTime, e.Offset, i, u.ContractID, counter})))
	c.State, c.Counter, c.ReassignmentID, c.Target, c.UnassignedOffset = contractUnassigned, counter, rid, u.Target, e.Offset
	// In transit, the contract stays in its stakeholders' active contracts:
	// its entries of the active-contracts index (acsindex.go) are unchanged.
	tx.Set(store.ContractKey(u.ContractID), mustJSON(c))
	tx.Set(store.ReassignmentKey(rid), mustJSON(reassignmentRecord{ContractID: u.ContractID, Source: u.Source, Target: u.Target, Counter: counter}))
	return &reassignNode{Unassign: true, ReassignmentID: rid, Source: u.Source, Target: u.Target, Submitter: submitter,
		Counter: counter, Contract: c.Create}, nil
}

func (n *Node) assign(tx *store.Tx, a AssignCommand, submitter string) (*reassignNode, error) {
	raw, err := tx.Get(store.ReassignmentKey(a.ReassignmentID))
	if errors.Is(err, store.ErrNotFound) {
		return nil, apierr.ReassignmentNotFound.New("no unassignment with reassignment id %s", apierr.Quote(a.ReassignmentID)).
			WithResource("REASSIGNMENT_ID", a.ReassignmentID)
	}
	if err != nil {
		return nil, err
	}
	var r reassignmentRecord
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	switch {
	case r.Completed:
		return nil, apierr.ReassignmentMismatch.New("the reassignment %s is already completed", apierr.Quote(a.ReassignmentID))
	case r.Source != a.Source || r.Target != a.Target:
		return nil, apierr.ReassignmentMismatch.New("the reassignment %s goes from %s to %s, not from %s to %s", apierr.Quote(a.ReassignmentID), r.Source, r.Target, apierr.Quote(a.Source), apierr.Quote(a.Target))
	}
	c, err := loadContract(tx, r.ContractID)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(c.Create.stakeholders(), submitter) {
		return nil, apierr.DamlAuthorizationError.New("the submitter %s is not a stakeholder of contract %s", submitter, apierr.Quote(r.ContractID))
	}
	r.Completed = true
	c.State, c.SynchronizerID, c.ReassignmentID, c.Target, c.UnassignedOffset = contractActive, r.Target, "", "", 0
	tx.Set(store.ReassignmentKey(a.ReassignmentID), mustJSON(r))
	tx.Set(store.ContractKey(r.ContractID), mustJSON(c))
	return &reassignNode{ReassignmentID: a.ReassignmentID, Source: r.Source, Target: r.Target, Submitter: submitter,
		Counter: r.Counter, Contract: c.Create}, nil
}

// SubmitReassignment submits a reassignment and returns once it is
// committed (POST /v2/commands/async/submit-reassignment); the result is
// in the update log.
func (n *Node) SubmitReassignment(ctx context.Context, req SubmitReassignmentRequest) (Empty, error) {
	if err := checkReassignmentCommandsShape(&req.ReassignmentCommands, "reassignmentCommands."); err != nil {
		return Empty{}, err
	}
	_, err := n.submitReassignment(ctx, req.ReassignmentCommands)
	return Empty{}, err
}

// SubmitAndWaitForReassignment submits an unassignment or an assignment as
// one atomic update and returns it: without an event format it has no
// events; with one, its events are filtered by it. Unassigning needs the
// contract active on the source, the submitter a stakeholder, and the
// contract's package vetted on the target; it takes the contract off the
// source (in transit) with a new reassignment id and the counter + 1.
// Assigning needs an open unassignment with exactly those synchronizers;
// the contract becomes active on the target.
func (n *Node) SubmitAndWaitForReassignment(ctx context.Context, req SubmitAndWaitForReassignmentRequest) (SubmitAndWaitForReassignmentResponse, error) {
	if err := checkReassignmentCommandsShape(&req.ReassignmentCommands, "reassignmentCommands."); err != nil {
		return SubmitAndWaitForReassignmentResponse{}, err
	}
	if err := checkEventFormatShape(req.EventFormat, "eventFormat."); err != nil {
		return SubmitAndWaitForReassignmentResponse{}, err
	}
	if req.EventFormat != nil {
		parties, anyParty := UpdateFormat{IncludeReassignments: req.EventFormat}.readingParties()
		if err := authorizeRead(ctx, parties, anyParty); err != nil {
			return SubmitAndWaitForReassignmentResponse{}, err
		}
	}
	e, err := n.submitReassignment(ctx, req.ReassignmentCommands)
	if err != nil {
		return SubmitAndWaitForReassignmentResponse{}, err
	}
	r := renderReassignment(e, newEventFilter(req.EventFormat, n), true)
	return SubmitAndWaitForReassignmentResponse{Reassignment: *r}, nil
}
