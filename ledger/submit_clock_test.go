package ledger_test

import (
	"sync"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/ledger"
)

// TestSubmissionStartsAtItsLedgerTime: a submission reads the node's
// clock once for the time it was received (its command status's
// Started) and its ledger time, on a clock that moves at every reading.
func TestSubmissionStartsAtItsLedgerTime(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	f := newFixture(t, ledger.Options{Clock: func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		at = at.Add(time.Second)
		return at
	}})
	iou := f.create(t, "c1", f.alice)
	st, err := f.n.CommandStatuses(f.ctx, "c1", ledger.CommandStateSucceeded, 0)
	if err != nil || len(st) != 1 {
		t.Fatalf("statuses %v, %v", st, err)
	}
	if let, err := time.Parse(time.RFC3339Nano, iou.CreatedAt); err != nil || !st[0].Started.Equal(let) {
		t.Errorf("started at %v, ledger time %s (%v)", st[0].Started, iou.CreatedAt, err)
	}
	if !st[0].RecordTime.After(st[0].Started) || st[0].Completed.Before(st[0].RecordTime) {
		t.Errorf("started %v, recorded %v, completed %v", st[0].Started, st[0].RecordTime, st[0].Completed)
	}
}
