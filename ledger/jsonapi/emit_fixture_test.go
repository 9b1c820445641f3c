package jsonapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// The ledger the emitter tests read: package "emit" with a template of
// many value kinds, an interface with a view, a choice with a child
// create and a choice observer, transients, a wide transaction (more than
// ten nodes: tree keys "10" < "2"), reassignments and contracts in
// transit, on two synchronizers.

var emitSyncs = []string{"s1::1220aa", "s2::1220bb"}

// emitStart is the fixture's static time: its record times and ledger
// effective times, fixed for the goldens (golden_test.go).
var emitStart = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

// emitPackage is package "emit" 1.0.0 (LF 2.3), module Main:
//   - template T {owner, watcher: Party, note: Text, amount: Numeric 10,
//     tags: [Text], extra: Optional Int64, at: Timestamp, day: Date,
//     m: TextMap Int64, v: V, c: Color} (signatory owner, observer
//     watcher), implementing interface I (view IView {n = 7}); choices
//     Spawn {viewer: Party} (consuming, choice observer viewer, creates
//     T this, returns its id) and Peek (non-consuming, Unit);
//   - template U {owner: Party};
//   - template K {owner: Party, n: Int64} keyed by its owner (LF 2.3);
//   - variant V = A Int64 | B Text, enum Color = Red | Green.
func emitPackage() lftest.Package {
	party := &lf.TBuiltin{Builtin: lf.BuiltinParty}
	tT := lf.TypeConApp{ID: lf.TypeConID{PackageID: lftest.SelfID, Module: "Main", Name: "T"}}
	tSpawn := lf.TypeConApp{ID: lf.TypeConID{PackageID: lftest.SelfID, Module: "Main", Name: "Spawn"}}
	one := func(ty lf.TypeConApp, rec, field string) lf.Expr {
		return &lf.ECons{Type: party, Front: []lf.Expr{&lf.ERecProj{Type: ty, Field: field, Record: &lf.EVar{Name: rec}}},
			Tail: &lf.ENil{Type: party}}
	}
	view := &lf.ERecCon{Type: lf.TypeConApp{ID: lf.TypeConID{PackageID: lftest.SelfID, Module: "Main", Name: "IView"}},
		Fields: []lf.FieldExpr{{Name: "n", Expr: &lf.EInt64{Value: 7}}}}
	spawn := &lf.EUpdate{Update: &lf.UCreate{Template: tT.ID, Expr: &lf.EVar{Name: "this"}}}
	tK := lf.TypeConApp{ID: lf.TypeConID{Module: "Main", Name: "K"}}
	return lftest.Package{Minor: "3", Name: "emit", Version: "1.0.0", Imports: []string{}, Modules: []lftest.Module{{Name: "Main",
		DataTypes: []lftest.DataType{
			{Name: "T", Serializable: true, Fields: []lftest.Field{
				{Name: "owner", Type: lftest.B(lftest.Party)}, {Name: "watcher", Type: lftest.B(lftest.Party)},
				{Name: "note", Type: lftest.B(lftest.Text)}, {Name: "amount", Type: lftest.Num(10)},
				{Name: "tags", Type: lftest.ListOf(lftest.B(lftest.Text))}, {Name: "extra", Type: lftest.Opt(lftest.B(lftest.Int64))},
				{Name: "at", Type: lftest.B(lftest.Timestamp)}, {Name: "day", Type: lftest.B(lftest.Date)},
				{Name: "m", Type: lftest.App(lftest.B(lftest.TextMap), lftest.B(lftest.Int64))},
				{Name: "v", Type: lftest.Con(lftest.Self(), "Main", "V")}, {Name: "c", Type: lftest.Con(lftest.Self(), "Main", "Color")},
			}},
			{Name: "U", Serializable: true, Fields: []lftest.Field{{Name: "owner", Type: lftest.B(lftest.Party)}}},
			{Name: "K", Serializable: true, Fields: []lftest.Field{{Name: "owner", Type: lftest.B(lftest.Party)}, {Name: "n", Type: lftest.B(lftest.Int64)}}},
			{Name: "Spawn", Serializable: true, Fields: []lftest.Field{{Name: "viewer", Type: lftest.B(lftest.Party)}}},
			{Name: "V", Kind: "variant", Serializable: true, Fields: []lftest.Field{{Name: "A", Type: lftest.B(lftest.Int64)}, {Name: "B", Type: lftest.B(lftest.Text)}}},
			{Name: "Color", Kind: "enum", Serializable: true, Enum: []string{"Red", "Green"}},
			{Name: "I", Kind: "interface"},
			{Name: "IView", Serializable: true, Fields: []lftest.Field{{Name: "n", Type: lftest.B(lftest.Int64)}}},
		},
		Templates: []lftest.Template{
			{Name: "T", Signatories: one(tT, "this", "owner"), Observers: one(tT, "this", "watcher"),
				Implements: []lftest.TyCon{{Ref: lftest.Self(), Module: "Main", Name: "I", View: view}},
				Choices: []lftest.Choice{
					{Name: "Spawn", Consuming: true, Arg: lftest.Con(lftest.Self(), "Main", "Spawn"), Ret: lftest.CID(lftest.Con(lftest.Self(), "Main", "T")),
						Observers: one(tSpawn, "arg", "viewer"), Update: spawn},
					{Name: "Peek", Consuming: false, Arg: lftest.B(lftest.Unit), Ret: lftest.B(lftest.Unit)},
				}},
			{Name: "U"},
			{Name: "K", Key: lftest.B(lftest.Party), KeyBody: &lf.ERecProj{Type: tK, Field: "owner", Record: &lf.EVar{Name: "this"}},
				KeyMaintainers: &lf.EAbs{Params: []lf.VarWithType{{Name: "key", Type: party}},
					Body: &lf.ECons{Type: party, Front: []lf.Expr{&lf.EVar{Name: "key"}}, Tail: &lf.ENil{Type: party}}}},
		},
		Interfaces: []lftest.Interface{{Name: "I", View: lftest.Con(lftest.Self(), "Main", "IView")}},
	}}}
}

// emitLedger is a node holding the fixture's updates.
type emitLedger struct {
	n   *ledger.Node
	ctx context.Context
	// typedCtx is the context of the typed reads (emitLedger.in).
	typedCtx          context.Context
	alice, bob, carol string
	pkg               string
	// cids are the contracts created (active, archived, in transit).
	cids []string
	// updates are the ids of the updates, in offset order.
	updates []string
	// same compares a JSON read's body with the emitter's.
	same func(t testing.TB, what string, want, got []byte) bool
}

// tArg is the argument of a T, with the note given.
func (l *emitLedger) tArg(owner, watcher, note string, i int) string {
	n, _ := json.Marshal(note)
	return fmt.Sprintf(`{"owner": %q, "watcher": %q, "note": %s, "amount": "%d.5", "tags": ["x", "y%d"], "extra": %s,
		"at": "2024-05-06T07:08:09.%03dZ", "day": "2024-02-29", "m": {"k1": "1", "k0": "%d"}, "v": {"tag": "%s", "value": %s}, "c": "%s"}`,
		owner, watcher, n, i, i, map[bool]string{true: "null", false: fmt.Sprintf(`"%d"`, i)}[i%2 == 0], i*7%1000, i,
		map[bool]string{true: "A", false: "B"}[i%3 == 0], map[bool]string{true: fmt.Sprintf(`"%d"`, i), false: `"b"`}[i%3 == 0],
		map[bool]string{true: "Red", false: "Green"}[i%2 == 0])
}

func (l *emitLedger) submit(t testing.TB, id, wf string, actAs []string, cmds ...jsonapi.JsCommand) jsonapi.JsTransaction {
	t.Helper()
	resp, err := jsonapi.DecodeAnswer[jsonapi.SubmitAndWaitForTransactionResponse](jsonapi.New(l.n).SubmitAndWaitForTransaction(l.ctx, jsonapi.SubmitAndWaitForTransactionRequest{Commands: jsonapi.JsCommands{
		CommandID: id, WorkflowID: wf, ActAs: actAs, UserID: "u1", Commands: cmds}}))
	if err != nil {
		t.Fatalf("%s: %v", id, err)
	}
	l.updates = append(l.updates, resp.Transaction.UpdateID)
	for _, e := range resp.Transaction.Events {
		if e.CreatedEvent != nil {
			l.cids = append(l.cids, e.CreatedEvent.ContractID)
		}
	}
	return resp.Transaction
}

func (l *emitLedger) create(tmpl, arg string) jsonapi.JsCommand {
	return jsonapi.JsCommand{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: "#emit:Main:" + tmpl, CreateArguments: json.RawMessage(arg)}}
}

func (l *emitLedger) exercise(tmpl, cid, choice, arg string) jsonapi.JsCommand {
	return jsonapi.JsCommand{ExerciseCommand: &jsonapi.JsExerciseCommand{TemplateID: "#emit:Main:" + tmpl, ContractID: cid, Choice: choice,
		ChoiceArgument: json.RawMessage(arg)}}
}

// newEmitLedger builds the fixture; notes are the notes of the Ts (Daml
// text, the one free-form value of the fixture).
func newEmitLedger(t testing.TB, notes []string) *emitLedger {
	t.Helper()
	return newEmitLedgerWith(t, notes, ledger.Options{})
}

// newEmitLedgerWith is newEmitLedger on a node opened with opts (its
// synchronizers set to the fixture's).
func newEmitLedgerWith(t testing.TB, notes []string, opts ledger.Options) *emitLedger {
	t.Helper()
	opts.Synchronizers = emitSyncs
	n, _ := ledgertest.OpenStatic(t, opts, emitStart)
	dar, ids := lftest.DAR(emitPackage())
	for _, s := range emitSyncs {
		if err := n.UploadDAR(context.Background(), ledger.UploadDARRequest{DAR: dar, SynchronizerID: s}); err != nil {
			t.Fatal(err)
		}
	}
	l := &emitLedger{n: n, ctx: context.Background(), typedCtx: context.Background(), pkg: ids[0]}
	l.alice, l.bob, l.carol = ledgertest.MustAllocate(t, n, "alice"), ledgertest.MustAllocate(t, n, "bob"), ledgertest.MustAllocate(t, n, "carol")
	note := func(i int) string { return notes[i%len(notes)] }

	// Creates: alice's T watched by bob, carol's T watched by alice,
	// alice's U.
	t1 := l.submit(t, "c1", "wf-1", []string{l.alice}, l.create("T", l.tArg(l.alice, l.bob, note(0), 1)))
	l.submit(t, "c2", "", []string{l.carol}, l.create("T", l.tArg(l.carol, l.alice, note(1), 2)))
	u := l.submit(t, "c3", "wf-3", []string{l.alice}, l.create("U", fmt.Sprintf(`{"owner": %q}`, l.alice)))
	k := l.submit(t, "k1", "", []string{l.bob}, l.create("K", fmt.Sprintf(`{"owner": %q, "n": "1"}`, l.bob)))
	// A wide transaction: twelve creates, node ids 0..11.
	var wide []jsonapi.JsCommand
	for i := range 12 {
		owner, watcher := l.alice, l.bob
		if i%3 == 1 {
			owner, watcher = l.bob, l.carol
		}
		wide = append(wide, l.create("T", l.tArg(owner, watcher, note(i), 10+i)))
	}
	w := l.submit(t, "wide", "wf-wide", []string{l.alice, l.bob}, wide...)
	// Spawn: archives t1, creates a child, carol a choice observer.
	sp := l.submit(t, "spawn", "", []string{l.alice}, l.exercise("T", t1.Events[0].CreatedEvent.ContractID, "Spawn", fmt.Sprintf(`{"viewer": %q}`, l.carol)))
	child := l.cids[len(l.cids)-1]
	if len(sp.Events) != 2 || sp.Events[1].CreatedEvent == nil {
		t.Fatalf("spawn: %+v", sp.Events)
	}
	// Peek (non-consuming) on the child, Archive of the U.
	l.submit(t, "peek", "", []string{l.alice}, l.exercise("T", child, "Peek", `{}`))
	l.submit(t, "archive-u", "", []string{l.alice}, l.exercise("U", u.Events[0].CreatedEvent.ContractID, "Archive", `{}`))
	l.submit(t, "archive-k", "", []string{l.bob}, l.exercise("K", k.Events[0].CreatedEvent.ContractID, "Archive", `{}`))
	l.submit(t, "k2", "", []string{l.bob}, l.create("K", fmt.Sprintf(`{"owner": %q, "n": "2"}`, l.bob)))
	// A transient contract: created and archived in one transaction,
	// next to a create that stays.
	l.submit(t, "transient", "", []string{l.alice}, jsonapi.JsCommand{CreateAndExerciseCommand: &jsonapi.JsCreateAndExerciseCommand{
		TemplateID: "#emit:Main:T", CreateArguments: json.RawMessage(l.tArg(l.alice, l.carol, note(3), 3)), Choice: "Archive",
		ChoiceArgument: json.RawMessage(`{}`)}}, l.create("T", l.tArg(l.alice, l.carol, note(4), 4)))

	// Reassignments: one of the wide Ts goes to s2 and back is assigned;
	// another stays in transit.
	reassign := func(id string, c ledger.ReassignCommand) *ledger.ReassignmentCommitted {
		r, err := l.n.Reassign(l.ctx, ledger.ReassignCommands{Submitter: l.alice, CommandID: id, WorkflowID: "wf-" + id, Commands: []ledger.ReassignCommand{c}})
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		l.updates = append(l.updates, r.UpdateID)
		return r
	}
	first := value.ContractID(w.Events[0].CreatedEvent.ContractID)
	un := reassign("un1", ledger.UnassignContract{ContractID: first, Source: emitSyncs[0], Target: emitSyncs[1]})
	rid := ""
	if len(un.Events) == 0 {
		end, err := n.LedgerEnd(l.ctx)
		if err != nil {
			t.Fatal(err)
		}
		rid = l.reassignmentID(t, end)
	} else {
		rid = un.Events[0].(*update.UnassignedEvent).ReassignmentID
	}
	reassign("as1", ledger.AssignContract{ReassignmentID: rid, Source: emitSyncs[0], Target: emitSyncs[1]})
	reassign("un2", ledger.UnassignContract{ContractID: value.ContractID(w.Events[3].CreatedEvent.ContractID), Source: emitSyncs[0], Target: emitSyncs[1]})
	// A last create after the reassignments.
	l.submit(t, "last", "wf-last", []string{l.bob}, l.create("T", l.tArg(l.bob, l.alice, note(5), 5)))
	return l
}

// reassignmentID reads the reassignment id of the unassignment at an
// offset.
func (l *emitLedger) reassignmentID(t testing.TB, off int64) string {
	t.Helper()
	u, err := l.n.UpdateByOffset(l.ctx, off, ledger.UpdateReadFormat{Reassignments: &ledger.ReadFormat{AnyParty: []ledger.Filter{}}})
	if err != nil {
		t.Fatal(err)
	}
	return u.(*update.Reassignment).Events[0].(*update.UnassignedEvent).ReassignmentID
}

// filt is one cumulative filter, written once for the typed and the JSON
// reads.
type filt struct {
	kind         string // "wildcard", "template", "interface"
	ref          string // "#emit:Main:T"
	blobs, views bool
}

func (f filt) typed() ledger.Filter {
	switch f.kind {
	case "template":
		return ledger.TemplateFilter(ledger.MustParseTemplateRef(f.ref), f.blobs)
	case "interface":
		return ledger.InterfaceFilter(ledger.MustParseTemplateRef(f.ref), f.views, f.blobs)
	}
	return ledger.WildcardFilter(f.blobs)
}

func (f filt) wire() jsonapi.CumulativeFilter {
	var c jsonapi.IdentifierFilter
	switch f.kind {
	case "template":
		c.TemplateFilter = &jsonapi.Wrapped[jsonapi.TemplateFilterValue]{Value: jsonapi.TemplateFilterValue{TemplateID: f.ref, IncludeCreatedEventBlob: f.blobs}}
	case "interface":
		c.InterfaceFilter = &jsonapi.Wrapped[jsonapi.InterfaceFilterValue]{Value: jsonapi.InterfaceFilterValue{InterfaceID: f.ref,
			IncludeInterfaceView: f.views, IncludeCreatedEventBlob: f.blobs}}
	default:
		c.WildcardFilter = &jsonapi.Wrapped[jsonapi.WildcardFilterValue]{Value: jsonapi.WildcardFilterValue{IncludeCreatedEventBlob: f.blobs}}
	}
	return jsonapi.CumulativeFilter{IdentifierFilter: c}
}

// format is a read format, written once for both reads: parties by name
// ("alice", …) with their filters, and the filters for any party when
// anyParty.
type format struct {
	name     string
	parties  map[string][]filt
	anyParty bool
	any      []filt
	verbose  bool
}

func (l *emitLedger) party(name string) string {
	switch name {
	case "alice":
		return l.alice
	case "bob":
		return l.bob
	}
	return l.carol
}

// partyIDs are the format's parties (nil for any party).
func (l *emitLedger) partyIDs(f format) []string {
	var out []string
	for _, p := range []string{"alice", "bob", "carol"} {
		if _, ok := f.parties[p]; ok {
			out = append(out, l.party(p))
		}
	}
	return out
}

func (l *emitLedger) typed(f format, shape ledger.Shape) ledger.ReadFormat {
	out := ledger.ReadFormat{Parties: map[string][]ledger.Filter{}, Verbose: f.verbose, Shape: shape}
	for p, fs := range f.parties {
		var tf []ledger.Filter
		for _, x := range fs {
			tf = append(tf, x.typed())
		}
		out.Parties[l.party(p)] = tf
	}
	if f.anyParty {
		out.AnyParty = []ledger.Filter{}
		for _, x := range f.any {
			out.AnyParty = append(out.AnyParty, x.typed())
		}
	}
	return out
}

func (l *emitLedger) wire(f format) jsonapi.EventFormat {
	cum := func(fs []filt) jsonapi.Filters {
		var out jsonapi.Filters
		for _, x := range fs {
			out.Cumulative = append(out.Cumulative, x.wire())
		}
		return out
	}
	out := jsonapi.EventFormat{FiltersByParty: map[string]jsonapi.Filters{}, Verbose: f.verbose}
	for p, fs := range f.parties {
		out.FiltersByParty[l.party(p)] = cum(fs)
	}
	if f.anyParty {
		fs := cum(f.any)
		out.FiltersForAnyParty = &fs
	}
	return out
}

// emitFormats are the formats the differential test reads with.
var emitFormats = []format{
	{name: "alice", parties: map[string][]filt{"alice": nil}},
	{name: "alice-verbose", parties: map[string][]filt{"alice": nil}, verbose: true},
	{name: "bob", parties: map[string][]filt{"bob": nil}},
	{name: "carol", parties: map[string][]filt{"carol": nil}, verbose: true},
	{name: "alice+bob", parties: map[string][]filt{"alice": nil, "bob": nil}},
	{name: "alice-blobs", parties: map[string][]filt{"alice": {{kind: "wildcard", blobs: true}}}},
	{name: "alice-template-U", parties: map[string][]filt{"alice": {{kind: "template", ref: "#emit:Main:U"}}}},
	{name: "bob-template-T-blobs", parties: map[string][]filt{"bob": {{kind: "template", ref: "#emit:Main:T", blobs: true}}}},
	{name: "alice-views", parties: map[string][]filt{"alice": {{kind: "interface", ref: "#emit:Main:I", views: true}}}},
	{name: "carol-iface-noviews", parties: map[string][]filt{"carol": {{kind: "interface", ref: "#emit:Main:I"}}}},
	{name: "alice-views-bob-wild", parties: map[string][]filt{"alice": {{kind: "interface", ref: "#emit:Main:I", views: true, blobs: true}}, "bob": nil}},
	{name: "any", anyParty: true},
	{name: "any-views-blobs", anyParty: true, any: []filt{{kind: "interface", ref: "#emit:Main:I", views: true, blobs: true}, {kind: "template", ref: "#emit:Main:U"}}},
}

// wire is the body httpadapter writes for a JSON read's answer
// (encoding/json, HTML escaping off), without its final newline.
func wire(t testing.TB, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// sameWire reports a difference between the JSON read's bytes and the
// emitter's, around the first byte that differs.
func sameWire(t testing.TB, what string, want, got []byte) bool {
	t.Helper()
	if bytes.Equal(want, got) {
		return true
	}
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	lo := max(0, i-120)
	t.Errorf("%s: the emitter differs from the JSON read at byte %d:\nJSON read: …%s…\nemitter:   …%s…", what, i,
		want[lo:min(len(want), i+120)], got[lo:min(len(got), i+120)])
	return false
}

// codeOf is an error's text up to its first colon (Canton's code), "" for
// nil.
func codeOf(err error) string {
	if err == nil {
		return ""
	}
	s, _, _ := strings.Cut(err.Error(), ":")
	return s
}

// wireUpdates is the update format of f on the wire: its transactions in
// shape, its reassignments and the topology events of its parties (every
// party's for any party).
func (l *emitLedger) wireUpdates(f format, shape string) jsonapi.UpdateFormat {
	ef := l.wire(f)
	topo := l.partyIDs(f)
	if f.anyParty {
		topo = nil
	}
	return jsonapi.UpdateFormat{IncludeTransactions: &jsonapi.TransactionFormat{EventFormat: ef, TransactionShape: shape},
		IncludeReassignments: &ef, IncludeTopologyEvents: &jsonapi.TopologyFormat{
			IncludeParticipantAuthorizationEvents: &jsonapi.ParticipantAuthorizationTopologyFormat{Parties: topo}}}
}

// updatesRequests are the list requests of f over the whole ledger: by
// update format in both shapes, and by legacy filter and verbose.
func (l *emitLedger) updatesRequests(f format) []jsonapi.GetUpdatesRequest {
	var reqs []jsonapi.GetUpdatesRequest
	for _, shape := range []string{jsonapi.ShapeACSDelta, jsonapi.ShapeLedgerEffects} {
		uf := l.wireUpdates(f, shape)
		reqs = append(reqs, jsonapi.GetUpdatesRequest{UpdateFormat: &uf})
	}
	legacy := l.wire(f)
	legacy.Verbose = false
	return append(reqs, jsonapi.GetUpdatesRequest{Filter: &legacy, Verbose: f.verbose})
}

// aliceFormat reads every template for alice.
func (l *emitLedger) aliceFormat() jsonapi.EventFormat {
	return jsonapi.EventFormat{FiltersByParty: map[string]jsonapi.Filters{l.alice: {}}}
}

// templateFormat reads the template id names for alice.
func (l *emitLedger) templateFormat(id string) jsonapi.EventFormat {
	return jsonapi.EventFormat{FiltersByParty: map[string]jsonapi.Filters{l.alice: {Cumulative: []jsonapi.CumulativeFilter{{
		IdentifierFilter: jsonapi.IdentifierFilter{TemplateFilter: &jsonapi.Wrapped[jsonapi.TemplateFilterValue]{Value: jsonapi.TemplateFilterValue{TemplateID: id}}}}}}}}
}

// noVariantFormat has alice's one identifier filter, which names no variant.
func (l *emitLedger) noVariantFormat() jsonapi.EventFormat {
	return jsonapi.EventFormat{FiltersByParty: map[string]jsonapi.Filters{l.alice: {Cumulative: []jsonapi.CumulativeFilter{{}}}}}
}

// twoVariantsFormat has alice's one identifier filter, which names two variants.
func (l *emitLedger) twoVariantsFormat() jsonapi.EventFormat {
	return jsonapi.EventFormat{FiltersByParty: map[string]jsonapi.Filters{l.alice: {Cumulative: []jsonapi.CumulativeFilter{{IdentifierFilter: jsonapi.IdentifierFilter{
		WildcardFilter: &jsonapi.Wrapped[jsonapi.WildcardFilterValue]{}, Empty: &struct{}{}}}}}}}
}

// bobCtx is a request of user bob, who may read as bob only.
func (l *emitLedger) bobCtx() context.Context {
	return ledger.WithPrincipal(l.ctx, identity.Principal{UserID: "bob", Rights: []identity.Right{{Kind: identity.RightCanReadAs, Party: l.bob}}})
}

// cancelledCtx is a request whose context has ended.
func (l *emitLedger) cancelledCtx() context.Context {
	ctx, cancel := context.WithCancel(l.ctx)
	cancel()
	return ctx
}
