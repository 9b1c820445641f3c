package ledger_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
	"github.com/ledgernode/ledgernode/ledger/update"
)

func topologyFormat(parties ...string) jsonapi.UpdateFormat {
	return jsonapi.UpdateFormat{IncludeTopologyEvents: &jsonapi.TopologyFormat{
		IncludeParticipantAuthorizationEvents: &jsonapi.ParticipantAuthorizationTopologyFormat{Parties: parties}}}
}

// topologyRead is the typed format of the participant authorization
// events of the parties, of every party without any.
func topologyRead(parties ...string) ledger.UpdateReadFormat {
	return ledger.UpdateReadFormat{Topology: &ledger.TopologyReadFormat{ParticipantAuthorizations: append([]string{}, parties...)}}
}

func i32(v int32) *int32 { return &v }
func i64(v int64) *int64 { return &v }

func typedOffsets(us []update.Update) []int64 {
	var out []int64
	for _, u := range us {
		out = append(out, u.UpdateOffset())
	}
	return out
}

// listUpdates is the JSON API's list of updates, decoded.
func listUpdates(ctx context.Context, n *ledger.Node, req jsonapi.GetUpdatesRequest, opts ledger.ListOptions) ([]jsonapi.GetUpdateResponse, error) {
	body, err := jsonapi.New(n).UpdatesList(ctx, req, opts)
	if err != nil {
		return nil, err
	}
	var out []jsonapi.GetUpdateResponse
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, err
	}
	return out, nil
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
	all := topologyRead()
	for _, desc := range []bool{false, true} {
		r := ledger.OffsetRange{Through: i64(23), Descending: desc}
		var got []int64
		var token []byte
		for pages := 0; ; pages++ {
			if pages > 10 {
				t.Fatal("paging does not end")
			}
			page, err := n.UpdatesPage(ctx, all, r, i32(5), token)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, typedOffsets(page.Updates)...)
			if page.NextToken == nil {
				break
			}
			token = page.NextToken
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
	page, err := n.UpdatesPage(ctx, all, ledger.OffsetRange{Tail: true}, i32(5), nil)
	if err != nil || page.NextToken == nil {
		t.Fatalf("first page: %+v, %v", page, err)
	}
	foreign := page.NextToken
	if _, err := n.UpdatesPage(ctx, all, ledger.OffsetRange{Tail: true}, i32(6), foreign); !errors.Is(err, apierr.InvalidUpdatesPageToken) {
		t.Errorf("token with another page size: %v", err)
	}
	// Without an end, an ascending read always gives a token (tailing).
	page, _ = n.UpdatesPage(ctx, all, ledger.OffsetRange{After: 20, Tail: true}, nil, nil)
	if len(page.Updates) != 3 || page.NextToken == nil || page.Highest != 23 {
		t.Errorf("tail page = %d updates, token %v, highest %d", len(page.Updates), page.NextToken, page.Highest)
	}
	// A party-filtered read sees that party's updates only.
	u8, err := n.UpdateByOffset(ctx, 8, all)
	if err != nil {
		t.Fatal(err)
	}
	p7 := u8.(*update.TopologyTransaction).Events[0].PartyID
	page, _ = n.UpdatesPage(ctx, topologyRead(p7), ledger.OffsetRange{Through: i64(23)}, nil, nil)
	if diff := cmp.Diff([]int64{8}, typedOffsets(page.Updates)); diff != "" {
		t.Errorf("party-filtered page (-want +got):\n%s", diff)
	}
	// Descending without an end pages down from the ledger end.
	downward := ledger.OffsetRange{Tail: true, Descending: true}
	down, err := n.UpdatesPage(ctx, all, downward, i32(2), nil)
	if err != nil {
		t.Fatalf("descending without end: %v", err)
	}
	if diff := cmp.Diff([]int64{23, 22}, typedOffsets(down.Updates)); diff != "" || down.Highest != 23 || down.NextToken == nil {
		t.Fatalf("descending page without end (-want +got):\n%s; highest %d, token %v", diff, down.Highest, down.NextToken)
	}
	next, err := n.UpdatesPage(ctx, all, downward, i32(2), down.NextToken)
	if err != nil {
		t.Fatalf("second descending page without end: %v", err)
	}
	if diff := cmp.Diff([]int64{21, 20}, typedOffsets(next.Updates)); diff != "" {
		t.Errorf("second descending page without end (-want +got):\n%s", diff)
	}
	for _, tc := range []struct {
		name  string
		f     ledger.UpdateReadFormat
		r     ledger.OffsetRange
		size  *int32
		token []byte
		code  apierr.Code
	}{
		{"size 0", all, ledger.OffsetRange{Tail: true}, i32(0), nil, apierr.InvalidArgument},
		{"size 2001", all, ledger.OffsetRange{Tail: true}, i32(2001), nil, apierr.InvalidArgument},
		{"negative begin", all, ledger.OffsetRange{After: -1, Tail: true}, nil, nil, apierr.NegativeOffset},
		{"end after ledger end", all, ledger.OffsetRange{Through: i64(99)}, nil, nil, apierr.OffsetAfterLedgerEnd},
		// Canton reads the token before it checks the size and the
		// offsets; one that does not parse is an invalid field.
		{"garbage token", all, ledger.OffsetRange{Tail: true}, nil, []byte("!!"), apierr.InvalidField},
		{"garbage token, size 0", all, ledger.OffsetRange{Tail: true}, i32(0), []byte("!!"), apierr.InvalidField},
		{"another request's token, size 0", all, ledger.OffsetRange{Tail: true}, i32(0), foreign, apierr.InvalidUpdatesPageToken},
		{"another request's token, negative begin", all, ledger.OffsetRange{After: -1, Tail: true}, nil, foreign, apierr.InvalidUpdatesPageToken},
	} {
		_, err := n.UpdatesPage(ctx, tc.f, tc.r, tc.size, tc.token)
		if !errors.Is(err, tc.code) {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.code.Name)
		}
		if errors.Is(err, ledger.ErrMalformedPageToken) != (tc.code == apierr.InvalidField) {
			t.Errorf("%s: %v is ErrMalformedPageToken: %v", tc.name, err, errors.Is(err, ledger.ErrMalformedPageToken))
		}
	}
	// A format of nothing is valid, as in Canton (each part is
	// optional): its page has no updates.
	if p, err := n.UpdatesPage(ctx, ledger.UpdateReadFormat{}, ledger.OffsetRange{Tail: true}, nil, nil); err != nil || len(p.Updates) != 0 {
		t.Errorf("a format of nothing: %d updates, %v; want none", len(p.Updates), err)
	}
	reader := ledger.WithPrincipal(ctx, identity.Principal{UserID: "r", Rights: []identity.Right{{Kind: identity.RightCanReadAs, Party: p7}}})
	if _, err := n.UpdatesPage(reader, topologyRead(p7), ledger.OffsetRange{Tail: true}, nil, nil); err != nil {
		t.Errorf("reading as an allowed party: %v", err)
	}
	if _, err := n.UpdatesPage(reader, all, ledger.OffsetRange{Tail: true}, nil, nil); !errors.Is(err, apierr.PermissionDenied) {
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
	for u, err := range n.Updates(ctx, topologyRead(), ledger.OffsetRange{Tail: true}) {
		if err != nil {
			t.Fatal(err)
		}
		if got = append(got, u.UpdateOffset()); len(got) == 2 {
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
	closed := jsonapi.GetUpdatesRequest{UpdateFormat: &f, EndInclusive: i64(5)}
	got, err := listUpdates(ctx, n, closed, ledger.ListOptions{})
	if err != nil || len(got) != 5 {
		t.Fatalf("at the limit: %d, %v", len(got), err)
	}
	if got, err = listUpdates(ctx, n, closed, ledger.ListOptions{Limit: i64(3)}); err != nil || len(got) != 3 {
		t.Fatalf("limit 3: %d, %v", len(got), err)
	}
	ledgertest.MustAllocate(t, n, "p5")
	closed.EndInclusive = i64(6)
	_, err = listUpdates(ctx, n, closed, ledger.ListOptions{})
	var ae *apierr.Error
	if !errors.As(err, &ae) || ae.HTTPStatus() != 413 || ae.Code.Name != "JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED" {
		t.Fatalf("limit + 1: %v", err)
	}

	// An open-ended list blocks, wakes on a commit, and returns after the
	// idle timeout.
	open := jsonapi.GetUpdatesRequest{UpdateFormat: &f, BeginExclusive: 6}
	idle := 200 * time.Millisecond
	later := allocateLater(n, "late", 50*time.Millisecond)
	start := time.Now()
	got, err = listUpdates(ctx, n, open, ledger.ListOptions{IdleTimeout: &idle})
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
	if _, err := listUpdates(ctx, n, jsonapi.GetUpdatesRequest{}, ledger.ListOptions{}); !errors.Is(err, apierr.InvalidArgument) {
		t.Errorf("neither format nor filter: %v", err)
	}
	if _, err := listUpdates(ctx, n, jsonapi.GetUpdatesRequest{UpdateFormat: &f, Filter: &jsonapi.EventFormat{}}, ledger.ListOptions{}); !errors.Is(err, apierr.InvalidArgument) {
		t.Errorf("both format and filter: %v", err)
	}
}

func TestUpdateByIDAndOffset(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	a := ledgertest.MustAllocate(t, n, "a")
	id := ledger.UpdateAtForTest(t, n, 1).(*update.TopologyTransaction).UpdateID
	got, err := n.UpdateByID(ctx, id, topologyRead())
	if err != nil {
		t.Fatalf("by id: %v", err)
	}
	topo, ok := got.(*update.TopologyTransaction)
	if !ok || topo.UpdateID != id || topo.Offset != 1 || len(topo.Events) != 1 || topo.Events[0].PartyID != a ||
		topo.Events[0].Change != update.AuthorizationAdded {
		t.Fatalf("by id = %+v", got)
	}
	byOffset, err := n.UpdateByOffset(ctx, 1, topologyRead())
	if err != nil || !cmp.Equal(got, byOffset) {
		t.Fatalf("by offset = %+v, %v; want %+v", byOffset, err, got)
	}
	if _, err := n.UpdateByID(ctx, "1220"+strings.Repeat("ff", 32), topologyRead()); !errors.Is(err, apierr.UpdateNotFound) {
		t.Errorf("unknown id: %v", err)
	}
	if _, err := n.UpdateByID(ctx, id, topologyRead("other::1220ab")); !errors.Is(err, apierr.UpdateNotFound) {
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
	got, err := listUpdates(ctx, n, jsonapi.GetUpdatesRequest{UpdateFormat: &f}, ledger.ListOptions{IdleTimeout: &idle})
	if err != nil || len(got) != 2 {
		t.Fatalf("list = %+v, %v", got, err)
	}
	cp := got[1].Update.OffsetCheckpoint
	if got[0].Update.Offset() != 1 || cp == nil || cp.Value.Offset != 3 || len(cp.Value.SynchronizerTimes) != 1 {
		t.Errorf("want the update at 1, then a checkpoint at 3: %+v", got)
	}
	// Nothing past the last visible update: no checkpoint.
	all := topologyFormat()
	got, _ = listUpdates(ctx, n, jsonapi.GetUpdatesRequest{UpdateFormat: &all}, ledger.ListOptions{IdleTimeout: &idle})
	if len(got) != 3 || got[2].Update.OffsetCheckpoint != nil {
		t.Errorf("all visible: %d elements, last %+v", len(got), got[len(got)-1])
	}
}

func TestEmptyEventFormatAndNegativeLimit(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	ledgertest.MustAllocate(t, n, "a")
	empty := ledger.UpdateReadFormat{Transactions: &ledger.ReadFormat{}}
	if _, err := n.UpdatesPage(ctx, empty, ledger.OffsetRange{Tail: true}, nil, nil); !errors.Is(err, apierr.InvalidArgument) {
		t.Errorf("event format without parties: %v", err)
	}
	if _, err := n.ActiveContractEventsPage(ctx, ledger.ReadFormat{}, ledger.PageRequest{}); !errors.Is(err, apierr.InvalidArgument) {
		t.Errorf("ACS without parties: %v", err)
	}
	f := topologyFormat()
	got, err := listUpdates(ctx, n, jsonapi.GetUpdatesRequest{UpdateFormat: &f, EndInclusive: i64(1)}, ledger.ListOptions{Limit: i64(-1)})
	if err != nil || len(got) != 0 {
		t.Errorf("negative limit: %d elements, %v", len(got), err)
	}
}
