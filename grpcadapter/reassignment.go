package grpcadapter

import (
	"context"

	"github.com/ledgernode/ledgernode/daml/value"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/ledger"
)

// This file serves the reassignment RPCs of CommandSubmissionService and
// CommandService: a proto ReassignmentCommands converted to the Node's
// ledger.ReassignCommands and committed by Node.Reassign, the one typed
// path the JSON API's submit-reassignment and
// submit-and-wait-for-reassignment also take. The checks of the fields
// (submitter, command_id, commands, synchronizers, the contract's state)
// and their errors are the Node's.

// reassignCommandsFromProto converts a submission's ReassignmentCommands;
// a nil rc is MISSING_FIELD reassignment_commands (Canton's
// requirePresence in ReassignmentCommandsValidator). A command with no
// variant stays nil in the result: the Node refuses it with MISSING_FIELD.
func reassignCommandsFromProto(rc *ledgerv2.ReassignmentCommands) (ledger.ReassignCommands, error) {
	if rc == nil {
		return ledger.ReassignCommands{}, missingField("reassignment_commands")
	}
	out := ledger.ReassignCommands{
		Commands:     make([]ledger.ReassignCommand, len(rc.GetCommands())),
		Submitter:    rc.GetSubmitter(),
		UserID:       rc.GetUserId(),
		CommandID:    rc.GetCommandId(),
		WorkflowID:   rc.GetWorkflowId(),
		SubmissionID: rc.GetSubmissionId(),
	}
	for i, c := range rc.GetCommands() {
		switch x := c.GetCommand().(type) {
		case *ledgerv2.ReassignmentCommand_UnassignCommand:
			u := x.UnassignCommand
			out.Commands[i] = ledger.UnassignContract{ContractID: value.ContractID(u.GetContractId()), Source: u.GetSource(), Target: u.GetTarget()}
		case *ledgerv2.ReassignmentCommand_AssignCommand:
			a := x.AssignCommand
			out.Commands[i] = ledger.AssignContract{ReassignmentID: a.GetReassignmentId(), Source: a.GetSource(), Target: a.GetTarget()}
		}
	}
	return out, nil
}

// SubmitReassignment submits a reassignment and answers once the Node
// has committed it, as the JSON API's
// /v2/commands/async/submit-reassignment does (a rejection is the call's
// error, not a failed completion).
func (s *commandSubmissionService) SubmitReassignment(ctx context.Context, req *ledgerv2.SubmitReassignmentRequest) (*ledgerv2.SubmitReassignmentResponse, error) {
	rc, err := reassignCommandsFromProto(req.GetReassignmentCommands())
	if err != nil {
		return nil, err
	}
	if _, err := s.a.node.Reassign(ctx, rc); err != nil {
		return nil, err
	}
	return &ledgerv2.SubmitReassignmentResponse{}, nil
}

// SubmitAndWaitForReassignment submits a reassignment and returns the
// committed reassignment, as /v2/commands/submit-and-wait-for-reassignment
// does: without an event format it has no events; with one, its events
// as the format shows them (the caller's right to read as its parties is
// checked before anything is committed).
func (s *commandService) SubmitAndWaitForReassignment(ctx context.Context, req *ledgerv2.SubmitAndWaitForReassignmentRequest) (*ledgerv2.SubmitAndWaitForReassignmentResponse, error) {
	rc, err := reassignCommandsFromProto(req.GetReassignmentCommands())
	if err != nil {
		return nil, err
	}
	var opts []ledger.ReassignOption
	verbose := false
	if ef := req.GetEventFormat(); ef != nil {
		f, v, err := readFormatFromProto(ef, "event_format")
		if err != nil {
			return nil, err
		}
		verbose = v
		opts = append(opts, ledger.ReassignmentEvents(f))
	}
	res, err := s.a.node.Reassign(ctx, rc, opts...)
	if err != nil {
		return nil, err
	}
	var c protoConverter
	r, err := c.reassignment(&res.Reassignment, verbose)
	if err != nil {
		return nil, err
	}
	return &ledgerv2.SubmitAndWaitForReassignmentResponse{Reassignment: r}, nil
}
