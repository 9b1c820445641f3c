package jsonapi_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// iouNode is a node with the iou package (Main:Iou) and alice and bob.
type iouNode struct {
	n          *ledger.Node
	api        *jsonapi.API
	alice, bob string
	iou        string
}

func newIouNode(t *testing.T) *iouNode {
	t.Helper()
	n := ledgertest.Open(t, ledger.Options{})
	dar, ids := lftest.DAR(lftest.IouPackage("1.0.0"))
	ledgertest.MustUploadDAR(t, n, dar)
	return &iouNode{n: n, api: jsonapi.New(n), alice: ledgertest.MustAllocate(t, n, "alice"), bob: ledgertest.MustAllocate(t, n, "bob"),
		iou: ids[0] + ":Main:Iou"}
}

// create is a JsCommands creating an Iou of alice's with args.
func (f *iouNode) create(cmdID, args string) jsonapi.JsCommands {
	return jsonapi.JsCommands{CommandID: cmdID, ActAs: []string{f.alice}, UserID: "u1", Commands: []jsonapi.JsCommand{
		{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: f.iou, CreateArguments: json.RawMessage(args)}}}}
}

// end is the ledger end.
func (f *iouNode) end(t *testing.T) int64 {
	t.Helper()
	end, err := f.n.LedgerEnd(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return end
}

func (f *iouNode) iouArgs(amount int) string {
	return fmt.Sprintf(`{"owner": %q, "amount": "%d"}`, f.alice, amount)
}

// TestSubmitArgumentChecks: the Daml JSON of a command's arguments is
// decoded against the types of the package its template resolves to,
// refused at its path in the request, leaving the store as it was; the
// transaction shows the canonical value; an absent choice argument is {}.
func TestSubmitArgumentChecks(t *testing.T) {
	t.Parallel()
	f := newIouNode(t)
	for _, tc := range []struct {
		name, args string
		code       apierr.Code
		path       string
	}{
		{"missing field", `{"owner": "` + f.alice + `"}`, apierr.CommandPreprocessingFailed, "commands[0].CreateCommand.createArguments"},
		{"unexpected field", `{"owner": "` + f.alice + `", "amount": "1", "extra": 1}`, apierr.InvalidArgument, "commands[0].CreateCommand.createArguments"},
		{"int64 as a number", `{"owner": "` + f.alice + `", "amount": 1}`, apierr.InvalidArgument, "commands[0].CreateCommand.createArguments.amount"},
		{"bad party", `{"owner": "no!", "amount": "1"}`, apierr.InvalidArgument, "commands[0].CreateCommand.createArguments.owner"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := f.end(t)
			_, err := f.api.SubmitAndWait(t.Context(), f.create("bad", tc.args))
			var ae *apierr.Error
			if !errors.As(err, &ae) || !errors.Is(err, tc.code) || !regexp.MustCompile(regexp.QuoteMeta(tc.path)).MatchString(ae.Cause) {
				t.Fatalf("err = %v, want %s at %s", err, tc.code.Name, tc.path)
			}
			if after := f.end(t); after != before {
				t.Fatalf("the ledger end moved from %d to %d", before, after)
			}
		})
	}
	// Canonical output: an explicit "+5" comes back as "5".
	resp, err := jsonapi.DecodeAnswer[jsonapi.SubmitAndWaitForTransactionResponse](f.api.SubmitAndWaitForTransaction(t.Context(), jsonapi.SubmitAndWaitForTransactionRequest{
		Commands: f.create("c1", `{"owner": "`+f.alice+`", "amount": "+5", "more": null}`)}))
	if err != nil {
		t.Fatal(err)
	}
	ev := resp.Transaction.Events[0].CreatedEvent
	if got := string(ev.CreateArgument); got != `{"owner":"`+f.alice+`","amount":"5"}` {
		t.Errorf("canonical create argument = %s", got)
	}
	exercise := func(cmdID, choice string, arg json.RawMessage) error {
		_, err := f.api.SubmitAndWaitForTransactionTree(t.Context(), jsonapi.JsCommands{CommandID: cmdID, ActAs: []string{f.alice},
			Commands: []jsonapi.JsCommand{{ExerciseCommand: &jsonapi.JsExerciseCommand{TemplateID: f.iou, ContractID: ev.ContractID, Choice: choice, ChoiceArgument: arg}}}})
		return err
	}
	// Choice arguments are checked against the choice's type.
	if err := exercise("x", "Transfer", json.RawMessage(`{"newOwner": 3}`)); !errors.Is(err, apierr.InvalidArgument) ||
		!strings.Contains(err.Error(), "commands[0].ExerciseCommand.choiceArgument.newOwner") {
		t.Errorf("bad choice argument: %v", err)
	}
	// Archive's argument is (): absent and null read as {}.
	if err := exercise("archive", "Archive", nil); err != nil {
		t.Errorf("Archive without an argument: %v", err)
	}
}

// TestSubmitCheckOrder: a request with several faults is refused for the
// one the JSON API checks first — the wire's shapes, the disclosed
// contracts in order (base64, then the blob against its entry), the
// exclusive minimum ledger times, the transaction format, the
// submission's fields, the commands' references and arguments, and
// last a duplicate over an argument error — and nothing is written.
func TestSubmitCheckOrder(t *testing.T) {
	t.Parallel()
	f := newIouNode(t)
	if _, err := f.api.SubmitAndWait(t.Context(), f.create("done", f.iouArgs(1))); err != nil {
		t.Fatal(err)
	}
	abs, rel := "2020-01-01T00:00:00Z", &jsonapi.Duration{Seconds: 1}
	badArgs := `{"owner": "` + f.alice + `", "amount": true}`
	plain := ledger.WithPrincipal(t.Context(), identity.Principal{UserID: "plain", Rights: []identity.Right{{Kind: identity.RightCanActAs, Party: f.alice}}})
	bobsFormat := &jsonapi.TransactionFormat{TransactionShape: jsonapi.ShapeACSDelta, EventFormat: jsonapi.EventFormat{FiltersByParty: map[string]jsonapi.Filters{f.bob: {}}}}
	cases := []struct {
		name   string
		plain  bool
		edit   func(c *jsonapi.JsCommands)
		format *jsonapi.TransactionFormat
		code   apierr.Code
		cause  string
	}{
		{"a blob missing before a later blob's base64", false, func(c *jsonapi.JsCommands) {
			c.DisclosedContracts = []jsonapi.JsDisclosedContract{{}, {CreatedEventBlob: "%%"}}
		}, nil, apierr.MissingField, "commands.disclosedContracts[0].createdEventBlob"},
		{"base64 before the exclusive ledger times", false, func(c *jsonapi.JsCommands) {
			c.DisclosedContracts = []jsonapi.JsDisclosedContract{{CreatedEventBlob: "%%"}}
			c.MinLedgerTimeAbs, c.MinLedgerTimeRel = &abs, rel
		}, nil, apierr.InvalidArgument, "commands.disclosedContracts[0].createdEventBlob: the string is not a valid Base64"},
		{"the exclusive ledger times before the format", true, func(c *jsonapi.JsCommands) {
			c.MinLedgerTimeAbs, c.MinLedgerTimeRel = &abs, rel
		}, bobsFormat, apierr.InvalidArgument, "commands.minLedgerTimeAbs and minLedgerTimeRel are exclusive"},
		{"the format before the command id", true, func(c *jsonapi.JsCommands) { c.CommandID = "" }, bobsFormat, apierr.PermissionDenied, "bob"},
		{"the unspecified shape before the command id", false, func(c *jsonapi.JsCommands) { c.CommandID = "" },
			&jsonapi.TransactionFormat{TransactionShape: "TRANSACTION_SHAPE_UNSPECIFIED", EventFormat: bobsFormat.EventFormat},
			apierr.InvalidField, "transaction_shape"},
		{"an unknown template in the format before the arguments", false, func(c *jsonapi.JsCommands) {
			c.Commands[0].CreateCommand.CreateArguments = json.RawMessage(badArgs)
		}, &jsonapi.TransactionFormat{TransactionShape: jsonapi.ShapeACSDelta, EventFormat: jsonapi.EventFormat{FiltersByParty: map[string]jsonapi.Filters{
			f.alice: {Cumulative: []jsonapi.CumulativeFilter{{IdentifierFilter: jsonapi.IdentifierFilter{TemplateFilter: &jsonapi.Wrapped[jsonapi.TemplateFilterValue]{
				Value: jsonapi.TemplateFilterValue{TemplateID: "#nosuch:Main:Iou"}}}}}}}}}, apierr.PackageNamesNotFound, "nosuch"},
		{"the command id before the arguments", false, func(c *jsonapi.JsCommands) {
			c.CommandID = ""
			c.Commands[0].CreateCommand.CreateArguments = json.RawMessage(badArgs)
		}, nil, apierr.MissingField, "command_id"},
		{"a reference by no package, as written", false, func(c *jsonapi.JsCommands) {
			c.Commands[0].CreateCommand.TemplateID = "#:Main:Iou"
		}, nil, apierr.InvalidArgument, "Invalid identifier format (#:Main:Iou) not matching the expected format (<package>:<moduleName>:<entityName>) at 'commands[0].CreateCommand.templateId'"},
		{"a duplicate over its argument error", false, func(c *jsonapi.JsCommands) {
			c.CommandID = "done"
			c.Commands[0].CreateCommand.CreateArguments = json.RawMessage(badArgs)
		}, nil, apierr.DuplicateCommand, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			if tc.plain {
				ctx = plain
			}
			c := f.create("c", f.iouArgs(2))
			tc.edit(&c)
			before := f.end(t)
			_, err := f.api.SubmitAndWaitForTransaction(ctx, jsonapi.SubmitAndWaitForTransactionRequest{Commands: c, TransactionFormat: tc.format})
			var ae *apierr.Error
			if !errors.As(err, &ae) || ae.Code.Name != tc.code.Name || !strings.Contains(ae.Cause, tc.cause) {
				t.Fatalf("%v, want %s with %q", err, tc.code.Name, tc.cause)
			}
			if after := f.end(t); after != before {
				t.Errorf("the ledger end moved from %d to %d", before, after)
			}
		})
	}
}

// TestSubmitTransactionWithoutVisibleEvents: the …ForTransaction forms
// answer a transaction their format shows nothing of without events,
// with its header.
func TestSubmitTransactionWithoutVisibleEvents(t *testing.T) {
	t.Parallel()
	f := newIouNode(t)
	ctx := t.Context()
	bobs := &jsonapi.TransactionFormat{TransactionShape: jsonapi.ShapeACSDelta, EventFormat: jsonapi.EventFormat{FiltersByParty: map[string]jsonapi.Filters{f.bob: {}}}}
	resp, err := jsonapi.DecodeAnswer[jsonapi.SubmitAndWaitForTransactionResponse](f.api.SubmitAndWaitForTransaction(ctx, jsonapi.SubmitAndWaitForTransactionRequest{Commands: f.create("c1", f.iouArgs(1)), TransactionFormat: bobs}))
	if err != nil {
		t.Fatal(err)
	}
	tr := resp.Transaction
	if tr.Events == nil || len(tr.Events) != 0 || tr.UpdateID == "" || tr.CommandID != "c1" || tr.Offset == 0 || tr.EffectiveAt == "" || tr.RecordTime == "" {
		t.Errorf("bob's view of alice's create: %+v, want the header and no events", tr)
	}
	// A party whose only cumulative filter has no variant reads every
	// template, as Canton's FormatValidator has it.
	none := &jsonapi.TransactionFormat{TransactionShape: jsonapi.ShapeACSDelta, EventFormat: jsonapi.EventFormat{
		FiltersByParty: map[string]jsonapi.Filters{f.alice: {Cumulative: []jsonapi.CumulativeFilter{{}}}}}}
	hidden, err := jsonapi.DecodeAnswer[jsonapi.SubmitAndWaitForTransactionResponse](f.api.SubmitAndWaitForTransaction(ctx, jsonapi.SubmitAndWaitForTransactionRequest{Commands: f.create("c2", f.iouArgs(1)), TransactionFormat: none}))
	if err != nil {
		t.Fatal(err)
	}
	if h := hidden.Transaction; len(h.Events) != 1 || h.Events[0].CreatedEvent == nil || h.CommandID != "c2" {
		t.Errorf("a filter without a variant: %+v, want alice's create", h)
	}
	// The same transaction read by id as alice shows its times alike.
	body, err := f.api.TransactionByID(ctx, jsonapi.GetTransactionByIDRequest{UpdateID: tr.UpdateID, RequestingParties: []string{f.alice}})
	if err != nil {
		t.Fatal(err)
	}
	var read struct {
		Transaction struct{ EffectiveAt, RecordTime string }
	}
	if err := json.Unmarshal(body, &read); err != nil {
		t.Fatal(err)
	}
	if read.Transaction.EffectiveAt != tr.EffectiveAt || read.Transaction.RecordTime != tr.RecordTime {
		t.Errorf("times %s, %s; read back %s, %s", tr.EffectiveAt, tr.RecordTime, read.Transaction.EffectiveAt, read.Transaction.RecordTime)
	}
}
