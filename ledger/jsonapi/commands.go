package jsonapi

import (
	"bytes"
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
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/internal/rawjson"
	"github.com/ledgernode/ledgernode/ledger/update"
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
	TransactionTree JsTransactionTree `json:"transactionTree"`
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
func (a *API) SubmitAsync(ctx context.Context, c JsCommands) (Empty, error) {
	_, err := a.submit(ctx, &c)
	return Empty{}, err
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
	if len(c.Commands) == 1 && c.Commands[0].CreateCommand != nil {
		// One create, the common submission: its slice, command and
		// decoder in one allocation (the Node reads the command as it
		// reads a CreateCommand value).
		var cmds ledger.Commands
		if err := commandsWithout(c, "", &cmds); err != nil {
			return nil, err
		}
		b := &oneCreate{create: ledger.CreateCommand{Template: a.templateRef(c.Commands[0].CreateCommand.TemplateID)}, args: c.Commands}
		b.cmds[0] = &b.create
		cmds.Commands = b.cmds[:]
		return a.Node.Submit(ctx, cmds, ledger.DecodeArguments(&b.args))
	}
	cmds, err := commandsOf(c, "")
	if err != nil {
		return nil, err
	}
	return a.Node.Submit(ctx, cmds, ledger.DecodeArguments(jsonArgs(c.Commands)))
}

// oneCreate holds the converted commands of a submission of one create
// and their decoder.
type oneCreate struct {
	cmds   [1]ledger.Command
	create ledger.CreateCommand
	args   jsonArgs
}

// SubmitAndWaitForTransaction serves POST
// /v2/commands/submit-and-wait-for-transaction: it submits commands and
// returns the committed transaction in the requested format (default: ACS
// delta for the actAs and readAs parties, verbose) through
// Node.SubmitForTransaction, which checks the format before submitting. A
// transaction with no visible event comes back without events. The answer
// is a SubmitAndWaitForTransactionResponse as the JSON API writes it: the
// transaction Node.SubmitForTransaction returns, its values as the node
// stored them, written by the emitters (AppendTransaction) — the bytes of
// the JSON read of the same update in the same format, without reading it
// back.
func (a *API) SubmitAndWaitForTransaction(ctx context.Context, req SubmitAndWaitForTransactionRequest) (Body, error) {
	if err := checkJsCommandsShape(&req.Commands, "commands."); err != nil {
		return nil, err
	}
	if err := checkTransactionFormatShape(req.TransactionFormat, "transactionFormat."); err != nil {
		return nil, err
	}
	cmds, err := commandsOf(&req.Commands, "commands.")
	if err != nil {
		return nil, err
	}
	rf, exact, err := submissionReadFormat(req.TransactionFormat)
	if err != nil {
		return nil, err
	}
	t, err := a.Node.SubmitForTransaction(rawjson.WithStoredValues(ctx), cmds, rf, ledger.DecodeArguments(jsonArgs(req.Commands.Commands)))
	if err != nil {
		return nil, err
	}
	return a.transactionAnswer(ctx, t, req.TransactionFormat, exact)
}

// submissionReadFormat is the typed counterpart of a submission's JSON
// transaction format f (nil for nil: the Node's default is the JSON
// API's), and whether it shows exactly what f shows (readFormatOf).
func submissionReadFormat(f *TransactionFormat) (*ledger.ReadFormat, bool, error) {
	if f == nil {
		return nil, true, nil
	}
	typed, exact, err := readFormatOf(f)
	if err != nil {
		return nil, false, err
	}
	return &typed, exact, nil
}

// transactionAnswer is {"transaction": …} with t, just committed and got
// back in the typed counterpart of the JSON format f (nil: the default
// format of the typed and JSON forms alike). When that counterpart shows
// exactly what f does (exact), t is written as it is; otherwise (a party
// whose filters all lack a variant: readFormatOf) t shows more than f,
// and the transaction is read back in f — with no event visible in f, it
// comes back without events.
func (a *API) transactionAnswer(ctx context.Context, t *update.Transaction, f *TransactionFormat, exact bool) (Body, error) {
	if !exact && len(t.Events) > 0 {
		// Read back in f as the JSON read does (Node.UpdateByID in
		// f's typed counterpart, stored values); no event visible in f
		// is UPDATE_NOT_FOUND there, and an answer without events here.
		uf := UpdateFormat{IncludeTransactions: f}
		back, err := a.transactionAt(ctx, t.UpdateID, 0, updateReadFormat(&uf))
		switch {
		case errors.Is(err, apierr.UpdateNotFound):
		case err != nil:
			return nil, err
		default:
			return AppendTransactionResponse(make([]byte, 0, 2048), back), nil
		}
	}
	if !exact {
		t = withoutEvents(t)
	}
	storedForm(t)
	return AppendTransactionResponse(make([]byte, 0, 2048), t), nil
}

// withoutEvents is t's header: t with no events.
func withoutEvents(t *update.Transaction) *update.Transaction {
	return &update.Transaction{UpdateID: t.UpdateID, CommandID: t.CommandID, WorkflowID: t.WorkflowID,
		EffectiveAt: t.EffectiveAt, Offset: t.Offset, SynchronizerID: t.SynchronizerID, RecordTime: t.RecordTime}
}

// SubmitAndWaitForTransactionTree serves POST
// /v2/commands/submit-and-wait-for-transaction-tree (deprecated): it
// submits commands and returns a SubmitAndWaitForTransactionTreeResponse
// as the JSON API writes it, the transaction Node.SubmitForTransaction
// returns in the ledger-effects shape as the actAs and readAs parties see
// it, written as a tree (AppendTransactionTree), without reading it back.
//
// SubmitForTransaction checks that format — the parties' ids and the
// caller's right to read as them — before the submission's own checks,
// which check as much and more (acting as a party grants reading as
// it): a submission the format check would refuse goes through
// Node.Submit instead, so that it is refused for what Submit checks
// first, as before.
func (a *API) SubmitAndWaitForTransactionTree(ctx context.Context, c JsCommands) (Body, error) {
	parties := append(slices.Clone(c.ActAs), c.ReadAs...)
	if !mayReadAs(ctx, parties) {
		res, err := a.submit(ctx, &c)
		if err != nil {
			return nil, err
		}
		// Submit's checks passed: so would the format's. Not reached
		// unless the two disagree; the tree is read back then.
		return a.treeReadBack(ctx, res, parties)
	}
	if err := a.ready(ctx); err != nil {
		return nil, err
	}
	if err := checkJsCommandsShape(&c, ""); err != nil {
		return nil, err
	}
	cmds, err := commandsOf(&c, "")
	if err != nil {
		return nil, err
	}
	rf := &ledger.ReadFormat{Shape: ledger.LedgerEffects, Verbose: true, Parties: make(map[string][]ledger.Filter, len(parties))}
	for _, p := range parties {
		rf.Parties[p] = nil
	}
	t, err := a.Node.SubmitForTransaction(rawjson.WithStoredValues(ctx), cmds, rf, ledger.DecodeArguments(jsonArgs(c.Commands)))
	if err != nil {
		return nil, err
	}
	storedForm(t)
	return treeAnswer(t), nil
}

// mayReadAs reports whether the format check of a typed read as parties
// (with no filters) passes for the caller of ctx, as the node checks it:
// at least one party, each a valid party id the caller may read as (a
// context without a principal is a trusted caller).
func mayReadAs(ctx context.Context, parties []string) bool {
	if len(parties) == 0 {
		return false
	}
	p, ok := ledger.PrincipalFrom(ctx)
	if !ok {
		p = identity.Principal{Wildcard: true}
	}
	for _, party := range parties {
		if identity.ValidatePartyString(party) != nil || !p.CanReadAs(party) {
			return false
		}
	}
	return true
}

// treeAnswer is {"transactionTree": …} with t, the answer of
// submit-and-wait-for-transaction-tree.
func treeAnswer(t *update.Transaction) Body {
	b := append(make([]byte, 0, 2048), `{"transactionTree":`...)
	b = AppendTransactionTree(b, t)
	return append(b, '}')
}

// treeReadBack is the tree answer of a committed submission read back as
// the parties.
func (a *API) treeReadBack(ctx context.Context, res *ledger.Committed, parties []string) (Body, error) {
	f := ledger.ReadAs(parties...)
	f.Shape = ledger.LedgerEffects
	t, err := a.transactionAt(ctx, res.UpdateID, 0, ledger.UpdateReadFormat{Transactions: &f})
	switch {
	case errors.Is(err, apierr.UpdateNotFound):
		// Nothing visible to the parties: the transaction without events.
		t = &update.Transaction{UpdateID: res.UpdateID, CommandID: res.CommandID, WorkflowID: res.WorkflowID,
			EffectiveAt: res.EffectiveAt, Offset: res.Offset, SynchronizerID: res.SynchronizerID, RecordTime: res.RecordTime}
	case err != nil:
		return nil, err
	}
	return treeAnswer(t), nil
}

// readFormatOf converts a transaction format to the Node's (its shapes
// checked: checkTransactionFormatShape). The unspecified shapes the wire
// decodes are refused as the Node refuses them in a JSON read. exact
// reports whether the typed format shows exactly what f does; it shows
// more when a party's filters (or the filters for any party) all lack a
// variant (filtersOf).
func readFormatOf(f *TransactionFormat) (out ledger.ReadFormat, exact bool, err error) {
	switch f.TransactionShape {
	case ShapeACSDelta:
		out.Shape = ledger.ACSDelta
	case ShapeLedgerEffects:
		out.Shape = ledger.LedgerEffects
	default:
		return out, false, apierr.InvalidField.New("transaction_shape: %q is not %s or %s", apierr.Quote(f.TransactionShape), ShapeACSDelta, ShapeLedgerEffects)
	}
	ef := f.EventFormat
	out.Verbose = ef.Verbose
	out.Parties = make(map[string][]ledger.Filter, len(ef.FiltersByParty))
	exact = true
	for p, fs := range ef.FiltersByParty {
		var ok bool
		out.Parties[p], ok = filtersOf(fs)
		exact = exact && ok
	}
	if ef.FiltersForAnyParty != nil {
		var ok bool
		out.AnyParty, ok = filtersOf(*ef.FiltersForAnyParty)
		exact = exact && ok
		if out.AnyParty == nil {
			out.AnyParty = []ledger.Filter{}
		}
	}
	return out, exact, nil
}

// filtersOf converts a party's filters for the Node's checks: Empty
// selects every template, as in a JSON read. A cumulative filter without
// a variant selects nothing in a JSON read: it is left out — which
// changes nothing when another filter remains (exact) — but filters
// that all lack a variant select nothing at all, which typed filters
// cannot say (none selects everything): they are a wildcard here (the
// typed format shows more than the JSON one, not exact), so that the
// Node checks the party alike.
func filtersOf(fs Filters) (out []ledger.Filter, exact bool) {
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
		case f.Empty != nil:
			out = append(out, ledger.WildcardFilter(false))
		}
	}
	if len(out) == 0 && len(fs.Cumulative) > 0 {
		return []ledger.Filter{ledger.WildcardFilter(false)}, false
	}
	return out, true
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
	var out ledger.Commands
	if err := commandsWithout(c, prefix, &out); err != nil {
		return ledger.Commands{}, err
	}
	out.Commands = make([]ledger.Command, len(c.Commands))
	for i, jc := range c.Commands {
		out.Commands[i] = commandOf(jc)
	}
	return out, nil
}

// commandsWithout is commandsOf without the commands themselves, which
// convert without an error (commandOf), into *out (zero, and set in place:
// a Commands is large).
func commandsWithout(c *JsCommands, prefix string, out *ledger.Commands) error {
	dcs, err := disclosedOf(c.DisclosedContracts, prefix)
	if err != nil {
		return err
	}
	out.ActAs, out.ReadAs, out.UserID = c.ActAs, c.ReadAs, c.UserID
	out.CommandID, out.WorkflowID, out.SubmissionID, out.SynchronizerID = c.CommandID, c.WorkflowID, c.SubmissionID, c.SynchronizerID
	out.PackageIDSelectionPreference, out.DisclosedContracts = c.PackageIDSelectionPreference, dcs
	if c.MinLedgerTimeAbs != nil && *c.MinLedgerTimeAbs != "" && c.MinLedgerTimeRel != nil {
		return apierr.InvalidArgument.New("%sminLedgerTimeAbs and minLedgerTimeRel are exclusive: set one", prefix)
	}
	if abs := c.MinLedgerTimeAbs; abs != nil && *abs != "" {
		if out.MinLedgerTime, err = time.Parse(time.RFC3339Nano, *abs); err != nil {
			return apierr.InvalidField.New("min_ledger_time_abs: invalid timestamp %s", apierr.Quote(*abs))
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
	return nil
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
// identifier is passed on as written (DisclosedContract.TemplateText),
// which matches no blob.
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
			} else {
				out[i].TemplateText = d.TemplateID
			}
		}
		if err := out[i].Check(path); err != nil {
			return nil, err
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
// checked (shape.Identifier): "#:Module:Entity", with no package at
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

// storedForm gives the Daml values of a transaction just committed the
// bytes the node's log holds and its JSON reads serve. The transaction
// comes from the entry in memory, whose values are in the canonical
// encoding as the engine printed them; the log holds them as json.Marshal
// wrote them, with <, >, &, U+2028 and U+2029 escaped (\u003c …). The
// escapes are applied here (json.HTMLEscape, a no-op on escaped bytes),
// only to values holding such a character.
func storedForm(t *update.Transaction) {
	for _, e := range t.Events {
		switch x := e.(type) {
		case *update.CreatedEvent:
			x.Argument, x.Key = escapedValue(x.Argument), escapedValue(x.Key)
			for i := range x.InterfaceViews {
				x.InterfaceViews[i].Value = escapedValue(x.InterfaceViews[i].Value)
			}
		case *update.ExercisedEvent:
			x.Argument, x.Result = escapedValue(x.Argument), escapedValue(x.Result)
		}
	}
}

// escapedValue is v in its stored JSON with json.Marshal's HTML escapes;
// nil stays nil.
func escapedValue(v value.Value) value.Value {
	if v == nil {
		return nil
	}
	raw, stored := rawjson.Stored(v)
	if !stored {
		raw = rawjson.AppendJSON(nil, v)
	}
	if !needsEscape(raw) {
		if stored {
			return v // as it is
		}
		return &rawjson.Value{JSON: raw}
	}
	var buf bytes.Buffer
	json.HTMLEscape(&buf, raw)
	return &rawjson.Value{JSON: buf.Bytes()}
}

// needsEscape reports whether JSON text holds a character json.HTMLEscape
// escapes (<, >, &, or the first byte of U+2028 and U+2029).
func needsEscape(b []byte) bool {
	for _, c := range b {
		switch c {
		case '<', '>', '&', 0xE2:
			return true
		}
	}
	return false
}
