package httpadapter

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// Tests of the command routes, and the fixture the update and state tests
// share.

// ledgerFixture is a harness with the iou package uploaded over HTTP (to
// every synchronizer) and the parties alice and bob.
type ledgerFixture struct {
	*harness
	auth  map[string]string // the header of every fixture request
	pkg   string
	alice string
	bob   string
}

func newLedgerFixture(t *testing.T, lopts ledger.Options, opts Options, auth map[string]string) *ledgerFixture {
	t.Helper()
	h := newHarnessWith(t, lopts, opts)
	d, ids := lftest.DAR(lftest.IouPackage("1.0.0"))
	targets := []string{"/v2/dars"}
	if len(lopts.Synchronizers) > 1 {
		targets = nil
		for _, s := range lopts.Synchronizers {
			targets = append(targets, "/v2/dars?synchronizerId="+url.QueryEscape(s))
		}
	}
	for _, target := range targets {
		wantEmptyObject(t, h.do(darCall(target, d, auth)))
	}
	return &ledgerFixture{harness: h, auth: auth, pkg: ids[0],
		alice: h.allocate("alice", auth).Party, bob: h.allocate("bob", auth).Party}
}

// iou is the template id in the package-id form.
func (f *ledgerFixture) iou() string { return f.pkg + ":Main:Iou" }

func createIou(tid, owner string, amount int) jsonapi.JsCommand {
	return jsonapi.JsCommand{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: tid,
		CreateArguments: json.RawMessage(fmt.Sprintf(`{"owner":%q,"amount":"%d"}`, owner, amount))}}
}

func exerciseIou(tid, cid, choice, arg string) jsonapi.JsCommand {
	return jsonapi.JsCommand{ExerciseCommand: &jsonapi.JsExerciseCommand{TemplateID: tid, ContractID: cid, Choice: choice,
		ChoiceArgument: json.RawMessage(arg)}}
}

func transferTo(party string) string { return fmt.Sprintf(`{"newOwner":%q}`, party) }

func commands(id, actAs string, cs ...jsonapi.JsCommand) jsonapi.JsCommands {
	return jsonapi.JsCommands{CommandID: id, ActAs: []string{actAs}, Commands: cs}
}

// post sends a JSON body (a string as it is, anything else encoded).
func (f *ledgerFixture) post(target string, body any) *httptest.ResponseRecorder {
	f.t.Helper()
	s, ok := body.(string)
	if !ok {
		s = js(f.t, body)
	}
	return f.do(httpCall{method: "POST", target: target, body: s, header: f.auth})
}

func (f *ledgerFixture) get(target string) *httptest.ResponseRecorder {
	f.t.Helper()
	return f.do(httpCall{method: "GET", target: target, header: f.auth})
}

// create creates an iou of owner over HTTP and returns its created event.
func (f *ledgerFixture) create(cmdID, owner string, amount int) jsonapi.JsCreatedEvent {
	f.t.Helper()
	rec := f.post("/v2/commands/submit-and-wait-for-transaction",
		jsonapi.SubmitAndWaitForTransactionRequest{Commands: commands(cmdID, owner, createIou(f.iou(), owner, amount))})
	tx := decodeAs[jsonapi.SubmitAndWaitForTransactionResponse](f.t, rec).Transaction
	if len(tx.Events) != 1 || tx.Events[0].CreatedEvent == nil {
		f.t.Fatalf("create %s: events %+v", cmdID, tx.Events)
	}
	return *tx.Events[0].CreatedEvent
}

func (f *ledgerFixture) end() int64 {
	f.t.Helper()
	return decodeAs[jsonapi.LedgerEnd](f.t, f.get("/v2/state/ledger-end")).Offset
}

// partyFormat reads everything party sees.
func partyFormat(party string) jsonapi.EventFormat {
	return jsonapi.EventFormat{FiltersByParty: map[string]jsonapi.Filters{party: {}}}
}

func txFormat(party, shape string) *jsonapi.TransactionFormat {
	return &jsonapi.TransactionFormat{EventFormat: partyFormat(party), TransactionShape: shape}
}

// eventKinds summarizes events as "<variant> <contract> [choice]" with
// contract ids replaced by their names in cids.
func eventKinds(events []jsonapi.JsEvent, cids map[string]string) []string {
	var out []string
	for _, e := range events {
		switch {
		case e.CreatedEvent != nil:
			out = append(out, "Created "+cids[e.CreatedEvent.ContractID])
		case e.ArchivedEvent != nil:
			out = append(out, "Archived "+cids[e.ArchivedEvent.ContractID])
		case e.ExercisedEvent != nil:
			out = append(out, fmt.Sprintf("Exercised %s %s consuming=%v", cids[e.ExercisedEvent.ContractID], e.ExercisedEvent.Choice, e.ExercisedEvent.Consuming))
		}
	}
	return out
}

// keysAt returns the sorted keys of the JSON object at path (object keys
// as strings, array indexes as ints) in body.
func keysAt(t testing.TB, body []byte, path ...any) []string {
	t.Helper()
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("decoding %s: %v", body, err)
	}
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("%v: %q of a non-object in %s", path, k, body)
			}
			v = m[k]
		case int:
			a, ok := v.([]any)
			if !ok || k >= len(a) {
				t.Fatalf("%v: [%d] of a non-array or out of range in %s", path, k, body)
			}
			v = a[k]
		}
	}
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%v: %v is not an object in %s", path, v, body)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func wantKeys(t testing.TB, rec *httptest.ResponseRecorder, want []string, path ...any) {
	t.Helper()
	if diff := cmp.Diff(want, keysAt(t, rec.Body.Bytes(), path...)); diff != "" {
		t.Errorf("keys at %v (-want +got):\n%s", path, diff)
	}
}

func TestCommandsOverHTTP(t *testing.T) {
	t.Parallel()
	f := newLedgerFixture(t, ledger.Options{}, Options{}, nil)

	// submit-and-wait: the completion offset is the new ledger end.
	before := f.end()
	sw := decodeAs[jsonapi.SubmitAndWaitResponse](t, f.post("/v2/commands/submit-and-wait", commands("c1", f.alice, createIou(f.iou(), f.alice, 1))))
	if sw.CompletionOffset != before+1 || sw.CompletionOffset != f.end() || !strings.HasPrefix(sw.UpdateID, "1220") {
		t.Fatalf("submit-and-wait: %+v after end %d", sw, before)
	}

	// submit-and-wait-for-transaction, default format (ACS delta as the
	// actAs parties see it), by #package-name.
	rec := f.post("/v2/commands/submit-and-wait-for-transaction", jsonapi.SubmitAndWaitForTransactionRequest{
		Commands: commands("c2", f.alice, createIou("#iou:Main:Iou", f.alice, 2))})
	tx := decodeAs[jsonapi.SubmitAndWaitForTransactionResponse](t, rec).Transaction
	wantKeys(t, rec, []string{"CreatedEvent"}, "transaction", "events", 0)
	if len(tx.Events) != 1 || tx.Events[0].CreatedEvent == nil {
		t.Fatalf("created: %+v", tx.Events)
	}
	c2 := *tx.Events[0].CreatedEvent
	if c2.TemplateID != f.iou() || c2.PackageName != "iou" || !c2.ACSDelta || tx.CommandID != "c2" || tx.Offset != c2.Offset {
		t.Errorf("created event %+v in %+v", c2, tx)
	}
	if diff := cmp.Diff(`{"owner":"`+f.alice+`","amount":"2"}`, compactJSON(t, c2.CreateArgument)); diff != "" {
		t.Errorf("create argument (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{f.alice}, c2.WitnessParties); diff != "" {
		t.Errorf("witnesses (-want +got):\n%s", diff)
	}
	cids := map[string]string{c2.ContractID: "c2"}

	// A non-consuming choice in both shapes: ledger effects show it, the
	// ACS delta has nothing.
	for _, tc := range []struct {
		id, shape string
		want      []string
	}{
		{"peek-le", jsonapi.ShapeLedgerEffects, []string{"Exercised c2 Peek consuming=false"}},
		{"peek-acs", jsonapi.ShapeACSDelta, nil},
	} {
		rec := f.post("/v2/commands/submit-and-wait-for-transaction", jsonapi.SubmitAndWaitForTransactionRequest{
			Commands: commands(tc.id, f.alice, exerciseIou(f.iou(), c2.ContractID, "Peek", `{}`)), TransactionFormat: txFormat(f.alice, tc.shape)})
		got := decodeAs[jsonapi.SubmitAndWaitForTransactionResponse](t, rec).Transaction
		if diff := cmp.Diff(tc.want, eventKinds(got.Events, cids)); diff != "" {
			t.Errorf("%s events (-want +got):\n%s", tc.id, diff)
		}
		if tc.want != nil {
			wantKeys(t, rec, []string{"ExercisedEvent"}, "transaction", "events", 0)
		}
	}

	// A consuming choice in both shapes.
	c3 := f.create("c3", f.alice, 3)
	c4 := f.create("c4", f.alice, 4)
	cids[c3.ContractID], cids[c4.ContractID] = "c3", "c4"
	for _, tc := range []struct {
		id, cid, shape string
		want           []string
	}{
		{"transfer-le", c3.ContractID, jsonapi.ShapeLedgerEffects, []string{"Exercised c3 Transfer consuming=true"}},
		{"transfer-acs", c4.ContractID, jsonapi.ShapeACSDelta, []string{"Archived c4"}},
	} {
		rec := f.post("/v2/commands/submit-and-wait-for-transaction", jsonapi.SubmitAndWaitForTransactionRequest{
			Commands: commands(tc.id, f.alice, exerciseIou(f.iou(), tc.cid, "Transfer", transferTo(f.bob))), TransactionFormat: txFormat(f.alice, tc.shape)})
		got := decodeAs[jsonapi.SubmitAndWaitForTransactionResponse](t, rec).Transaction
		if diff := cmp.Diff(tc.want, eventKinds(got.Events, cids)); diff != "" {
			t.Errorf("%s events (-want +got):\n%s", tc.id, diff)
		}
	}

	// createAndExercise as a tree: the create and the exercise, each under
	// a "value" layer, keyed by node id.
	rec = f.post("/v2/commands/submit-and-wait-for-transaction-tree", commands("cx", f.alice, jsonapi.JsCommand{
		CreateAndExerciseCommand: &jsonapi.JsCreateAndExerciseCommand{TemplateID: f.iou(),
			CreateArguments: json.RawMessage(`{"owner":"` + f.alice + `","amount":"5"}`), Choice: "Transfer", ChoiceArgument: json.RawMessage(transferTo(f.bob))}}))
	tree := decodeAs[jsonapi.SubmitAndWaitForTransactionTreeResponse](t, rec).TransactionTree
	wantKeys(t, rec, []string{"0", "1"}, "transactionTree", "eventsById")
	wantKeys(t, rec, []string{"value"}, "transactionTree", "eventsById", "0", "CreatedTreeEvent")
	wantKeys(t, rec, []string{"value"}, "transactionTree", "eventsById", "1", "ExercisedTreeEvent")
	created, exercised := tree.EventsByID["0"].CreatedTreeEvent, tree.EventsByID["1"].ExercisedTreeEvent
	if created == nil || exercised == nil || exercised.Value.ContractID != created.Value.ContractID ||
		exercised.Value.Choice != "Transfer" || !exercised.Value.Consuming || string(exercised.Value.ExerciseResult) != "{}" {
		t.Fatalf("createAndExercise tree: %+v", tree.EventsByID)
	}

	// The tree again, by id and by offset.
	byID := decodeAs[jsonapi.TransactionTreeResponse](t, f.get("/v2/updates/transaction-tree-by-id/"+tree.UpdateID+"?parties="+url.QueryEscape(f.alice)))
	if diff := cmp.Diff(tree, byID.Transaction); diff != "" {
		t.Errorf("tree by id (-submit +read):\n%s", diff)
	}
	byOffset := decodeAs[jsonapi.TransactionTreeResponse](t, f.get(fmt.Sprintf("/v2/updates/transaction-tree-by-offset/%d?parties=%s&parties=%s",
		tree.Offset, url.QueryEscape(f.alice), url.QueryEscape(f.bob))))
	if diff := cmp.Diff(tree, byOffset.Transaction); diff != "" {
		t.Errorf("tree by offset (-submit +read):\n%s", diff)
	}

	// The transfer of c4 by id and by offset, as its submitter saw it.
	acs := jsonapi.UpdateFormat{IncludeTransactions: txFormat(f.alice, jsonapi.ShapeACSDelta)}
	last := f.end() - 1 // the offset before the createAndExercise: transfer-acs
	u := decodeAs[jsonapi.GetUpdateResponse](t, f.post("/v2/updates/update-by-offset", jsonapi.GetUpdateByOffsetRequest{Offset: last, UpdateFormat: &acs}))
	if u.Update.Transaction == nil || u.Update.Transaction.Value.CommandID != "transfer-acs" {
		t.Fatalf("update by offset %d: %+v", last, u)
	}
	rec = f.post("/v2/updates/update-by-id", jsonapi.GetUpdateByIDRequest{UpdateID: u.Update.Transaction.Value.UpdateID, UpdateFormat: &acs})
	wantKeys(t, rec, []string{"value"}, "update", "Transaction")
	if diff := cmp.Diff(u, decodeAs[jsonapi.GetUpdateResponse](t, rec)); diff != "" {
		t.Errorf("update by id (-by offset +by id):\n%s", diff)
	}

	// async/submit answers {} once the command is committed.
	before = f.end()
	wantEmptyObject(t, f.post("/v2/commands/async/submit", commands("c6", f.alice, createIou(f.iou(), f.alice, 6))))
	if got := f.end(); got != before+1 {
		t.Errorf("ledger end after async/submit: %d, want %d", got, before+1)
	}
}

// compactJSON is a JSON value without insignificant spaces.
func compactJSON(t testing.TB, raw json.RawMessage) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatalf("compacting %s: %v", raw, err)
	}
	return b.String()
}

// commandRejection is a JsCommands body the node or the decoder refuses.
type commandRejection struct {
	name   string
	body   string // a JsCommands
	status int
	code   string // the JsCantonError code; "" for a 400 text/plain
	text   string // the text/plain body; %s is the path prefix of the JsCommands
}

func TestCommandRejectionsLeaveNoTrace(t *testing.T) {
	t.Parallel()
	f := newLedgerFixture(t, ledger.Options{}, Options{}, nil)
	c1 := f.create("c1", f.alice, 1)
	unknownCID := "00" + strings.Repeat("ab", 32) + "ca12" + strings.Repeat("cd", 32)
	cmd := func(id string, c jsonapi.JsCommand) string { return js(t, commands(id, f.alice, c)) }
	withCommands := func(raw string) string {
		return `{"commandId":"r","actAs":["` + f.alice + `"],"commands":` + raw + `}`
	}
	rejections := []commandRejection{
		{"unknown template", cmd("r", createIou(f.pkg+":Main:Nope", f.alice, 1)), 404, "TEMPLATES_OR_INTERFACES_NOT_FOUND", ""},
		{"unknown package", cmd("r", createIou(strings.Repeat("0f", 32)+":Main:Iou", f.alice, 1)), 404, "PACKAGE_NOT_FOUND", ""},
		{"unknown package name", cmd("r", createIou("#nope:Main:Iou", f.alice, 1)), 404, "PACKAGE_NAMES_NOT_FOUND", ""},
		{"unknown contract", cmd("r", exerciseIou(f.iou(), unknownCID, "Peek", `{}`)), 404, "CONTRACT_NOT_FOUND", ""},
		{"unknown choice", cmd("r", exerciseIou(f.iou(), c1.ContractID, "Nope", `{}`)), 400, "COMMAND_PREPROCESSING_FAILED", ""},
		{"a non-stakeholder exercises", js(t, commands("r", f.bob, exerciseIou(f.iou(), c1.ContractID, "Transfer", transferTo(f.bob)))), 404, "CONTRACT_NOT_FOUND", ""},
		{"a create without the signatory's authority", js(t, commands("r", f.alice, createIou(f.iou(), f.bob, 1))), 400, "DAML_AUTHORIZATION_ERROR", ""},
		{"duplicate command", cmd("c1", createIou(f.iou(), f.alice, 1)), 409, "DUPLICATE_COMMAND", ""},
		{"no actAs", `{"commandId":"r","commands":[` + js(t, createIou(f.iou(), f.alice, 1)) + `]}`, 400, "MISSING_FIELD", ""},
		{"no commandId", `{"actAs":["` + f.alice + `"],"commands":[` + js(t, createIou(f.iou(), f.alice, 1)) + `]}`, 400, "MISSING_FIELD", ""},
		{"no commands", withCommands(`[]`), 400, "MISSING_FIELD", ""},
		{"malformed template id", cmd("r", createIou("Main:Iou", f.alice, 1)), 400, "",
			"Invalid value for: body (Invalid identifier format (Main:Iou) not matching the expected format (<package>:<moduleName>:<entityName>) at '%scommands[0].CreateCommand.templateId')"},
		{"malformed exercise template id", cmd("r", exerciseIou("a:b:c:d", c1.ContractID, "Peek", `{}`)), 400, "",
			"Invalid value for: body (Invalid identifier format (a:b:c:d) not matching the expected format (<package>:<moduleName>:<entityName>) at '%scommands[0].ExerciseCommand.templateId')"},
		{"empty command", withCommands(`[{}]`), 400, "",
			"Invalid value for: body (expected one of CreateAndExerciseCommand, CreateCommand, ExerciseByKeyCommand, ExerciseCommand at '%scommands[0]')"},
		{"null command", withCommands(`[null]`), 400, "",
			"Invalid value for: body (expected one of CreateAndExerciseCommand, CreateCommand, ExerciseByKeyCommand, ExerciseCommand at '%scommands[0]')"},
		{"two variants", withCommands(`[{"CreateCommand":{"templateId":"a:b:c"},"ExerciseCommand":{"templateId":"a:b:c"}}]`), 400, "",
			"Invalid value for: body (a one-of holds 2 variants, expected one at '%scommands[0]')"},
		{"two deduplication periods", `{"commandId":"r","actAs":["` + f.alice + `"],"commands":[` + js(t, createIou(f.iou(), f.alice, 1)) +
			`],"deduplicationPeriod":{"DeduplicationOffset":{"value":1},"Empty":{}}}`, 400, "",
			"Invalid value for: body (a one-of holds 2 variants, expected one at '%sdeduplicationPeriod')"},
		{"bad minLedgerTimeAbs", `{"commandId":"r","actAs":["` + f.alice + `"],"commands":[` + js(t, createIou(f.iou(), f.alice, 1)) +
			`],"minLedgerTimeAbs":"yesterday"}`, 400, "",
			"Invalid value for: body (text \"yesterday\" could not be parsed as a timestamp at '%sminLedgerTimeAbs')"},
		{"commands is an object", withCommands(`{}`), 400, "", "Invalid value for: body (expected an array"},
		{"malformed JSON", `{"commandId":`, 400, "", "Invalid value for: body (malformed JSON"},
	}
	routes := []struct {
		path   string
		wrap   func(string) string
		prefix string
	}{
		{"/v2/commands/submit-and-wait", nil, ""},
		{"/v2/commands/submit-and-wait-for-transaction", func(s string) string { return `{"commands":` + s + `}` }, "commands."},
		{"/v2/commands/submit-and-wait-for-transaction-tree", nil, ""},
		{"/v2/commands/async/submit", nil, ""},
	}
	for _, rt := range routes {
		for _, r := range rejections {
			t.Run(rt.path+"/"+r.name, func(t *testing.T) {
				body := r.body
				if rt.wrap != nil && r.name != "malformed JSON" {
					body = rt.wrap(body)
				}
				before := f.state()
				acs := f.activeContracts(t)
				rec := f.post(rt.path, body)
				if r.code != "" {
					wantCantonError(t, rec, r.status, r.code)
				} else {
					want := r.text
					if strings.Contains(want, "%s") {
						want = fmt.Sprintf(want, rt.prefix)
					}
					wantText(t, rec, r.status, want)
				}
				if diff := cmp.Diff(before, f.state()); diff != "" {
					t.Errorf("the rejection changed the state (-before +after):\n%s", diff)
				}
				if diff := cmp.Diff(acs, f.activeContracts(t)); diff != "" {
					t.Errorf("the rejection changed the active contracts (-before +after):\n%s", diff)
				}
			})
		}
	}

	// The transaction format of submit-and-wait-for-transaction.
	ok := commands("r", f.alice, createIou(f.iou(), f.alice, 1))
	before := f.state()
	for _, tc := range []struct {
		name, format string
		code, text   string
	}{
		{"unknown shape", `{"eventFormat":{},"transactionShape":"FLAT"}`, "",
			`Invalid value for: body (unknown enum value "FLAT", expected one of TRANSACTION_SHAPE_UNSPECIFIED, TRANSACTION_SHAPE_ACS_DELTA, TRANSACTION_SHAPE_LEDGER_EFFECTS at 'transactionFormat.transactionShape')`},
		{"malformed template filter", `{"transactionShape":"TRANSACTION_SHAPE_ACS_DELTA","eventFormat":{"filtersByParty":{"` + f.alice +
			`":{"cumulative":[{"identifierFilter":{"TemplateFilter":{"value":{"templateId":"Iou"}}}}]}}}}`, "",
			"Invalid value for: body (Invalid identifier format (Iou) not matching the expected format (<package>:<moduleName>:<entityName>) at 'transactionFormat.eventFormat.filtersByParty." +
				f.alice + ".cumulative[0].identifierFilter.TemplateFilter.value.templateId')"},
		{"unspecified shape", `{"eventFormat":{},"transactionShape":"TRANSACTION_SHAPE_UNSPECIFIED"}`, "INVALID_FIELD", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := f.post("/v2/commands/submit-and-wait-for-transaction", `{"commands":`+js(t, ok)+`,"transactionFormat":`+tc.format+`}`)
			if tc.code != "" {
				wantCantonError(t, rec, 400, tc.code)
			} else {
				wantText(t, rec, 400, tc.text)
			}
		})
	}
	if diff := cmp.Diff(before, f.state()); diff != "" {
		t.Errorf("refused formats changed the state (-before +after):\n%s", diff)
	}
}

// activeContracts reads the active contracts of alice and bob in-process
// (the first page of the JSON API's active-contracts-page).
func (f *ledgerFixture) activeContracts(t testing.TB) []jsonapi.GetActiveContractsResponse {
	t.Helper()
	body, err := jsonapi.New(f.node).ActiveContractsPage(context.Background(), jsonapi.GetActiveContractsPageRequest{
		EventFormat: jsonapi.EventFormat{FiltersByParty: map[string]jsonapi.Filters{f.alice: {}, f.bob: {}}}})
	if err != nil {
		t.Fatalf("ActiveContractsPage: %v", err)
	}
	var page jsonapi.GetActiveContractsPageResponse
	if err := json.Unmarshal(body, &page); err != nil {
		t.Fatalf("ActiveContractsPage: %v in %s", err, body)
	}
	return page.ActiveContracts
}

// TestCommandAndReadAuthorization: submitting needs CanActAs (CanReadAs
// is not enough), a party-filtered read needs a read right on the party.
func TestCommandAndReadAuthorization(t *testing.T) {
	t.Parallel()
	verifier := fakeVerifier{
		"admin-token":  {UserID: identity.DefaultParticipantAdmin},
		"actor-token":  {UserID: "actor"},
		"reader-token": {UserID: "reader"},
		"none-token":   {UserID: "norights"},
	}
	admin := bearer("admin-token")
	f := newLedgerFixture(t, ledger.Options{}, Options{Verifier: verifier}, admin)
	ctx := context.Background()
	for _, u := range []jsonapi.CreateUserRequest{
		{User: identity.User{ID: "actor"}, Rights: []identity.Right{canActAs(f.alice)}},
		{User: identity.User{ID: "reader"}, Rights: []identity.Right{canReadAs(f.alice)}},
		{User: identity.User{ID: "norights"}},
	} {
		if _, err := jsonapi.New(f.node).CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	actor, reader, none := bearer("actor-token"), bearer("reader-token"), bearer("none-token")

	// The actor creates; the user id comes from the token.
	f.auth = actor
	c := f.create("c1", f.alice, 1)
	tx := decodeAs[jsonapi.GetUpdateResponse](t, f.post("/v2/updates/update-by-offset", jsonapi.GetUpdateByOffsetRequest{Offset: c.Offset,
		UpdateFormat: &jsonapi.UpdateFormat{IncludeTransactions: txFormat(f.alice, jsonapi.ShapeACSDelta)}})).Update.Transaction.Value

	create := js(t, commands("c2", f.alice, createIou(f.iou(), f.alice, 2)))
	submits := []httpCall{
		{method: "POST", target: "/v2/commands/submit-and-wait", body: create},
		{method: "POST", target: "/v2/commands/submit-and-wait-for-transaction", body: `{"commands":` + create + `}`},
		{method: "POST", target: "/v2/commands/submit-and-wait-for-transaction-tree", body: create},
		{method: "POST", target: "/v2/commands/async/submit", body: create},
		{method: "POST", target: "/v2/commands/submit-and-wait-for-reassignment", body: js(t, jsonapi.SubmitAndWaitForReassignmentRequest{
			ReassignmentCommands: jsonapi.ReassignmentCommands{CommandID: "u", Submitter: f.alice, Commands: []jsonapi.ReassignmentCommand{{Command: jsonapi.ReassignmentCommandKind{Empty: &struct{}{}}}}}})},
	}
	alice := partyFormat(f.alice)
	updates := jsonapi.UpdateFormat{IncludeTransactions: txFormat(f.alice, jsonapi.ShapeACSDelta)}
	end := tx.Offset
	reads := []httpCall{
		{method: "POST", target: "/v2/updates/get-updates-page", body: js(t, jsonapi.GetUpdatesPageRequest{UpdateFormat: &updates})},
		{method: "POST", target: "/v2/updates", body: js(t, jsonapi.GetUpdatesRequest{EndInclusive: &end, UpdateFormat: &updates})},
		{method: "POST", target: "/v2/updates/flats", body: js(t, jsonapi.GetUpdatesRequest{EndInclusive: &end, Filter: &alice})},
		{method: "POST", target: "/v2/updates/trees", body: js(t, jsonapi.GetUpdatesRequest{EndInclusive: &end, Filter: &alice})},
		{method: "POST", target: "/v2/updates/update-by-id", body: js(t, jsonapi.GetUpdateByIDRequest{UpdateID: tx.UpdateID, UpdateFormat: &updates})},
		{method: "POST", target: "/v2/updates/update-by-offset", body: js(t, jsonapi.GetUpdateByOffsetRequest{Offset: tx.Offset, UpdateFormat: &updates})},
		{method: "GET", target: "/v2/updates/transaction-tree-by-id/" + tx.UpdateID + "?parties=" + url.QueryEscape(f.alice)},
		{method: "GET", target: fmt.Sprintf("/v2/updates/transaction-tree-by-offset/%d?parties=%s", tx.Offset, url.QueryEscape(f.alice))},
		{method: "POST", target: "/v2/state/active-contracts", body: js(t, jsonapi.GetActiveContractsRequest{ActiveAtOffset: end, EventFormat: &alice})},
		{method: "POST", target: "/v2/state/active-contracts-page", body: js(t, jsonapi.GetActiveContractsPageRequest{EventFormat: alice})},
		{method: "GET", target: "/v2/state/active-contracts-page", body: js(t, jsonapi.GetActiveContractsPageRequest{EventFormat: alice})},
		{method: "POST", target: "/v2/events/events-by-contract-id", body: js(t, jsonapi.GetEventsByContractIDRequest{ContractID: c.ContractID, EventFormat: alice})},
	}

	before := f.state()
	for _, c := range submits {
		for _, who := range []map[string]string{reader, none} {
			c.header = who
			e := wantCantonError(t, f.do(c), 403, "NA")
			if e.GRPCCodeValue == nil || *e.GRPCCodeValue != 7 {
				t.Errorf("%s %s: %+v, want the redacted PERMISSION_DENIED", c.method, c.target, e)
			}
		}
		c.header = nil
		wantCantonError(t, f.do(c), 401, "NA")
	}
	if diff := cmp.Diff(before, f.state()); diff != "" {
		t.Errorf("denied submissions changed the state (-before +after):\n%s", diff)
	}

	for _, c := range reads {
		c.header = none
		wantCantonError(t, f.do(c), 403, "NA")
		c.header = nil
		wantCantonError(t, f.do(c), 401, "NA")
		for _, who := range []map[string]string{reader, actor} {
			c.header = who
			if rec := f.do(c); rec.Code != http.StatusOK {
				t.Errorf("%s %s with a read right: %d %s", c.method, c.target, rec.Code, rec.Body)
			}
		}
	}
	// Reading as any party needs CanReadAsAnyParty; listing the
	// synchronizers only authentication.
	anyParty := jsonapi.EventFormat{FiltersForAnyParty: &jsonapi.Filters{}}
	wantCantonError(t, f.do(httpCall{method: "POST", target: "/v2/state/active-contracts-page", header: reader,
		body: js(t, jsonapi.GetActiveContractsPageRequest{EventFormat: anyParty})}), 403, "NA")
	if rec := f.do(httpCall{method: "GET", target: "/v2/state/connected-synchronizers", header: none}); rec.Code != http.StatusOK {
		t.Errorf("connected synchronizers without rights: %d %s", rec.Code, rec.Body)
	}
	// The reader may not submit, the actor may.
	f.auth = actor
	decodeAs[jsonapi.SubmitAndWaitResponse](t, f.post("/v2/commands/submit-and-wait", create))
}
