package jsonapi

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/internal/wiretime"
)

// The command service's submissions (Canton's JsCommandService:
// /v2/commands/async/submit, submit-and-wait and its …-for-transaction
// forms): the wire's JsCommands converted to ledger.Commands and submitted
// through the Node's one typed path. What is about JSON happens here — the
// shape of the wire's one-ofs, timestamps and protobuf-shaped durations,
// base64 blobs, and Daml values in their JSON encoding, which the Node
// asks this layer to decode (ledger.DecodeArguments) against the types of
// the package each command's template resolves to. Every other rule is
// the Node's.

// SubmitAndWaitResponse tells where a submission was committed.
type SubmitAndWaitResponse struct {
	UpdateID         string `json:"updateId"`
	CompletionOffset int64  `json:"completionOffset"`
}

// SubmitAndWaitForTransactionTreeResponse carries the committed transaction
// as a tree.
type SubmitAndWaitForTransactionTreeResponse struct {
	TransactionTree ledger.JsTransactionTree `json:"transactionTree"`
}

// ready admits a request to a serving node, as the Node's own methods do
// first.
func (a *API) ready(ctx context.Context) error {
	if err := a.Node.Ready(); err != nil {
		return err
	}
	return ctx.Err()
}

// SubmitAsync submits commands without waiting for the result to be read
// back (POST /v2/commands/async/submit): everything is validated and
// committed before it returns, so a rejection is reported directly.
func (a *API) SubmitAsync(ctx context.Context, c JsCommands) (ledger.Empty, error) {
	_, err := a.submit(ctx, &c)
	return ledger.Empty{}, err
}

// SubmitAndWait submits commands (POST /v2/commands/submit-and-wait)
// through Node.Submit and returns the update id and offset of the
// committed transaction.
func (a *API) SubmitAndWait(ctx context.Context, c JsCommands) (SubmitAndWaitResponse, error) {
	res, err := a.submit(ctx, &c)
	if err != nil {
		return SubmitAndWaitResponse{}, err
	}
	return SubmitAndWaitResponse{UpdateID: res.UpdateID, CompletionOffset: res.Offset}, nil
}

// submit checks a JsCommands' wire shapes, converts it and submits it.
func (a *API) submit(ctx context.Context, c *JsCommands) (*ledger.Committed, error) {
	if err := a.ready(ctx); err != nil {
		return nil, err
	}
	if err := checkJsCommandsShape(c, ""); err != nil {
		return nil, err
	}
	cmds, err := commandsOf(c, "")
	if err != nil {
		return nil, err
	}
	return a.Node.Submit(ctx, cmds, ledger.DecodeArguments(jsonArgs(c.Commands)))
}

// SubmitAndWaitForTransaction submits commands and returns the committed
// transaction in the requested format (default: ACS delta for the actAs
// and readAs parties, verbose) through Node.SubmitForTransaction, which
// checks the format before submitting. A transaction with no visible
// event comes back without events.
func (a *API) SubmitAndWaitForTransaction(ctx context.Context, req SubmitAndWaitForTransactionRequest) (SubmitAndWaitForTransactionResponse, error) {
	if err := checkJsCommandsShape(&req.Commands, "commands."); err != nil {
		return SubmitAndWaitForTransactionResponse{}, err
	}
	if err := checkTransactionFormatShape(req.TransactionFormat, "transactionFormat."); err != nil {
		return SubmitAndWaitForTransactionResponse{}, err
	}
	cmds, err := commandsOf(&req.Commands, "commands.")
	if err != nil {
		return SubmitAndWaitForTransactionResponse{}, err
	}
	f := req.TransactionFormat
	var rf *ledger.ReadFormat
	if f != nil {
		typed, err := readFormatOf(f)
		if err != nil {
			return SubmitAndWaitForTransactionResponse{}, err
		}
		rf = &typed
	} else {
		f = actAsFormat(cmds.ActAs, cmds.ReadAs, ledger.ShapeACSDelta)
	}
	t, err := a.Node.SubmitForTransaction(ctx, cmds, rf, ledger.DecodeArguments(jsonArgs(req.Commands.Commands)))
	if err != nil {
		return SubmitAndWaitForTransactionResponse{}, err
	}
	jt, err := a.transactionAnswer(ctx, t, f)
	if err != nil {
		return SubmitAndWaitForTransactionResponse{}, err
	}
	return SubmitAndWaitForTransactionResponse{Transaction: jt}, nil
}

// transactionAnswer is the JSON form of t, just committed and got back in
// the typed counterpart of the JSON format f (readFormatOf, or f's
// default): read back in f. The typed format shows at least what the JSON
// one does (filtersOf): with no event, none is visible, and a transaction
// f shows nothing of comes back without events.
func (a *API) transactionAnswer(ctx context.Context, t *ledger.Transaction, f *ledger.TransactionFormat) (ledger.JsTransaction, error) {
	if len(t.Events) > 0 {
		resp, err := a.Node.TransactionByID(ctx, ledger.GetTransactionByIDRequest{UpdateID: t.UpdateID, TransactionFormat: f})
		if err == nil {
			return resp.Transaction, nil
		}
		if !errors.Is(err, apierr.UpdateNotFound) {
			return ledger.JsTransaction{}, err
		}
	}
	return ledger.JsTransaction{UpdateID: t.UpdateID, CommandID: t.CommandID, WorkflowID: t.WorkflowID,
		EffectiveAt: wiretime.Format(t.EffectiveAt), Events: []ledger.JsEvent{}, Offset: t.Offset,
		SynchronizerID: t.SynchronizerID, RecordTime: wiretime.Format(t.RecordTime)}, nil
}

// SubmitAndWaitForTransactionTree submits commands and returns the
// transaction as a tree as the actAs and readAs parties see it
// (deprecated endpoint).
func (a *API) SubmitAndWaitForTransactionTree(ctx context.Context, c JsCommands) (SubmitAndWaitForTransactionTreeResponse, error) {
	res, err := a.submit(ctx, &c)
	if err != nil {
		return SubmitAndWaitForTransactionTreeResponse{}, err
	}
	resp, err := a.Node.TransactionTreeByID(ctx, res.UpdateID, append(slices.Clone(c.ActAs), c.ReadAs...))
	switch {
	case errors.Is(err, apierr.UpdateNotFound):
		return SubmitAndWaitForTransactionTreeResponse{TransactionTree: ledger.JsTransactionTree{UpdateID: res.UpdateID,
			CommandID: res.CommandID, WorkflowID: res.WorkflowID, EffectiveAt: wiretime.Format(res.EffectiveAt), Offset: res.Offset,
			EventsByID: map[string]ledger.JsTreeEvent{}, SynchronizerID: res.SynchronizerID, RecordTime: wiretime.Format(res.RecordTime)}}, nil
	case err != nil:
		return SubmitAndWaitForTransactionTreeResponse{}, err
	}
	return SubmitAndWaitForTransactionTreeResponse{TransactionTree: resp.Transaction}, nil
}

// actAsFormat is the default transaction format of a submission: the
// shape as the actAs and readAs parties see it, verbose.
func actAsFormat(actAs, readAs []string, shape string) *ledger.TransactionFormat {
	f := &ledger.TransactionFormat{EventFormat: ledger.EventFormat{FiltersByParty: map[string]ledger.Filters{}, Verbose: true}, TransactionShape: shape}
	for _, p := range append(slices.Clone(actAs), readAs...) {
		f.EventFormat.FiltersByParty[p] = ledger.Filters{}
	}
	return f
}

// readFormatOf converts a transaction format to the Node's (its shapes
// checked: checkTransactionFormatShape). The unspecified shapes the wire
// decodes are refused as the Node refuses them in a JSON read.
func readFormatOf(f *ledger.TransactionFormat) (ledger.ReadFormat, error) {
	var out ledger.ReadFormat
	switch f.TransactionShape {
	case ledger.ShapeACSDelta:
		out.Shape = ledger.ACSDelta
	case ledger.ShapeLedgerEffects:
		out.Shape = ledger.LedgerEffects
	default:
		return out, apierr.InvalidField.New("transaction_shape: %q is not %s or %s", apierr.Quote(f.TransactionShape), ledger.ShapeACSDelta, ledger.ShapeLedgerEffects)
	}
	ef := f.EventFormat
	out.Verbose = ef.Verbose
	out.Parties = make(map[string][]ledger.Filter, len(ef.FiltersByParty))
	for p, fs := range ef.FiltersByParty {
		out.Parties[p] = filtersOf(fs)
	}
	if ef.FiltersForAnyParty != nil {
		out.AnyParty = filtersOf(*ef.FiltersForAnyParty)
		if out.AnyParty == nil {
			out.AnyParty = []ledger.Filter{}
		}
	}
	return out, nil
}

// filtersOf converts a party's filters for the Node's checks: Empty
// selects every template, as in a JSON read; a cumulative filter without
// a variant, which selects nothing in a JSON read, is a wildcard here
// (the typed format shows at least what the JSON one does).
func filtersOf(fs ledger.Filters) []ledger.Filter {
	var out []ledger.Filter
	for _, c := range fs.Cumulative {
		switch f := c.IdentifierFilter; {
		case f.TemplateFilter != nil:
			v := f.TemplateFilter.Value
			out = append(out, ledger.TemplateFilter(templateRef(v.TemplateID), v.IncludeCreatedEventBlob))
		case f.InterfaceFilter != nil:
			v := f.InterfaceFilter.Value
			out = append(out, ledger.InterfaceFilter(templateRef(v.InterfaceID), v.IncludeInterfaceView, v.IncludeCreatedEventBlob))
		case f.WildcardFilter != nil:
			out = append(out, ledger.WildcardFilter(f.WildcardFilter.Value.IncludeCreatedEventBlob))
		default:
			out = append(out, ledger.WildcardFilter(false))
		}
	}
	return out
}

// commandsOf converts a JsCommands (its field paths in errors start with
// prefix) to the Commands it stands for, without the commands' arguments
// (jsonArgs decodes them for the Node), in the order a JSON submission is
// checked: the disclosed contracts (each blob decodes from base64 and
// matches its entry), then minLedgerTimeAbs and minLedgerTimeRel are not
// both set, and the timestamp parses. The caller has checked the wire
// shapes (checkJsCommandsShape). The prefetch hints are not carried over:
// the node does not need them (Commands.PrefetchContractKeys), and their
// keys are not decoded on the wire either.
func commandsOf(c *JsCommands, prefix string) (ledger.Commands, error) {
	dcs, err := disclosedOf(c.DisclosedContracts, prefix)
	if err != nil {
		return ledger.Commands{}, err
	}
	out := ledger.Commands{Commands: make([]ledger.Command, len(c.Commands)), ActAs: c.ActAs, ReadAs: c.ReadAs, UserID: c.UserID,
		CommandID: c.CommandID, WorkflowID: c.WorkflowID, SubmissionID: c.SubmissionID, SynchronizerID: c.SynchronizerID,
		PackageIDSelectionPreference: c.PackageIDSelectionPreference, DisclosedContracts: dcs}
	for i, jc := range c.Commands {
		out.Commands[i] = commandOf(jc)
	}
	if c.MinLedgerTimeAbs != nil && *c.MinLedgerTimeAbs != "" && c.MinLedgerTimeRel != nil {
		return ledger.Commands{}, apierr.InvalidArgument.New("%sminLedgerTimeAbs and minLedgerTimeRel are exclusive: set one", prefix)
	}
	if abs := c.MinLedgerTimeAbs; abs != nil && *abs != "" {
		if out.MinLedgerTime, err = time.Parse(time.RFC3339Nano, *abs); err != nil {
			return ledger.Commands{}, apierr.InvalidField.New("min_ledger_time_abs: invalid timestamp %s", apierr.Quote(*abs))
		}
	}
	if c.MinLedgerTimeRel != nil {
		out.MinLedgerTimeRel = durationOf(*c.MinLedgerTimeRel)
	}
	if d := c.DeduplicationPeriod; d != nil {
		switch {
		case d.DeduplicationDuration != nil:
			out.Deduplication = ledger.DeduplicationDuration(durationOf(d.DeduplicationDuration.Value))
		case d.DeduplicationOffset != nil:
			out.Deduplication = ledger.DeduplicationOffset(d.DeduplicationOffset.Value)
		}
	}
	if c.TapsMaxPasses != nil {
		v := int(*c.TapsMaxPasses)
		out.TapsMaxPasses = &v
	}
	return out, nil
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

// disclosedOf converts the wire's disclosed contracts, checking each in
// turn as the Node does (DisclosedContract.Check): its blob from base64,
// then the blob against the entry. An entry whose templateId is no
// identifier matches no blob.
func disclosedOf(js []JsDisclosedContract, prefix string) ([]ledger.DisclosedContract, error) {
	if len(js) == 0 {
		return nil, nil
	}
	out := make([]ledger.DisclosedContract, len(js))
	for i, d := range js {
		path := fmt.Sprintf("%sdisclosedContracts[%d]", prefix, i)
		out[i] = ledger.DisclosedContract{ContractID: value.ContractID(d.ContractID), SynchronizerID: d.SynchronizerID}
		if d.CreatedEventBlob != "" {
			raw, err := base64.StdEncoding.DecodeString(d.CreatedEventBlob)
			if err != nil {
				return nil, apierr.InvalidArgument.New("%s.createdEventBlob: the string is not a valid Base64", path)
			}
			out[i].CreatedEventBlob = raw
		}
		if d.TemplateID != "" {
			if _, err := lf.SplitIdentifier(d.TemplateID); err == nil {
				out[i].Template = templateRef(d.TemplateID)
			}
		}
		if err := out[i].Check(path); err != nil {
			return nil, err
		}
		if d.TemplateID != "" && out[i].Template.IsZero() {
			b, err := tx.DecodeContractBlob(out[i].CreatedEventBlob) // Check decoded it
			if err != nil {
				return nil, apierr.InternalError.Wrap(err, "decoding a checked blob")
			}
			return nil, apierr.InvalidArgument.New("%s.templateId: %s does not match the template of its createdEventBlob (%s)", path, apierr.Quote(d.TemplateID), b.Create.TemplateID)
		}
	}
	return out, nil
}

// commandOf is a wire command in Go types, its template reference parsed
// (templateRef) and its arguments left to the decoder (jsonArgs).
func commandOf(c JsCommand) ledger.Command {
	switch {
	case c.CreateCommand != nil:
		return ledger.CreateCommand{Template: templateRef(c.CreateCommand.TemplateID)}
	case c.ExerciseCommand != nil:
		x := c.ExerciseCommand
		return ledger.ExerciseCommand{Template: templateRef(x.TemplateID), ContractID: value.ContractID(x.ContractID), Choice: x.Choice}
	case c.CreateAndExerciseCommand != nil:
		x := c.CreateAndExerciseCommand
		return ledger.CreateAndExerciseCommand{Template: templateRef(x.TemplateID), Choice: x.Choice}
	case c.ExerciseByKeyCommand != nil:
		x := c.ExerciseByKeyCommand
		return ledger.ExerciseByKeyCommand{Template: templateRef(x.TemplateID), Choice: x.Choice}
	}
	return nil
}

// templateRef parses a template or interface reference whose shape was
// checked (checkIdentifierShape): "#:Module:Entity", with no package at
// all, stays a reference by name, which the Node refuses quoting it as
// written.
func templateRef(s string) ledger.TemplateRef {
	id, _ := lf.SplitIdentifier(s)
	if id.PackageID == "" && id.PackageName == "" && strings.HasPrefix(s, "#") {
		return ledger.TemplateRef{ID: lf.TypeConID{Module: id.Module, Name: id.Entity}, ByPackageName: true}
	}
	if id.ByName() {
		return ledger.TemplateByName(id.PackageName, id.Module, id.Entity)
	}
	return ledger.TemplateByID(lf.TypeConID{PackageID: id.PackageID, Module: id.Module, Name: id.Entity})
}

// jsonArgs decodes the arguments of wire commands from Daml JSON
// (ledger.ArgumentDecoder).
type jsonArgs []JsCommand

// DecodeArgument decodes an argument of command i from its Daml JSON
// against t; an absent or null choice argument is {}.
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
	if s := strings.TrimSpace(string(v)); s == "" || s == "null" {
		return json.RawMessage("{}")
	}
	return v
}
