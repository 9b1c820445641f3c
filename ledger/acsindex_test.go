package ledger_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// acsIndexPackage is package "acsidx" 1.0.0: template Main:Shared {owner,
// watcher: Party} (signatory owner, observer watcher) and template
// Main:Solo {owner: Party, n: Int64} implementing interface Main:I (view
// Main:IView {n: Int64}); both have the Archive choice.
func acsIndexPackage() lftest.Package {
	party := &lf.TBuiltin{Builtin: lf.BuiltinParty}
	shared := lf.TypeConApp{ID: lf.TypeConID{PackageID: lftest.SelfID, Module: "Main", Name: "Shared"}}
	field := func(name string) lf.Expr {
		return &lf.ECons{Type: party, Front: []lf.Expr{&lf.ERecProj{Type: shared, Field: name, Record: &lf.EVar{Name: "this"}}},
			Tail: &lf.ENil{Type: party}}
	}
	view := &lf.ERecCon{Type: lf.TypeConApp{ID: lf.TypeConID{PackageID: lftest.SelfID, Module: "Main", Name: "IView"}},
		Fields: []lf.FieldExpr{{Name: "n", Expr: &lf.EInt64{Value: 7}}}}
	return lftest.Package{Name: "acsidx", Version: "1.0.0", Imports: []string{}, Modules: []lftest.Module{{Name: "Main",
		DataTypes: []lftest.DataType{
			{Name: "Shared", Serializable: true, Fields: []lftest.Field{{Name: "owner", Type: lftest.B(lftest.Party)}, {Name: "watcher", Type: lftest.B(lftest.Party)}}},
			{Name: "Solo", Serializable: true, Fields: []lftest.Field{{Name: "owner", Type: lftest.B(lftest.Party)}, {Name: "n", Type: lftest.B(lftest.Int64)}}},
			{Name: "I", Kind: "interface"},
			{Name: "IView", Serializable: true, Fields: []lftest.Field{{Name: "n", Type: lftest.B(lftest.Int64)}}},
		},
		Templates: []lftest.Template{
			{Name: "Shared", Signatories: field("owner"), Observers: field("watcher")},
			{Name: "Solo", Implements: []lftest.TyCon{{Ref: lftest.Self(), Module: "Main", Name: "I", View: view}}},
		},
		Interfaces: []lftest.Interface{{Name: "I", View: lftest.Con(lftest.Self(), "Main", "IView")}},
	}}}
}

// acsContract is what acsLedger knows of a contract it created.
type acsContract struct {
	cid, template, owner, watcher, sync string
	rid                                 string // open unassignment
	archived                            bool
}

// acsLedger drives a node through random creates, archives and
// reassignments.
type acsLedger struct {
	n       *ledger.Node
	ctx     context.Context
	pkg     string
	syncs   []string
	parties []string // the last one never has a contract
	cs      []*acsContract
	step    int
}

func (l *acsLedger) party(rng *rand.Rand) string { return l.parties[rng.IntN(len(l.parties)-1)] }

// pick returns a random contract that ok accepts, nil when none does.
func (l *acsLedger) pick(rng *rand.Rand, ok func(c *acsContract) bool) *acsContract {
	var cands []*acsContract
	for _, c := range l.cs {
		if ok(c) {
			cands = append(cands, c)
		}
	}
	if len(cands) == 0 {
		return nil
	}
	return cands[rng.IntN(len(cands))]
}

func (l *acsLedger) createCommand(rng *rand.Rand, owner string) (jsonapi.JsCommand, *acsContract) {
	if rng.IntN(3) == 0 {
		return jsonapi.JsCommand{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: l.pkg + ":Main:Solo",
			CreateArguments: json.RawMessage(fmt.Sprintf(`{"owner": %q, "n": "%d"}`, owner, rng.IntN(100)))}}, &acsContract{template: "Solo", owner: owner}
	}
	watcher := l.party(rng)
	return jsonapi.JsCommand{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: l.pkg + ":Main:Shared",
		CreateArguments: json.RawMessage(fmt.Sprintf(`{"owner": %q, "watcher": %q}`, owner, watcher))}}, &acsContract{template: "Shared", owner: owner, watcher: watcher}
}

// next commits one random update: a transaction (creates, archives of
// the submitter's contracts on the synchronizer, a transient contract), an
// unassignment or an assignment.
func (l *acsLedger) next(t *testing.T, rng *rand.Rand) {
	t.Helper()
	l.step++
	switch k := rng.IntN(10); {
	case k < 6:
		owner := l.party(rng)
		sync := l.syncs[rng.IntN(len(l.syncs))]
		var cmds []jsonapi.JsCommand
		var created []*acsContract
		for range 1 + rng.IntN(3) {
			switch rng.IntN(4) {
			case 0, 1:
				c, rec := l.createCommand(rng, owner)
				cmds = append(cmds, c)
				rec.sync = sync
				created = append(created, rec)
			case 2:
				c := l.pick(rng, func(c *acsContract) bool {
					return !c.archived && c.rid == "" && c.owner == owner && c.sync == sync && !slices.ContainsFunc(cmds, func(x jsonapi.JsCommand) bool {
						return x.ExerciseCommand != nil && x.ExerciseCommand.ContractID == c.cid
					})
				})
				if c != nil {
					cmds = append(cmds, jsonapi.JsCommand{ExerciseCommand: &jsonapi.JsExerciseCommand{TemplateID: l.pkg + ":Main:" + c.template,
						ContractID: c.cid, Choice: "Archive", ChoiceArgument: json.RawMessage(`{}`)}})
				}
			case 3:
				c, _ := l.createCommand(rng, owner)
				cmds = append(cmds, jsonapi.JsCommand{CreateAndExerciseCommand: &jsonapi.JsCreateAndExerciseCommand{TemplateID: c.CreateCommand.TemplateID,
					CreateArguments: c.CreateCommand.CreateArguments, Choice: "Archive", ChoiceArgument: json.RawMessage(`{}`)}})
			}
		}
		if len(cmds) == 0 {
			c, rec := l.createCommand(rng, owner)
			cmds = append(cmds, c)
			rec.sync = sync
			created = append(created, rec)
		}
		resp, err := jsonapi.DecodeAnswer[jsonapi.SubmitAndWaitForTransactionResponse](jsonapi.New(l.n).SubmitAndWaitForTransaction(l.ctx, jsonapi.SubmitAndWaitForTransactionRequest{Commands: jsonapi.JsCommands{
			CommandID: fmt.Sprint("cmd-", l.step), ActAs: []string{owner}, UserID: "u1", SynchronizerID: sync, Commands: cmds}}))
		if err != nil {
			t.Fatalf("step %d: %v", l.step, err)
		}
		for _, ev := range resp.Transaction.Events {
			switch {
			case ev.CreatedEvent != nil:
				created[0].cid = ev.CreatedEvent.ContractID
				l.cs = append(l.cs, created[0])
				created = created[1:]
			case ev.ArchivedEvent != nil:
				for _, c := range l.cs {
					if c.cid == ev.ArchivedEvent.ContractID {
						c.archived = true
					}
				}
			}
		}
		if len(created) != 0 {
			t.Fatalf("step %d: %d created events missing", l.step, len(created))
		}
	case k < 8:
		c := l.pick(rng, func(c *acsContract) bool { return !c.archived && c.rid == "" })
		if c == nil {
			return
		}
		by := c.owner
		if c.watcher != "" && rng.IntN(2) == 0 {
			by = c.watcher
		}
		dst := l.syncs[0]
		if c.sync == dst {
			dst = l.syncs[1]
		}
		r, err := l.n.Reassign(l.ctx, ledger.ReassignCommands{CommandID: fmt.Sprint("un-", l.step), Submitter: by,
			Commands: []ledger.ReassignCommand{ledger.UnassignContract{ContractID: value.ContractID(c.cid), Source: c.sync, Target: dst}}},
			ledger.ReassignmentEvents(ledger.ReadAs(by)))
		var un *update.UnassignedEvent
		if err == nil && len(r.Events) == 1 {
			un, _ = r.Events[0].(*update.UnassignedEvent)
		}
		if un == nil || un.ContractID != value.ContractID(c.cid) {
			t.Fatalf("step %d: unassign: %+v, %v", l.step, r, err)
		}
		c.rid, c.sync = un.ReassignmentID, dst
	default:
		c := l.pick(rng, func(c *acsContract) bool { return c.rid != "" })
		if c == nil {
			return
		}
		src := l.syncs[0]
		if c.sync == src {
			src = l.syncs[1]
		}
		_, err := l.n.Reassign(l.ctx, ledger.ReassignCommands{CommandID: fmt.Sprint("as-", l.step), Submitter: c.owner,
			Commands: []ledger.ReassignCommand{ledger.AssignContract{ReassignmentID: c.rid, Source: src, Target: c.sync}}})
		if err != nil {
			t.Fatalf("step %d: assign: %v", l.step, err)
		}
		c.rid = ""
	}
}

// format returns a random event format by parties: one to three parties,
// each with no filter, a template filter (by package id or name), an
// interface filter with its view, or two of them.
func (l *acsLedger) format(rng *rand.Rand) ledger.ReadFormat {
	rf := ledger.ReadFormat{Parties: map[string][]ledger.Filter{}, Verbose: rng.IntN(2) == 0}
	choices := [][]ledger.Filter{
		nil,
		{ledger.TemplateFilterText(l.pkg+":Main:Shared", false)},
		{ledger.TemplateFilterText("#acsidx:Main:Solo", true)},
		{ledger.InterfaceFilterText(l.pkg+":Main:I", true, false)},
		{ledger.TemplateFilterText("#acsidx:Main:Shared", false), ledger.TemplateFilterText(l.pkg+":Main:Solo", false)},
	}
	for range 1 + rng.IntN(3) {
		p, c := l.parties[rng.IntN(len(l.parties))], choices[rng.IntN(len(choices))]
		rf.Parties[p] = c
	}
	return rf
}

// acsEntry is what the index decides of an active contract a read shows:
// the contract, where it is, to whom, with a blob and interface views or
// not, and its unassignment when in transit.
type acsEntry struct {
	ContractID, WorkflowID, SynchronizerID string
	Counter, Offset                        int64
	Witnesses                              []string
	Blob                                   bool
	Views                                  int
	Unassigned                             string // the reassignment id
}

// typedEntries are the entries of a list of paged contracts.
func typedEntries(cs []ledger.PagedContract) []acsEntry {
	out := []acsEntry{}
	for _, c := range cs {
		out = append(out, typedEntry(c))
	}
	return out
}

// typedEntry is the entry of a contract of a typed page.
func typedEntry(c ledger.PagedContract) acsEntry {
	e := acsEntry{ContractID: string(c.Created.ContractID), WorkflowID: c.WorkflowID, SynchronizerID: c.SynchronizerID,
		Counter: c.ReassignmentCounter, Offset: c.Created.Offset, Witnesses: c.Created.WitnessParties,
		Blob: len(c.Created.Blob) > 0, Views: len(c.Created.InterfaceViews)}
	if c.Unassigned != nil {
		e.Unassigned = c.Unassigned.ReassignmentID
	}
	return e
}

// acsDiff is cmp.Diff of two lists of active contracts (empty and nil
// alike), with reflect.DeepEqual first: cmp takes most of the test's time.
func acsDiff(want, got []acsEntry) string {
	if len(want) == 0 && len(got) == 0 || reflect.DeepEqual(want, got) {
		return ""
	}
	return cmp.Diff(want, got, cmpopts.EquateEmpty())
}

// typedACS reads every page (of size, nil the default) of the active
// contracts at (nil the ledger end) with the typed read.
func (l *acsLedger) typedACS(t *testing.T, f ledger.ReadFormat, at *int64, size *int32, most int) []acsEntry {
	t.Helper()
	got := []acsEntry{}
	req := ledger.PageRequest{At: at, Size: size}
	for pages := 0; ; pages++ {
		page, err := l.n.ActiveContractEventsPage(l.ctx, f, req)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range page.Contracts {
			got = append(got, typedEntry(c))
		}
		if page.NextToken == nil || pages > most+1 {
			return got
		}
		req.Token = page.NextToken
	}
}

// check compares every indexed read with the scan of all contracts: the
// typed pages and walk of the active contracts at every offset and at
// random ones after random contract ids, and the script queries.
func (l *acsLedger) check(t *testing.T, rng *rand.Rand) {
	t.Helper()
	end, err := l.n.LedgerEnd(l.ctx)
	if err != nil {
		t.Fatal(err)
	}
	nonEmpty := 0
	for at := int64(0); at <= end; at++ {
		rf := l.format(rng)
		want := typedEntries(ledger.ACSByScanForTest(t, l.n, at, rf, ""))
		if diff := acsDiff(want, l.typedACS(t, rf, &at, nil, len(want))); diff != "" {
			t.Fatalf("active contracts at %d for %v (-scan +index):\n%s", at, rf.Parties, diff)
		}
		if len(want) > 0 {
			nonEmpty++
		}
	}
	if nonEmpty < int(end)/2 {
		t.Fatalf("only %d of %d reads found contracts: the ledger is too thin to test the index", nonEmpty, end)
	}
	var cids []string
	for _, c := range l.cs {
		cids = append(cids, c.cid)
	}
	for range 60 {
		at, rf := rng.Int64N(end+1), l.format(rng)
		after := ""
		if rng.IntN(4) > 0 {
			after = cids[rng.IntN(len(cids))]
			if rng.IntN(3) == 0 {
				after = after[:10] // between contract ids
			}
		}
		max := 1 + rng.IntN(6)
		want := typedEntries(ledger.ACSByScanForTest(t, l.n, at, rf, after))
		want = want[:min(max, len(want))]
		if diff := acsDiff(want, typedEntries(ledger.ACSAtForTest(t, l.n, at, rf, after, max))); diff != "" {
			t.Fatalf("%d active contracts at %d after %s for %v (-scan +index):\n%s", max, at, after, rf.Parties, diff)
		}
	}
	for i := range 30 {
		at := rng.Int64N(end + 1)
		rf := l.format(rng)
		want := typedEntries(ledger.ACSByScanForTest(t, l.n, at, rf, ""))
		atp := &at
		if i%3 == 0 {
			atp = nil // the ledger end
			want = typedEntries(ledger.ACSByScanForTest(t, l.n, end, rf, ""))
		}
		if diff := acsDiff(want, l.typedACS(t, rf, atp, i32(int32(1+rng.IntN(4))), len(want))); diff != "" {
			t.Fatalf("pages at %d for %v (-scan +index):\n%s", at, rf.Parties, diff)
		}
	}
	for range 5 {
		at := 1 + rng.Int64N(end) // ActiveContractEvents reads 0 as the ledger end
		rf := l.format(rng)
		var want []string
		for _, e := range typedEntries(ledger.ACSByScanForTest(t, l.n, at, rf, "")) {
			if e.Unassigned == "" { // the walk leaves out contracts in transit
				want = append(want, e.ContractID)
			}
		}
		var got []string
		for c, err := range l.n.ActiveContractEvents(l.ctx, rf, at) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, string(c.ContractID))
		}
		if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("walk at %d for %v (-scan +index):\n%s", at, rf.Parties, diff)
		}
	}
	solo := func(tc lf.TypeConID) bool { return tc.Name == "Solo" }
	for _, ps := range [][]string{{l.parties[0]}, {l.parties[1]}, {l.parties[0], l.parties[2]}, l.parties, {l.parties[3]}} {
		for _, match := range []func(lf.TypeConID) bool{nil, solo} {
			got, err := l.n.EngineContracts(l.ctx, ps, match)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(ledger.EngineContractsByScanForTest(t, l.n, ps, match), got); diff != "" {
				t.Fatalf("EngineContracts(%v) (-scan +index):\n%s", ps, diff)
			}
		}
	}
}

// TestACSIndexAgreesWithScan: on a random ledger of creates, archives,
// transient contracts and reassignments among several parties, every read
// of the active contracts by parties (typed pages and walk, at every offset,
// after any contract id, with template and interface filters) and every
// script query answer as the scan of every contract does; a store written
// before the index (no index entries, no marker, and debris of an
// interrupted build) gets the same index on open, whatever the size of
// the build's steps, and the same answers.
func TestACSIndexAgreesWithScan(t *testing.T) {
	t.Parallel()
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 23))
	opts := ledger.Options{Dir: t.TempDir(), Synchronizers: []string{"s1::1220aa", "s2::1220bb"}, ListLimit: 1 << 20,
		Logger: slog.New(slog.DiscardHandler)}
	n, err := ledger.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { n.Close() }()
	ctx := context.Background()
	dar, ids := lftest.DAR(acsIndexPackage())
	for _, s := range opts.Synchronizers {
		if err := n.UploadDAR(ctx, ledger.UploadDARRequest{DAR: dar, SynchronizerID: s}); err != nil {
			t.Fatal(err)
		}
	}
	l := &acsLedger{n: n, ctx: ctx, pkg: ids[0], syncs: opts.Synchronizers}
	for _, p := range []string{"alice", "bob", "carol", "dave"} {
		l.parties = append(l.parties, ledgertest.MustAllocate(t, n, p))
	}
	for range 150 {
		l.next(t, rng)
	}
	l.check(t, rng)
	ledger.CheckEntryRecordsForTest(t, n)
	index := ledger.ACSIndexDumpForTest(t, n)
	// A store whose entries were written before they carried records:
	// the reads look the records up.
	ledger.StripEntryRecordsForTest(t, n)
	l.check(t, rng)

	for _, batch := range []int{1, 3, 50} {
		ledger.UnindexForTest(t, n)
		ledger.RebuildACSIndexForTest(t, n, batch)
		if diff := cmp.Diff(index, ledger.ACSIndexDumpForTest(t, n)); diff != "" {
			t.Fatalf("the index built in operations of %d entries (-written by the commits +built):\n%s", batch, diff)
		}
	}
	ledger.UnindexForTest(t, n)
	if err := n.Close(); err != nil {
		t.Fatal(err)
	}
	if n, err = ledger.Open(opts); err != nil {
		t.Fatal(err)
	}
	l.n = n
	if diff := cmp.Diff(index, ledger.ACSIndexDumpForTest(t, n)); diff != "" {
		t.Fatalf("the index built on open (-written by the commits +built):\n%s", diff)
	}
	ledger.CheckEntryRecordsForTest(t, n)
	l.check(t, rng)

	// An in-memory node restored from the on-disk node's snapshot holds
	// entries that carry records, which its own writes (reassignments
	// above all) must not leave stale.
	var snap bytes.Buffer
	if err := n.Snapshot(ctx, &snap); err != nil {
		t.Fatal(err)
	}
	mem, err := ledger.Open(ledger.Options{InMemory: true, Synchronizers: opts.Synchronizers, ListLimit: opts.ListLimit,
		Logger: opts.Logger, Restore: &snap})
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	l.n = mem
	for range 100 {
		l.next(t, rng)
	}
	l.check(t, rng)
}
