package ledger_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

func TestStreams(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	var first string
	for i := range 4 {
		p := ledgertest.MustAllocate(t, n, fmt.Sprintf("s%d", i))
		if i == 0 {
			first = p
		}
	}
	f := topologyRead()
	var got []int64
	for u, err := range n.Updates(ctx, f, ledger.OffsetRange{Through: i64(4)}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, u.UpdateOffset())
	}
	if diff := cmp.Diff([]int64{1, 2, 3, 4}, got); diff != "" {
		t.Errorf("closed stream (-want +got):\n%s", diff)
	}
	got = nil
	for u, err := range n.Updates(ctx, f, ledger.OffsetRange{Through: i64(4), Descending: true}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, u.UpdateOffset())
	}
	if diff := cmp.Diff([]int64{4, 3, 2, 1}, got); diff != "" {
		t.Errorf("descending stream (-want +got):\n%s", diff)
	}
	// An open-ended stream for one party follows the ledger.
	one := topologyRead(first)
	tctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	later := allocateLater(n, "later", 20*time.Millisecond)
	got = nil
	for u, err := range n.Updates(tctx, f, ledger.OffsetRange{After: 4, Tail: true}) {
		if err != nil {
			t.Fatal(err)
		}
		if got = append(got, u.UpdateOffset()); len(got) == 1 {
			break
		}
	}
	if err := <-later; err != nil {
		t.Fatalf("allocating while tailing: %v", err)
	}
	if diff := cmp.Diff([]int64{5}, got); diff != "" {
		t.Errorf("tailing stream (-want +got):\n%s", diff)
	}
	count := 0
	for _, err := range n.Updates(ctx, one, ledger.OffsetRange{Through: i64(5)}) {
		if err != nil {
			t.Fatal(err)
		}
		count++
	}
	if count != 1 {
		t.Errorf("party stream saw %d updates, want 1", count)
	}
	for _, err := range n.Updates(ctx, f, ledger.OffsetRange{Through: i64(99)}) {
		if !errors.Is(err, apierr.OffsetAfterLedgerEnd) {
			t.Errorf("an end after the ledger end: %v, want OFFSET_AFTER_LEDGER_END", err)
		}
		break
	}
}

// TestIteratorsReportCancellation checks the cancellation contract: every
// open-ended iterator whose ctx ends yields ctx.Err() as its last element,
// and one whose ctx ended before it started does so at once.
func TestIteratorsReportCancellation(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	p := ledgertest.MustAllocate(t, n, "c")
	f := topologyFormat()
	tail := ledger.OffsetRange{Tail: true}
	drain := func(seq func(func(any, error) bool)) error {
		var last error
		for _, err := range seq {
			last = err
		}
		return last
	}
	iters := []struct {
		name string
		seq  func(ctx context.Context) func(func(any, error) bool)
	}{
		{"Updates", func(ctx context.Context) func(func(any, error) bool) {
			return anySeq(n.Updates(ctx, topologyRead(), tail))
		}},
		{"Transactions", func(ctx context.Context) func(func(any, error) bool) {
			return anySeq(n.Transactions(ctx, ledger.ReadAs(p), tail))
		}},
		{"jsonapi.StreamUpdates", func(ctx context.Context) func(func(any, error) bool) {
			return anySeq(jsonapi.New(n).StreamUpdates(ctx, jsonapi.GetUpdatesRequest{UpdateFormat: &f}))
		}},
		{"Completions", func(ctx context.Context) func(func(any, error) bool) {
			return anySeq(n.Completions(ctx, "participant_admin", []string{p}, 0))
		}},
		{"ActiveContractEvents", func(ctx context.Context) func(func(any, error) bool) {
			return anySeq(n.ActiveContractEvents(ctx, ledger.ReadAs(p), 1))
		}},
	}
	for _, it := range iters {
		t.Run(it.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			if err := drain(it.seq(ctx)); !errors.Is(err, context.Canceled) {
				t.Errorf("cancelled before the start: last error %v, want context.Canceled", err)
			}
		})
	}
	for _, it := range iters[:4] {
		t.Run(it.name+"/tailing", func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			if err := drain(it.seq(ctx)); !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("deadline while tailing: last error %v, want context.DeadlineExceeded", err)
			}
		})
	}
}

// anySeq erases the element type of an iterator.
func anySeq[T any](seq func(func(T, error) bool)) func(func(any, error) bool) {
	return func(yield func(any, error) bool) {
		for v, err := range seq {
			if !yield(v, err) {
				return
			}
		}
	}
}
