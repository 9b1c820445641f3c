package ledger_test

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
	"github.com/prometheus/client_golang/prometheus"
)

// histogram reads the sum (seconds) and count of one of the node's
// histograms.
func histogram(tb testing.TB, reg *prometheus.Registry, name string) (sum float64, count uint64) {
	tb.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		tb.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name {
			h := mf.GetMetric()[0].GetHistogram()
			return h.GetSampleSum(), h.GetSampleCount()
		}
	}
	tb.Fatalf("no metric %s", name)
	return 0, 0
}

// heavyNode is a node with lftest.HeavyPackage, a party and one Heavy
// contract of that party.
type heavyNode struct {
	n          *ledger.Node
	reg        *prometheus.Registry
	owner, tpl string
	cid        string
	// interpreted is when the last submission finished its
	// interpretation (set by the interpreted hook, just before the
	// commit).
	interpreted atomic.Int64
}

func newHeavyNode(tb testing.TB) *heavyNode {
	tb.Helper()
	n := ledgertest.Open(tb, ledger.Options{Logger: slog.New(slog.DiscardHandler)})
	ctx := tb.Context()
	d, ids := lftest.DAR(lftest.HeavyPackage())
	ledgertest.MustUploadDAR(tb, n, d)
	h := &heavyNode{n: n, reg: prometheus.NewRegistry(), owner: ledgertest.MustAllocate(tb, n, "owner"), tpl: ids[0] + ":Main:Heavy"}
	h.reg.MustRegister(n.Collector())
	ledger.SetInterpretedHookForTest(n, func() { h.interpreted.Store(time.Now().UnixNano()) })
	resp, err := jsonapi.DecodeAnswer[jsonapi.SubmitAndWaitForTransactionResponse](jsonapi.New(n).SubmitAndWaitForTransaction(ctx, jsonapi.SubmitAndWaitForTransactionRequest{Commands: jsonapi.JsCommands{
		CommandID: "heavy", ActAs: []string{h.owner}, UserID: "u1",
		Commands: []jsonapi.JsCommand{{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: h.tpl,
			CreateArguments: json.RawMessage(fmt.Sprintf(`{"owner": %q}`, h.owner))}}},
	}}))
	if err != nil {
		tb.Fatal(err)
	}
	h.cid = resp.Transaction.Events[0].CreatedEvent.ContractID
	return h
}

// spin exercises the non-consuming Spin {n} on the Heavy contract and
// returns its result.
func (h *heavyNode) spin(tb testing.TB, cmdID string, n int64) string {
	resp, err := jsonapi.DecodeAnswer[jsonapi.SubmitAndWaitForTransactionTreeResponse](jsonapi.New(h.n).SubmitAndWaitForTransactionTree(tb.Context(), jsonapi.JsCommands{CommandID: cmdID, ActAs: []string{h.owner}, UserID: "u1",
		Commands: []jsonapi.JsCommand{{ExerciseCommand: &jsonapi.JsExerciseCommand{TemplateID: h.tpl, ContractID: h.cid,
			Choice: "Spin", ChoiceArgument: json.RawMessage(fmt.Sprintf(`{"n": "%d"}`, n))}}}}))
	if err != nil {
		tb.Error(err)
		return ""
	}
	return string(resp.TransactionTree.EventsByID["0"].ExercisedTreeEvent.Value.ExerciseResult)
}

// spinResult is what Spin n returns: the sum of i*i for i in [0, n),
// modulo lftest.HeavyModulus, as Daml JSON (an Int64 is a string).
func spinResult(n int64) string {
	var acc int64
	for i := range n {
		acc = (acc + i*i) % lftest.HeavyModulus
	}
	return fmt.Sprintf("%q", fmt.Sprint(acc))
}

// BenchmarkCommitterVsInterpretation exercises lftest.HeavyPackage's
// Spin with a small and a large n: interpretation time grows with n, the
// time a commit spends in the committer (the store's commit latency,
// ledgernode_commit_duration_seconds) should not, because interpretation
// runs on the submitter's goroutine before the committer sees the
// transaction. With one client nothing queues, so the commit latency is
// the committer's own time plus the wake-ups of an idle committer; the
// idle case (Spin 10 with a pause as long as Spin 100000's
// interpretation between submissions) measures those wake-ups alone.
// With 8 clients the latency includes queueing and, on 2 cores, waiting
// for a CPU the interpreters hold. Reported: interp-µs/op and
// commit-µs/op (means over the run), commits/s and, with one client, the
// median time from the end of interpretation (the interpreted hook) to
// the response (after-interp-p50-µs), which GC pauses do not skew.
func BenchmarkCommitterVsInterpretation(b *testing.B) {
	for _, tc := range []struct {
		n       int64
		clients int
		idle    time.Duration
	}{
		{n: 10, clients: 1},
		{n: 10_000, clients: 1},
		{n: 100_000, clients: 1},
		{n: 1_000_000, clients: 1},
		{n: 10, clients: 1, idle: 70 * time.Millisecond},
		{n: 10, clients: 8},
		{n: 100_000, clients: 8},
	} {
		name := fmt.Sprintf("n=%d/clients=%d", tc.n, tc.clients)
		if tc.idle > 0 {
			name += "/idle=" + tc.idle.String()
		}
		b.Run(name, func(b *testing.B) {
			h := newHeavyNode(b)
			want := spinResult(tc.n)
			if got := h.spin(b, "warm-up", tc.n); got != want {
				b.Fatalf("Spin %d = %s, want %s", tc.n, got, want)
			}
			iSum0, iCount0 := histogram(b, h.reg, "ledgernode_interpretation_duration_seconds")
			cSum0, cCount0 := histogram(b, h.reg, "ledgernode_commit_duration_seconds")
			var seq atomic.Int64
			// After-interpretation times of a single client: from the
			// interpreted hook to the response (the commit, the wait for
			// it and the response's rendering), one sample per op.
			var after []time.Duration
			start := time.Now()
			b.ResetTimer()
			if tc.clients == 1 {
				for i := range b.N {
					if tc.idle > 0 {
						time.Sleep(tc.idle)
					}
					h.spin(b, fmt.Sprint("spin-", i), tc.n)
					after = append(after, time.Duration(time.Now().UnixNano()-h.interpreted.Load()))
				}
			} else {
				b.SetParallelism((tc.clients + 1) / 2) // GOMAXPROCS is 2 on the benchmark machine
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						h.spin(b, fmt.Sprint("spin-", seq.Add(1)), tc.n)
					}
				})
			}
			b.StopTimer()
			elapsed := time.Since(start)
			iSum, iCount := histogram(b, h.reg, "ledgernode_interpretation_duration_seconds")
			cSum, cCount := histogram(b, h.reg, "ledgernode_commit_duration_seconds")
			if di, dc := iCount-iCount0, cCount-cCount0; di > 0 && dc > 0 {
				b.ReportMetric(1e6*(iSum-iSum0)/float64(di), "interp-µs/op")
				b.ReportMetric(1e6*(cSum-cSum0)/float64(dc), "commit-µs/op")
			}
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "commits/s")
			if len(after) > 0 {
				slices.Sort(after)
				b.ReportMetric(float64(after[len(after)/2].Nanoseconds())/1e3, "after-interp-p50-µs")
			}
		})
	}
}
