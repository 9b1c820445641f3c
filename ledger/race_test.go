package ledger_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// barrier holds the submissions that reach it until n of them have
// arrived (or a timeout passes, which the test reports).
type barrier struct {
	n        int
	mu       sync.Mutex
	arrived  int
	all      chan struct{}
	timedOut atomic.Bool
}

func newBarrier(n int) *barrier { return &barrier{n: n, all: make(chan struct{})} }

func (b *barrier) arrive() {
	b.mu.Lock()
	b.arrived++
	if b.arrived == b.n {
		close(b.all)
	}
	b.mu.Unlock()
	select {
	case <-b.all:
	case <-time.After(30 * time.Second):
		b.timedOut.Store(true)
	}
}

// raceNode is a Ping node whose submissions pass through a barrier
// between interpretation and commit while one is installed.
type raceNode struct {
	*pingNode
	gate atomic.Pointer[barrier]
}

func newRaceNode(t *testing.T) *raceNode {
	f := &raceNode{pingNode: newPingNode(t)}
	ledger.SetInterpretedHookForTest(f.n, func() {
		if b := f.gate.Load(); b != nil {
			b.arrive()
		}
	})
	return f
}

// respond exercises Respond on a Ping as bob.
func (f *raceNode) respond(cmdID, cid string) (int64, error) {
	resp, err := jsonapi.DecodeAnswer[jsonapi.SubmitAndWaitForTransactionResponse](jsonapi.New(f.n).SubmitAndWaitForTransaction(f.ctx, jsonapi.SubmitAndWaitForTransactionRequest{Commands: jsonapi.JsCommands{
		CommandID: cmdID, ActAs: []string{f.bob}, UserID: "u1",
		Commands: []jsonapi.JsCommand{{ExerciseCommand: &jsonapi.JsExerciseCommand{TemplateID: f.pingID, ContractID: cid,
			Choice: "Respond", ChoiceArgument: json.RawMessage(`{}`)}}},
	}}))
	if err != nil {
		return 0, err
	}
	return resp.Transaction.Offset, nil
}

func (f *raceNode) end(t *testing.T) int64 {
	t.Helper()
	e, err := f.n.LedgerEnd(f.ctx)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// codeOf is the Canton error code of a submission's error ("" for nil).
func codeOf(err error) string {
	if err == nil {
		return ""
	}
	var ae *apierr.Error
	if errors.As(err, &ae) {
		return ae.Code.Name
	}
	return "non-API error: " + err.Error()
}

// checkGapless checks that the stored updates are at offsets 1..end
// without a gap.
func checkGapless(t *testing.T, f *raceNode) {
	t.Helper()
	offs := ledger.TopologyOffsetsForTest(t, f.n)
	end := f.end(t)
	want := make([]int64, end)
	for i := range want {
		want[i] = int64(i + 1)
	}
	if diff := cmp.Diff(want, offs); diff != "" {
		t.Errorf("stored offsets are not 1..%d (-want +got):\n%s", end, diff)
	}
}

// TestRaceRespond runs 64 Respond submissions on distinct Pings together
// with 8 on the same Ping. A barrier between interpretation and commit
// holds all 72 until every one has interpreted on a snapshot where its
// Ping is active: the 64 and exactly one of the 8 commit, the other 7 are
// refused by the committer's re-check with CONTRACT_NOT_ACTIVE, and the
// 65 commits take the 65 offsets after the ledger end, without a gap.
func TestRaceRespond(t *testing.T) {
	t.Parallel()
	f := newRaceNode(t)
	const distinct, racers = 64, 8
	pings := make([]string, distinct+1)
	for i := range pings {
		pings[i] = f.createPing(t, fmt.Sprint("race-", i)).ContractID
	}
	contested := pings[distinct]
	before := f.end(t)

	b := newBarrier(distinct + racers)
	f.gate.Store(b)
	offsets := make([]int64, distinct+racers)
	errs := make([]error, distinct+racers)
	var wg sync.WaitGroup
	for i := range distinct + racers {
		wg.Go(func() {
			cid := contested
			if i < distinct {
				cid = pings[i]
			}
			offsets[i], errs[i] = f.respond(fmt.Sprint("respond-", i), cid)
		})
	}
	wg.Wait()
	f.gate.Store(nil)
	if b.timedOut.Load() {
		t.Fatalf("the barrier timed out: only %d of %d submissions reached the hook", b.arrived, b.n)
	}

	var committed []int64
	for i, err := range errs[:distinct] {
		if err != nil {
			t.Errorf("Respond on distinct Ping %d: %v", i, err)
			continue
		}
		committed = append(committed, offsets[i])
	}
	var codes []string
	winners := 0
	for i, err := range errs[distinct:] {
		if err == nil {
			winners++
			committed = append(committed, offsets[distinct+i])
			continue
		}
		codes = append(codes, codeOf(err))
		var ae *apierr.Error
		if errors.As(err, &ae) && !slices.Contains(ae.Resources, [2]string{"CONTRACT_ID", contested}) {
			t.Errorf("racer %d: resources %v, want the contested contract id", i, ae.Resources)
		}
	}
	if winners != 1 {
		t.Errorf("%d racers won, want exactly 1", winners)
	}
	if diff := cmp.Diff(slices.Repeat([]string{"CONTRACT_NOT_ACTIVE"}, racers-1), codes); diff != "" {
		t.Errorf("the losers' codes (-want +got):\n%s", diff)
	}
	slices.Sort(committed)
	want := make([]int64, distinct+1)
	for i := range want {
		want[i] = before + int64(i+1)
	}
	if diff := cmp.Diff(want, committed); diff != "" {
		t.Errorf("offsets of the commits (-want +got):\n%s", diff)
	}
	if end := f.end(t); end != before+distinct+1 {
		t.Errorf("ledger end %d, want %d", end, before+distinct+1)
	}
	checkGapless(t, f)

	// A racer that interprets after the winner committed does not see the
	// Ping at all: CONTRACT_NOT_FOUND, as in Canton, and nothing is
	// written.
	_, err := f.respond("respond-late", contested)
	if got := codeOf(err); got != "CONTRACT_NOT_FOUND" {
		t.Errorf("Respond after the winner committed: %s (%v), want CONTRACT_NOT_FOUND", got, err)
	}
	if end := f.end(t); end != before+distinct+1 {
		t.Errorf("ledger end %d after the late racer, want %d", end, before+distinct+1)
	}
}

// TestRaceRespondFree races 8 Respond submissions on one Ping without a
// barrier, several times: each time exactly one wins, and each loser is
// refused either by the committer (CONTRACT_NOT_ACTIVE, it interpreted
// before the winner committed) or by interpretation (CONTRACT_NOT_FOUND,
// after); offsets stay gapless.
func TestRaceRespondFree(t *testing.T) {
	t.Parallel()
	f := newRaceNode(t)
	const rounds, racers = 8, 8
	tally := map[string]int{}
	for r := range rounds {
		cid := f.createPing(t, fmt.Sprint("free-", r)).ContractID
		before := f.end(t)
		errs := make([]error, racers)
		var wg sync.WaitGroup
		for i := range racers {
			wg.Go(func() { _, errs[i] = f.respond(fmt.Sprintf("free-%d-%d", r, i), cid) })
		}
		wg.Wait()
		winners := 0
		for i, err := range errs {
			c := codeOf(err)
			tally[c]++
			switch c {
			case "":
				winners++
			case "CONTRACT_NOT_ACTIVE", "CONTRACT_NOT_FOUND":
			default:
				t.Errorf("round %d, racer %d: %s (%v), want CONTRACT_NOT_ACTIVE or CONTRACT_NOT_FOUND", r, i, c, err)
			}
		}
		if winners != 1 {
			t.Errorf("round %d: %d racers won, want exactly 1", r, winners)
		}
		if end := f.end(t); end != before+1 {
			t.Errorf("round %d: ledger end %d, want %d", r, end, before+1)
		}
	}
	t.Logf("outcomes of %d racers (\"\" is a commit): %v", rounds*racers, tally)
	checkGapless(t, f)
}

// TestRaceSubmitUploadView runs submissions (creates and interface
// exercises), package uploads (which invalidate the package views) and
// interface-view reads at once, for the race detector.
func TestRaceSubmitUploadView(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := t.Context()
	ifcDAR, ifcIDs := lftest.DAR(ifcPackage())
	ledgertest.MustUploadDAR(t, n, ifcDAR)
	d1, ids1 := lftest.DAR(tplPackage("1.0.0", ifcIDs[0], ""), ifcPackage())
	ledgertest.MustUploadDAR(t, n, d1)
	alice := ledgertest.MustAllocate(t, n, "alice")
	done := make(chan struct{})
	errs := make(chan error, 100)
	go func() {
		defer close(done)
		prev := ids1[0]
		for i := 2; i < 6; i++ {
			d, ids := lftest.DAR(tplPackage(fmt.Sprintf("%d.0.0", i), ifcIDs[0], prev), ifcPackage())
			if err := n.UploadDAR(ctx, ledger.UploadDARRequest{DAR: d}); err != nil {
				errs <- err
				return
			}
			prev = ids[0]
		}
	}()
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 5 {
				c, err := jsonapi.DecodeAnswer[jsonapi.SubmitAndWaitForTransactionResponse](jsonapi.New(n).SubmitAndWaitForTransaction(ctx, jsonapi.SubmitAndWaitForTransactionRequest{Commands: jsonapi.JsCommands{CommandID: fmt.Sprintf("c%d-%d", w, i), ActAs: []string{alice}, UserID: "u1",
					Commands: []jsonapi.JsCommand{{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: "#tpl:Main:T", CreateArguments: json.RawMessage(`{"owner": "` + alice + `"}`)}}}}}))
				if err != nil {
					errs <- err
					return
				}
				cid := c.Transaction.Events[0].CreatedEvent.ContractID
				if _, err := jsonapi.New(n).SubmitAndWait(ctx, jsonapi.JsCommands{CommandID: fmt.Sprintf("x%d-%d", w, i), ActAs: []string{alice}, UserID: "u1",
					Commands: []jsonapi.JsCommand{{ExerciseCommand: &jsonapi.JsExerciseCommand{TemplateID: ifcIDs[0] + ":Main:I", ContractID: cid, Choice: "Poke", ChoiceArgument: json.RawMessage(`{}`)}}}}); err != nil {
					errs <- err
					return
				}
				end, _ := n.LedgerEnd(ctx)
				f := ledger.ReadFormat{Parties: map[string][]ledger.Filter{alice: {ledger.InterfaceFilterText(ifcIDs[0]+":Main:I", true, false)}}}
				for _, err := range n.ActiveContractEvents(ctx, f, end) {
					if err != nil {
						errs <- err
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	<-done
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
