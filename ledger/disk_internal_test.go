package ledger

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// TestNearlyFullDisk: a node whose file system has less free space than
// Options.MinFreeDisk does not open (its start writes its identity
// record), says why, and leaves the directory as it was; a write the
// store refuses for want of space reaches the API as Canton's
// INDEX_DB_SQL_TRANSIENT_ERROR, 503, retryable.
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
	if n, err := Open(full); err == nil {
		n.Close()
		t.Fatal("a node opened with less free disk space than it keeps")
	} else if !errors.Is(err, store.ErrDiskLow) || !strings.Contains(err.Error(), "writes resume when there is more") {
		t.Fatalf("Open on a nearly full disk: %v; want ErrDiskLow, explained", err)
	}

	n, err = Open(opts)
	if err != nil {
		t.Fatalf("reopening after the refusal: %v", err)
	}
	defer n.Close()
	if got, err := n.LedgerEnd(ctx); err != nil || got != end {
		t.Errorf("ledger end %v, %v after the refused open; want %v", got, err, end)
	}
	if ps, err := n.GetParties(ctx, []string{alice.Party}, ""); err != nil || len(ps) != 1 {
		t.Errorf("GetParties(%s) = %v, %v after the refused open; want the party", alice.Party, ps, err)
	}

	got := storeErr(fmt.Errorf("%w: 1 MiB free", store.ErrDiskLow))
	var ae *apierr.Error
	if !errors.As(got, &ae) || ae.Code != apierr.IndexDBSQLTransientError || ae.HTTPStatus() != 503 || ae.Code.Category.Retry() == 0 ||
		!strings.HasPrefix(ae.Cause, "Processing the request failed due to a transient database error: store: too little free disk space") {
		t.Errorf("storeErr(ErrDiskLow) = %#v; want INDEX_DB_SQL_TRANSIENT_ERROR, 503, retryable, with Canton's cause", got)
	}
}
