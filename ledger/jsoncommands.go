package ledger

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
)

// This file is what is left in package ledger of the JSON Ledger API's
// commands, for the internal tests that build their fixtures as JSON
// (submitJS): the conversion of the wire's commands — one-ofs,
// timestamps and protobuf-shaped durations, base64 blobs, and Daml values
// in their JSON encoding, decoded (jsonArgs, through decodeArguments)
// against the types of the package each command's template resolves to.
// The JSON API's own conversion is ledger/jsonapi's (commands.go,
// interactive.go).

// jsonFields converts a JsCommands (its field paths in errors start with
// prefix): its commands without their arguments, which its decoder
// (jsonArgs) gives to decodeArguments. The caller has checked the wire
// shapes (checkJsCommandsShape). The prefetch hints are not
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
	for i, jc := range c.Commands {
		cmds.Commands[i] = jsonCommand(jc)
	}
	s.c, s.mode, s.decoder = cmds, nuckMode, jsonArgs(c.Commands)
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

// jsonCommand is a wire command in Go types, its template reference
// parsed (jsonTemplateRef) and its arguments left to the decoder
// (jsonArgs).
func jsonCommand(c JsCommand) Command {
	switch {
	case c.CreateCommand != nil:
		return CreateCommand{Template: jsonTemplateRef(c.CreateCommand.TemplateID)}
	case c.ExerciseCommand != nil:
		x := c.ExerciseCommand
		return ExerciseCommand{Template: jsonTemplateRef(x.TemplateID), ContractID: value.ContractID(x.ContractID), Choice: x.Choice}
	case c.CreateAndExerciseCommand != nil:
		x := c.CreateAndExerciseCommand
		return CreateAndExerciseCommand{Template: jsonTemplateRef(x.TemplateID), Choice: x.Choice}
	case c.ExerciseByKeyCommand != nil:
		x := c.ExerciseByKeyCommand
		return ExerciseByKeyCommand{Template: jsonTemplateRef(x.TemplateID), Choice: x.Choice}
	}
	return nil
}

// jsonTemplateRef parses a template reference the shape check passed
// ("#:Module:Entity", no package at all, stays a reference by name).
func jsonTemplateRef(s string) TemplateRef {
	id, _ := lf.SplitIdentifier(s)
	if id.PackageID == "" && id.PackageName == "" && strings.HasPrefix(s, "#") {
		return TemplateRef{ID: lf.TypeConID{Module: id.Module, Name: id.Entity}, ByPackageName: true}
	}
	return templateRefOf(id)
}

// jsonArgs decodes the arguments of wire commands from Daml JSON.
type jsonArgs []JsCommand

// DecodeArgument implements ArgumentDecoder: an absent or null choice
// argument is {}.
func (js jsonArgs) DecodeArgument(i int, field string, t lf.Type, lookup func(string) *lf.Package, path string) (value.Value, error) {
	var raw json.RawMessage
	switch c := js[i]; {
	case c.CreateCommand != nil:
		raw = c.CreateCommand.CreateArguments
	case c.ExerciseCommand != nil:
		raw = nullToEmpty(c.ExerciseCommand.ChoiceArgument)
	case c.CreateAndExerciseCommand != nil:
		raw = c.CreateAndExerciseCommand.CreateArguments
		if field == "choiceArgument" {
			raw = nullToEmpty(c.CreateAndExerciseCommand.ChoiceArgument)
		}
	case c.ExerciseByKeyCommand != nil:
		raw = c.ExerciseByKeyCommand.ContractKey
		if field == "choiceArgument" {
			raw = nullToEmpty(c.ExerciseByKeyCommand.ChoiceArgument)
		}
	}
	return value.FromJSONAt(raw, t, path, lookup)
}

// nullToEmpty reads an absent or null choice argument as {}.
func nullToEmpty(v json.RawMessage) json.RawMessage {
	if len(strings.TrimSpace(string(v))) == 0 || strings.TrimSpace(string(v)) == "null" {
		return json.RawMessage("{}")
	}
	return v
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
