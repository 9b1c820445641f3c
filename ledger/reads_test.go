package ledger_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

func topologyFormat(parties ...string) ledger.UpdateFormat {
	return ledger.UpdateFormat{IncludeTopologyEvents: &ledger.TopologyFormat{
		IncludeParticipantAuthorizationEvents: &ledger.ParticipantAuthorizationTopologyFormat{Parties: parties}}}
}

func i32(v int32) *int32 { return &v }
func i64(v int64) *int64 { return &v }

func offsetsOf(us []ledger.GetUpdateResponse) []int64 {
	var out []int64
	for _, u := range us {
		out = append(out, u.Update.Offset())
	}
	return out
}

func seq(from, to int64) []int64 {
	var out []int64
	if from <= to {
		for i := from; i <= to; i++ {
			out = append(out, i)
		}
	} else {
		for i := from; i >= to; i-- {
			out = append(out, i)
		}
	}
	return out
}

func TestUpdatesPagingUpAndDown(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	for i := range 23 {
		ledgertest.MustAllocate(t, n, fmt.Sprintf("p%02d", i))
	}
	for _, desc := range []bool{false, true} {
		req := ledger.GetUpdatesPageRequest{UpdateFormat: topologyFormat(), MaxPageSize: i32(5), DescendingOrder: desc, EndOffsetInclusive: i64(23)}
		var got []int64
		for pages := 0; ; pages++ {
			if pages > 10 {
				t.Fatal("paging does not end")
			}
			page, err := n.UpdatesPage(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, offsetsOf(page.Updates)...)
			if page.NextPageToken == nil {
				break
			}
			req.PageToken = *page.NextPageToken
		}
		want := seq(1, 23)
		if desc {
			want = seq(23, 1)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("descending=%v: every offset once (-want +got):\n%s", desc, diff)
		}
	}
	// A token used with another request is refused.
	page, _ := n.UpdatesPage(ctx, ledger.GetUpdatesPageRequest{UpdateFormat: topologyFormat(), MaxPageSize: i32(5)})
	other := ledger.GetUpdatesPageRequest{UpdateFormat: topologyFormat(), MaxPageSize: i32(6), PageToken: *page.NextPageToken}
	if _, err := n.UpdatesPage(ctx, other); !errors.Is(err, apierr.InvalidUpdatesPageToken) {
		t.Errorf("token with another page size: %v", err)
	}
	// Without an end, an ascending read always gives a token (tailing).
	page, _ = n.UpdatesPage(ctx, ledger.GetUpdatesPageRequest{UpdateFormat: topologyFormat(), BeginOffsetExclusive: 20})
	if len(page.Updates) != 3 || page.NextPageToken == nil || page.HighestPageOffsetInclusive != 23 {
		t.Errorf("tail page = %d updates, token %v, highest %d", len(page.Updates), page.NextPageToken, page.HighestPageOffsetInclusive)
	}
	// A party-filtered read sees that party's updates only.
	p7 := ledger.UpdateAtForTest(t, n, 8).TopologyTransaction.Value.Events[0].Event.ParticipantAuthorizationAdded.Value.PartyID
	page, _ = n.UpdatesPage(ctx, ledger.GetUpdatesPageRequest{UpdateFormat: topologyFormat(p7), EndOffsetInclusive: i64(23)})
	if diff := cmp.Diff([]int64{8}, offsetsOf(page.Updates)); diff != "" {
		t.Errorf("party-filtered page (-want +got):\n%s", diff)
	}
	// Descending without an end pages down from the ledger end.
	down, err := n.UpdatesPage(ctx, ledger.GetUpdatesPageRequest{UpdateFormat: topologyFormat(), DescendingOrder: true, MaxPageSize: i32(2)})
	if err != nil {
		t.Fatalf("descending without end: %v", err)
	}
	if diff := cmp.Diff([]int64{23, 22}, offsetsOf(down.Updates)); diff != "" || down.HighestPageOffsetInclusive != 23 || down.NextPageToken == nil {
		t.Fatalf("descending page without end (-want +got):\n%s; highest %d, token %v", diff, down.HighestPageOffsetInclusive, down.NextPageToken)
	}
	next, err := n.UpdatesPage(ctx, ledger.GetUpdatesPageRequest{UpdateFormat: topologyFormat(), DescendingOrder: true, MaxPageSize: i32(2), PageToken: *down.NextPageToken})
	if diff := cmp.Diff([]int64{21, 20}, offsetsOf(next.Updates)); err != nil || diff != "" {
		t.Errorf("second descending page without end: %v (-want +got):\n%s", err, diff)
	}
	for _, tc := range []struct {
		name string
		req  ledger.GetUpdatesPageRequest
		code apierr.Code
	}{
		{"size 0", ledger.GetUpdatesPageRequest{UpdateFormat: topologyFormat(), MaxPageSize: i32(0)}, apierr.InvalidArgument},
		{"size 2001", ledger.GetUpdatesPageRequest{UpdateFormat: topologyFormat(), MaxPageSize: i32(2001)}, apierr.InvalidArgument},
		{"negative begin", ledger.GetUpdatesPageRequest{UpdateFormat: topologyFormat(), BeginOffsetExclusive: -1}, apierr.NegativeOffset},
		{"end after ledger end", ledger.GetUpdatesPageRequest{UpdateFormat: topologyFormat(), EndOffsetInclusive: i64(99)}, apierr.OffsetAfterLedgerEnd},
		{"empty format", ledger.GetUpdatesPageRequest{}, apierr.InvalidArgument},
		{"garbage token", ledger.GetUpdatesPageRequest{UpdateFormat: topologyFormat(), PageToken: "!!"}, apierr.InvalidUpdatesPageToken},
	} {
		if _, err := n.UpdatesPage(ctx, tc.req); !errors.Is(err, tc.code) {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.code.Name)
		}
	}
	reader := ledger.WithPrincipal(ctx, identity.Principal{UserID: "r", Rights: []identity.Right{{Kind: identity.RightCanReadAs, Party: p7}}})
	if _, err := n.UpdatesPage(reader, ledger.GetUpdatesPageRequest{UpdateFormat: topologyFormat(p7)}); err != nil {
		t.Errorf("reading as an allowed party: %v", err)
	}
	if _, err := n.UpdatesPage(reader, ledger.GetUpdatesPageRequest{UpdateFormat: topologyFormat()}); !errors.Is(err, apierr.PermissionDenied) {
		t.Errorf("reading as any party without the right: %v", err)
	}
}

func TestUpdatesIteratorTails(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ledgertest.MustAllocate(t, n, "a")
	later := allocateLater(n, "b", 20*time.Millisecond)
	var got []int64
	for u, err := range n.Updates(ctx, ledger.GetUpdatesPageRequest{UpdateFormat: topologyFormat()}) {
		if err != nil {
			t.Fatal(err)
		}
		if got = append(got, u.Offset()); len(got) == 2 {
			break
		}
	}
	if err := <-later; err != nil {
		t.Fatalf("allocating while tailing: %v", err)
	}
	if diff := cmp.Diff([]int64{1, 2}, got); diff != "" {
		t.Errorf("tailed offsets (-want +got):\n%s", diff)
	}
}

func TestUpdatesListLimitAndBlocking(t *testing.T) {
	n := ledgertest.Open(t, ledger.Options{ListLimit: 5})
	ctx := context.Background()
	for i := range 5 {
		ledgertest.MustAllocate(t, n, fmt.Sprintf("p%d", i))
	}
	f := topologyFormat()
	closed := ledger.GetUpdatesRequest{UpdateFormat: &f, EndInclusive: i64(5)}
	got, err := n.UpdatesList(ctx, closed, ledger.ListOptions{})
	if err != nil || len(got) != 5 {
		t.Fatalf("at the limit: %d, %v", len(got), err)
	}
	if got, err = n.UpdatesList(ctx, closed, ledger.ListOptions{Limit: i64(3)}); err != nil || len(got) != 3 {
		t.Fatalf("limit 3: %d, %v", len(got), err)
	}
	ledgertest.MustAllocate(t, n, "p5")
	closed.EndInclusive = i64(6)
	_, err = n.UpdatesList(ctx, closed, ledger.ListOptions{})
	var ae *apierr.Error
	if !errors.As(err, &ae) || ae.HTTPStatus() != 413 || ae.Code.Name != "JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED" {
		t.Fatalf("limit + 1: %v", err)
	}

	// An open-ended list blocks, wakes on a commit, and returns after the
	// idle timeout.
	open := ledger.GetUpdatesRequest{UpdateFormat: &f, BeginExclusive: 6}
	idle := 200 * time.Millisecond
	later := allocateLater(n, "late", 50*time.Millisecond)
	start := time.Now()
	got, err = n.UpdatesList(ctx, open, ledger.ListOptions{IdleTimeout: &idle})
	elapsed := time.Since(start)
	if err := <-later; err != nil {
		t.Fatalf("allocating while blocked: %v", err)
	}
	if err != nil || len(got) != 1 || got[0].Update.Offset() != 7 {
		t.Fatalf("blocking list = %+v, %v", got, err)
	}
	if elapsed > 2*time.Second {
		t.Errorf("blocking list took %v", elapsed)
	}
	if _, err := n.UpdatesList(ctx, ledger.GetUpdatesRequest{}, ledger.ListOptions{}); !errors.Is(err, apierr.InvalidArgument) {
		t.Errorf("neither format nor filter: %v", err)
	}
	if _, err := n.UpdatesList(ctx, ledger.GetUpdatesRequest{UpdateFormat: &f, Filter: &ledger.EventFormat{}}, ledger.ListOptions{}); !errors.Is(err, apierr.InvalidArgument) {
		t.Errorf("both format and filter: %v", err)
	}
}

func TestUpdateByIDAndOffset(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	ledgertest.MustAllocate(t, n, "a")
	u := ledger.UpdateAtForTest(t, n, 1)
	id := u.TopologyTransaction.Value.UpdateID
	got, err := n.UpdateByID(ctx, ledger.GetUpdateByIDRequest{UpdateID: id, UpdateFormat: topologyFormat()})
	if err != nil || !cmp.Equal(u, got.Update) {
		t.Fatalf("by id = %+v, %v", got, err)
	}
	if got, err = n.UpdateByOffset(ctx, ledger.GetUpdateByOffsetRequest{Offset: 1, UpdateFormat: topologyFormat()}); err != nil || got.Update.Offset() != 1 {
		t.Fatalf("by offset = %+v, %v", got, err)
	}
	if _, err := n.UpdateByID(ctx, ledger.GetUpdateByIDRequest{UpdateID: "1220ff", UpdateFormat: topologyFormat()}); !errors.Is(err, apierr.UpdateNotFound) {
		t.Errorf("unknown id: %v", err)
	}
	if _, err := n.UpdateByID(ctx, ledger.GetUpdateByIDRequest{UpdateID: id, UpdateFormat: topologyFormat("other::1220ab")}); !errors.Is(err, apierr.UpdateNotFound) {
		t.Errorf("invisible update: %v", err)
	}
}

func TestOpenEndedListEndsWithCheckpoint(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	a := ledgertest.MustAllocate(t, n, "a")
	ledgertest.MustAllocate(t, n, "b")
	ledgertest.MustAllocate(t, n, "c")
	f := topologyFormat(a)
	idle := 20 * time.Millisecond
	got, err := n.UpdatesList(ctx, ledger.GetUpdatesRequest{UpdateFormat: &f}, ledger.ListOptions{IdleTimeout: &idle})
	if err != nil || len(got) != 2 {
		t.Fatalf("list = %+v, %v", got, err)
	}
	cp := got[1].Update.OffsetCheckpoint
	if got[0].Update.Offset() != 1 || cp == nil || cp.Value.Offset != 3 || len(cp.Value.SynchronizerTimes) != 1 {
		t.Errorf("want the update at 1, then a checkpoint at 3: %+v", got)
	}
	// Nothing past the last visible update: no checkpoint.
	all := topologyFormat()
	got, _ = n.UpdatesList(ctx, ledger.GetUpdatesRequest{UpdateFormat: &all}, ledger.ListOptions{IdleTimeout: &idle})
	if len(got) != 3 || got[2].Update.OffsetCheckpoint != nil {
		t.Errorf("all visible: %d elements, last %+v", len(got), got[len(got)-1])
	}
}

func TestEmptyEventFormatAndNegativeLimit(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	ledgertest.MustAllocate(t, n, "a")
	empty := ledger.UpdateFormat{IncludeTransactions: &ledger.TransactionFormat{TransactionShape: ledger.ShapeACSDelta}}
	if _, err := n.UpdatesPage(ctx, ledger.GetUpdatesPageRequest{UpdateFormat: empty}); !errors.Is(err, apierr.InvalidArgument) {
		t.Errorf("event format without parties: %v", err)
	}
	if _, err := n.ActiveContracts(ctx, ledger.GetActiveContractsRequest{EventFormat: &ledger.EventFormat{}}, ledger.ListOptions{}); !errors.Is(err, apierr.InvalidArgument) {
		t.Errorf("ACS without parties: %v", err)
	}
	f := topologyFormat()
	got, err := n.UpdatesList(ctx, ledger.GetUpdatesRequest{UpdateFormat: &f, EndInclusive: i64(1)}, ledger.ListOptions{Limit: i64(-1)})
	if err != nil || len(got) != 0 {
		t.Errorf("negative limit: %d elements, %v", len(got), err)
	}
}
