package ledger_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// fixture is a node with the iou package (Main:Iou) and the parties alice
// and bob, and the JSON-shaped commands the tests of this package send.
type fixture struct {
	n     *ledger.Node
	ctx   context.Context
	alice string
	bob   string
	pkg   string
}

// newFixture opens the fixture's node with opts. The package is uploaded
// on every synchronizer of opts (ledgertest.MustUploadDAR uploads on the
// default one only), so reassignment tests find it on each.
func newFixture(t *testing.T, opts ledger.Options) *fixture {
	t.Helper()
	n := ledgertest.Open(t, opts)
	ctx := context.Background()
	d, ids := lftest.DAR(lftest.IouPackage("1.0.0"))
	for _, s := range append([]string{""}, opts.Synchronizers...) {
		if len(opts.Synchronizers) > 1 && s == "" {
			continue
		}
		if err := n.UploadDAR(ctx, ledger.UploadDARRequest{DAR: d, SynchronizerID: s}); err != nil {
			t.Fatal(err)
		}
	}
	return &fixture{n: n, ctx: ctx, alice: ledgertest.MustAllocate(t, n, "alice"), bob: ledgertest.MustAllocate(t, n, "bob"), pkg: ids[0]}
}

func (f *fixture) iouArgs(owner string, amount int) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"owner": %q, "amount": "%d"}`, owner, amount))
}

func (f *fixture) create(t *testing.T, cmdID string, actAs string) jsonapi.JsCreatedEvent {
	t.Helper()
	resp, err := jsonapi.DecodeAnswer[jsonapi.SubmitAndWaitForTransactionResponse](jsonapi.New(f.n).SubmitAndWaitForTransaction(f.ctx, jsonapi.SubmitAndWaitForTransactionRequest{Commands: jsonapi.JsCommands{
		CommandID: cmdID, ActAs: []string{actAs}, UserID: "u1",
		Commands: []jsonapi.JsCommand{{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: f.pkg + ":Main:Iou", CreateArguments: f.iouArgs(actAs, 10)}}},
	}}))
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	if len(resp.Transaction.Events) != 1 || resp.Transaction.Events[0].CreatedEvent == nil {
		t.Fatalf("create transaction events: %+v", resp.Transaction.Events)
	}
	return *resp.Transaction.Events[0].CreatedEvent
}

func (f *fixture) exercise(cmdID, actAs, cid, choice string, arg string) (jsonapi.SubmitAndWaitResponse, error) {
	return jsonapi.New(f.n).SubmitAndWait(f.ctx, jsonapi.JsCommands{CommandID: cmdID, ActAs: []string{actAs}, UserID: "u1",
		Commands: []jsonapi.JsCommand{{ExerciseCommand: &jsonapi.JsExerciseCommand{TemplateID: f.pkg + ":Main:Iou", ContractID: cid,
			Choice: choice, ChoiceArgument: json.RawMessage(arg)}}}})
}

// cidPattern is a committed V1 contract id: 00, the discriminator, and
// the suffix ca12 with the unicum as a multihash (1220 + 32 bytes).
var cidPattern = regexp.MustCompile(`^00[0-9a-f]{64}ca121220[0-9a-f]{64}$`)

func TestCreateAndExercise(t *testing.T) {
	t.Parallel()
	f := newFixture(t, ledger.Options{})
	ev := f.create(t, "c1", f.alice)
	if !cidPattern.MatchString(ev.ContractID) {
		t.Errorf("contract id %q is not 00<64 hex>ca121220<64 hex>", ev.ContractID)
	}
	if ev.TemplateID != f.pkg+":Main:Iou" || ev.PackageName != "iou" || ev.RepresentativePackageID != f.pkg || !ev.ACSDelta {
		t.Errorf("created event: %+v", ev)
	}
	if diff := cmp.Diff([]string{f.alice}, ev.Signatories); diff != "" {
		t.Errorf("signatories (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{f.alice}, ev.WitnessParties); diff != "" {
		t.Errorf("witnesses (-want +got):\n%s", diff)
	}
	if len(ev.Observers) != 0 || ev.Offset != 3 || ev.NodeID != 0 || ev.CreatedAt == "" {
		t.Errorf("created event: %+v", ev)
	}

	// The package-name form resolves to the newest vetted version.
	if _, err := jsonapi.New(f.n).SubmitAndWait(f.ctx, jsonapi.JsCommands{CommandID: "c2", ActAs: []string{f.alice}, UserID: "u1",
		Commands: []jsonapi.JsCommand{{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: "#iou:Main:Iou", CreateArguments: f.iouArgs(f.alice, 1)}}}}); err != nil {
		t.Fatalf("#iou create: %v", err)
	}

	// Non-consuming (the contract record stays as it is), then consuming,
	// then gone.
	contractKey := "c/" + ev.ContractID
	record := ledger.StoreDumpForTest(t, f.n)[contractKey]
	if _, err := f.exercise("x1", f.alice, ev.ContractID, "Peek", `{}`); err != nil {
		t.Fatalf("Peek: %v", err)
	}
	if after := ledger.StoreDumpForTest(t, f.n)[contractKey]; after != record || record == "" {
		t.Errorf("a non-consuming exercise changed the contract record:\n%s\n%s", record, after)
	}
	before, _ := f.n.LedgerEnd(f.ctx)
	// bob is no stakeholder: he cannot see the contract at all.
	if _, err := f.exercise("x2", f.bob, ev.ContractID, "Transfer", fmt.Sprintf(`{"newOwner": %q}`, f.bob)); !errors.Is(err, apierr.ContractNotFound) {
		t.Fatalf("a non-stakeholder exercises: %v", err)
	}
	resp, err := f.exercise("x3", f.alice, ev.ContractID, "Transfer", fmt.Sprintf(`{"newOwner": %q}`, f.bob))
	if err != nil {
		t.Fatalf("Transfer: %v", err)
	}
	if resp.CompletionOffset != before+1 {
		t.Errorf("completion offset %d after end %d", resp.CompletionOffset, before)
	}
	end, _ := f.n.LedgerEnd(f.ctx)
	if _, err := f.exercise("x4", f.alice, ev.ContractID, "Peek", `{}`); !errors.Is(err, apierr.ContractNotFound) {
		t.Fatalf("exercise on an archived contract: %v", err)
	}
	if after, _ := f.n.LedgerEnd(f.ctx); after != end {
		t.Errorf("a rejected command moved the ledger end from %d to %d", end, after)
	}

	// The transfer as ledger effects (the tree) and as an ACS delta.
	effects := func(parties ...string) ledger.ReadFormat {
		rf := ledger.ReadAs(parties...)
		rf.Shape = ledger.LedgerEffects
		return rf
	}
	tree, err := f.n.Transaction(f.ctx, resp.UpdateID, effects(f.alice))
	if err != nil {
		t.Fatal(err)
	}
	if len(tree.Events) == 0 {
		t.Fatalf("tree: no events")
	}
	ex, _ := tree.Events[0].(*update.ExercisedEvent)
	if ex == nil || ex.NodeID != 0 || ex.Choice != "Transfer" || !ex.Consuming || string(ex.ContractID) != ev.ContractID ||
		!cmp.Equal(ex.Result, value.Value(value.Unit{})) {
		t.Fatalf("tree: %+v", tree.Events)
	}
	if _, err := f.n.Transaction(f.ctx, resp.UpdateID, effects(f.bob)); !errors.Is(err, apierr.UpdateNotFound) {
		t.Errorf("tree for a party that sees nothing: %v", err)
	}
	flat, err := f.n.Transaction(f.ctx, resp.UpdateID, ledger.ReadAs(f.alice))
	if err != nil || len(flat.Events) != 1 {
		t.Fatalf("ACS delta of the transfer: %+v, %v", flat, err)
	}
	if ar, ok := flat.Events[0].(*update.ArchivedEvent); !ok || string(ar.ContractID) != ev.ContractID {
		t.Fatalf("ACS delta of the transfer: %+v", flat.Events)
	}
	// Every template has an Archive choice.
	ev2 := f.create(t, "c3", f.alice)
	if _, err := f.exercise("x5", f.alice, ev2.ContractID, "Archive", `{}`); err != nil {
		t.Errorf("Archive: %v", err)
	}
}

func TestCommandRejectionsLeaveNoTrace(t *testing.T) {
	t.Parallel()
	f := newFixture(t, ledger.Options{})
	ev := f.create(t, "c1", f.alice)
	cmd := func(c jsonapi.JsCommand) jsonapi.JsCommands {
		return jsonapi.JsCommands{CommandID: "r", ActAs: []string{f.alice}, UserID: "u1", Commands: []jsonapi.JsCommand{c}}
	}
	create := func(tid string) jsonapi.JsCommand {
		return jsonapi.JsCommand{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: tid, CreateArguments: f.iouArgs(f.alice, 1)}}
	}
	for _, tc := range []struct {
		name string
		ctx  context.Context
		c    jsonapi.JsCommands
		code apierr.Code
	}{
		{"unknown package", f.ctx, cmd(create("00ff:Main:Iou")), apierr.PackageNotFound},
		{"unknown template", f.ctx, cmd(create(f.pkg + ":Main:Nope")), apierr.TemplatesOrInterfacesNotFound},
		{"unknown package name", f.ctx, cmd(create("#nope:Main:Iou")), apierr.PackageNamesNotFound},
		{"malformed template id", f.ctx, cmd(create("Main:Iou")), apierr.InvalidArgument},
		{"template id with an empty module", f.ctx, cmd(create(f.pkg + "::Iou")), apierr.InvalidArgument},
		{"template id with a bad module name", f.ctx, cmd(create(f.pkg + ":Bad Module:Iou")), apierr.InvalidField},
		{"template id with a bad package id", f.ctx, cmd(create(strings.Repeat("a", 65) + ":Main:Iou")), apierr.InvalidField},
		{"template id with a bad package name", f.ctx, cmd(create("#a.b:Main:Iou")), apierr.InvalidField},
		{"uppercase contract id", f.ctx, cmd(jsonapi.JsCommand{ExerciseCommand: &jsonapi.JsExerciseCommand{TemplateID: f.pkg + ":Main:Iou",
			ContractID: strings.ToUpper(ev.ContractID), Choice: "Peek", ChoiceArgument: json.RawMessage(`{}`)}}), apierr.InvalidArgument},
		{"unknown contract", f.ctx, cmd(jsonapi.JsCommand{ExerciseCommand: &jsonapi.JsExerciseCommand{TemplateID: f.pkg + ":Main:Iou",
			ContractID: "00" + ev.ContractID[2:66] + "ca12" + ev.ContractID[:64], Choice: "Peek", ChoiceArgument: json.RawMessage(`{}`)}}), apierr.ContractNotFound},
		{"unknown choice", f.ctx, cmd(jsonapi.JsCommand{ExerciseCommand: &jsonapi.JsExerciseCommand{TemplateID: f.pkg + ":Main:Iou",
			ContractID: ev.ContractID, Choice: "Nope", ChoiceArgument: json.RawMessage(`{}`)}}), apierr.CommandPreprocessingFailed},
		{"by key on a template without a key", f.ctx, cmd(jsonapi.JsCommand{ExerciseByKeyCommand: &jsonapi.JsExerciseByKeyCommand{TemplateID: f.pkg + ":Main:Iou"}}), apierr.CommandPreprocessingFailed},
		{"no act as", f.ctx, jsonapi.JsCommands{CommandID: "r", UserID: "u1", Commands: []jsonapi.JsCommand{create(f.pkg + ":Main:Iou")}}, apierr.MissingField},
		{"no command id", f.ctx, jsonapi.JsCommands{ActAs: []string{f.alice}, UserID: "u1", Commands: []jsonapi.JsCommand{create(f.pkg + ":Main:Iou")}}, apierr.MissingField},
		{"no right to act", ledger.WithPrincipal(f.ctx, identity.Principal{UserID: "u1",
			Rights: []identity.Right{{Kind: identity.RightCanReadAs, Party: f.alice}}}), cmd(create(f.pkg + ":Main:Iou")), apierr.PermissionDenied},
		{"duplicate", f.ctx, jsonapi.JsCommands{CommandID: "c1", ActAs: []string{f.alice}, UserID: "u1", Commands: []jsonapi.JsCommand{create(f.pkg + ":Main:Iou")}}, apierr.DuplicateCommand},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := ledger.StoreDumpForTest(t, f.n)
			if _, err := jsonapi.New(f.n).SubmitAndWait(tc.ctx, tc.c); !errors.Is(err, tc.code) {
				t.Fatalf("err = %v, want %s", err, tc.code.Name)
			}
			if diff := cmp.Diff(before, ledger.StoreDumpForTest(t, f.n)); diff != "" {
				t.Fatalf("state changed:\n%s", diff)
			}
		})
	}
	// Deduplication is per (user, actAs, command id), and a duration of 0
	// lets the same command through again.
	other := jsonapi.JsCommands{CommandID: "c1", ActAs: []string{f.alice}, UserID: "u2", Commands: []jsonapi.JsCommand{create(f.pkg + ":Main:Iou")}}
	if _, err := jsonapi.New(f.n).SubmitAndWait(f.ctx, other); err != nil {
		t.Errorf("same command id, another user: %v", err)
	}
	other.DeduplicationPeriod = &jsonapi.DeduplicationPeriod{DeduplicationDuration: &jsonapi.Wrapped[jsonapi.Duration]{}}
	if _, err := jsonapi.New(f.n).SubmitAndWait(f.ctx, other); err != nil {
		t.Errorf("zero deduplication duration: %v", err)
	}
	// The user id comes from the caller when omitted.
	user := ledger.WithPrincipal(f.ctx, identity.Principal{UserID: "u3", Rights: []identity.Right{{Kind: identity.RightCanActAs, Party: f.alice}}})
	if _, err := jsonapi.New(f.n).SubmitAndWait(user, jsonapi.JsCommands{CommandID: "c9", ActAs: []string{f.alice}, Commands: []jsonapi.JsCommand{create(f.pkg + ":Main:Iou")}}); err != nil {
		t.Errorf("user id from the token: %v", err)
	}
}

func TestReassignments(t *testing.T) {
	t.Parallel()
	syncs := []string{"s1::1220aa", "s2::1220bb"}
	f := newFixture(t, ledger.Options{Synchronizers: syncs})
	ev := f.create(t, "c1", f.alice)
	asAlice := ledger.ReassignmentEvents(ledger.ReadAs(f.alice))
	unassign := func(cid, src, dst, by string) (*ledger.ReassignmentCommitted, error) {
		return f.n.Reassign(f.ctx, ledger.ReassignCommands{CommandID: "u-" + cid[:8] + by[:3], Submitter: by,
			Commands: []ledger.ReassignCommand{ledger.UnassignContract{ContractID: value.ContractID(cid), Source: src, Target: dst}}}, asAlice)
	}
	assign := func(rid, src, dst string) (*ledger.ReassignmentCommitted, error) {
		return f.n.Reassign(f.ctx, ledger.ReassignCommands{CommandID: "a-" + rid[:8], Submitter: f.alice,
			Commands: []ledger.ReassignCommand{ledger.AssignContract{ReassignmentID: rid, Source: src, Target: dst}}}, asAlice)
	}
	for _, tc := range []struct {
		name          string
		cid, src, dst string
		by            string
		code          apierr.Code
	}{
		{"same synchronizer", ev.ContractID, syncs[0], syncs[0], f.alice, apierr.InvalidArgument},
		{"wrong source", ev.ContractID, syncs[1], syncs[0], f.alice, apierr.ContractNotActive},
		{"not a stakeholder", ev.ContractID, syncs[0], syncs[1], f.bob, apierr.DamlAuthorizationError},
		{"unknown synchronizer", ev.ContractID, syncs[0], "s3::1220cc", f.alice, apierr.InvalidField},
	} {
		before := ledger.StoreDumpForTest(t, f.n)
		if _, err := unassign(tc.cid, tc.src, tc.dst, tc.by); !errors.Is(err, tc.code) {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.code.Name)
		}
		if diff := cmp.Diff(before, ledger.StoreDumpForTest(t, f.n)); diff != "" {
			t.Errorf("%s changed the state:\n%s", tc.name, diff)
		}
	}
	un, err := unassign(ev.ContractID, syncs[0], syncs[1], f.alice)
	if err != nil {
		t.Fatal(err)
	}
	if len(un.Events) != 1 {
		t.Fatalf("unassignment: %+v", un.Reassignment)
	}
	ue, _ := un.Events[0].(*update.UnassignedEvent)
	if ue == nil || ue.ReassignmentCounter != 1 || !regexp.MustCompile(`^001220[0-9a-f]{64}$`).MatchString(ue.ReassignmentID) ||
		string(ue.ContractID) != ev.ContractID || ue.Source != syncs[0] || ue.Target != syncs[1] || un.SynchronizerID != syncs[0] {
		t.Fatalf("unassigned event: %+v", un.Reassignment)
	}
	if _, err := f.exercise("x1", f.alice, ev.ContractID, "Peek", `{}`); !errors.Is(err, apierr.ContractNotActive) {
		t.Errorf("exercise in transit: %v", err)
	}
	rid := ue.ReassignmentID
	if _, err := assign(rid, syncs[1], syncs[0]); !errors.Is(err, apierr.ReassignmentMismatch) {
		t.Errorf("assign with swapped synchronizers: %v", err)
	}
	if _, err := assign("001220"+fmt.Sprintf("%064d", 1), syncs[0], syncs[1]); !errors.Is(err, apierr.ReassignmentNotFound) {
		t.Errorf("unknown reassignment id: %v", err)
	}
	as, err := assign(rid, syncs[0], syncs[1])
	if err != nil {
		t.Fatalf("assign: %v", err)
	}
	if len(as.Events) != 1 {
		t.Fatalf("assignment: %+v", as.Reassignment)
	}
	ae, _ := as.Events[0].(*update.AssignedEvent)
	if ae == nil || ae.ReassignmentID != rid || ae.ReassignmentCounter != 1 || ae.Target != syncs[1] ||
		ae.Created == nil || string(ae.Created.ContractID) != ev.ContractID || as.SynchronizerID != syncs[1] {
		t.Fatalf("assignment: %+v", as.Reassignment)
	}
	if _, err := assign(rid, syncs[0], syncs[1]); !errors.Is(err, apierr.ReassignmentMismatch) {
		t.Errorf("assigning twice: %v", err)
	}
	// The contract is active on the target now.
	_, err = jsonapi.New(f.n).SubmitAndWait(f.ctx, jsonapi.JsCommands{CommandID: "x2", ActAs: []string{f.alice}, UserID: "u1", SynchronizerID: syncs[1],
		Commands: []jsonapi.JsCommand{{ExerciseCommand: &jsonapi.JsExerciseCommand{TemplateID: f.pkg + ":Main:Iou", ContractID: ev.ContractID,
			Choice: "Peek", ChoiceArgument: json.RawMessage(`{}`)}}}})
	if err != nil {
		t.Errorf("exercise on the target after assignment: %v", err)
	}
	// Without an event format, the reassignment has no events.
	ev2 := f.create(t, "c2", f.alice)
	r, err := f.n.Reassign(f.ctx, ledger.ReassignCommands{CommandID: "u2", Submitter: f.alice,
		Commands: []ledger.ReassignCommand{ledger.UnassignContract{ContractID: value.ContractID(ev2.ContractID), Source: syncs[0], Target: syncs[1]}}})
	if err != nil || len(r.Events) != 0 {
		t.Errorf("reassignment without event format: %+v, %v", r, err)
	}
}

func TestConcurrentSubmittersAndReaders(t *testing.T) {
	t.Parallel()
	f := newFixture(t, ledger.Options{})
	start, _ := f.n.LedgerEnd(f.ctx)
	const writers, each = 64, 3
	var wg sync.WaitGroup
	acked := make(chan int64, writers*each)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				resp, err := jsonapi.New(f.n).SubmitAndWait(f.ctx, jsonapi.JsCommands{CommandID: fmt.Sprintf("w%d-%d", w, i), ActAs: []string{f.alice}, UserID: "u1",
					Commands: []jsonapi.JsCommand{{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: f.pkg + ":Main:Iou", CreateArguments: f.iouArgs(f.alice, i)}}}})
				if err != nil {
					t.Error(err)
					return
				}
				acked <- resp.CompletionOffset
			}
		}()
	}
	aliceRead := ledger.ReadAs(f.alice)
	format := ledger.UpdateReadFormat{Transactions: &aliceRead}
	var rg sync.WaitGroup
	for range 8 {
		rg.Add(1)
		go func() {
			defer rg.Done()
			for range 5 {
				end, _ := f.n.LedgerEnd(f.ctx)
				var prev int64 = start
				r := ledger.OffsetRange{After: start, Through: &end}
				var token []byte
				for {
					page, err := f.n.UpdatesPage(f.ctx, format, r, i32(7), token)
					if err != nil {
						t.Error(err)
						return
					}
					for _, u := range page.Updates {
						if u.UpdateOffset() != prev+1 {
							t.Errorf("reader saw offset %d after %d", u.UpdateOffset(), prev)
							return
						}
						prev = u.UpdateOffset()
					}
					if token = page.NextToken; token == nil {
						break
					}
				}
				if prev != end {
					t.Errorf("reader stopped at %d, end %d", prev, end)
				}
			}
		}()
	}
	wg.Wait()
	rg.Wait()
	close(acked)
	seen := map[int64]bool{}
	for off := range acked {
		if seen[off] {
			t.Errorf("offset %d acknowledged twice", off)
		}
		seen[off] = true
		if _, err := f.n.UpdateByOffset(f.ctx, off, format); err != nil {
			t.Errorf("acknowledged offset %d not readable: %v", off, err)
		}
	}
	if end, _ := f.n.LedgerEnd(f.ctx); end != start+writers*each || len(seen) != writers*each {
		t.Errorf("end %d, %d acknowledged", end, len(seen))
	}
}

// TestDuplicateOfAConsumingExercise: resubmitting an exercise that
// archived its contract is DUPLICATE_COMMAND, not the CONTRACT_NOT_FOUND
// its interpretation would give now, and as Canton's participant says it
// (CommandDeduplicationError.DuplicateCommandReject): a definite answer
// with the accepted command's completion offset.
func TestDuplicateOfAConsumingExercise(t *testing.T) {
	t.Parallel()
	f := newFixture(t, ledger.Options{})
	ev := f.create(t, "c1", f.alice)
	first, err := f.exercise("x1", f.alice, ev.ContractID, "Transfer", fmt.Sprintf(`{"newOwner": %q}`, f.alice))
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.exercise("x1", f.alice, ev.ContractID, "Transfer", fmt.Sprintf(`{"newOwner": %q}`, f.alice))
	var e *apierr.Error
	if !errors.As(err, &e) || !errors.Is(err, apierr.DuplicateCommand) {
		t.Fatalf("resubmitted exercise: %v, want DUPLICATE_COMMAND", err)
	}
	if e.DefiniteAnswer == nil || !*e.DefiniteAnswer || e.Cause != "Command submission already exists." ||
		e.Context["completion_offset"] != fmt.Sprint(first.CompletionOffset) || e.Context["accepted"] != "true" {
		t.Errorf("DUPLICATE_COMMAND %+v (definite answer %v), want Canton's DuplicateCommandReject", e, e.DefiniteAnswer)
	}
	if _, err := f.exercise("x2", f.alice, ev.ContractID, "Transfer", fmt.Sprintf(`{"newOwner": %q}`, f.alice)); !errors.Is(err, apierr.ContractNotFound) {
		t.Errorf("a new exercise of the archived contract: %v, want CONTRACT_NOT_FOUND", err)
	}
}
