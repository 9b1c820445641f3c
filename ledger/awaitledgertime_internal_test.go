package ledger

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"
)

// TestAwaitLedgerTimeSysClock: on the system clock, a ledger time not
// after a time read earlier does not wait and does not read the clock
// again; on a clock of Options.Clock, which may go back, the clock is
// read, and a ledger time ahead of it waits.
func TestAwaitLedgerTimeSysClock(t *testing.T) {
	t.Parallel()
	read := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	reads := 0
	clock := func() time.Time { reads++; return read.Add(-time.Hour) } // gone back
	// A wait ends at once (with the context's error).
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	log := slog.New(slog.DiscardHandler)
	sys := &Node{sysClock: true, clock: clock, log: log}
	if err := sys.awaitLedgerTime(ctx, read, read); err != nil || reads != 0 {
		t.Errorf("system clock: %v after %d readings, want nil after none", err, reads)
	}
	user := &Node{clock: clock, log: log}
	if err := user.awaitLedgerTime(ctx, read, read); !errors.Is(err, context.Canceled) || reads != 1 {
		t.Errorf("user clock gone back: %v after %d readings, want a wait (context.Canceled) after one", err, reads)
	}
}
