package ledger_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// TestUpdatesCheckpoints: a tailing walk yields a *update.OffsetCheckpoint at the
// ledger end after CheckpointDelay idle, once per ledger end, only when
// the range asks for checkpoints; the version service reports the delay.
func TestUpdatesCheckpoints(t *testing.T) {
	t.Parallel()
	node := ledgertest.Open(t, ledger.Options{CheckpointDelay: 20 * time.Millisecond})
	ledgertest.MustAllocate(t, node, "alice")
	v, err := node.Version(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if v.MaxOffsetCheckpointEmissionDelay != 20*time.Millisecond {
		t.Errorf("version reports a checkpoint delay of %v, want 20ms", v.MaxOffsetCheckpointEmissionDelay)
	}
	end, err := node.LedgerEnd(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	format := ledger.UpdateReadFormat{Topology: &ledger.TopologyReadFormat{ParticipantAuthorizations: []string{}}}
	for _, checkpoints := range []bool{false, true} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		var got []int64
		var last error
		for u, err := range node.Updates(ctx, format, ledger.OffsetRange{Tail: true, Checkpoints: checkpoints}) {
			if err != nil {
				last = err
				break
			}
			if c, ok := u.(*update.OffsetCheckpoint); ok {
				got = append(got, c.Offset)
				if len(c.SynchronizerTimes) != 1 || c.SynchronizerTimes[0].RecordTime.IsZero() {
					t.Errorf("checkpoint times %v, want one synchronizer with a time", c.SynchronizerTimes)
				}
			}
		}
		cancel()
		if !errors.Is(last, context.DeadlineExceeded) {
			t.Errorf("checkpoints %v: the walk ended with %v, want the context's end", checkpoints, last)
		}
		want := []int64(nil)
		if checkpoints {
			want = []int64{end} // one, however long the ledger stays idle
		}
		if len(got) != len(want) || len(got) == 1 && got[0] != want[0] {
			t.Errorf("checkpoints %v: got checkpoints at %v, want %v", checkpoints, got, want)
		}
	}
}

// TestCompletionsCheckpoints: the completions stream yields a *update.OffsetCheckpoint
// at the ledger end once it has caught up and stayed idle, once per
// ledger end, after the completions it had to give.
func TestCompletionsCheckpoints(t *testing.T) {
	t.Parallel()
	node := ledgertest.Open(t, ledger.Options{CheckpointDelay: 20 * time.Millisecond})
	alice := ledgertest.MustAllocate(t, node, "alice")
	ledgertest.MustAllocate(t, node, "bob") // moves the ledger end past alice's allocation
	end, err := node.LedgerEnd(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	var got []update.CompletionElement
	var last error
	for c, err := range node.Completions(ctx, identity.DefaultParticipantAdmin, []string{alice}, 0) {
		if err != nil {
			last = err
			break
		}
		got = append(got, c)
	}
	if !errors.Is(last, context.DeadlineExceeded) {
		t.Errorf("the stream ended with %v, want the context's end", last)
	}
	if len(got) != 1 {
		t.Fatalf("got %d elements (%v), want one checkpoint", len(got), got)
	}
	if c, ok := got[0].(*update.OffsetCheckpoint); !ok || c.Offset != end {
		t.Fatalf("got %#v, want a checkpoint at %d", got[0], end)
	}
}
