package ledger_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/ledger"
)

func TestStreams(t *testing.T) {
	n := openNode(t, ledger.Options{})
	ctx := context.Background()
	var first string
	for i := range 4 {
		p := allocate(t, ctx, n, fmt.Sprintf("s%d", i)).Party
		if i == 0 {
			first = p
		}
	}
	f := topologyFormat()
	var got []int64
	for u, err := range n.StreamUpdates(ctx, ledger.GetUpdatesRequest{UpdateFormat: &f, EndInclusive: i64(4)}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, u.Update.Offset())
	}
	if diff := cmp.Diff([]int64{1, 2, 3, 4}, got); diff != "" {
		t.Errorf("closed stream (-want +got):\n%s", diff)
	}
	got = nil
	for u, err := range n.StreamUpdates(ctx, ledger.GetUpdatesRequest{UpdateFormat: &f, EndInclusive: i64(4), DescendingOrder: true}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, u.Update.Offset())
	}
	if diff := cmp.Diff([]int64{4, 3, 2, 1}, got); diff != "" {
		t.Errorf("descending stream (-want +got):\n%s", diff)
	}
	// An open-ended stream for one party follows the ledger.
	one := topologyFormat(first)
	tctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	go func() {
		time.Sleep(20 * time.Millisecond)
		allocate(t, context.Background(), n, "later")
	}()
	all := topologyFormat()
	got = nil
	for u, err := range n.StreamUpdates(tctx, ledger.GetUpdatesRequest{UpdateFormat: &all, BeginExclusive: 4}) {
		if err != nil {
			t.Fatal(err)
		}
		if got = append(got, u.Update.Offset()); len(got) == 1 {
			break
		}
	}
	if diff := cmp.Diff([]int64{5}, got); diff != "" {
		t.Errorf("tailing stream (-want +got):\n%s", diff)
	}
	count := 0
	for _, err := range n.StreamUpdates(ctx, ledger.GetUpdatesRequest{UpdateFormat: &one, EndInclusive: i64(5)}) {
		if err != nil {
			t.Fatal(err)
		}
		count++
	}
	if count != 1 {
		t.Errorf("party stream saw %d updates, want 1", count)
	}
	for _, err := range n.StreamUpdates(ctx, ledger.GetUpdatesRequest{UpdateFormat: &f, EndInclusive: i64(99)}) {
		if err == nil {
			t.Error("an end after the ledger end streamed")
		}
		break
	}
}
