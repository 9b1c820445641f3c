package ledger_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// observedPackage is package "observed": template Main:T {owner: Party,
// watcher: Party}, signatory the owner, observer the watcher.
func observedPackage() lftest.Package {
	tT := lf.TypeConApp{ID: lf.TypeConID{PackageID: lftest.SelfID, Module: "Main", Name: "T"}}
	field := func(name string) lf.Expr {
		return &lf.ECons{Type: revParty, Front: []lf.Expr{&lf.ERecProj{Type: tT, Field: name, Record: &lf.EVar{Name: "this"}}},
			Tail: &lf.ENil{Type: revParty}}
	}
	return lftest.Package{Name: "observed", Version: "1.0.0", Imports: []string{}, Modules: []lftest.Module{{Name: "Main",
		DataTypes: []lftest.DataType{{Name: "T", Serializable: true, Fields: []lftest.Field{
			{Name: "owner", Type: lftest.B(lftest.Party)}, {Name: "watcher", Type: lftest.B(lftest.Party)}}}},
		Templates: []lftest.Template{{Name: "T", Signatories: field("owner"), Observers: field("watcher")}},
	}}}
}

// observedNode is a node with the observed package and a party alice.
type observedNode struct {
	n     *ledger.Node
	alice string
	tmpl  lf.TypeConID
}

func newObservedNode(t *testing.T, opts ledger.Options) *observedNode {
	t.Helper()
	n := ledgertest.Open(t, opts)
	d, ids := lftest.DAR(observedPackage())
	ledgertest.MustUploadDAR(t, n, d)
	return &observedNode{n: n, alice: ledgertest.MustAllocate(t, n, "alice"),
		tmpl: lf.TypeConID{PackageID: ids[0], Module: "Main", Name: "T"}}
}

// createT is the command creating T {owner, watcher}.
func (o *observedNode) createT(owner, watcher string) jsonapi.JsCommand {
	return jsonapi.JsCommand{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: o.tmpl.String(),
		CreateArguments: json.RawMessage(fmt.Sprintf(`{"owner": %q, "watcher": %q}`, owner, watcher))}}
}

// submitEntry is a submission path that creates T {owner, watcher}
// acting as actAs.
type submitEntry struct {
	name string
	run  func(ctx context.Context, o *observedNode, cmdID, actAs, owner, watcher string) error
	// external is set for prepare: routing a transaction for external
	// signing counts no submitter, so an unknown actAs party is refused
	// as the informee it is.
	external bool
}

// submitEntries are the paths of a submission: the command service's
// four, interactive prepare and the typed Submit (Daml Script's).
var submitEntries = []submitEntry{
	{name: "Submit", run: func(ctx context.Context, o *observedNode, cmdID, actAs, owner, watcher string) error {
		_, err := jsonapi.New(o.n).SubmitAsync(ctx, jsonapi.JsCommands{CommandID: cmdID, ActAs: []string{actAs}, Commands: []jsonapi.JsCommand{o.createT(owner, watcher)}})
		return err
	}},
	{name: "SubmitAndWait", run: func(ctx context.Context, o *observedNode, cmdID, actAs, owner, watcher string) error {
		_, err := jsonapi.New(o.n).SubmitAndWait(ctx, jsonapi.JsCommands{CommandID: cmdID, ActAs: []string{actAs}, Commands: []jsonapi.JsCommand{o.createT(owner, watcher)}})
		return err
	}},
	{name: "SubmitAndWaitForTransaction", run: func(ctx context.Context, o *observedNode, cmdID, actAs, owner, watcher string) error {
		_, err := jsonapi.New(o.n).SubmitAndWaitForTransaction(ctx, jsonapi.SubmitAndWaitForTransactionRequest{Commands: jsonapi.JsCommands{
			CommandID: cmdID, ActAs: []string{actAs}, Commands: []jsonapi.JsCommand{o.createT(owner, watcher)}}})
		return err
	}},
	{name: "SubmitAndWaitForTransactionTree", run: func(ctx context.Context, o *observedNode, cmdID, actAs, owner, watcher string) error {
		_, err := jsonapi.New(o.n).SubmitAndWaitForTransactionTree(ctx, jsonapi.JsCommands{CommandID: cmdID, ActAs: []string{actAs}, Commands: []jsonapi.JsCommand{o.createT(owner, watcher)}})
		return err
	}},
	{name: "PrepareSubmission", external: true, run: func(ctx context.Context, o *observedNode, cmdID, actAs, owner, watcher string) error {
		_, err := jsonapi.New(o.n).PrepareSubmission(ctx, jsonapi.JsPrepareSubmissionRequest{CommandID: cmdID, ActAs: []string{actAs}, Commands: []jsonapi.JsCommand{o.createT(owner, watcher)}})
		return err
	}},
	{name: "Submit", run: func(ctx context.Context, o *observedNode, cmdID, actAs, owner, watcher string) error {
		arg := value.Record{Fields: []value.RecordField{{Label: "owner", Value: value.Party(owner)}, {Label: "watcher", Value: value.Party(watcher)}}}
		_, err := o.n.Submit(ctx, ledger.Commands{CommandID: cmdID, ActAs: []string{actAs},
			Commands: []ledger.Command{ledger.CreateCommand{Template: ledger.TemplateByID(o.tmpl), Arguments: arg}}})
		return err
	}},
}

// TestUnknownPartiesRefused: every submission path refuses, as Canton's
// routing does, a transaction whose actAs parties (UNKNOWN_SUBMITTERS,
// checked first) or informees (UNKNOWN_INFORMEES) are not allocated on
// the participant, with Canton's cause and the parties in the context,
// and leaves the store as it was. Prepare counts no submitter (external
// signing): its unknown actAs party is an unknown informee. The same
// submission with allocated parties goes through.
func TestUnknownPartiesRefused(t *testing.T) {
	t.Parallel()
	for _, entry := range submitEntries {
		t.Run(entry.name, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			o := newObservedNode(t, ledger.Options{})
			// bob is a plain party id, as a client may send by mistake;
			// ghost has the participant's namespace; neither is allocated.
			ns := o.alice[len("alice"):]
			ghost, bob := "ghost"+ns, "bob"
			submitters := apierr.UnknownSubmitters
			if entry.external {
				submitters = apierr.UnknownInformees
			}
			cases := []struct {
				name                  string
				actAs, owner, watcher string
				code                  apierr.Code
				parties               string
			}{
				{"unknown observer", o.alice, o.alice, bob, apierr.UnknownInformees, "Set(bob)"},
				{"unknown namespaced observer", o.alice, o.alice, ghost, apierr.UnknownInformees, "Set(" + ghost + ")"},
				{"unknown actAs", ghost, ghost, o.alice, submitters, "Set(" + ghost + ")"},
				{"unknown actAs and observer", ghost, ghost, bob, submitters, map[bool]string{false: "Set(" + ghost + ")", true: "Set(bob, " + ghost + ")"}[entry.external]},
			}
			for i, c := range cases {
				before := ledger.StoreDumpForTest(t, o.n)
				end, _ := o.n.LedgerEnd(ctx)
				err := entry.run(ctx, o, fmt.Sprintf("c%d", i), c.actAs, c.owner, c.watcher)
				var ae *apierr.Error
				if !errors.As(err, &ae) {
					t.Fatalf("%s: %v, want %s", c.name, err, c.code.Name)
				}
				what, key := "informees", "unknownInformees"
				if c.code == apierr.UnknownSubmitters {
					what, key = "submitters", "unknownSubmitters"
				}
				want := &apierr.Error{Code: c.code, Cause: "The participant is not connected to any synchronizer where the given " + what + " are known.",
					Context: map[string]string{key: c.parties, "definite_answer": "false"}}
				if diff := cmp.Diff(want, ae, cmp.Comparer(func(a, b apierr.Code) bool { return a == b })); diff != "" {
					t.Errorf("%s: error (-want +got):\n%s", c.name, diff)
				}
				if ae.Category() != apierr.InvalidGivenCurrentSystemStateResourceMissing || ae.GRPCCode() != apierr.GRPCNotFound || ae.HTTPStatus() != 404 {
					t.Errorf("%s: category %v, gRPC %d, HTTP %d; want InvalidGivenCurrentSystemStateResourceMissing, NOT_FOUND, 404",
						c.name, ae.Category(), ae.GRPCCode(), ae.HTTPStatus())
				}
				if after, _ := o.n.LedgerEnd(ctx); after != end {
					t.Errorf("%s: ledger end %d after the refusal, was %d", c.name, after, end)
				}
				if diff := cmp.Diff(before, ledger.StoreDumpForTest(t, o.n)); diff != "" {
					t.Errorf("%s: the refusal changed the store (-before +after):\n%s", c.name, diff)
				}
			}
			// With both parties allocated the same submission passes.
			watcher := ledgertest.MustAllocate(t, o.n, "watcher")
			if err := entry.run(ctx, o, "ok", o.alice, o.alice, watcher); err != nil {
				t.Fatalf("with allocated parties: %v", err)
			}
		})
	}
}

// TestExecuteRefusesUnknownInformees: an externally signed transaction
// whose observer this participant does not know is refused at execute
// (UNKNOWN_INFORMEES, nothing committed), even though it was prepared
// and signed elsewhere: here on another node of the same synchronizer
// that has the observer, with the same external party.
func TestExecuteRefusesUnknownInformees(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	opts := ledger.Options{Synchronizers: []string{"shared::1220" + fmt.Sprintf("%064x", 7)}}
	prep, exec := newObservedNode(t, opts), newObservedNode(t, opts)
	k := ed25519Key(t)
	var ext string
	for _, o := range []*observedNode{prep, exec} {
		_, req := onboard(t, ctx, o.n, "ext", k)
		party, err := o.n.AllocateExternalParty(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		ext = party
	}
	watcher := ledgertest.MustAllocate(t, prep.n, "watcher") // on prep only
	p, err := jsonapi.New(prep.n).PrepareSubmission(ctx, jsonapi.JsPrepareSubmissionRequest{CommandID: "c1", ActAs: []string{ext},
		Commands: []jsonapi.JsCommand{prep.createT(ext, watcher)}})
	if err != nil {
		t.Fatalf("prepare: %v", err)
	}
	req := jsonapi.ExecuteSubmissionRequest{PreparedTransaction: p.PreparedTransaction, SubmissionID: "s1",
		HashingSchemeVersion: p.HashingSchemeVersion, PartySignatures: &jsonapi.PartySignatures{Signatures: []jsonapi.SinglePartySignatures{
			{Party: ext, Signatures: []jsonapi.Signature{k.sign(p.PreparedTransactionHash)}}}}}
	before := ledger.StoreDumpForTest(t, exec.n)
	_, err = jsonapi.New(exec.n).ExecuteSubmissionAndWait(ctx, req)
	var ae *apierr.Error
	if !errors.As(err, &ae) || ae.Code != apierr.UnknownInformees || ae.Context["unknownInformees"] != "Set("+watcher+")" {
		t.Fatalf("execute with an unknown observer: %v, want UNKNOWN_INFORMEES for %s", err, watcher)
	}
	if diff := cmp.Diff(before, ledger.StoreDumpForTest(t, exec.n)); diff != "" {
		t.Errorf("the refusal changed the store (-before +after):\n%s", diff)
	}
	// The same prepared transaction executes where the observer is known.
	if _, err := jsonapi.New(prep.n).ExecuteSubmissionAndWait(ctx, req); err != nil {
		t.Fatalf("execute on the preparing node: %v", err)
	}
}

// TestKnownPartiesRemembered: the check that a submission's parties are
// known reads each party from the store once: a party found allocated is
// remembered by the node (parties are never removed), so later
// submissions by known parties read nothing; an unknown party is never
// remembered, so it is known as soon as it is allocated.
func TestKnownPartiesRemembered(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	o := newObservedNode(t, ledger.Options{})
	if got := ledger.KnownPartiesForTest(o.n); len(got) != 0 {
		t.Fatalf("remembered before any submission: %v", got)
	}
	bob := "bob" + o.alice[len("alice"):]
	_, err := jsonapi.New(o.n).SubmitAndWait(ctx, jsonapi.JsCommands{CommandID: "c1", ActAs: []string{o.alice}, Commands: []jsonapi.JsCommand{o.createT(o.alice, bob)}})
	if !errors.Is(err, apierr.UnknownInformees) {
		t.Fatalf("observer %s not allocated: %v, want UNKNOWN_INFORMEES", bob, err)
	}
	if diff := cmp.Diff([]string{o.alice}, ledger.KnownPartiesForTest(o.n)); diff != "" {
		t.Errorf("remembered after the refusal (-want +got):\n%s", diff)
	}
	if got := ledgertest.MustAllocate(t, o.n, "bob"); got != bob {
		t.Fatalf("allocated %s, want %s", got, bob)
	}
	if _, err := jsonapi.New(o.n).SubmitAndWait(ctx, jsonapi.JsCommands{CommandID: "c2", ActAs: []string{o.alice}, Commands: []jsonapi.JsCommand{o.createT(o.alice, bob)}}); err != nil {
		t.Fatalf("observer %s allocated: %v", bob, err)
	}
	if diff := cmp.Diff([]string{o.alice, bob}, ledger.KnownPartiesForTest(o.n)); diff != "" {
		t.Errorf("remembered after the accepted submission (-want +got):\n%s", diff)
	}
}
