package ledger_test

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// TestCommittedTransactionsNotRetained: once callers drop what Submit
// returned, the node keeps none of the committed transactions — its
// command statuses (the last ones succeeded) hold what a status shows,
// not a submission's result.
func TestCommittedTransactionsNotRetained(t *testing.T) {
	n, iou, alice := openIouNode(t)
	ref := ledger.TemplateRef{ID: iou, ByPackageName: true}
	const creates = 20
	var freed atomic.Int32
	for i := range creates {
		res := ledgertest.Submit(t, n, ledger.Commands{ActAs: []string{alice}, Commands: []ledger.Command{
			ledger.CreateCommand{Template: ref, Arguments: value.Record{RecordID: &iou, Fields: []value.RecordField{
				{Label: "owner", Value: value.Party(alice)}, {Label: "amount", Value: value.Int64(int64(i))}}}},
		}})
		runtime.AddCleanup(res.Transaction, func(*atomic.Int32) { freed.Add(1) }, &freed)
	}
	if got, err := n.CommandStatuses(t.Context(), "", ledger.CommandStateSucceeded, creates); err != nil || len(got) != creates {
		t.Fatalf("statuses: %d, %v", len(got), err)
	}
	for range 50 {
		runtime.GC()
		if freed.Load() == creates {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("%d of %d committed transactions freed, want all", freed.Load(), creates)
}
