package grpcadapter

import (
	"context"
	"errors"
	"math"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/grpcadapter/internal/pbvalue"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/ledger"
)

// This file is the gRPC twin of the JSON API's submission
// (ledger/jsoncommands.go): a proto Commands converted to the Node's
// ledger.Commands and submitted through Node.Submit, the one typed path.
// What is about protobuf happens here — the one-ofs, the well-known
// Duration and Timestamp types, identifiers as messages, values as
// com.daml.ledger.api.v2.Value (labelled; the Node types them against the
// package each command's template resolves to). The checks of the
// fields (act_as, user_id, command_id, commands, ...) and their errors
// are the Node's, the same as for a JSON submission. As in the JSON path,
// the wire's own shape is checked first: a command with no variant, a
// missing template id, contract id, choice, arguments or choice argument
// (Canton's CommandsValidator.validateInnerCommand: MISSING_FIELD), a
// contract id or choice that does not parse (INVALID_FIELD), and values
// that do not decode (ValueValidator).

// commandsFromProto converts a submission's Commands; a nil c is Canton's
// MISSING_FIELD commands (requirePresence in SubmitRequestValidator).
func commandsFromProto(c *ledgerv2.Commands) (ledger.Commands, error) {
	if c == nil {
		return ledger.Commands{}, missingField("commands")
	}
	out := ledger.Commands{
		Commands:                     make([]ledger.Command, len(c.GetCommands())),
		ActAs:                        c.GetActAs(),
		ReadAs:                       c.GetReadAs(),
		UserID:                       c.GetUserId(),
		CommandID:                    c.GetCommandId(),
		WorkflowID:                   c.GetWorkflowId(),
		SubmissionID:                 c.GetSubmissionId(),
		SynchronizerID:               c.GetSynchronizerId(),
		PackageIDSelectionPreference: c.GetPackageIdSelectionPreference(),
	}
	for i, cmd := range c.GetCommands() {
		x, err := commandFromProto(cmd)
		if err != nil {
			return ledger.Commands{}, err
		}
		out.Commands[i] = x
	}
	if c.MinLedgerTimeAbs != nil && c.MinLedgerTimeRel != nil {
		// The Node's words: its zero values are "unset", so a zero
		// relative time beside an absolute one is refused here.
		return ledger.Commands{}, apierr.InvalidArgument.New("min_ledger_time_abs and min_ledger_time_rel are exclusive: set one")
	}
	if t := c.GetMinLedgerTimeAbs(); t != nil {
		var err error
		if out.MinLedgerTime, err = validTime(t, "min_ledger_time_abs"); err != nil {
			return ledger.Commands{}, err
		}
	}
	if d := c.GetMinLedgerTimeRel(); d != nil {
		out.MinLedgerTimeRel = d.AsDuration()
	}
	switch d := c.GetDeduplicationPeriod().(type) {
	case *ledgerv2.Commands_DeduplicationDuration:
		out.Deduplication = ledger.DeduplicationDuration(d.DeduplicationDuration.AsDuration())
	case *ledgerv2.Commands_DeduplicationOffset:
		out.Deduplication = ledger.DeduplicationOffset(d.DeduplicationOffset)
	}
	for _, d := range c.GetDisclosedContracts() {
		dc := ledger.DisclosedContract{CreatedEventBlob: d.GetCreatedEventBlob(), ContractID: value.ContractID(d.GetContractId()), SynchronizerID: d.GetSynchronizerId()}
		if d.GetTemplateId() != nil {
			ref, err := templateRefFromProto(d.GetTemplateId())
			if err != nil {
				return ledger.Commands{}, err
			}
			dc.Template = ref
		}
		out.DisclosedContracts = append(out.DisclosedContracts, dc)
	}
	for _, k := range c.GetPrefetchContractKeys() {
		ref, err := templateRefFromProto(k.GetTemplateId())
		if err != nil {
			return ledger.Commands{}, err
		}
		key, err := valueFromProto(k.GetContractKey(), "contract_key")
		if err != nil {
			return ledger.Commands{}, err
		}
		limit, err := prefetchLimit(k.Limit)
		if err != nil {
			return ledger.Commands{}, err
		}
		out.PrefetchContractKeys = append(out.PrefetchContractKeys, ledger.PrefetchContractKey{Template: ref, Key: key, Limit: limit})
	}
	if c.TapsMaxPasses != nil {
		v := int(*c.TapsMaxPasses)
		out.TapsMaxPasses = &v
	}
	return out, nil
}

// prefetchLimit reads a prefetch key's limit as Canton's
// CommandsValidator.validatePrefetchContractKey does: absent is 1, 0 is
// refused, and a uint32 above 2^31-1 is capped there.
func prefetchLimit(l *uint32) (int, error) {
	switch {
	case l == nil:
		return 1, nil
	case *l == 0:
		return 0, apierr.InvalidArgument.New("limit must be a positive integer, but got 0")
	case *l > math.MaxInt32:
		return math.MaxInt32, nil
	}
	return int(*l), nil
}

// commandFromProto converts one command, as Canton's
// CommandsValidator.validateInnerCommand reads it.
func commandFromProto(c *ledgerv2.Command) (ledger.Command, error) {
	switch x := c.GetCommand().(type) {
	case *ledgerv2.Command_Create:
		ref, args, err := createdFromProto(x.Create.GetTemplateId(), x.Create.GetCreateArguments())
		if err != nil {
			return nil, err
		}
		return ledger.CreateCommand{Template: ref, Arguments: args}, nil
	case *ledgerv2.Command_Exercise:
		e := x.Exercise
		ref, err := templateRefFromProto(e.GetTemplateId())
		if err != nil {
			return nil, err
		}
		cid, err := contractIDFromProto(e.GetContractId())
		if err != nil {
			return nil, err
		}
		choice, err := choiceFromProto(e.GetChoice())
		if err != nil {
			return nil, err
		}
		arg, err := valueFromProto(e.GetChoiceArgument(), "value")
		if err != nil {
			return nil, err
		}
		return ledger.ExerciseCommand{Template: ref, ContractID: cid, Choice: choice, Argument: arg}, nil
	case *ledgerv2.Command_ExerciseByKey:
		e := x.ExerciseByKey
		ref, err := templateRefFromProto(e.GetTemplateId())
		if err != nil {
			return nil, err
		}
		key, err := valueFromProto(e.GetContractKey(), "contract_key")
		if err != nil {
			return nil, err
		}
		choice, err := choiceFromProto(e.GetChoice())
		if err != nil {
			return nil, err
		}
		arg, err := valueFromProto(e.GetChoiceArgument(), "value")
		if err != nil {
			return nil, err
		}
		return ledger.ExerciseByKeyCommand{Template: ref, Key: key, Choice: choice, Argument: arg}, nil
	case *ledgerv2.Command_CreateAndExercise:
		e := x.CreateAndExercise
		ref, args, err := createdFromProto(e.GetTemplateId(), e.GetCreateArguments())
		if err != nil {
			return nil, err
		}
		choice, err := choiceFromProto(e.GetChoice())
		if err != nil {
			return nil, err
		}
		arg, err := valueFromProto(e.GetChoiceArgument(), "value")
		if err != nil {
			return nil, err
		}
		return ledger.CreateAndExerciseCommand{Template: ref, Arguments: args, Choice: choice, Argument: arg}, nil
	}
	return nil, missingField("command")
}

// createdFromProto converts the template and arguments of a create.
func createdFromProto(id *ledgerv2.Identifier, args *ledgerv2.Record) (ledger.TemplateRef, value.Value, error) {
	ref, err := templateRefFromProto(id)
	if err != nil {
		return ledger.TemplateRef{}, nil, err
	}
	if args == nil {
		return ledger.TemplateRef{}, nil, missingField("create_arguments")
	}
	r, err := pbvalue.RecordFromProtoAt(args, 1)
	if err != nil {
		return ledger.TemplateRef{}, nil, valueError(err)
	}
	return ref, r, nil
}

// templateRefFromProto converts a template or interface identifier:
// "#name" in package_id references by package name, anything else by
// package id (Canton's validateTypeConRef, Ref.PackageRef.fromString).
func templateRefFromProto(id *ledgerv2.Identifier) (ledger.TemplateRef, error) {
	if id == nil {
		return ledger.TemplateRef{}, missingField("template_id")
	}
	ref, err := ledger.ParseTemplateRef(id.GetPackageId() + ":" + id.GetModuleName() + ":" + id.GetEntityName())
	if err != nil {
		return ledger.TemplateRef{}, apierr.InvalidField.New("template_id: %v", err)
	}
	return ref, nil
}

// contractIDFromProto reads a command's contract_id as Canton's
// FieldValidator.requireContractId does: MISSING_FIELD when empty,
// INVALID_FIELD when it is no contract id (a local one is the engine's
// to refuse, as in Canton).
func contractIDFromProto(s string) (value.ContractID, error) {
	if s == "" {
		return "", missingField("contract_id")
	}
	if _, err := lf.ParseContractID(s); err != nil {
		// ContractId.fromString's words, whatever failed.
		return "", apierr.InvalidField.New("Invalid field contract_id: cannot parse ContractId \"%s\"", apierr.Quote(s))
	}
	return value.ContractID(s), nil
}

// choiceFromProto reads a command's choice as Canton's
// ValueValidator.requireName does: MISSING_FIELD when empty, INVALID_FIELD
// when it is no Daml-LF Name.
func choiceFromProto(s string) (string, error) {
	if s == "" {
		return "", missingField("choice")
	}
	if err := lf.CheckName(s); err != nil {
		return "", apierr.InvalidField.New("Invalid field choice: %v", err)
	}
	return s, nil
}

// valueFromProto reads a value field (Canton's requirePresence then
// ValueValidator.validateValue).
func valueFromProto(v *ledgerv2.Value, field string) (value.Value, error) {
	if v == nil {
		return nil, missingField(field)
	}
	x, err := pbvalue.FromProto(v)
	if err != nil {
		return nil, valueError(err)
	}
	return x, nil
}

// valueError is a value that does not decode: a Value without its sum is
// MISSING_FIELD value (ValueValidator: Sum.Empty), anything else
// INVALID_ARGUMENT.
func valueError(err error) error {
	if errors.Is(err, pbvalue.ErrNoSum) {
		return missingField("value")
	}
	return apierr.InvalidArgument.New("%v", err)
}

// commandSubmissionService is CommandSubmissionService.
type commandSubmissionService struct {
	ledgerv2.UnimplementedCommandSubmissionServiceServer
	a *Adapter
}

// Submit submits commands and answers once the Node has committed them,
// as the JSON API's /v2/commands/async/submit does (ledgernode validates
// and commits before answering, so a rejection is the call's error, not
// a failed completion).
func (s *commandSubmissionService) Submit(ctx context.Context, req *ledgerv2.SubmitRequest) (*ledgerv2.SubmitResponse, error) {
	c, err := commandsFromProto(req.GetCommands())
	if err != nil {
		return nil, err
	}
	if _, err := s.a.node.Submit(ctx, c); err != nil {
		return nil, err
	}
	return &ledgerv2.SubmitResponse{}, nil
}

// commandService is CommandService.
type commandService struct {
	ledgerv2.UnimplementedCommandServiceServer
	a *Adapter
}

// SubmitAndWait submits commands and returns the committed transaction's
// update id and offset, as /v2/commands/submit-and-wait does.
func (s *commandService) SubmitAndWait(ctx context.Context, req *ledgerv2.SubmitAndWaitRequest) (*ledgerv2.SubmitAndWaitResponse, error) {
	c, err := commandsFromProto(req.GetCommands())
	if err != nil {
		return nil, err
	}
	res, err := s.a.node.Submit(ctx, c)
	if err != nil {
		return nil, err
	}
	return &ledgerv2.SubmitAndWaitResponse{UpdateId: res.UpdateID, CompletionOffset: res.Offset}, nil
}
