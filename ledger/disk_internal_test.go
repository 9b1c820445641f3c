package ledger

import (
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// TestNearlyFullDisk: an existing node whose file system has less free
// space than Options.MinFreeDisk opens and serves reads, refuses writes
// with Canton's INDEX_DB_SQL_TRANSIENT_ERROR (503, retryable, no path in
// the cause) and stores nothing of them; a new node there does not open,
// and says why.
func TestNearlyFullDisk(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	dir := t.TempDir()
	opts := Options{Dir: dir, Logger: slog.New(slog.DiscardHandler)}
	n, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	alice, err := n.AllocateParty(ctx, AllocatePartyRequest{PartyIDHint: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	end, err := n.LedgerEnd(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Close(); err != nil {
		t.Fatal(err)
	}

	full := opts
	full.MinFreeDisk = 1 << 62 // more than any disk has
	n, err = Open(full)
	if err != nil {
		t.Fatalf("opening an existing node on a nearly full disk: %v", err)
	}
	if got, err := n.LedgerEnd(ctx); err != nil || got != end {
		t.Errorf("ledger end %v, %v on a nearly full disk; want %v", got, err, end)
	}
	if ps, err := n.GetParties(ctx, []string{alice.Party}, ""); err != nil || len(ps) != 1 {
		t.Errorf("GetParties(%s) = %v, %v on a nearly full disk; want the party", alice.Party, ps, err)
	}
	_, err = n.AllocateParty(ctx, AllocatePartyRequest{PartyIDHint: "bob"})
	var ae *apierr.Error
	if !errors.As(err, &ae) || ae.Code != apierr.IndexDBSQLTransientError || ae.HTTPStatus() != 503 || ae.Code.Category.Retry() == 0 ||
		!strings.HasPrefix(ae.Cause, "Processing the request failed due to a transient database error: the participant's disk is nearly full") ||
		strings.Contains(ae.Cause, dir) {
		t.Errorf("AllocateParty on a nearly full disk: %#v; want INDEX_DB_SQL_TRANSIENT_ERROR, 503, retryable, with Canton's cause and no path", err)
	}
	if got, err := n.LedgerEnd(ctx); err != nil || got != end {
		t.Errorf("ledger end %v, %v after the refusal; want %v", got, err, end)
	}
	if err := n.Close(); err != nil {
		t.Fatal(err)
	}
	n, err = Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	if ps, _, err := n.ListParties(ctx, ListPartiesRequest{FilterParty: "bob::"}); err != nil || len(ps) != 0 {
		t.Errorf("ListParties(bob::) = %v, %v after the refusal; want none", ps, err)
	}

	if n, err := Open(Options{Dir: t.TempDir(), Logger: opts.Logger, MinFreeDisk: 1 << 62}); err == nil {
		n.Close()
		t.Fatal("a new node opened with less free disk space than it keeps")
	} else if !errors.Is(err, store.ErrDiskLow) || !strings.Contains(err.Error(), "writes resume when there is more") {
		t.Fatalf("opening a new node on a nearly full disk: %v; want ErrDiskLow, explained", err)
	}
}
