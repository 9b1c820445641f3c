package ledger

import (
	"context"
	"strconv"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// This file is the node's one reassignment path: ReassignCommands in Go
// types, checked and committed by Reassign. The JSON Ledger API's
// async/submit-reassignment and submit-and-wait-for-reassignment
// (reassign.go) and the gRPC adapter's CommandSubmissionService and
// CommandService reassignment RPCs are conversions to it, as Canton's
// JSON API is a layer over its gRPC CommandService
// (ledger-api/.../command_service.proto, reassignment_commands.proto).
//
// Canton's ReassignmentCommands have no deduplication period: a
// reassignment is not deduplicated by command id, and neither is it here.
// Nor is it in the command inspection: Canton's
// ApiCommandSubmissionService registers transaction submissions with its
// CommandProgressTracker, not submitReassignment. Its completion is the
// committed entry's (completions.go).

// ReassignCommands is a reassignment submission, Canton's
// ReassignmentCommands message: commands of one kind (all unassignments
// or all assignments) between the same two synchronizers, committed as
// one update. ledgernode reassigns one contract per submission (more are
// refused with UNIMPLEMENTED).
type ReassignCommands struct {
	// Commands are the commands (at least one): UnassignContract or
	// AssignContract values.
	Commands []ReassignCommand
	// Submitter is the submitting party (required); it must be a
	// stakeholder of each reassigned contract.
	Submitter string
	// UserID is the submitting user; "" is the caller's (the participant
	// admin for a trusted in-process caller).
	UserID string
	// CommandID identifies the command (required).
	CommandID string
	// WorkflowID and SubmissionID are optional; they are recorded.
	WorkflowID, SubmissionID string
}

// ReassignCommand is one command of a reassignment: an UnassignContract
// or an AssignContract (no other type implements it).
type ReassignCommand interface {
	isReassignCommand()
}

// UnassignContract takes the contract ContractID off its Source
// synchronizer towards Target (Canton's UnassignCommand).
type UnassignContract struct {
	ContractID     value.ContractID
	Source, Target string
}

// AssignContract completes the unassignment ReassignmentID on its
// Target synchronizer (Canton's AssignCommand); Source and Target must be
// those of the unassignment.
type AssignContract struct {
	ReassignmentID string
	Source, Target string
}

func (UnassignContract) isReassignCommand() {}
func (AssignContract) isReassignCommand()   {}

// ReassignOption changes what Reassign returns.
type ReassignOption func(*reassignConfig)

type reassignConfig struct {
	format *ReadFormat
}

// ReassignmentEvents asks Reassign for the committed reassignment's
// events as f shows them (Canton's event_format of
// SubmitAndWaitForReassignmentRequest); the caller needs the right to read
// as f's parties, checked before anything is committed. Without it the
// reassignment comes back without events.
func ReassignmentEvents(f ReadFormat) ReassignOption {
	return func(c *reassignConfig) {
		c.format = &f
	}
}

// ReassignmentCommitted is a committed reassignment: the Reassignment
// (its Events as the ReassignmentEvents format shows them, none without
// it) and the submission's user and submission ids.
type ReassignmentCommitted struct {
	update.Reassignment
	UserID, SubmissionID string
}

// Reassign checks and commits a reassignment. Unassigning needs the
// contract active on the source, the submitter one of its stakeholders,
// and the contract's package vetted on the target; the contract leaves the
// source (in transit) with a new reassignment id and its counter + 1.
// Assigning needs an open unassignment with exactly those synchronizers;
// the contract becomes active on the target. The caller needs CanActAs for
// the submitter. Errors are *apierr.Error values with Canton's codes
// (MISSING_FIELD, INVALID_FIELD, INVALID_ARGUMENT, PERMISSION_DENIED,
// CONTRACT_NOT_FOUND, CONTRACT_NOT_ACTIVE, DAML_AUTHORIZATION_ERROR,
// REASSIGNMENT_NOT_FOUND, REASSIGNMENT_MISMATCH); a refusal commits
// nothing.
func (n *Node) Reassign(ctx context.Context, c ReassignCommands, opts ...ReassignOption) (*ReassignmentCommitted, error) {
	var cfg reassignConfig
	for _, o := range opts {
		o(&cfg)
	}
	var ef *eventSpec
	if cfg.format != nil {
		f := n.typedEventSpec(*cfg.format)
		ef = &f
	}
	e, err := n.reassign(ctx, c, ef)
	if err != nil {
		return nil, err
	}
	return n.reassignmentCommitted(ctx, e, ef)
}

// reassignmentCommitted is the typed form of a committed reassignment
// entry, its events filtered by ef (nil: none), its values as a read
// with ctx gives them.
func (n *Node) reassignmentCommitted(ctx context.Context, e *logEntry, ef *eventSpec) (*ReassignmentCommitted, error) {
	at, err := parseTime(e.RecordTime)
	if err != nil {
		return nil, decodeErr(err)
	}
	out := &ReassignmentCommitted{Reassignment: update.Reassignment{UpdateID: e.UpdateID, Offset: e.Offset, RecordTime: at, SynchronizerID: e.SynchronizerID,
		CommandID: e.CommandID, WorkflowID: e.WorkflowID, Events: []update.ReassignmentEvent{}}, UserID: e.UserID, SubmissionID: e.SubmissionID}
	if ef == nil {
		return out, nil
	}
	ra, err := n.typedRendererFor(ctx).reassignment(e, newSpecFilter(ef, n))
	if err != nil {
		return nil, decodeErr(err)
	}
	if ra != nil {
		out.Events = ra.Events
	}
	return out, nil
}

// reassign checks, authorizes and commits a reassignment; with an event
// format ef, the caller's right to read as its parties is checked first.
// It returns the committed entry.
func (n *Node) reassign(ctx context.Context, rc ReassignCommands, ef *eventSpec) (*logEntry, error) {
	if ef != nil {
		parties, anyParty := (&updateSpec{Ra: ef}).readingParties()
		if err := authorizeRead(ctx, parties, anyParty); err != nil {
			return nil, err
		}
	}
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
	if err := requireOwnUserID(p, rc.UserID); err != nil {
		return nil, err
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
	_, unassign := rc.Commands[0].(UnassignContract)
	for i, c := range rc.Commands {
		var s, t string
		switch k := c.(type) {
		case UnassignContract:
			if !unassign {
				return nil, apierr.InvalidArgument.New("commands[%d]: all reassignment commands of a submission must be of one kind", i)
			}
			s, t = k.Source, k.Target
		case AssignContract:
			if unassign {
				return nil, apierr.InvalidArgument.New("commands[%d]: all reassignment commands of a submission must be of one kind", i)
			}
			s, t = k.Source, k.Target
		default:
			return nil, apierr.MissingField.New("commands[%d].command", i)
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
	if len(rc.Commands) > 1 {
		// Refused before the committer: nothing of the first command is
		// worked out only to be thrown away.
		return nil, apierr.Unimplemented.New("ledgernode reassigns one contract per submission")
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
			switch k := c.(type) {
			case UnassignContract:
				node, err = n.unassign(tx, k, rc.Submitter, e, i)
			case AssignContract:
				node, err = n.assign(tx, k, rc.Submitter)
			}
			if err != nil {
				return nil, err
			}
			e.Reassign = node
		}
		appendEntry(tx, e)
		return e, nil
	})
	if err != nil {
		return nil, storeErr(err)
	}
	return v.(*logEntry), nil
}
