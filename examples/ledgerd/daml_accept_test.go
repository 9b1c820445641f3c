package main

// Acceptance of issue 13 ("the ledger runs Daml"), over HTTP as a client
// sees it: ledgerd runs in process (in memory, auth none), the real DARs
// are uploaded with POST /v2/dars, and everything else is JSON requests
// and responses of the JSON Ledger API.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// acceptDARDir holds the real DARs (../shared of the repository).
const acceptDARDir = "../../../shared/testdata/dars"

const (
	pingDAR     = "canton-builtin-admin-workflow-ping.dar"
	utilDAR     = "splice-util-0.1.2.dar"
	amuletDAR   = "splice-amulet-0.1.8.dar"
	bongTimeout = "2030-04-05T14:30:05Z"
)

// acceptDARFile reads a real DAR; the test is skipped when ../shared is
// absent.
func acceptDARFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(acceptDARDir, name))
	if err != nil {
		t.Skipf("../shared not found: skipping the real-DAR acceptance test (%v)", err)
	}
	return b
}

// apiClient talks JSON to a ledgerd started for the test.
type apiClient struct {
	t    testing.TB
	base string
	hc   *http.Client
	seq  int
}

// newAPIClient starts ledgerd in memory with auth none.
func newAPIClient(t *testing.T) *apiClient {
	s := startServer(t, discard(), "-in-memory", "-auth", "none")
	return &apiClient{t: t, base: s.base, hc: &http.Client{}}
}

// do sends a request (body: []byte as is, else JSON) and returns the
// status and the body.
func (c *apiClient) do(method, path string, body any) (int, []byte) {
	c.t.Helper()
	var raw []byte
	switch b := body.(type) {
	case nil:
	case []byte:
		raw = b
	default:
		var err error
		if raw, err = json.Marshal(b); err != nil {
			c.t.Fatal(err)
		}
	}
	req, err := http.NewRequest(method, c.base+path, bytes.NewReader(raw))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	return resp.StatusCode, out
}

// ok sends a request that must succeed and decodes its answer into out.
func (c *apiClient) ok(method, path string, body, out any) {
	c.t.Helper()
	status, raw := c.do(method, path, body)
	if status != http.StatusOK {
		c.t.Fatalf("%s %s: %d %s", method, path, status, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			c.t.Fatalf("%s %s: decoding %s: %v", method, path, raw, err)
		}
	}
}

func (c *apiClient) upload(dar []byte) { c.t.Helper(); c.ok("POST", "/v2/dars", dar, nil) }

func (c *apiClient) party(hint string) string {
	c.t.Helper()
	var resp struct {
		PartyDetails struct {
			Party string `json:"party"`
		} `json:"partyDetails"`
	}
	c.ok("POST", "/v2/parties", map[string]any{"partyIdHint": hint}, &resp)
	return resp.PartyDetails.Party
}

func (c *apiClient) end() int64 {
	c.t.Helper()
	var e struct {
		Offset int64 `json:"offset"`
	}
	c.ok("GET", "/v2/state/ledger-end", nil, &e)
	return e.Offset
}

// commands is a JsCommands body with a fresh command id.
func (c *apiClient) commands(actAs []string, cmds ...any) map[string]any {
	c.seq++
	return map[string]any{"commandId": fmt.Sprintf("accept-%d", c.seq), "userId": "participant_admin", "actAs": actAs, "commands": cmds}
}

// submitTx runs submit-and-wait-for-transaction (ACS delta shape for the
// submitters).
func (c *apiClient) submitTx(actAs []string, cmds ...any) jsTransaction {
	c.t.Helper()
	var resp struct {
		Transaction jsTransaction `json:"transaction"`
	}
	c.ok("POST", "/v2/commands/submit-and-wait-for-transaction", map[string]any{"commands": c.commands(actAs, cmds...)}, &resp)
	return resp.Transaction
}

// submitTree runs submit-and-wait-for-transaction-tree.
func (c *apiClient) submitTree(actAs []string, cmds ...any) jsTree {
	c.t.Helper()
	var resp struct {
		TransactionTree jsTree `json:"transactionTree"`
	}
	c.ok("POST", "/v2/commands/submit-and-wait-for-transaction-tree", c.commands(actAs, cmds...), &resp)
	return resp.TransactionTree
}

// refused submits a command that must fail and returns the HTTP status
// and the JsCantonError.
func (c *apiClient) refused(actAs []string, cmds ...any) (int, jsError) {
	c.t.Helper()
	status, raw := c.do("POST", "/v2/commands/submit-and-wait-for-transaction-tree", c.commands(actAs, cmds...))
	var e jsError
	if status == http.StatusOK {
		c.t.Errorf("the submission succeeded: %s", raw)
		return status, e
	}
	if err := json.Unmarshal(raw, &e); err != nil {
		c.t.Errorf("error body %s: %v", raw, err)
	}
	return status, e
}

// partyFilter is an event format for one party, all templates, verbose.
func partyFilter(party string) map[string]any {
	return map[string]any{"filtersByParty": map[string]any{party: map[string]any{}}, "verbose": true}
}

// acs returns the active contracts a party sees at the ledger end.
func (c *apiClient) acs(party string) []jsCreated {
	c.t.Helper()
	return c.acsWith(map[string]any{"activeAtOffset": c.end(), "eventFormat": partyFilter(party)})
}

func (c *apiClient) acsWith(req map[string]any) []jsCreated {
	c.t.Helper()
	var resp []struct {
		ContractEntry struct {
			JsActiveContract *struct {
				CreatedEvent jsCreated `json:"createdEvent"`
			} `json:"JsActiveContract"`
		} `json:"contractEntry"`
	}
	c.ok("POST", "/v2/state/active-contracts", req, &resp)
	var out []jsCreated
	for _, r := range resp {
		if r.ContractEntry.JsActiveContract != nil {
			out = append(out, r.ContractEntry.JsActiveContract.CreatedEvent)
		}
	}
	return out
}

// flats returns the transactions a party sees in (begin, end] from
// /v2/updates/flats.
func (c *apiClient) flats(party string, begin, end int64) []jsTransaction {
	c.t.Helper()
	var resp []struct {
		Update struct {
			Transaction *struct {
				Value jsTransaction `json:"value"`
			} `json:"Transaction"`
		} `json:"update"`
	}
	c.ok("POST", "/v2/updates/flats", map[string]any{"beginExclusive": begin, "endInclusive": end, "filter": partyFilter(party), "verbose": true}, &resp)
	var out []jsTransaction
	for _, r := range resp {
		if r.Update.Transaction != nil {
			out = append(out, r.Update.Transaction.Value)
		}
	}
	return out
}

// trees returns the transaction trees a party sees in (begin, end] from
// /v2/updates/trees.
func (c *apiClient) trees(party string, begin, end int64) []jsTree {
	c.t.Helper()
	var resp []struct {
		Update struct {
			TransactionTree *struct {
				Value jsTree `json:"value"`
			} `json:"TransactionTree"`
		} `json:"update"`
	}
	c.ok("POST", "/v2/updates/trees", map[string]any{"beginExclusive": begin, "endInclusive": end, "filter": partyFilter(party), "verbose": true}, &resp)
	var out []jsTree
	for _, r := range resp {
		if r.Update.TransactionTree != nil {
			out = append(out, r.Update.TransactionTree.Value)
		}
	}
	return out
}

// updateByID reads one transaction with /v2/updates/update-by-id in the
// given shape (TRANSACTION_SHAPE_ACS_DELTA or _LEDGER_EFFECTS).
func (c *apiClient) updateByID(id, party, shape string) jsTransaction {
	c.t.Helper()
	var resp struct {
		Update struct {
			Transaction *struct {
				Value jsTransaction `json:"value"`
			} `json:"Transaction"`
		} `json:"update"`
	}
	c.ok("POST", "/v2/updates/update-by-id", map[string]any{"updateId": id, "updateFormat": map[string]any{
		"includeTransactions": map[string]any{"transactionShape": shape, "eventFormat": partyFilter(party)}}}, &resp)
	if resp.Update.Transaction == nil {
		c.t.Fatalf("update-by-id %s: no transaction", id)
	}
	return resp.Update.Transaction.Value
}

func createCmd(tpl string, args any) map[string]any {
	return map[string]any{"CreateCommand": map[string]any{"templateId": tpl, "createArguments": args}}
}

func exerciseCmd(tpl, cid, choice string, arg any) map[string]any {
	return map[string]any{"ExerciseCommand": map[string]any{"templateId": tpl, "contractId": cid, "choice": choice, "choiceArgument": arg}}
}

// The JSON API's shapes, as far as the tests read them.
type (
	jsCreated struct {
		Offset         int64             `json:"offset"`
		NodeID         int32             `json:"nodeId"`
		ContractID     string            `json:"contractId"`
		TemplateID     string            `json:"templateId"`
		CreateArgument any               `json:"createArgument"`
		InterfaceViews []jsInterfaceView `json:"interfaceViews"`
		WitnessParties []string          `json:"witnessParties"`
		Signatories    []string          `json:"signatories"`
		Observers      []string          `json:"observers"`
		PackageName    string            `json:"packageName"`
	}
	jsInterfaceView struct {
		InterfaceID string `json:"interfaceId"`
		ViewStatus  struct {
			Code int `json:"code"`
		} `json:"viewStatus"`
		ViewValue any `json:"viewValue"`
	}
	jsExercised struct {
		Offset               int64    `json:"offset"`
		NodeID               int32    `json:"nodeId"`
		ContractID           string   `json:"contractId"`
		TemplateID           string   `json:"templateId"`
		Choice               string   `json:"choice"`
		ChoiceArgument       any      `json:"choiceArgument"`
		ActingParties        []string `json:"actingParties"`
		Consuming            bool     `json:"consuming"`
		WitnessParties       []string `json:"witnessParties"`
		LastDescendantNodeID int32    `json:"lastDescendantNodeId"`
		ExerciseResult       any      `json:"exerciseResult"`
	}
	jsArchived struct {
		Offset         int64    `json:"offset"`
		NodeID         int32    `json:"nodeId"`
		ContractID     string   `json:"contractId"`
		TemplateID     string   `json:"templateId"`
		WitnessParties []string `json:"witnessParties"`
	}
	jsEvent struct {
		CreatedEvent   *jsCreated   `json:"CreatedEvent"`
		ArchivedEvent  *jsArchived  `json:"ArchivedEvent"`
		ExercisedEvent *jsExercised `json:"ExercisedEvent"`
	}
	jsTransaction struct {
		UpdateID  string    `json:"updateId"`
		CommandID string    `json:"commandId"`
		Offset    int64     `json:"offset"`
		Events    []jsEvent `json:"events"`
	}
	jsTree struct {
		UpdateID   string `json:"updateId"`
		Offset     int64  `json:"offset"`
		EventsByID map[string]struct {
			CreatedTreeEvent *struct {
				Value jsCreated `json:"value"`
			} `json:"CreatedTreeEvent"`
			ExercisedTreeEvent *struct {
				Value jsExercised `json:"value"`
			} `json:"ExercisedTreeEvent"`
		} `json:"eventsById"`
	}
	jsError struct {
		Code          string            `json:"code"`
		Cause         string            `json:"cause"`
		Context       map[string]string `json:"context"`
		ErrorCategory int               `json:"errorCategory"`
	}
)

// event is what the tests compare of an event: its kind, node, template
// (Module:Entity), choice, arguments and result, parties and subtree.
type event struct {
	Kind        string // created, archived or exercised
	Node        int32
	Template    string
	Choice      string
	Arg, Result any
	Contract    string // the contract id (archived and exercised events)
	Signatories []string
	Observers   []string
	Acting      []string
	Witnesses   []string
	Consuming   bool
	LastDesc    int32
}

// eventOpts compare events: party lists are sets.
var eventOpts = cmp.Options{cmpopts.SortSlices(func(a, b string) bool { return a < b }), cmpopts.EquateEmpty()}

// entity is the Module:Entity part of a template id.
func entity(id string) string {
	if i := strings.IndexByte(id, ':'); i >= 0 {
		return id[i+1:]
	}
	return id
}

func createdEvent(c *jsCreated) event {
	return event{Kind: "created", Node: c.NodeID, Template: entity(c.TemplateID), Arg: c.CreateArgument,
		Signatories: c.Signatories, Observers: c.Observers, Witnesses: c.WitnessParties}
}

func (tx jsTransaction) events() []event {
	var out []event
	for _, e := range tx.Events {
		switch {
		case e.CreatedEvent != nil:
			out = append(out, createdEvent(e.CreatedEvent))
		case e.ArchivedEvent != nil:
			a := e.ArchivedEvent
			out = append(out, event{Kind: "archived", Node: a.NodeID, Template: entity(a.TemplateID), Contract: a.ContractID, Witnesses: a.WitnessParties})
		case e.ExercisedEvent != nil:
			out = append(out, exercisedEvent(e.ExercisedEvent))
		}
	}
	return out
}

func exercisedEvent(x *jsExercised) event {
	return event{Kind: "exercised", Node: x.NodeID, Template: entity(x.TemplateID), Choice: x.Choice, Arg: x.ChoiceArgument,
		Result: x.ExerciseResult, Contract: x.ContractID, Acting: x.ActingParties, Witnesses: x.WitnessParties,
		Consuming: x.Consuming, LastDesc: x.LastDescendantNodeID}
}

// events returns the tree's events in node order.
func (tr jsTree) events() []event {
	var out []event
	for _, e := range tr.EventsByID {
		switch {
		case e.CreatedTreeEvent != nil:
			out = append(out, createdEvent(&e.CreatedTreeEvent.Value))
		case e.ExercisedTreeEvent != nil:
			out = append(out, exercisedEvent(&e.ExercisedTreeEvent.Value))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Node < out[j].Node })
	return out
}

// createdID is the contract id of the tree's created event at node n.
func (tr jsTree) createdID(t testing.TB, n int32) string {
	t.Helper()
	e, ok := tr.EventsByID[fmt.Sprint(n)]
	if !ok || e.CreatedTreeEvent == nil {
		t.Fatalf("tree %s: no created event at node %d", tr.UpdateID, n)
	}
	return e.CreatedTreeEvent.Value.ContractID
}

// without returns the parties of ps that are not in minus (a set).
func without(ps []string, minus ...string) []string {
	out := []string{}
	for _, p := range ps {
		if !slices.Contains(minus, p) && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// unionOf is the set union of party lists.
func unionOf(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return without(out)
}

// wantDamlError checks a refused submission: status, code, category and,
// for DAML_FAILURE, the error_id and a fragment of the cause.
func wantDamlError(t *testing.T, what string, status int, e jsError, wantStatus int, code string, category int, errorID, cause string) {
	t.Helper()
	if status != wantStatus || e.Code != code || e.ErrorCategory != category {
		t.Errorf("%s: %d %s (category %d, cause %q), want %d %s (category %d)", what, status, e.Code, e.ErrorCategory, e.Cause, wantStatus, code, category)
		return
	}
	if errorID != "" && e.Context["error_id"] != errorID {
		t.Errorf("%s: error_id %q, want %q (context %v)", what, e.Context["error_id"], errorID, e.Context)
	}
	if !strings.Contains(e.Cause, cause) {
		t.Errorf("%s: cause %q does not contain %q", what, e.Cause, cause)
	}
}

// TestAcceptPing: alice's Ping is seen by bob (ACS, flat and tree
// updates, update-by-id) with bob as observer and witness; alice's
// Respond is refused with DAML_AUTHORIZATION_ERROR and changes nothing;
// bob's Respond archives it with one consuming exercise acted by bob with
// result {}.
func TestAcceptPing(t *testing.T) {
	t.Parallel()
	dar := acceptDARFile(t, pingDAR)
	c := newAPIClient(t)
	c.upload(dar)
	pingT := ledgertest.MainPackageID(t, dar) + ":Canton.Internal.Ping:Ping"
	alice, bob := c.party("alice"), c.party("bob")
	start := c.end()

	args := map[string]any{"id": "ping-1", "initiator": alice, "responder": bob}
	created := c.submitTx([]string{alice}, createCmd(pingT, args))
	wantCreate := func(witness string) []event {
		return []event{{Kind: "created", Node: 0, Template: "Canton.Internal.Ping:Ping", Arg: args,
			Signatories: []string{alice}, Observers: []string{bob}, Witnesses: []string{witness}}}
	}
	if diff := cmp.Diff(wantCreate(alice), created.events(), eventOpts); diff != "" {
		t.Errorf("alice's create (-want +got):\n%s", diff)
	}
	if len(created.Events) != 1 {
		t.Fatalf("create: %d events", len(created.Events))
	}
	cid := created.Events[0].CreatedEvent.ContractID

	// bob sees it everywhere, as an observer and a witness.
	acsEvents := func(party string) []event {
		var out []event
		for _, e := range c.acs(party) {
			out = append(out, createdEvent(&e))
		}
		return out
	}
	if diff := cmp.Diff(wantCreate(bob), acsEvents(bob), eventOpts); diff != "" {
		t.Errorf("bob's ACS (-want +got):\n%s", diff)
	}
	end := c.end()
	flats := c.flats(bob, start, end)
	if len(flats) != 1 || flats[0].UpdateID != created.UpdateID {
		t.Fatalf("bob's flat updates: %+v, want the create %s", flats, created.UpdateID)
	}
	if diff := cmp.Diff(wantCreate(bob), flats[0].events(), eventOpts); diff != "" {
		t.Errorf("bob's flat update (-want +got):\n%s", diff)
	}
	trees := c.trees(bob, start, end)
	if len(trees) != 1 || trees[0].UpdateID != created.UpdateID {
		t.Fatalf("bob's tree updates: %+v, want the create %s", trees, created.UpdateID)
	}
	if diff := cmp.Diff(wantCreate(bob), trees[0].events(), eventOpts); diff != "" {
		t.Errorf("bob's tree update (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantCreate(bob), c.updateByID(created.UpdateID, bob, "TRANSACTION_SHAPE_LEDGER_EFFECTS").events(), eventOpts); diff != "" {
		t.Errorf("bob's update-by-id (-want +got):\n%s", diff)
	}

	// alice may not respond: nothing changes.
	status, e := c.refused([]string{alice}, exerciseCmd(pingT, cid, "Respond", map[string]any{}))
	wantDamlError(t, "alice's Respond", status, e, http.StatusBadRequest, "DAML_AUTHORIZATION_ERROR", 8, "", "")
	if got := c.end(); got != end {
		t.Errorf("ledger end %d after alice's refused Respond, want %d", got, end)
	}
	if diff := cmp.Diff(wantCreate(bob), acsEvents(bob), eventOpts); diff != "" {
		t.Errorf("bob's ACS after alice's refused Respond (-want +got):\n%s", diff)
	}

	// bob's Respond archives it.
	tree := c.submitTree([]string{bob}, exerciseCmd(pingT, cid, "Respond", map[string]any{}))
	wantRespond := []event{{Kind: "exercised", Node: 0, Template: "Canton.Internal.Ping:Ping", Choice: "Respond", Arg: map[string]any{},
		Result: map[string]any{}, Contract: cid, Acting: []string{bob}, Witnesses: []string{bob}, Consuming: true, LastDesc: 0}}
	if diff := cmp.Diff(wantRespond, tree.events(), eventOpts); diff != "" {
		t.Errorf("bob's Respond tree (-want +got):\n%s", diff)
	}
	for _, p := range []string{alice, bob} {
		if got := c.acs(p); len(got) != 0 {
			t.Errorf("%s's ACS after Respond: %d contracts, want none", p, len(got))
		}
	}
	flats = c.flats(alice, end, c.end())
	wantArchive := []event{{Kind: "archived", Node: 0, Template: "Canton.Internal.Ping:Ping", Contract: cid, Witnesses: []string{alice}}}
	if len(flats) != 1 {
		t.Fatalf("alice's flat updates after Respond: %d, want 1", len(flats))
	}
	if diff := cmp.Diff(wantArchive, flats[0].events(), eventOpts); diff != "" {
		t.Errorf("alice's view of the Respond (-want +got):\n%s", diff)
	}
}

// bongConfig is one run of Canton's Bong workflow.
type bongConfig struct {
	name       string
	initiator  string
	candidates []string
	responders []string
	maxLevel   int
}

// winner is the responder that processes the Explode or Merge at path.
func (cfg bongConfig) winner(path string) string {
	return cfg.responders[len(path)%len(cfg.responders)]
}

// bongRun plays a Bong workflow over HTTP and checks every step against
// what Canton/Internal/Bong.daml implies.
type bongRun struct {
	t          *testing.T
	c          *apiClient
	pkg        string
	cfg        bongConfig
	id         string
	validators []string // accepted so far, most recent first (validator :: validators)
}

func (r *bongRun) tpl(name string) string { return r.pkg + ":Canton.Internal.Bong:" + name }

func (r *bongRun) sigs() []string { return unionOf([]string{r.cfg.initiator}, r.validators) }

func (r *bongRun) parties() []string {
	return unionOf([]string{r.cfg.initiator}, r.cfg.candidates, r.cfg.responders)
}

func list(ps []string) []any {
	out := make([]any, len(ps))
	for i, p := range ps {
		out[i] = p
	}
	return out
}

func (r *bongRun) proposalArg(candidates []string) map[string]any {
	return map[string]any{"id": r.id, "initiator": r.cfg.initiator, "candidates": list(candidates), "validators": list(r.validators),
		"responders": list(r.cfg.responders), "maxLevel": fmt.Sprint(r.cfg.maxLevel), "timeout": bongTimeout}
}

func (r *bongRun) explodeArg(path string) map[string]any {
	return map[string]any{"id": r.id, "initiator": r.cfg.initiator, "validators": list(r.validators), "responders": list(r.cfg.responders),
		"path": path, "maxLevel": fmt.Sprint(r.cfg.maxLevel), "timeout": bongTimeout}
}

// mcArg is the argument of a Merge or a Collapse.
func (r *bongRun) mcArg(path string) map[string]any {
	return map[string]any{"id": r.id, "initiator": r.cfg.initiator, "validators": list(r.validators), "responders": list(r.cfg.responders),
		"path": path, "timeout": bongTimeout}
}

func (r *bongRun) bongArg(winner string) map[string]any {
	return map[string]any{"id": r.id, "initiator": r.cfg.initiator, "validators": list(r.validators), "responder": winner,
		"observers": list(r.cfg.responders), "timeout": bongTimeout}
}

func left(v any) any         { return map[string]any{"tag": "Left", "value": v} }
func right(v any) any        { return map[string]any{"tag": "Right", "value": v} }
func pair(a, b any) any      { return map[string]any{"_1": a, "_2": b} }
func winnerArg(w string) any { return map[string]any{"winner": w} }

// created is the created event of an Explode, Merge or Collapse (or of
// the template given) seen by witness.
func (r *bongRun) created(node int32, tpl string, arg any, witness string) event {
	return event{Kind: "created", Node: node, Template: "Canton.Internal.Bong:" + tpl, Arg: arg, Signatories: r.sigs(),
		Observers: without(r.cfg.responders, r.sigs()...), Witnesses: []string{witness}}
}

func (r *bongRun) exercised(node, last int32, tpl, cid, choice, actor string, arg, result any) event {
	return event{Kind: "exercised", Node: node, Template: "Canton.Internal.Bong:" + tpl, Choice: choice, Arg: arg, Result: result,
		Contract: cid, Acting: []string{actor}, Witnesses: []string{actor}, Consuming: true, LastDesc: last}
}

// step submits one exercise as actor, checks its tree against
// want(tree) and that the ledger end moved by one.
func (r *bongRun) step(what, actor string, cmd any, want func(tr jsTree) []event) jsTree {
	r.t.Helper()
	before := r.c.end()
	tr := r.c.submitTree([]string{actor}, cmd)
	if diff := cmp.Diff(want(tr), tr.events(), eventOpts); diff != "" {
		r.t.Fatalf("%s: tree (-want +got):\n%s", what, diff)
	}
	if tr.Offset != before+1 {
		r.t.Errorf("%s: offset %d, want %d", what, tr.Offset, before+1)
	}
	return tr
}

// refusedUnchanged submits a command that must fail with DAML_FAILURE
// and errorID, and checks that nothing changed.
func (r *bongRun) refusedUnchanged(what, actor string, cmd any, errorID, cause string) {
	r.t.Helper()
	before := r.c.end()
	acs := r.c.acs(actor)
	status, e := r.c.refused([]string{actor}, cmd)
	wantDamlError(r.t, what, status, e, http.StatusBadRequest, "DAML_FAILURE", 9, errorID, cause)
	if got := r.c.end(); got != before {
		r.t.Errorf("%s: ledger end %d, want %d (unchanged)", what, got, before)
	}
	if diff := cmp.Diff(acs, r.c.acs(actor)); diff != "" {
		r.t.Errorf("%s: %s's ACS changed (-before +after):\n%s", what, actor, diff)
	}
}

const (
	assertionFailed    = "UNHANDLED_EXCEPTION/DA.Exception.AssertionFailed:AssertionFailed"
	preconditionFailed = "UNHANDLED_EXCEPTION/DA.Exception.PreconditionFailed:PreconditionFailed"
)

// run plays the workflow: the proposal, an Accept by each candidate,
// ProcessExplode breadth first down to maxLevel, ProcessMerge deepest
// first, and checks the final ACS and the initiator's updates.
func (r *bongRun) run() {
	t, c, cfg := r.t, r.c, r.cfg
	start := c.end()

	// The proposal, by the initiator.
	prop := c.submitTx([]string{cfg.initiator}, createCmd(r.tpl("BongProposal"), r.proposalArg(cfg.candidates)))
	want := []event{{Kind: "created", Node: 0, Template: "Canton.Internal.Bong:BongProposal", Arg: r.proposalArg(cfg.candidates),
		Signatories: r.sigs(), Observers: without(unionOf(cfg.candidates, cfg.responders), r.sigs()...), Witnesses: []string{cfg.initiator}}}
	if diff := cmp.Diff(want, prop.events(), eventOpts); diff != "" {
		t.Fatalf("BongProposal (-want +got):\n%s", diff)
	}
	cid := prop.Events[0].CreatedEvent.ContractID

	// A responder that is not a candidate may not accept: assert fails.
	if outsider := without(cfg.responders, cfg.candidates...); len(outsider) > 0 {
		r.refusedUnchanged("Accept by a non-candidate", outsider[0],
			exerciseCmd(r.tpl("BongProposal"), cid, "Accept", map[string]any{"validator": outsider[0]}), assertionFailed, "Assertion failed")
	}

	// Accept by each candidate; the last one creates the Explode.
	var explode string
	for i, v := range cfg.candidates {
		target, rest, last := cid, cfg.candidates[i+1:], i == len(cfg.candidates)-1
		r.validators = append([]string{v}, r.validators...)
		tr := r.step("Accept by "+v, v, exerciseCmd(r.tpl("BongProposal"), target, "Accept", map[string]any{"validator": v}), func(tr jsTree) []event {
			ex := event{Kind: "exercised", Node: 0, Template: "Canton.Internal.Bong:BongProposal", Choice: "Accept",
				Arg: map[string]any{"validator": v}, Contract: target, Acting: []string{v}, Witnesses: []string{v}, Consuming: true, LastDesc: 1}
			if last {
				ex.Result = right(tr.createdID(t, 1))
				return []event{ex, r.created(1, "Explode", r.explodeArg(""), v)}
			}
			ex.Result = left(tr.createdID(t, 1))
			return []event{ex, {Kind: "created", Node: 1, Template: "Canton.Internal.Bong:BongProposal", Arg: r.proposalArg(rest),
				Signatories: r.sigs(), Observers: without(unionOf(rest, cfg.responders), r.sigs()...), Witnesses: []string{v}}}
		})
		if last {
			explode = tr.createdID(t, 1)
		} else {
			cid = tr.createdID(t, 1)
		}
	}

	// ProcessExplode, breadth first.
	merges := map[string]string{}
	collapses := map[string][]string{}
	type work struct{ cid, path string }
	queue := []work{{explode, ""}}
	for len(queue) > 0 {
		w := queue[0]
		queue = queue[1:]
		winner := cfg.winner(w.path)
		deeper := len(w.path)+1 < cfg.maxLevel
		tr := r.step("ProcessExplode "+w.path, winner, exerciseCmd(r.tpl("Explode"), w.cid, "ProcessExplode", winnerArg(winner)), func(tr jsTree) []event {
			ids := []string{tr.createdID(t, 1), tr.createdID(t, 2), tr.createdID(t, 3)}
			out := []event{{}, r.created(1, "Merge", r.mcArg(w.path), winner)}
			var result any
			if deeper {
				out = append(out, r.created(2, "Explode", r.explodeArg(w.path+"L"), winner), r.created(3, "Explode", r.explodeArg(w.path+"R"), winner))
				result = pair(ids[0], left(pair(ids[1], ids[2])))
			} else {
				out = append(out, r.created(2, "Collapse", r.mcArg(w.path), winner), r.created(3, "Collapse", r.mcArg(w.path), winner))
				result = pair(ids[0], right(pair(ids[1], ids[2])))
			}
			out[0] = r.exercised(0, 3, "Explode", w.cid, "ProcessExplode", winner, winnerArg(winner), result)
			return out
		})
		merges[w.path] = tr.createdID(t, 1)
		l, rt := tr.createdID(t, 2), tr.createdID(t, 3)
		if deeper {
			queue = append(queue, work{l, w.path + "L"}, work{rt, w.path + "R"})
		} else {
			collapses[w.path] = []string{l, rt}
		}
	}
	if want := 1<<cfg.maxLevel - 1; len(merges) != want {
		t.Fatalf("%d merges, want %d", len(merges), want)
	}

	// The root Merge refuses the Collapses of another path: assert fails.
	if cfg.maxLevel > 1 {
		lr := collapses[strings.Repeat("L", cfg.maxLevel-1)]
		w := cfg.winner("")
		r.refusedUnchanged("ProcessMerge with the Collapses of another path", w, exerciseCmd(r.tpl("Merge"), merges[""], "ProcessMerge",
			map[string]any{"winner": w, "leftId": lr[0], "rightId": lr[1]}), assertionFailed, "Assertion failed")
	}

	// ProcessMerge, deepest first, L before R.
	paths := make([]string, 0, len(merges))
	for p := range merges {
		paths = append(paths, p)
	}
	sort.Slice(paths, func(i, j int) bool {
		if len(paths[i]) != len(paths[j]) {
			return len(paths[i]) > len(paths[j])
		}
		return paths[i] < paths[j]
	})
	var final jsTree
	var finalWinner string
	for _, p := range paths {
		winner := cfg.winner(p)
		lr := collapses[p]
		if len(lr) != 2 {
			t.Fatalf("path %q: collapses %v", p, lr)
		}
		arg := map[string]any{"winner": winner, "leftId": lr[0], "rightId": lr[1]}
		tr := r.step("ProcessMerge "+p, winner, exerciseCmd(r.tpl("Merge"), merges[p], "ProcessMerge", arg), func(tr jsTree) []event {
			// Nodes 1 and 2 are the fetches of the Collapses: no events.
			out := []event{{},
				r.exercised(3, 3, "Collapse", lr[0], "ProcessCollapse", winner, winnerArg(winner), map[string]any{}),
				r.exercised(4, 4, "Collapse", lr[1], "ProcessCollapse", winner, winnerArg(winner), map[string]any{})}
			var result any
			if p == "" {
				sigs := []string{cfg.initiator, winner}
				out = append(out, event{Kind: "created", Node: 5, Template: "Canton.Internal.Bong:Bong", Arg: r.bongArg(winner),
					Signatories: sigs, Observers: without(unionOf(cfg.responders, r.validators), sigs...), Witnesses: []string{winner}})
				result = left(tr.createdID(t, 5))
			} else {
				out = append(out, r.created(5, "Collapse", r.mcArg(p[:len(p)-1]), winner))
				result = right(tr.createdID(t, 5))
			}
			out[0] = r.exercised(0, 5, "Merge", merges[p], "ProcessMerge", winner, arg, result)
			return out
		})
		if p == "" {
			final, finalWinner = tr, winner
		} else {
			collapses[p[:len(p)-1]] = append(collapses[p[:len(p)-1]], tr.createdID(t, 5))
		}
	}

	// Every party sees the Bong, and nothing else.
	bongID := final.createdID(t, 5)
	sigs := []string{cfg.initiator, finalWinner}
	for _, p := range r.parties() {
		acs := r.c.acs(p)
		var got []event
		for _, e := range acs {
			got = append(got, createdEvent(&e))
		}
		want := []event{{Kind: "created", Node: 5, Template: "Canton.Internal.Bong:Bong", Arg: r.bongArg(finalWinner),
			Signatories: sigs, Observers: without(unionOf(cfg.responders, r.validators), sigs...), Witnesses: []string{p}}}
		if diff := cmp.Diff(want, got, eventOpts); diff != "" {
			t.Errorf("final ACS of %s (-want +got):\n%s", p, diff)
		}
		if len(acs) == 1 && acs[0].ContractID != bongID {
			t.Errorf("final ACS of %s: %s, want the Bong %s", p, acs[0].ContractID, bongID)
		}
	}

	// The initiator's flat updates replay to the same ACS; the last one
	// archives the Merge and both Collapses and creates the Bong.
	end := c.end()
	active := map[string]bool{}
	flats := c.flats(cfg.initiator, start, end)
	for _, tx := range flats {
		for _, e := range tx.Events {
			switch {
			case e.CreatedEvent != nil:
				active[e.CreatedEvent.ContractID] = true
			case e.ArchivedEvent != nil:
				if !active[e.ArchivedEvent.ContractID] {
					t.Errorf("update %s archives %s, which the initiator did not see created", tx.UpdateID, e.ArchivedEvent.ContractID)
				}
				delete(active, e.ArchivedEvent.ContractID)
			}
		}
	}
	if diff := cmp.Diff(map[string]bool{bongID: true}, active); diff != "" {
		t.Errorf("the initiator's flat updates replayed (-want +got):\n%s", diff)
	}
	if n := len(flats); n == 0 || flats[n-1].UpdateID != final.UpdateID {
		t.Fatalf("the initiator's last flat update is not the final ProcessMerge")
	}
	ini := []string{cfg.initiator}
	wantFlat := []event{
		{Kind: "archived", Node: 0, Template: "Canton.Internal.Bong:Merge", Contract: merges[""], Witnesses: ini},
		{Kind: "archived", Node: 3, Template: "Canton.Internal.Bong:Collapse", Contract: collapses[""][0], Witnesses: ini},
		{Kind: "archived", Node: 4, Template: "Canton.Internal.Bong:Collapse", Contract: collapses[""][1], Witnesses: ini},
		{Kind: "created", Node: 5, Template: "Canton.Internal.Bong:Bong", Arg: r.bongArg(finalWinner), Signatories: sigs,
			Observers: without(unionOf(cfg.responders, r.validators), sigs...), Witnesses: ini},
	}
	if diff := cmp.Diff(wantFlat, flats[len(flats)-1].events(), eventOpts); diff != "" {
		t.Errorf("the final ProcessMerge, flat, for the initiator (-want +got):\n%s", diff)
	}
	// The same transaction as a tree (updates/trees and update-by-id in
	// LEDGER_EFFECTS): the initiator is a stakeholder of every node.
	wantTree := slices.Clone(final.events())
	for i := range wantTree {
		wantTree[i].Witnesses = ini
	}
	trees := c.trees(cfg.initiator, end-1, end)
	if len(trees) != 1 {
		t.Fatalf("the initiator's trees at %d: %d", end, len(trees))
	}
	if diff := cmp.Diff(wantTree, trees[0].events(), eventOpts); diff != "" {
		t.Errorf("the final ProcessMerge, tree, for the initiator (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantTree, c.updateByID(final.UpdateID, cfg.initiator, "TRANSACTION_SHAPE_LEDGER_EFFECTS").events(), eventOpts); diff != "" {
		t.Errorf("the final ProcessMerge, update-by-id, for the initiator (-want +got):\n%s", diff)
	}
	t.Logf("%s: %d transactions", cfg.name, end-start)
}

// TestAcceptBong plays Canton's Bong workflow over HTTP for maxLevel 1
// and 2: the script of the comment at the end of Bong.daml (alice
// proposes and accepts, bob responds), and two candidates who are not the
// initiator with two responders taking turns. Each step's tree, the
// final ACS of every party and the initiator's updates are what the Daml
// code implies; assert failures are DAML_FAILURE and change nothing.
func TestAcceptBong(t *testing.T) {
	t.Parallel()
	dar := acceptDARFile(t, pingDAR)
	pkg := ledgertest.MainPackageID(t, dar)
	for i, tc := range []struct {
		name                   string
		candidates, responders []string
		maxLevel               int
	}{
		{"script/maxLevel1", []string{"alice"}, []string{"bob"}, 1},
		{"script/maxLevel2", []string{"alice"}, []string{"bob"}, 2},
		{"two-candidates/maxLevel1", []string{"bob", "charlie"}, []string{"dave", "erin"}, 1},
		{"two-candidates/maxLevel2", []string{"bob", "charlie"}, []string{"dave", "erin"}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := newAPIClient(t)
			c.upload(dar)
			p := map[string]string{}
			for _, h := range unionOf([]string{"alice"}, tc.candidates, tc.responders) {
				p[h] = c.party(h)
			}
			ids := func(hints []string) []string {
				out := make([]string, len(hints))
				for i, h := range hints {
					out[i] = p[h]
				}
				return out
			}
			cfg := bongConfig{name: tc.name, initiator: p["alice"], candidates: ids(tc.candidates), responders: ids(tc.responders), maxLevel: tc.maxLevel}
			r := &bongRun{t: t, c: c, pkg: pkg, cfg: cfg, id: fmt.Sprint("bong-", i)}
			r.run()
		})
	}
}

// TestAcceptBongFailures: a BongProposal whose ensure is false (no
// candidates, duplicate candidates) is refused with DAML_FAILURE and the
// error_id of PreconditionFailed, and nothing is written.
func TestAcceptBongFailures(t *testing.T) {
	t.Parallel()
	dar := acceptDARFile(t, pingDAR)
	c := newAPIClient(t)
	c.upload(dar)
	r := &bongRun{t: t, c: c, pkg: ledgertest.MainPackageID(t, dar), id: "bad"}
	alice, bob := c.party("alice"), c.party("bob")
	for _, tc := range []struct {
		name       string
		candidates []string
	}{
		{"no candidates", []string{}},
		{"duplicate candidates", []string{bob, bob}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r.t = t
			r.c.t = t
			r.cfg = bongConfig{initiator: alice, candidates: tc.candidates, responders: []string{bob}, maxLevel: 1}
			r.refusedUnchanged("BongProposal with "+tc.name, alice, createCmd(r.tpl("BongProposal"), r.proposalArg(tc.candidates)),
				preconditionFailed, "Template precondition violated")
		})
	}
}

// TestAcceptAmuletHolding creates a Splice Amulet as the DSO and its
// owner, and reads it through an InterfaceFilter on the token-standard
// Holding interface: the owner's ACS has the Amulet with its Holding view
// as the Amulet code computes it.
func TestAcceptAmuletHolding(t *testing.T) {
	t.Parallel()
	util, amulet := acceptDARFile(t, utilDAR), acceptDARFile(t, amuletDAR)
	d, err := lf.ReadDAR(amulet, lf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var holding string
	for _, p := range d.Packages {
		if p.Name == "splice-api-token-holding-v1" && p.Interface("Splice.Api.Token.HoldingV1", "Holding") != nil {
			holding = p.ID + ":Splice.Api.Token.HoldingV1:Holding"
		}
	}
	if holding == "" {
		t.Fatal("no Holding interface in the amulet DAR")
	}
	c := newAPIClient(t)
	c.upload(util)
	c.upload(amulet)
	dso, owner := c.party("dso"), c.party("alice")
	amuletT := d.Main.ID + ":Splice.Amulet:Amulet"
	args := map[string]any{"dso": dso, "owner": owner, "amount": map[string]any{
		"initialAmount": "100.0", "createdAt": map[string]any{"number": "3"}, "ratePerRound": map[string]any{"rate": "0.001"}}}

	// Both signatories must authorize: the owner alone is refused.
	status, e := c.refused([]string{owner}, createCmd(amuletT, args))
	wantDamlError(t, "Amulet created by the owner alone", status, e, http.StatusBadRequest, "DAML_AUTHORIZATION_ERROR", 8, "", "")
	// ensure: the amount must be positive.
	bad := map[string]any{"dso": dso, "owner": owner, "amount": map[string]any{
		"initialAmount": "0.0", "createdAt": map[string]any{"number": "3"}, "ratePerRound": map[string]any{"rate": "0.001"}}}
	status, e = c.refused([]string{dso, owner}, createCmd(amuletT, bad))
	wantDamlError(t, "Amulet of amount 0", status, e, http.StatusBadRequest, "DAML_FAILURE", 9, preconditionFailed, "Template precondition violated")

	tx := c.submitTx([]string{dso, owner}, createCmd(amuletT, args))
	wantArg := map[string]any{"dso": dso, "owner": owner, "amount": map[string]any{
		"initialAmount": "100.0000000000", "createdAt": map[string]any{"number": "3"}, "ratePerRound": map[string]any{"rate": "0.0010000000"}}}
	want := []event{{Kind: "created", Node: 0, Template: "Splice.Amulet:Amulet", Arg: wantArg, Signatories: []string{dso, owner},
		Witnesses: []string{dso, owner}}}
	if diff := cmp.Diff(want, tx.events(), eventOpts); diff != "" {
		t.Fatalf("Amulet create (-want +got):\n%s", diff)
	}

	view := map[string]any{"owner": owner, "instrumentId": map[string]any{"admin": dso, "id": "Amulet"}, "amount": "100.0000000000",
		// meta.values is a DA.Map (an LF GenMap): pairs sorted by key.
		"lock": nil, "meta": map[string]any{"values": []any{
			[]any{"splice.lfdecentralizedtrust.org/created-in-round", "Round {number = 3}"},
			[]any{"splice.lfdecentralizedtrust.org/rate-per-round", "RatePerRound {rate = 0.001}"}}}}
	acs := c.acsWith(map[string]any{"activeAtOffset": c.end(), "eventFormat": map[string]any{"filtersByParty": map[string]any{owner: map[string]any{
		"cumulative": []any{map[string]any{"identifierFilter": map[string]any{"InterfaceFilter": map[string]any{"value": map[string]any{
			"interfaceId": holding, "includeInterfaceView": true, "includeCreatedEventBlob": false}}}}}}}, "verbose": true}})
	if len(acs) != 1 {
		t.Fatalf("the owner's Holdings: %d contracts, want the Amulet", len(acs))
	}
	got := acs[0]
	if got.ContractID != tx.Events[0].CreatedEvent.ContractID || entity(got.TemplateID) != "Splice.Amulet:Amulet" {
		t.Errorf("Holding %s of %s, want the Amulet %s", got.ContractID, got.TemplateID, tx.Events[0].CreatedEvent.ContractID)
	}
	wantViews := []jsInterfaceView{{InterfaceID: holding, ViewValue: view}}
	if diff := cmp.Diff(wantViews, got.InterfaceViews); diff != "" {
		t.Errorf("the Amulet's Holding view (-want +got):\n%s", diff)
	}
}
