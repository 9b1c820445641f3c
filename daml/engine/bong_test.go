package engine_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
)

const (
	pingDARName = "canton-builtin-admin-workflow-ping.dar"
	pingPkgName = "canton-builtin-admin-workflow-ping"
	bongModule  = "Canton.Internal.Bong"
)

// nodeOpts compare transaction nodes: empty and nil party sets and child
// lists are the same.
var nodeOpts = cmp.Options{cmpopts.EquateEmpty()}

// set returns the sorted set of the parties.
func set(ps ...string) []string {
	out := slices.Clone(ps)
	slices.Sort(out)
	return slices.Compact(out)
}

// createdIDs returns the ids of the Create nodes of t in pre-order.
func createdIDs(t *tx.Transaction) []value.ContractID {
	var out []value.ContractID
	for _, n := range t.All() {
		if c, ok := n.(*tx.Create); ok {
			out = append(out, c.ContractID)
		}
	}
	return out
}

// TestPingRealDAR checks the Ping template of the real DAR through the
// engine's public API only, against a ledger that commits with suffixed
// contract ids: the create's signatories and observers, Respond by the
// responder (a consuming exercise with result ()), Respond by the
// initiator (an authorization error the tx model reports).
func TestPingRealDAR(t *testing.T) {
	d := loadDAR(t, pingDARName)
	e := engine.New(d, engine.Options{})
	ctx := context.Background()
	ping := typeID(t, d, pingPkgName, "Canton.Internal.Ping", "Ping")
	respond := typeID(t, d, pingPkgName, "Canton.Internal.Ping", "Respond")
	led := newLedger()

	arg, err := e.NewRecord(ping, engine.Text("ping-1"), engine.Party("alice"), engine.Party("bob"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Submit(ctx, engine.Submission{ActAs: []string{"alice"}, Contracts: led}, engine.CreateCommand(ping, arg))
	if err != nil {
		t.Fatal(err)
	}
	ids := createdIDs(res.Transaction)
	if len(ids) != 1 {
		t.Fatalf("created %v", ids)
	}
	want := []tx.Node{&tx.Create{ContractID: ids[0], PackageName: pingPkgName, TemplateID: ping,
		Arg:         lrec(ping, "id", value.Text("ping-1"), "initiator", value.Party("alice"), "responder", value.Party("bob")),
		Signatories: []string{"alice"}, Stakeholders: []string{"alice", "bob"}, Version: tx.VersionNoKey}}
	if diff := cmp.Diff(want, res.Transaction.Nodes, nodeOpts); diff != "" {
		t.Errorf("Ping create (-want +got):\n%s", diff)
	}
	if c := res.Transaction.Nodes[0].(*tx.Create); !slices.Equal(c.Observers(), []string{"bob"}) {
		t.Errorf("observers %v, want [bob]", c.Observers())
	}
	if got := ledgerValue(t, res.Results[0]); got != value.Value(ids[0]) {
		t.Errorf("create result %v, want %s", got, ids[0])
	}
	if diff := cmp.Diff(tx.Effects{Created: ids, ConsumedBy: map[value.ContractID]tx.NodeID{}}, res.Effects, nodeOpts); diff != "" {
		t.Errorf("create effects (-want +got):\n%s", diff)
	}
	_, results := led.commit(t, res)
	cid := results[0].(engine.ContractID)
	if len(cid) != 138 || !led.isActive(cid) {
		t.Fatalf("committed ping %s (active %v)", cid, led.isActive(cid))
	}

	rarg, err := e.NewRecord(respond)
	if err != nil {
		t.Fatal(err)
	}
	// The initiator is not the controller.
	_, err = e.Submit(ctx, engine.Submission{ActAs: []string{"alice"}, Contracts: led}, engine.ExerciseCommand(ping, "Respond", cid, rarg))
	if ee := engineErr(t, err); ee.Kind != engine.ErrFailedAuthorization {
		t.Errorf("Respond by alice: %v, want FailedAuthorization", err)
	}
	var auth *tx.AuthorizationError
	if !errors.As(err, &auth) {
		t.Fatalf("Respond by alice: %v has no *tx.AuthorizationError cause", err)
	}
	wantAuth := &tx.AuthorizationError{Kind: tx.ExerciseMissingAuthorization, NodeID: 0, TemplateID: ping, Choice: "Respond",
		Required: []string{"bob"}, Authorizers: []string{"alice"}}
	if diff := cmp.Diff(wantAuth, auth, nodeOpts); diff != "" {
		t.Errorf("Respond by alice (-want +got):\n%s", diff)
	}

	res, err = e.Submit(ctx, engine.Submission{ActAs: []string{"bob"}, Contracts: led}, engine.ExerciseCommand(ping, "Respond", cid, rarg))
	if err != nil {
		t.Fatal(err)
	}
	want = []tx.Node{&tx.Exercise{TargetID: value.ContractID(cid), PackageName: pingPkgName, TemplateID: ping, Choice: "Respond",
		Consuming: true, ActingParties: []string{"bob"}, ChosenValue: lrec(respond),
		Signatories: []string{"alice"}, Stakeholders: []string{"alice", "bob"}, Result: value.Unit{}, Version: tx.VersionNoKey}}
	if diff := cmp.Diff(want, res.Transaction.Nodes, nodeOpts); diff != "" {
		t.Errorf("Respond (-want +got):\n%s", diff)
	}
	if got := string(value.AppendJSON(nil, res.Transaction.Nodes[0].(*tx.Exercise).Result)); got != "{}" {
		t.Errorf("Respond result in JSON %s, want {}", got)
	}
	if res.Results[0] != (engine.Unit{}) {
		t.Errorf("Respond result %v, want ()", res.Results[0])
	}
	if diff := cmp.Diff([]value.ContractID{value.ContractID(cid)}, res.Effects.Archived); diff != "" {
		t.Errorf("Respond archives (-want +got):\n%s", diff)
	}
	led.commit(t, res)
	if led.isActive(cid) {
		t.Errorf("ping %s still active after Respond", cid)
	}
	// The archived ping is gone.
	_, err = e.Submit(ctx, engine.Submission{ActAs: []string{"bob"}, Contracts: led}, engine.ExerciseCommand(ping, "Respond", cid, rarg))
	if ee := engineErr(t, err); ee.Kind != engine.ErrContractNotFound {
		t.Errorf("Respond on the archived ping: %v, want ContractNotFound", err)
	}
}

// bong holds the ids of the Bong module of the ping DAR and the engine.
type bong struct {
	e                                                 *engine.Engine
	proposal, bongT, explode, merge, collapse, either lf.TypeConID
	tuple2                                            lf.TypeConID
	accept, processExplode, processMerge, processColl lf.TypeConID
}

func newBong(t testing.TB) *bong {
	d := loadDAR(t, pingDARName)
	id := func(n string) lf.TypeConID { return typeID(t, d, pingPkgName, bongModule, n) }
	return &bong{
		e:        engine.New(d, engine.Options{}),
		proposal: id("BongProposal"), bongT: id("Bong"), explode: id("Explode"), merge: id("Merge"), collapse: id("Collapse"),
		accept: id("Accept"), processExplode: id("ProcessExplode"), processMerge: id("ProcessMerge"), processColl: id("ProcessCollapse"),
		either: typeID(t, d, "daml-prim-DA-Types", "DA.Types", "Either"),
		tuple2: typeID(t, d, "daml-prim-DA-Types", "DA.Types", "Tuple2"),
	}
}

// bongConfig is one run of the Bong workflow.
type bongConfig struct {
	id         string
	initiator  string
	candidates []string
	responders []string
	maxLevel   int64
	timeout    time.Time
}

// winner is the responder that processes the Explode or Merge at path.
func (c *bongConfig) winner(path string) string { return c.responders[len(path)%len(c.responders)] }

// bongRun is the state of one run: the expected contract data.
type bongRun struct {
	*bong
	t          *testing.T
	cfg        bongConfig
	led        *ledger
	validators []string       // accepted so far, most recent first (validator :: validators)
	last       *engine.Result // the last submission's
}

func (r *bongRun) ts() value.Timestamp { return value.Timestamp(r.cfg.timeout.UnixMicro()) }

func (r *bongRun) sigs() []string { return set(append([]string{r.cfg.initiator}, r.validators...)...) }

// stakeholders of an Explode, Merge or Collapse.
func (r *bongRun) stakeholders() []string { return set(append(r.sigs(), r.cfg.responders...)...) }

func (r *bongRun) proposalArg(candidates []string) value.Value {
	return lrec(r.proposal, "id", value.Text(r.cfg.id), "initiator", value.Party(r.cfg.initiator),
		"candidates", lparties(candidates...), "validators", lparties(r.validators...), "responders", lparties(r.cfg.responders...),
		"maxLevel", value.Int64(r.cfg.maxLevel), "timeout", r.ts())
}

func (r *bongRun) explodeArg(path string) value.Value {
	return lrec(r.explode, "id", value.Text(r.cfg.id), "initiator", value.Party(r.cfg.initiator),
		"validators", lparties(r.validators...), "responders", lparties(r.cfg.responders...),
		"path", value.Text(path), "maxLevel", value.Int64(r.cfg.maxLevel), "timeout", r.ts())
}

// mcArg is the argument of a Merge or Collapse (same fields).
func (r *bongRun) mcArg(tpl lf.TypeConID, path string) value.Value {
	return lrec(tpl, "id", value.Text(r.cfg.id), "initiator", value.Party(r.cfg.initiator),
		"validators", lparties(r.validators...), "responders", lparties(r.cfg.responders...),
		"path", value.Text(path), "timeout", r.ts())
}

func (r *bongRun) bongArg(winner string) value.Value {
	return lrec(r.bongT, "id", value.Text(r.cfg.id), "initiator", value.Party(r.cfg.initiator),
		"validators", lparties(r.validators...), "responder", value.Party(winner), "observers", lparties(r.cfg.responders...),
		"timeout", r.ts())
}

func (r *bongRun) left(v value.Value) value.Value {
	return value.Variant{VariantID: &r.either, Constructor: "Left", Rank: 0, Value: v}
}

func (r *bongRun) right(v value.Value) value.Value {
	return value.Variant{VariantID: &r.either, Constructor: "Right", Rank: 1, Value: v}
}

func (r *bongRun) pair(a, b value.Value) value.Value { return lrec(r.tuple2, "_1", a, "_2", b) }

func (r *bongRun) create(cid value.ContractID, tpl lf.TypeConID, arg value.Value, sigs, stakeholders []string) *tx.Create {
	return &tx.Create{ContractID: cid, PackageName: pingPkgName, TemplateID: tpl, Arg: arg, Signatories: sigs,
		Stakeholders: stakeholders, Version: tx.VersionNoKey}
}

func (r *bongRun) exercise(target value.ContractID, tpl lf.TypeConID, choice string, actors []string, arg, result value.Value,
	sigs, stakeholders []string, children ...tx.NodeID) *tx.Exercise {
	return &tx.Exercise{TargetID: target, PackageName: pingPkgName, TemplateID: tpl, Choice: choice, Consuming: true,
		ActingParties: actors, ChosenValue: arg, Signatories: sigs, Stakeholders: stakeholders, Children: children,
		Result: result, Version: tx.VersionNoKey}
}

// submit runs one command as the given parties, checks the transaction
// against want(created ids), its effects and the command result, commits
// it and returns the committed result.
func (r *bongRun) submit(step string, actAs []string, cmd engine.Value, inputs []value.ContractID,
	want func(ids []value.ContractID) []tx.Node) engine.Value {
	t := r.t
	t.Helper()
	res, err := r.e.Submit(context.Background(), engine.Submission{ActAs: actAs, Contracts: r.led,
		LedgerTime: engine.Timestamp(r.cfg.timeout.Add(-time.Hour).UnixMicro())}, cmd)
	if err != nil {
		t.Fatalf("%s: %v", step, err)
	}
	ids := createdIDs(res.Transaction)
	wantNodes := want(ids)
	if diff := cmp.Diff(wantNodes, res.Transaction.Nodes, nodeOpts); diff != "" {
		t.Fatalf("%s: transaction (-want +got):\n%s", step, diff)
	}
	if diff := cmp.Diff([]tx.NodeID{0}, res.Transaction.Roots); diff != "" {
		t.Errorf("%s: roots (-want +got):\n%s", step, diff)
	}
	// The command's result is its root node's (a create's is its id).
	var rootResult value.Value = ids[0]
	if ex, ok := wantNodes[0].(*tx.Exercise); ok {
		rootResult = ex.Result
	}
	if diff := cmp.Diff(rootResult, ledgerValue(t, res.Results[0])); diff != "" {
		t.Errorf("%s: command result (-want +got):\n%s", step, diff)
	}
	wantEff := tx.Effects{Inputs: inputs, Created: ids, Archived: inputs, ConsumedBy: map[value.ContractID]tx.NodeID{}}
	if len(inputs) > 0 {
		wantEff.Archived = nil
		for id, n := range res.Transaction.All() {
			if ex, ok := n.(*tx.Exercise); ok {
				wantEff.Archived = append(wantEff.Archived, ex.TargetID)
				wantEff.ConsumedBy[ex.TargetID] = id
			}
		}
	}
	if diff := cmp.Diff(wantEff, res.Effects, nodeOpts); diff != "" {
		t.Errorf("%s: effects (-want +got):\n%s", step, diff)
	}
	r.last = res
	_, results := r.led.commit(t, res)
	for _, in := range inputs {
		if r.led.isActive(engine.ContractID(in)) {
			t.Errorf("%s: input %s still active", step, in)
		}
	}
	return results[0]
}

// cidOf returns the contract id of an Either's payload (Left or Right).
func eitherCID(t *testing.T, v engine.Value, con string) engine.ContractID {
	t.Helper()
	vr, ok := v.(*engine.Variant)
	if !ok || vr.Con != con {
		t.Fatalf("result %#v, want %s cid", v, con)
	}
	return vr.Value.(engine.ContractID)
}

func pairOf(t *testing.T, v engine.Value) (engine.Value, engine.Value) {
	t.Helper()
	rec, ok := v.(*engine.Record)
	if !ok || len(rec.Fields) != 2 {
		t.Fatalf("result %#v, want a pair", v)
	}
	return rec.Fields[0], rec.Fields[1]
}

// run plays the whole workflow of the comment at the end of
// Canton/Internal/Bong.daml: the proposal, an Accept by each candidate,
// ProcessExplode down to maxLevel, ProcessMerge back up, the Bong.
func (r *bongRun) run() {
	t, cfg := r.t, r.cfg
	e := r.e
	cands := cfg.candidates

	// The proposal.
	arg, err := e.NewRecord(r.proposal, engine.Text(cfg.id), engine.Party(cfg.initiator), partiesOf(cands...), partiesOf(),
		partiesOf(cfg.responders...), engine.Int64(cfg.maxLevel), engine.Timestamp(cfg.timeout.UnixMicro()))
	if err != nil {
		t.Fatal(err)
	}
	propArg := r.proposalArg(cands)
	propSH := set(append(append(r.sigs(), cands...), cfg.responders...)...)
	cid := r.submit("BongProposal", []string{cfg.initiator}, engine.CreateCommand(r.proposal, arg), nil, func(ids []value.ContractID) []tx.Node {
		return []tx.Node{r.create(ids[0], r.proposal, propArg, r.sigs(), propSH)}
	}).(engine.ContractID)

	// Accept by each candidate; the last one creates the Explode.
	var explode engine.ContractID
	for i, c := range cands {
		target, targetSigs, targetSH := value.ContractID(cid), r.sigs(), propSH
		acc, err := e.NewRecord(r.accept, engine.Party(c))
		if err != nil {
			t.Fatal(err)
		}
		r.validators = append([]string{c}, r.validators...)
		last := i == len(cands)-1
		rest := cands[i+1:]
		res := r.submit("Accept by "+c, []string{c}, engine.ExerciseCommand(r.proposal, "Accept", cid, acc), []value.ContractID{target},
			func(ids []value.ContractID) []tx.Node {
				var created tx.Node
				var result value.Value
				if last {
					created = r.create(ids[0], r.explode, r.explodeArg(""), r.sigs(), r.stakeholders())
					result = r.right(ids[0])
				} else {
					created = r.create(ids[0], r.proposal, r.proposalArg(rest), r.sigs(), set(append(append(r.sigs(), rest...), cfg.responders...)...))
					result = r.left(ids[0])
				}
				return []tx.Node{r.exercise(target, r.proposal, "Accept", []string{c}, lrec(r.accept, "validator", value.Party(c)), result,
					targetSigs, targetSH, 1), created}
			})
		if last {
			explode = eitherCID(t, res, "Right")
		} else {
			cid = eitherCID(t, res, "Left")
			propSH = set(append(append(r.sigs(), rest...), cfg.responders...)...)
		}
	}

	// ProcessExplode, breadth first, down to maxLevel.
	merges := map[string]engine.ContractID{}
	collapses := map[string][]engine.ContractID{}
	type work struct {
		cid  engine.ContractID
		path string
	}
	queue := []work{{explode, ""}}
	for len(queue) > 0 {
		w := queue[0]
		queue = queue[1:]
		winner := cfg.winner(w.path)
		parg, err := e.NewRecord(r.processExplode, engine.Party(winner))
		if err != nil {
			t.Fatal(err)
		}
		deeper := int64(len(w.path))+1 < cfg.maxLevel
		res := r.submit("ProcessExplode "+w.path, []string{winner}, engine.ExerciseCommand(r.explode, "ProcessExplode", w.cid, parg),
			[]value.ContractID{value.ContractID(w.cid)}, func(ids []value.ContractID) []tx.Node {
				sigs, sh := r.sigs(), r.stakeholders()
				mrg := r.create(ids[0], r.merge, r.mcArg(r.merge, w.path), sigs, sh)
				var l, rt *tx.Create
				var result value.Value
				if deeper {
					l = r.create(ids[1], r.explode, r.explodeArg(w.path+"L"), sigs, sh)
					rt = r.create(ids[2], r.explode, r.explodeArg(w.path+"R"), sigs, sh)
					result = r.pair(ids[0], r.left(r.pair(ids[1], ids[2])))
				} else {
					l = r.create(ids[1], r.collapse, r.mcArg(r.collapse, w.path), sigs, sh)
					rt = r.create(ids[2], r.collapse, r.mcArg(r.collapse, w.path), sigs, sh)
					result = r.pair(ids[0], r.right(r.pair(ids[1], ids[2])))
				}
				return []tx.Node{r.exercise(value.ContractID(w.cid), r.explode, "ProcessExplode", []string{winner},
					lrec(r.processExplode, "winner", value.Party(winner)), result, sigs, sh, 1, 2, 3), mrg, l, rt}
			})
		mrg, rest := pairOf(t, res)
		merges[w.path] = mrg.(engine.ContractID)
		v, ok := rest.(*engine.Variant)
		if !ok {
			t.Fatalf("ProcessExplode result %#v", res)
		}
		l, rt := pairOf(t, v.Value)
		if deeper {
			if v.Con != "Left" {
				t.Fatalf("ProcessExplode %q: %s, want Left", w.path, v.Con)
			}
			queue = append(queue, work{l.(engine.ContractID), w.path + "L"}, work{rt.(engine.ContractID), w.path + "R"})
		} else {
			if v.Con != "Right" {
				t.Fatalf("ProcessExplode %q: %s, want Right", w.path, v.Con)
			}
			collapses[w.path] = []engine.ContractID{l.(engine.ContractID), rt.(engine.ContractID)}
		}
	}
	if want := 1<<cfg.maxLevel - 1; len(merges) != want {
		t.Fatalf("%d merges, want %d", len(merges), want)
	}

	// The root Merge refuses the Collapses of the leftmost leaf.
	if cfg.maxLevel > 1 {
		r.badMerge(merges[""], collapses[strings.Repeat("L", int(cfg.maxLevel-1))])
	}

	// ProcessMerge, deepest paths first, L before R.
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
	var final engine.ContractID
	var finalWinner string
	for _, p := range paths {
		winner := cfg.winner(p)
		lr := collapses[p]
		if len(lr) != 2 {
			t.Fatalf("path %q: collapses %v", p, lr)
		}
		marg, err := e.NewRecord(r.processMerge, engine.Party(winner), lr[0], lr[1])
		if err != nil {
			t.Fatal(err)
		}
		mcid := merges[p]
		inputs := []value.ContractID{value.ContractID(mcid), value.ContractID(lr[0]), value.ContractID(lr[1])}
		res := r.submit("ProcessMerge "+p, []string{winner}, engine.ExerciseCommand(r.merge, "ProcessMerge", mcid, marg), inputs,
			func(ids []value.ContractID) []tx.Node {
				sigs, sh := r.sigs(), r.stakeholders()
				// Fetches act for the authorizers (Merge signatories and the
				// winner) among the Collapse's stakeholders.
				actors := []string{}
				for _, p := range set(append(slices.Clone(sigs), winner)...) {
					if slices.Contains(sh, p) {
						actors = append(actors, p)
					}
				}
				fetch := func(c engine.ContractID) *tx.Fetch {
					return &tx.Fetch{ContractID: value.ContractID(c), PackageName: pingPkgName, TemplateID: r.collapse,
						ActingParties: actors, Signatories: sigs, Stakeholders: sh, Version: tx.VersionNoKey}
				}
				collapse := func(c engine.ContractID) *tx.Exercise {
					return r.exercise(value.ContractID(c), r.collapse, "ProcessCollapse", []string{winner},
						lrec(r.processColl, "winner", value.Party(winner)), value.Unit{}, sigs, sh)
				}
				var created *tx.Create
				var result value.Value
				if p == "" {
					created = r.create(ids[0], r.bongT, r.bongArg(winner), set(cfg.initiator, winner),
						set(append(append([]string{cfg.initiator, winner}, cfg.responders...), r.validators...)...))
					result = r.left(ids[0])
				} else {
					created = r.create(ids[0], r.collapse, r.mcArg(r.collapse, p[:len(p)-1]), sigs, sh)
					result = r.right(ids[0])
				}
				return []tx.Node{
					r.exercise(value.ContractID(mcid), r.merge, "ProcessMerge", []string{winner},
						lrec(r.processMerge, "winner", value.Party(winner), "leftId", value.ContractID(lr[0]), "rightId", value.ContractID(lr[1])),
						result, sigs, sh, 1, 2, 3, 4, 5),
					fetch(lr[0]), fetch(lr[1]), collapse(lr[0]), collapse(lr[1]), created,
				}
			})
		if p == "" {
			final, finalWinner = eitherCID(t, res, "Left"), winner
			r.checkFinalEvents()
		} else {
			parent := p[:len(p)-1]
			collapses[parent] = append(collapses[parent], eitherCID(t, res, "Right"))
		}
	}

	// The ledger holds the Bong and nothing else.
	if len(r.led.active) != 1 || r.led.active[final] == nil {
		t.Fatalf("active contracts at the end: %v, want only the Bong %s", r.led.active, final)
	}
	b := r.led.active[final]
	if diff := cmp.Diff(r.bongArg(finalWinner), b.Arg); b.TemplateID != r.bongT || diff != "" {
		t.Errorf("final Bong %s (-want +got):\n%s", b.TemplateID, diff)
	}
	if want := set(cfg.initiator, finalWinner); !slices.Equal(b.Signatories, want) {
		t.Errorf("Bong signatories %v, want %v", b.Signatories, want)
	}
	t.Logf("maxLevel %d: %d transactions committed", cfg.maxLevel, len(r.led.committed))
}

// checkFinalEvents checks what the initiator sees of the last
// ProcessMerge: in LEDGER_EFFECTS the root exercise (its subtree ends at
// the Bong), the two ProcessCollapse and the Bong (fetches are no
// events); in ACS_DELTA the three archives and the Bong.
func (r *bongRun) checkFinalEvents() {
	t := r.t
	t.Helper()
	type ev struct {
		Kind           tx.EventKind
		Node, LastDesc tx.NodeID
		Witnesses      []string
		AcsDelta       bool
	}
	events := func(shape tx.Shape) []ev {
		var out []ev
		for _, e := range r.last.Transaction.Events([]string{r.cfg.initiator}, shape) {
			out = append(out, ev{e.Kind, e.NodeID, e.LastDescendant, e.Witnesses, e.AcsDelta})
		}
		return out
	}
	w := []string{r.cfg.initiator}
	want := []ev{{tx.Exercised, 0, 5, w, true}, {tx.Exercised, 3, 3, w, true}, {tx.Exercised, 4, 4, w, true}, {tx.Created, 5, 5, w, true}}
	if diff := cmp.Diff(want, events(tx.LedgerEffects)); diff != "" {
		t.Errorf("final ProcessMerge, ledger effects for %s (-want +got):\n%s", r.cfg.initiator, diff)
	}
	want = []ev{{tx.Archived, 0, 5, w, true}, {tx.Archived, 3, 3, w, true}, {tx.Archived, 4, 4, w, true}, {tx.Created, 5, 5, w, true}}
	if diff := cmp.Diff(want, events(tx.AcsDelta)); diff != "" {
		t.Errorf("final ProcessMerge, ACS delta for %s (-want +got):\n%s", r.cfg.initiator, diff)
	}
}

// badMerge checks that ProcessMerge with Collapses of another path fails
// on the assertion, and changes nothing.
func (r *bongRun) badMerge(merge engine.ContractID, lr []engine.ContractID) {
	t := r.t
	t.Helper()
	winner := r.cfg.winner("")
	marg, err := r.e.NewRecord(r.processMerge, engine.Party(winner), lr[0], lr[1])
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.e.Submit(context.Background(), engine.Submission{ActAs: []string{winner}, Contracts: r.led},
		engine.ExerciseCommand(r.merge, "ProcessMerge", merge, marg))
	checkAssertionFailed(t, "ProcessMerge with Collapses of path L", err)
}

func checkAssertionFailed(t *testing.T, what string, err error) {
	t.Helper()
	ee := engineErr(t, err)
	if ee.Kind != engine.ErrFailureStatus || ee.ErrorID != "UNHANDLED_EXCEPTION/DA.Exception.AssertionFailed:AssertionFailed" ||
		ee.Message != "Assertion failed" || ee.Exception == nil {
		t.Errorf("%s: %v, want an unhandled AssertionFailed \"Assertion failed\"", what, err)
	}
}

func TestBongWorkflow(t *testing.T) {
	timeout := time.Date(2007, time.April, 5, 14, 30, 5, 0, time.UTC)
	for _, tc := range []struct {
		name string
		cfg  bongConfig
	}{
		// The script of the comment at the end of Bong.daml.
		{"script/maxLevel1", bongConfig{id: "1", initiator: "alice", candidates: []string{"alice"}, responders: []string{"bob"}, maxLevel: 1, timeout: timeout}},
		{"script/maxLevel2", bongConfig{id: "1", initiator: "alice", candidates: []string{"alice"}, responders: []string{"bob"}, maxLevel: 2, timeout: timeout}},
		// Two candidates who are not the initiator; winners alternate.
		{"two-candidates/maxLevel1", bongConfig{id: "b-2", initiator: "alice", candidates: []string{"bob", "charlie"}, responders: []string{"dave", "erin"}, maxLevel: 1, timeout: timeout}},
		{"two-candidates/maxLevel2", bongConfig{id: "b-2", initiator: "alice", candidates: []string{"bob", "charlie"}, responders: []string{"dave", "erin"}, maxLevel: 2, timeout: timeout}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &bongRun{bong: newBong(t), t: t, cfg: tc.cfg, led: newLedger()}
			r.run()
		})
	}
}

// TestBongConcurrent runs Bong workflows in parallel on one engine (its
// compiled definitions and top-level values are shared): each must come
// out as when run alone.
func TestBongConcurrent(t *testing.T) {
	shared := newBong(t)
	timeout := time.Date(2007, time.April, 5, 14, 30, 5, 0, time.UTC)
	for i := range 4 {
		cfg := bongConfig{id: fmt.Sprint("c-", i), initiator: "alice", candidates: []string{"bob", "charlie"}[:1+i%2],
			responders: []string{"dave", "erin"}, maxLevel: int64(1 + i%3), timeout: timeout}
		t.Run(cfg.id, func(t *testing.T) {
			t.Parallel()
			r := &bongRun{bong: shared, t: t, cfg: cfg, led: newLedger()}
			r.run()
		})
	}
}

// TestBongFailures checks the failures the Bong module's code raises.
func TestBongFailures(t *testing.T) {
	b := newBong(t)
	ctx := context.Background()
	timeout := engine.Timestamp(time.Date(2007, time.April, 5, 14, 30, 5, 0, time.UTC).UnixMicro())
	proposal := func(candidates, validators []string) engine.Value {
		arg, err := b.e.NewRecord(b.proposal, engine.Text("1"), engine.Party("alice"), partiesOf(candidates...), partiesOf(validators...),
			partiesOf("bob"), engine.Int64(1), timeout)
		if err != nil {
			t.Fatal(err)
		}
		return engine.CreateCommand(b.proposal, arg)
	}
	for _, tc := range []struct {
		name                   string
		candidates, validators []string
		show                   string // the contract in the message
	}{
		{"duplicate candidates", []string{"bob", "bob"}, nil, "candidates = ['bob','bob'], validators = []"},
		{"duplicate validators", []string{"bob"}, []string{"alice", "alice"}, "candidates = ['bob'], validators = ['alice','alice']"},
		{"no candidates", nil, nil, "candidates = [], validators = []"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := b.e.Submit(ctx, engine.Submission{ActAs: []string{"alice"}}, proposal(tc.candidates, tc.validators))
			ee := engineErr(t, err)
			if ee.Kind != engine.ErrFailureStatus || ee.ErrorID != "UNHANDLED_EXCEPTION/DA.Exception.PreconditionFailed:PreconditionFailed" ||
				ee.Category != 9 || ee.Exception == nil {
				t.Errorf("got %v (kind %v, id %q), want an unhandled PreconditionFailed", err, ee.Kind, ee.ErrorID)
			}
			want := `Template precondition violated: BongProposal {id = "1", initiator = 'alice', ` + tc.show +
				`, responders = ['bob'], maxLevel = 1, timeout = 2007-04-05T14:30:05Z}`
			if ee.Message != want {
				t.Errorf("message %q,\nwant %q", ee.Message, want)
			}
		})
	}

	led := newLedger()
	res, err := b.e.Submit(ctx, engine.Submission{ActAs: []string{"alice"}, Contracts: led}, proposal([]string{"bob"}, nil))
	if err != nil {
		t.Fatal(err)
	}
	_, results := led.commit(t, res)
	cid := results[0].(engine.ContractID)
	accept := func(validator string) engine.Value {
		arg, err := b.e.NewRecord(b.accept, engine.Party(validator))
		if err != nil {
			t.Fatal(err)
		}
		return engine.ExerciseCommand(b.proposal, "Accept", cid, arg)
	}
	// eve controls her own Accept but is no candidate.
	_, err = b.e.Submit(ctx, engine.Submission{ActAs: []string{"eve"}, Contracts: led}, accept("eve"))
	checkAssertionFailed(t, "Accept by a non-candidate", err)
	// alice cannot accept for bob.
	_, err = b.e.Submit(ctx, engine.Submission{ActAs: []string{"alice"}, Contracts: led}, accept("bob"))
	if ee := engineErr(t, err); ee.Kind != engine.ErrFailedAuthorization {
		t.Errorf("Accept for bob by alice: %v, want FailedAuthorization", err)
	}
	if !led.isActive(cid) {
		t.Error("failed submissions changed the ledger")
	}
}
