package ledger_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// allocateLater allocates a party from another goroutine after delay. The
// goroutine cannot fail the test (t.Fatal must run on the test's
// goroutine): the caller reads the allocation's error from the channel.
func allocateLater(n *ledger.Node, hint string, delay time.Duration) <-chan error {
	done := make(chan error, 1)
	go func() {
		time.Sleep(delay)
		_, err := n.AllocateParty(context.Background(), ledger.AllocatePartyRequest{PartyIDHint: hint})
		done <- err
	}()
	return done
}

func TestOpenCreatesIdentity(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	id := n.ParticipantIDString()
	name, ns, ok := strings.Cut(id, "::")
	if !ok || name != "participant1" || len(ns) != 68 || !strings.HasPrefix(ns, "1220") {
		t.Fatalf("participant id %q is not participant1::1220<64 hex>", id)
	}
	end, err := n.LedgerEnd(context.Background())
	if err != nil || end != 0 {
		t.Fatalf("LedgerEnd = %v, %v; want 0", end, err)
	}
	// participant_admin exists with ParticipantAdmin.
	p, err := n.Authenticate(context.Background(), identity.Claims{UserID: identity.DefaultParticipantAdmin})
	if err != nil {
		t.Fatalf("Authenticate(participant_admin): %v", err)
	}
	if !p.IsParticipantAdmin() {
		t.Fatalf("participant_admin principal %+v lacks ParticipantAdmin", p)
	}
}

func TestParticipantIDOption(t *testing.T) {
	t.Parallel()
	full := "mynode::1220" + strings.Repeat("ab", 32)
	for _, tc := range []struct {
		in      string
		wantPfx string
		exact   bool
	}{
		{"alpha", "alpha::1220", false},
		{full, full, true},
	} {
		n := ledgertest.Open(t, ledger.Options{ParticipantID: tc.in})
		got := n.ParticipantIDString()
		if tc.exact && got != tc.wantPfx || !strings.HasPrefix(got, tc.wantPfx) {
			t.Errorf("ParticipantID option %q gave %q", tc.in, got)
		}
		alice := ledgertest.MustAllocate(t, n, "alice")
		_, ns, _ := strings.Cut(got, "::")
		if alice != "alice::"+ns {
			t.Errorf("party %q does not use the participant namespace %q", alice, ns)
		}
	}
	if _, err := ledger.Open(ledger.Options{InMemory: true, ParticipantID: "bad::"}); err == nil {
		t.Error("Open accepted participant id with an empty namespace")
	}
}

func TestReopenResumes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctx := context.Background()
	n, err := ledger.Open(ledger.Options{Dir: dir, ParticipantID: "p1"})
	if err != nil {
		t.Fatal(err)
	}
	alice := ledgertest.MustAllocate(t, n, "alice")
	bob := ledgertest.MustAllocate(t, n, "bob")
	id, syncs := n.ParticipantIDString(), n.Synchronizers()
	before, err := n.GetParties(ctx, []string{alice, bob}, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Close(); err != nil {
		t.Fatal(err)
	}

	n, err = ledger.Open(ledger.Options{Dir: dir, ParticipantID: "p1"})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	if got := n.ParticipantIDString(); got != id {
		t.Errorf("participant id after reopen = %q, want %q", got, id)
	}
	if diff := cmp.Diff(syncs, n.Synchronizers()); diff != "" {
		t.Errorf("synchronizers changed (-before +after):\n%s", diff)
	}
	end, _ := n.LedgerEnd(ctx)
	if end != 2 {
		t.Errorf("ledger end after reopen = %d, want 2", end)
	}
	got, err := n.GetParties(ctx, []string{alice, bob}, "")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before, got); diff != "" {
		t.Errorf("parties after reopen (-want +got):\n%s", diff)
	}
	if carol := ledgertest.MustAllocate(t, n, "carol"); carol == "" {
		t.Error("no party allocated after reopen")
	}
	if end, _ := n.LedgerEnd(ctx); end != 3 {
		t.Errorf("next allocation after reopen: end %d, want 3", end)
	}
	if _, err := n.Authenticate(ctx, identity.Claims{UserID: identity.DefaultParticipantAdmin}); err != nil {
		t.Errorf("participant_admin lost after reopen: %v", err)
	}
	n.Close()

	if _, err := ledger.Open(ledger.Options{Dir: dir, ParticipantID: "other"}); err == nil {
		t.Error("reopen with another participant id succeeded")
	}
}

func TestConcurrentAllocations(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	const workers = 32
	got := make([]string, workers)
	var wg sync.WaitGroup
	for i := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := n.AllocateParty(ctx, ledger.AllocatePartyRequest{PartyIDHint: fmt.Sprintf("p%02d", i)})
			if err != nil {
				t.Errorf("worker %d: %v", i, err)
				return
			}
			got[i] = resp.Party
		}()
	}
	wg.Wait()
	seen := map[string]bool{}
	for i, p := range got {
		if !strings.HasPrefix(p, fmt.Sprintf("p%02d::", i)) {
			t.Errorf("worker %d got party %q", i, p)
		}
		if seen[p] {
			t.Errorf("party %q allocated twice", p)
		}
		seen[p] = true
	}
	end, _ := n.LedgerEnd(ctx)
	if end != workers {
		t.Fatalf("ledger end = %d, want %d", end, workers)
	}
	offsets := ledger.TopologyOffsetsForTest(t, n)
	want := make([]int64, workers)
	for i := range want {
		want[i] = int64(i + 1)
	}
	if diff := cmp.Diff(want, offsets); diff != "" {
		t.Errorf("update offsets not contiguous (-want +got):\n%s", diff)
	}
}

func TestSameHintConcurrently(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok, failed := 0, 0
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := n.AllocateParty(ctx, ledger.AllocatePartyRequest{PartyIDHint: "same"})
			mu.Lock()
			defer mu.Unlock()
			if err == nil {
				ok++
			} else if errors.Is(err, apierr.InvalidArgument) {
				failed++
			} else {
				t.Errorf("unexpected error %v", err)
			}
		}()
	}
	wg.Wait()
	if ok != 1 || failed != 15 {
		t.Errorf("16 allocations of one hint: %d succeeded, %d rejected; want 1 and 15", ok, failed)
	}
	if end, _ := n.LedgerEnd(ctx); end != 1 {
		t.Errorf("ledger end = %d, want 1", end)
	}
}

// state is what a rejected request must leave unchanged.
type state struct {
	End     int64
	Parties []identity.Party
}

// partyState reads the ledger end and the parties of n, to compare before
// and after a refused request (ledgertest.Snapshot, by contrast, copies a
// whole node for OpenFrom).
func partyState(t *testing.T, n *ledger.Node) state {
	t.Helper()
	ctx := context.Background()
	end, err := n.LedgerEnd(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ps, _, err := n.ListParties(ctx, ledger.ListPartiesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	return state{end, ps}
}

func TestRejectedAllocationsLeaveNoTrace(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	ledgertest.MustAllocate(t, n, "alice")
	user := ledger.WithPrincipal(ctx, identity.Principal{UserID: "bob",
		Rights: []identity.Right{{Kind: identity.RightCanReadAsAnyParty}}})
	for _, tc := range []struct {
		name string
		ctx  context.Context
		req  ledger.AllocatePartyRequest
		code apierr.Code
	}{
		{"duplicate hint", ctx, ledger.AllocatePartyRequest{PartyIDHint: "alice"}, apierr.InvalidArgument},
		{"bad hint chars", ctx, ledger.AllocatePartyRequest{PartyIDHint: "al!ce"}, apierr.InvalidArgument},
		{"hint with delimiter", ctx, ledger.AllocatePartyRequest{PartyIDHint: "a::b"}, apierr.InvalidArgument},
		{"hint too long", ctx, ledger.AllocatePartyRequest{PartyIDHint: strings.Repeat("a", 186)}, apierr.InvalidArgument},
		{"unknown synchronizer", ctx, ledger.AllocatePartyRequest{PartyIDHint: "x", SynchronizerID: "nope::1220ab"}, apierr.InvalidArgument},
		{"unknown idp", ctx, ledger.AllocatePartyRequest{PartyIDHint: "x", IdentityProviderID: "idp1"}, apierr.IDPConfigNotFound},
		{"unknown user", ctx, ledger.AllocatePartyRequest{PartyIDHint: "x", UserID: "ghost"}, apierr.UserNotFound},
		{"bad user id", ctx, ledger.AllocatePartyRequest{PartyIDHint: "x", UserID: "white space"}, apierr.InvalidField},
		{"resource version on create", ctx, ledger.AllocatePartyRequest{PartyIDHint: "x",
			LocalMetadata: &identity.ObjectMeta{ResourceVersion: "3"}}, apierr.InvalidField},
		{"bad annotation key", ctx, ledger.AllocatePartyRequest{PartyIDHint: "x",
			LocalMetadata: &identity.ObjectMeta{Annotations: map[string]string{"-bad": "v"}}}, apierr.InvalidField},
		{"empty annotation value", ctx, ledger.AllocatePartyRequest{PartyIDHint: "x",
			LocalMetadata: &identity.ObjectMeta{Annotations: map[string]string{"k": ""}}}, apierr.InvalidField},
		{"annotations too large", ctx, ledger.AllocatePartyRequest{PartyIDHint: "x",
			LocalMetadata: &identity.ObjectMeta{Annotations: map[string]string{"k": strings.Repeat("v", 256*1024)}}}, apierr.MaxPartyAnnotationsSizeExceeded},
		{"no admin right", user, ledger.AllocatePartyRequest{PartyIDHint: "x"}, apierr.PermissionDenied},
		{"no admin right beats bad input", user, ledger.AllocatePartyRequest{PartyIDHint: "al!ce", IdentityProviderID: "bad idp!"}, apierr.PermissionDenied},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := partyState(t, n)
			_, err := n.AllocateParty(tc.ctx, tc.req)
			if !errors.Is(err, tc.code) {
				t.Fatalf("err = %v, want %s", err, tc.code.Name)
			}
			var ae *apierr.Error
			if !errors.As(err, &ae) {
				t.Fatalf("error %T is not an *apierr.Error", err)
			}
			if diff := cmp.Diff(before, partyState(t, n)); diff != "" {
				t.Errorf("state changed (-before +after):\n%s", diff)
			}
		})
	}
}

func TestAllocateGrantsUser(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	resp, err := n.AllocateParty(ctx, ledger.AllocatePartyRequest{PartyIDHint: "alice", UserID: identity.DefaultParticipantAdmin})
	if err != nil {
		t.Fatal(err)
	}
	p, err := n.Authenticate(ctx, identity.Claims{UserID: identity.DefaultParticipantAdmin})
	if err != nil {
		t.Fatal(err)
	}
	if !p.CanActAs(resp.Party) {
		t.Errorf("participant_admin did not get CanActAs %s: %+v", resp.Party, p.Rights)
	}
}

func TestListPartiesPaging(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{MaxPartiesPageSize: 3})
	ctx := context.Background()
	var want []string
	for i := range 7 {
		want = append(want, ledgertest.MustAllocate(t, n, fmt.Sprintf("p%d", i)))
	}
	var got []string
	token := ""
	for pages := 0; ; pages++ {
		if pages > 5 {
			t.Fatal("paging does not end")
		}
		resp, respNext, err := n.ListParties(ctx, ledger.ListPartiesRequest{PageSize: 2, PageToken: token})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range resp {
			got = append(got, d.Party)
		}
		if token = respNext; token == "" {
			break
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("paged parties (-want +got):\n%s", diff)
	}
	if _, _, err := n.ListParties(ctx, ledger.ListPartiesRequest{PageSize: 4}); !errors.Is(err, apierr.InvalidArgument) {
		t.Errorf("page size over the maximum: err = %v, want INVALID_ARGUMENT", err)
	}
	if _, _, err := n.ListParties(ctx, ledger.ListPartiesRequest{PageToken: "!!"}); !errors.Is(err, apierr.InvalidArgument) {
		t.Errorf("bad page token: err = %v, want INVALID_ARGUMENT", err)
	}
	resp, _, err := n.ListParties(ctx, ledger.ListPartiesRequest{FilterParty: "p3"})
	if err != nil || len(resp) != 1 || resp[0].Party != want[3] {
		t.Errorf("filter-party p3 = %+v, %v", resp, err)
	}
}

func TestGetPartiesUnknownAndVisibility(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	alice := ledgertest.MustAllocate(t, n, "alice")
	got, err := n.GetParties(ctx, []string{alice, "ghost::1220ab", alice}, "")
	if err != nil {
		t.Fatal(err)
	}
	want := []identity.Party{{Party: alice, IsLocal: true,
		LocalMetadata: identity.ObjectMeta{ResourceVersion: "0", Annotations: map[string]string{}}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("GetParties (-want +got):\n%s", diff)
	}
	// An IDP admin of another provider is denied; asking for its own
	// provider hides isLocal for parties of the default provider.
	idpAdmin := ledger.WithPrincipal(ctx, identity.Principal{UserID: "u", IdentityProviderID: "idp1",
		Rights: []identity.Right{{Kind: identity.RightIdentityProviderAdmin}}})
	if _, err := n.GetParties(idpAdmin, []string{alice}, ""); err != nil {
		// empty means the caller's own provider
		t.Fatalf("IDP admin, own provider: %v", err)
	}
	got, _ = n.GetParties(idpAdmin, []string{alice}, "")
	wantHidden := []identity.Party{{Party: alice, LocalMetadata: identity.ObjectMeta{Annotations: map[string]string{}}}}
	if diff := cmp.Diff(wantHidden, got); diff != "" {
		t.Errorf("party of another provider (-want +got):\n%s", diff)
	}
	if _, err := n.GetParties(idpAdmin, []string{alice}, "idp2"); !errors.Is(err, apierr.PermissionDenied) {
		t.Errorf("IDP admin of another provider: err = %v, want PERMISSION_DENIED", err)
	}
	if _, err := n.GetParties(ctx, []string{"bad!party"}, ""); !errors.Is(err, apierr.InvalidField) {
		t.Errorf("malformed party: err = %v, want INVALID_FIELD", err)
	}
}

func TestAuthenticate(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		claims identity.Claims
	}{
		{"unknown user", identity.Claims{UserID: "ghost"}},
		{"wrong provider", identity.Claims{UserID: identity.DefaultParticipantAdmin, IdentityProviderID: "idp1"}},
		{"other participant", identity.Claims{UserID: identity.DefaultParticipantAdmin, ParticipantID: "other::1220ab"}},
		{"malformed user id", identity.Claims{UserID: "no spaces allowed"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := n.Authenticate(ctx, tc.claims)
			var ae *apierr.Error
			if !errors.As(err, &ae) || ae.Code.Name != "PERMISSION_DENIED" || ae.Context["ledger_api_error"] != "invalid token" || ae.HTTPStatus() != 403 {
				t.Fatalf("err = %v, want PERMISSION_DENIED 403 with ledger_api_error", err)
			}
		})
	}
}

func TestClosedNode(t *testing.T) {
	t.Parallel()
	n, err := ledger.Open(ledger.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	n.Close()
	if err := n.Ready(); !errors.Is(err, apierr.ServiceNotRunning) {
		t.Errorf("Ready after Close = %v", err)
	}
	if _, err := n.AllocateParty(context.Background(), ledger.AllocatePartyRequest{}); !errors.Is(err, apierr.ServiceNotRunning) {
		t.Errorf("AllocateParty after Close = %v", err)
	}
	if _, err := n.LedgerEnd(context.Background()); !errors.Is(err, apierr.ServiceNotRunning) {
		t.Errorf("LedgerEnd after Close = %v", err)
	}
	if _, err := n.Version(context.Background()); !errors.Is(err, apierr.ServiceNotRunning) {
		t.Errorf("Version after Close = %v", err)
	}
	if _, err := n.ParticipantID(context.Background()); !errors.Is(err, apierr.ServiceNotRunning) {
		t.Errorf("ParticipantID after Close = %v", err)
	}
}

func TestClock(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 1, 2, 3, 4, 5, 600_000_000, time.UTC)
	n := ledgertest.Open(t, ledger.Options{Clock: func() time.Time { return at }})
	ledgertest.MustAllocate(t, n, "alice")
	upd := ledger.UpdateAtForTest(t, n, 1).(*update.TopologyTransaction)
	if got := upd.RecordTime; !got.Equal(at) {
		t.Errorf("record time = %v, want %v", got, at)
	}
}

// TestDirAndInMemory: Options naming a directory and InMemory is an error
// that creates nothing, not a silent in-memory node.
func TestDirAndInMemory(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "data")
	n, err := ledger.Open(ledger.Options{Dir: dir, InMemory: true})
	if err == nil {
		n.Close()
		t.Fatal("Open accepted Dir with InMemory")
	}
	if !strings.Contains(err.Error(), "exclusive") {
		t.Errorf("error %q does not say the options are exclusive", err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the directory was created: %v", err)
	}
}
