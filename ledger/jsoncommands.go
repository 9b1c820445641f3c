package ledger

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// This file is the JSON Ledger API's submission: the wire's JsCommands
// converted to Commands (commandsFromJSON) and submitted through the one
// typed path (Submit's). What is about JSON happens here — the shape of
// the wire's one-ofs, timestamps and protobuf-shaped durations, base64
// blobs, Daml values in their JSON encoding, decoded against the types of
// the package each command's template resolves to; every other rule is
// the typed path's.

// commandsFromJSON converts a JsCommands (its field paths in errors start
// with prefix) to the submission of Commands it stands for, in the order
// a JSON submission is checked: the fields (the disclosed contracts'
// blobs decode and match their entries; minLedgerTimeAbs and
// minLedgerTimeRel are not both set), then check (nil: none) on the
// converted fields, then the commands' arguments (jsonArguments). The
// caller has checked the wire shapes (checkJsCommandsShape).
func (n *Node) commandsFromJSON(c *JsCommands, prefix string, check func(*submission) error) (*submission, error) {
	s, err := jsonFields(c, prefix)
	if err != nil {
		return nil, err
	}
	if check != nil {
		if err := check(s); err != nil {
			return nil, err
		}
	}
	if err := n.jsonArguments(s, c.Commands, check != nil); err != nil {
		return nil, err
	}
	return s, nil
}

// jsonFields converts the fields of a JsCommands; its commands are left
// nil (one per JsCommand) for jsonArguments. The prefetch hints are not
// carried over: the node does not need them (Commands.PrefetchContractKeys),
// and their keys are not decoded on the wire either.
func jsonFields(c *JsCommands, prefix string) (*submission, error) {
	dcs, written, err := jsonDisclosed(c.DisclosedContracts, prefix)
	if err != nil {
		return nil, err
	}
	// The submission and its Commands in one allocation.
	s := &struct {
		submission
		cmds Commands
	}{}
	cmds := &s.cmds
	*cmds = Commands{Commands: make([]Command, len(c.Commands)), ActAs: c.ActAs, ReadAs: c.ReadAs, UserID: c.UserID,
		CommandID: c.CommandID, WorkflowID: c.WorkflowID, SubmissionID: c.SubmissionID, SynchronizerID: c.SynchronizerID,
		PackageIDSelectionPreference: c.PackageIDSelectionPreference, DisclosedContracts: dcs}
	s.c, s.mode = cmds, nuckMode
	if s.disclosed, err = decodeDisclosedRefs(dcs, prefix, written); err != nil {
		return nil, err
	}
	if c.MinLedgerTimeAbs != nil && *c.MinLedgerTimeAbs != "" && c.MinLedgerTimeRel != nil {
		return nil, apierr.InvalidArgument.New("%sminLedgerTimeAbs and minLedgerTimeRel are exclusive: set one", prefix)
	}
	if cmds.MinLedgerTime, cmds.MinLedgerTimeRel, err = jsonMinLedgerTime(c.MinLedgerTimeAbs, c.MinLedgerTimeRel); err != nil {
		return nil, err
	}
	if d := c.DeduplicationPeriod; d != nil {
		switch {
		case d.DeduplicationDuration != nil:
			cmds.Deduplication = DeduplicationDuration(durationOf(d.DeduplicationDuration.Value))
		case d.DeduplicationOffset != nil:
			cmds.Deduplication = DeduplicationOffset(d.DeduplicationOffset.Value)
		}
	}
	if c.TapsMaxPasses != nil {
		v := int(*c.TapsMaxPasses)
		cmds.TapsMaxPasses = &v
	}
	return &s.submission, nil
}

// jsonMinLedgerTime converts minLedgerTimeAbs (an RFC 3339 timestamp; ""
// is unset) and minLedgerTimeRel.
func jsonMinLedgerTime(abs *string, rel *Duration) (time.Time, time.Duration, error) {
	var t time.Time
	if abs != nil && *abs != "" {
		var err error
		if t, err = time.Parse(time.RFC3339Nano, *abs); err != nil {
			return time.Time{}, 0, apierr.InvalidField.New("min_ledger_time_abs: invalid timestamp %s", apierr.Quote(*abs))
		}
	}
	var d time.Duration
	if rel != nil {
		d = durationOf(*rel)
	}
	return t, d, nil
}

// durationOf converts a protobuf Duration: a duration with a negative
// part is negative (the node refuses negative durations; protobuf's own
// rule gives both parts the same sign), and one beyond time.Duration's
// range is its bound.
func durationOf(d Duration) time.Duration {
	if d.Seconds < 0 || d.Nanos < 0 {
		if s := d.Seconds; s < math.MinInt64/int64(time.Second) {
			return math.MinInt64
		}
		if v := time.Duration(d.Seconds)*time.Second + time.Duration(d.Nanos); v < 0 {
			return v
		}
		return -1
	}
	if d.Seconds > math.MaxInt64/int64(time.Second)-1 {
		return math.MaxInt64
	}
	return time.Duration(d.Seconds)*time.Second + time.Duration(d.Nanos)
}

// jsonDisclosed converts the wire's disclosed contracts: the blobs from
// base64, the template references parsed (written holds each reference
// as written, for decodeDisclosedRefs).
func jsonDisclosed(js []JsDisclosedContract, prefix string) ([]DisclosedContract, map[int]string, error) {
	if len(js) == 0 {
		return nil, nil, nil
	}
	out := make([]DisclosedContract, len(js))
	var written map[int]string
	for i, d := range js {
		out[i] = DisclosedContract{ContractID: value.ContractID(d.ContractID), SynchronizerID: d.SynchronizerID}
		if d.CreatedEventBlob != "" {
			raw, err := base64.StdEncoding.DecodeString(d.CreatedEventBlob)
			if err != nil {
				// The entries before it are checked first.
				if _, err := decodeDisclosedRefs(out[:i], prefix, written); err != nil {
					return nil, nil, err
				}
				return nil, nil, apierr.InvalidArgument.New("%sdisclosedContracts[%d].createdEventBlob: the string is not a valid Base64", prefix, i)
			}
			out[i].CreatedEventBlob = raw
		}
		if d.TemplateID != "" {
			if written == nil {
				written = map[int]string{}
			}
			written[i] = d.TemplateID
			if id, err := lf.SplitIdentifier(d.TemplateID); err == nil {
				out[i].Template = templateRefOf(id)
			}
		}
	}
	return out, written, nil
}

// jsonArguments converts the commands of a JsCommands into s's Commands:
// each command's template reference resolves in the synchronizer's
// package view (the cached one, else one read on a snapshot) with the
// submission's package preference,
// and its arguments are decoded from Daml JSON against that package's
// types (COMMAND_PREPROCESSING_FAILED and friends through damlError,
// their paths those of the request). The package ids are kept with s
// (submitConfig.typedAt), so that the typed path does not type the values
// again when it resolves the same packages. When submitting, a duplicate
// command is refused rather than whatever its conversion says, as the
// interpretation refuses it.
func (n *Node) jsonArguments(s *submission, js []JsCommand, submitting bool) error {
	sync := s.sync
	if sync == "" {
		var err error
		if sync, err = n.synchronizer(s.c.SynchronizerID); err != nil {
			return err
		}
	}
	s.typedAt = make([]string, len(js))
	convert := func(pkgs *pkgView) error {
		pref, err := pkgs.preference(s.c.PackageIDSelectionPreference)
		if err != nil {
			return err
		}
		for i, c := range js {
			cmd, pid, err := pkgs.jsonCommand(c, pref, fmt.Sprintf("commands[%d]", i))
			if err != nil {
				return err
			}
			s.c.Commands[i], s.typedAt[i] = cmd, pid
		}
		return nil
	}
	// The package view cached between commits is current: no snapshot is
	// needed but to check a failed command for a duplicate.
	if pkgs, _ := n.views.current(sync); pkgs != nil {
		err := convert(pkgs)
		if err != nil && submitting {
			if dup := n.st.View(func(r *store.Reader) error { return n.checkDuplicate(store.ReadOnlyTx(r), s, n.now()) }); dup != nil {
				return storeErr(dup)
			}
		}
		return err
	}
	err := n.st.View(func(r *store.Reader) (err error) {
		t := store.ReadOnlyTx(r)
		if submitting {
			defer func() {
				if err != nil {
					if dup := n.checkDuplicate(t, s, n.now()); dup != nil {
						err = dup
					}
				}
			}()
		}
		pkgs, err := n.snapshotPkgView(t, sync)
		if err != nil {
			return err
		}
		return convert(pkgs)
	})
	return storeErr(err)
}

// jsonCommand converts one command at path; it returns the package id
// its arguments were decoded with.
func (v *pkgView) jsonCommand(c JsCommand, pref map[string]string, path string) (Command, string, error) {
	arg := func(raw json.RawMessage, t lf.Type, path string) (value.Value, error) {
		x, err := value.FromJSONAt(raw, t, path, v.lookup)
		if err != nil {
			return nil, damlError(err)
		}
		return x, nil
	}
	resolve := func(ref, p string, interfaces bool) (*resolvedEntity, TemplateRef, error) {
		r, err := v.resolveEntity(ref, p+".templateId", pref, interfaces)
		if err != nil {
			return nil, TemplateRef{}, err
		}
		id, _ := lf.SplitIdentifier(ref) // resolveEntity split it
		return r, templateRefOf(id), nil
	}
	// chosen checks a choice of the entity and decodes its argument.
	chosen := func(r *resolvedEntity, choice string, raw json.RawMessage, p string) (value.Value, error) {
		ch, err := choiceOf(r, choice, p)
		if err != nil {
			return nil, err
		}
		return arg(nullToEmpty(raw), ch.ArgType, p+".choiceArgument")
	}
	// created resolves a create's template and decodes its argument.
	created := func(templateID string, args json.RawMessage, p string) (*resolvedEntity, TemplateRef, value.Value, error) {
		r, ref, err := resolve(templateID, p, false)
		if err != nil {
			return nil, TemplateRef{}, nil, err
		}
		a, err := arg(args, value.TypeOf(r.id.PackageID, r.id.Module, r.id.Name), p+".createArguments")
		return r, ref, a, err
	}
	switch {
	case c.CreateCommand != nil:
		r, ref, a, err := created(c.CreateCommand.TemplateID, c.CreateCommand.CreateArguments, path+".CreateCommand")
		if err != nil {
			return nil, "", err
		}
		return CreateCommand{Template: ref, Arguments: a}, r.id.PackageID, nil
	case c.ExerciseCommand != nil:
		x := c.ExerciseCommand
		p := path + ".ExerciseCommand"
		r, ref, err := resolve(x.TemplateID, p, true)
		if err != nil {
			return nil, "", err
		}
		if _, err := commandContractID(x.ContractID, p+".contractId"); err != nil {
			return nil, "", err
		}
		a, err := chosen(r, x.Choice, x.ChoiceArgument, p)
		if err != nil {
			return nil, "", err
		}
		return ExerciseCommand{Template: ref, ContractID: value.ContractID(x.ContractID), Choice: x.Choice, Argument: a}, r.id.PackageID, nil
	case c.CreateAndExerciseCommand != nil:
		x := c.CreateAndExerciseCommand
		p := path + ".CreateAndExerciseCommand"
		r, ref, a, err := created(x.TemplateID, x.CreateArguments, p)
		if err != nil {
			return nil, "", err
		}
		ca, err := chosen(r, x.Choice, x.ChoiceArgument, p)
		if err != nil {
			return nil, "", err
		}
		return CreateAndExerciseCommand{Template: ref, Arguments: a, Choice: x.Choice, Argument: ca}, r.id.PackageID, nil
	case c.ExerciseByKeyCommand != nil:
		x := c.ExerciseByKeyCommand
		p := path + ".ExerciseByKeyCommand"
		r, ref, err := resolve(x.TemplateID, p, false)
		if err != nil {
			return nil, "", err
		}
		if r.tmpl.Key == nil {
			return nil, "", pathErr(apierr.CommandPreprocessingFailed, p+".templateId", "template %s has no contract key", r.id)
		}
		k, err := arg(x.ContractKey, r.tmpl.Key.Type, p+".contractKey")
		if err != nil {
			return nil, "", err
		}
		a, err := chosen(r, x.Choice, x.ChoiceArgument, p)
		if err != nil {
			return nil, "", err
		}
		return ExerciseByKeyCommand{Template: ref, Key: k, Choice: x.Choice, Argument: a}, r.id.PackageID, nil
	}
	return nil, "", pathErr(apierr.InvalidArgument, path, "the command is empty")
}

// nullToEmpty reads an absent or null choice argument as {}.
func nullToEmpty(v json.RawMessage) json.RawMessage {
	if len(strings.TrimSpace(string(v))) == 0 || strings.TrimSpace(string(v)) == "null" {
		return json.RawMessage("{}")
	}
	return v
}

// submitJSON converts a JsCommands (checked as at prefix) and submits it
// through the typed path; check runs after the wire's own field rules,
// before the submission's.
func (n *Node) submitJSON(ctx context.Context, c *JsCommands, prefix string, check func() error) (*logEntry, error) {
	s, err := n.commandsFromJSON(c, prefix, func(s *submission) error {
		if check != nil {
			if err := check(); err != nil {
				return err
			}
		}
		return n.checkSubmission(ctx, s)
	})
	if err != nil {
		return nil, err
	}
	e, _, err := n.submitChecked(ctx, s)
	return e, err
}

// SubmitAsync submits commands without waiting for the result to be read
// back (POST /v2/commands/async/submit): everything is validated and
// committed before it returns, so a rejection is reported directly.
func (n *Node) SubmitAsync(ctx context.Context, c JsCommands) (Empty, error) {
	if err := n.public(ctx); err != nil {
		return Empty{}, err
	}
	if err := checkJsCommandsShape(&c, ""); err != nil {
		return Empty{}, err
	}
	_, err := n.submitJSON(ctx, &c, "", nil)
	return Empty{}, err
}

// SubmitAndWait submits commands (POST
// /v2/commands/submit-and-wait) through Submit and returns the update id
// and offset of the committed transaction.
func (n *Node) SubmitAndWait(ctx context.Context, c JsCommands) (SubmitAndWaitResponse, error) {
	if err := n.public(ctx); err != nil {
		return SubmitAndWaitResponse{}, err
	}
	if err := checkJsCommandsShape(&c, ""); err != nil {
		return SubmitAndWaitResponse{}, err
	}
	e, err := n.submitJSON(ctx, &c, "", nil)
	if err != nil {
		return SubmitAndWaitResponse{}, err
	}
	return SubmitAndWaitResponse{UpdateID: e.UpdateID, CompletionOffset: e.Offset}, nil
}

// actAsFormat is the default transaction format of a submission: the
// shape as the actAs and readAs parties see it, verbose.
func actAsFormat(actAs, readAs []string, shape string) *TransactionFormat {
	f := &TransactionFormat{EventFormat: EventFormat{FiltersByParty: map[string]Filters{}, Verbose: true}, TransactionShape: shape}
	for _, p := range append(slices.Clone(actAs), readAs...) {
		f.EventFormat.FiltersByParty[p] = Filters{}
	}
	return f
}

// SubmitAndWaitForTransaction submits commands and returns the committed
// transaction in the requested format (default: ACS delta for the actAs
// parties). A transaction with no visible event comes back without events.
func (n *Node) SubmitAndWaitForTransaction(ctx context.Context, req SubmitAndWaitForTransactionRequest) (SubmitAndWaitForTransactionResponse, error) {
	if err := checkJsCommandsShape(&req.Commands, "commands."); err != nil {
		return SubmitAndWaitForTransactionResponse{}, err
	}
	if err := checkTransactionFormatShape(req.TransactionFormat, "transactionFormat."); err != nil {
		return SubmitAndWaitForTransactionResponse{}, err
	}
	f := req.TransactionFormat
	e, err := n.submitJSON(ctx, &req.Commands, "commands.", func() error {
		if f != nil {
			return n.checkFormat(ctx, UpdateFormat{IncludeTransactions: f})
		}
		// Reading as the actAs and readAs parties is authorized by the
		// submission's own checks.
		f = actAsFormat(req.Commands.ActAs, req.Commands.ReadAs, ShapeACSDelta)
		return nil
	})
	if err != nil {
		return SubmitAndWaitForTransactionResponse{}, err
	}
	t := renderTransaction(e, f, newEventFilter(&f.EventFormat, n))
	if t == nil {
		t = &JsTransaction{UpdateID: e.UpdateID, CommandID: e.CommandID, WorkflowID: e.WorkflowID, EffectiveAt: e.EffectiveAt,
			Events: []JsEvent{}, Offset: e.Offset, SynchronizerID: e.SynchronizerID, RecordTime: e.RecordTime}
	}
	return SubmitAndWaitForTransactionResponse{Transaction: *t}, nil
}

// SubmitAndWaitForTransactionTree submits commands and returns the
// transaction as a tree as the actAs parties see it (deprecated endpoint).
func (n *Node) SubmitAndWaitForTransactionTree(ctx context.Context, c JsCommands) (SubmitAndWaitForTransactionTreeResponse, error) {
	if err := n.public(ctx); err != nil {
		return SubmitAndWaitForTransactionTreeResponse{}, err
	}
	if err := checkJsCommandsShape(&c, ""); err != nil {
		return SubmitAndWaitForTransactionTreeResponse{}, err
	}
	e, err := n.submitJSON(ctx, &c, "", nil)
	if err != nil {
		return SubmitAndWaitForTransactionTreeResponse{}, err
	}
	f := actAsFormat(c.ActAs, c.ReadAs, ShapeLedgerEffects)
	t := renderTree(e, newEventFilter(&f.EventFormat, n))
	if t == nil {
		t = &JsTransactionTree{UpdateID: e.UpdateID, CommandID: e.CommandID, WorkflowID: e.WorkflowID, EffectiveAt: e.EffectiveAt,
			Offset: e.Offset, EventsByID: map[string]JsTreeEvent{}, SynchronizerID: e.SynchronizerID, RecordTime: e.RecordTime}
	}
	return SubmitAndWaitForTransactionTreeResponse{TransactionTree: *t}, nil
}
