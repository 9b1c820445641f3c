package jsonapi

import (
	"context"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/internal/rawjson"
	"github.com/ledgernode/ledgernode/ledger/internal/shape"
)

// SubmitReassignment serves POST /v2/commands/async/submit-reassignment:
// the JSON reassignment commands, their one-ofs checked as Canton's JSON
// codec checks them, decoded into ledger.ReassignCommands for
// Node.Reassign (which checks the rest); {} once committed.
func (a *API) SubmitReassignment(ctx context.Context, req SubmitReassignmentRequest) (Empty, error) {
	if err := checkReassignmentCommandsShape(&req.ReassignmentCommands, "reassignmentCommands."); err != nil {
		return Empty{}, err
	}
	_, err := a.Node.Reassign(ctx, reassignCommandsOf(req.ReassignmentCommands))
	return Empty{}, err
}

// SubmitAndWaitForReassignment serves POST
// /v2/commands/submit-and-wait-for-reassignment: Node.Reassign with the
// event format's typed counterpart (ledger.ReassignmentEvents), the
// committed reassignment written by the emitters (AppendReassignment) as
// {"reassignment": …}. Without an event format it has no events; with
// one, the events it shows (none visible: no events).
func (a *API) SubmitAndWaitForReassignment(ctx context.Context, req SubmitAndWaitForReassignmentRequest) (Body, error) {
	if err := checkReassignmentCommandsShape(&req.ReassignmentCommands, "reassignmentCommands."); err != nil {
		return nil, err
	}
	var opts []ledger.ReassignOption
	if f := req.EventFormat; f != nil {
		if err := checkEventFormatShape(f, "eventFormat."); err != nil {
			return nil, err
		}
		opts = append(opts, ledger.ReassignmentEvents(readFormat(f, ledger.ACSDelta)))
	}
	c, err := a.Node.Reassign(rawjson.WithStoredValues(ctx), reassignCommandsOf(req.ReassignmentCommands), opts...)
	if err != nil {
		return nil, err
	}
	b := append(make([]byte, 0, 1024), `{"reassignment":`...)
	b = AppendReassignment(b, &c.Reassignment)
	return append(b, '}'), nil
}

// checkReassignmentCommandsShape checks the one-of of each reassignment
// command at prefix: at most one variant (none is the node's
// MISSING_FIELD).
func checkReassignmentCommandsShape(rc *ReassignmentCommands, prefix string) error {
	for i, c := range rc.Commands {
		k := c.Command
		if n := shape.CountSet(k.AssignCommand != nil, k.UnassignCommand != nil, k.Empty != nil); n > 1 {
			return apierr.Malformed("a one-of holds %d variants, expected one at '%scommands[%d].command'", n, prefix, i)
		}
	}
	return nil
}

// reassignCommandsOf decodes the JSON reassignment commands into the
// typed ones; a command with no variant (or Empty) stays nil, which
// Node.Reassign refuses with MISSING_FIELD.
func reassignCommandsOf(rc ReassignmentCommands) ledger.ReassignCommands {
	out := ledger.ReassignCommands{Commands: make([]ledger.ReassignCommand, len(rc.Commands)), Submitter: rc.Submitter,
		UserID: rc.UserID, CommandID: rc.CommandID, WorkflowID: rc.WorkflowID, SubmissionID: rc.SubmissionID}
	for i, c := range rc.Commands {
		switch k := c.Command; {
		case k.UnassignCommand != nil:
			u := k.UnassignCommand.Value
			out.Commands[i] = ledger.UnassignContract{ContractID: value.ContractID(u.ContractID), Source: u.Source, Target: u.Target}
		case k.AssignCommand != nil:
			out.Commands[i] = ledger.AssignContract(k.AssignCommand.Value)
		}
	}
	return out
}
