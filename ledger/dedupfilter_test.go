package ledger_test

import (
	"errors"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// TestDuplicateRefusedAfterReopen: a durable node refuses a command it
// accepted before it was closed and opened again, with every kind of
// deduplication period, whether or not the deduplication filter's scan of
// the store has finished, and still accepts new commands; a command
// accepted after the reopen is refused after the next one.
func TestDuplicateRefusedAfterReopen(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	dir := t.TempDir()
	n, err := ledger.Open(ledger.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	dar, ids := lftest.DAR(lftest.IouPackage("1.0.0"))
	ledgertest.MustUploadDAR(t, n, dar)
	alice := ledgertest.MustAllocate(t, n, "alice")
	byID := ledger.TemplateByID(lf.TypeConID{PackageID: ids[0], Module: "Main", Name: "Iou"})
	create := func(id string) ledger.Commands {
		return ledger.Commands{ActAs: []string{alice}, CommandID: id,
			Commands: []ledger.Command{ledger.CreateCommand{Template: byID, Arguments: iouRecord(value.Party(alice), value.Int64(7))}}}
	}
	first := map[string]int64{}
	for _, id := range []string{"c1", "c2", "c3"} {
		c, err := n.Submit(ctx, create(id))
		if err != nil {
			t.Fatal(err)
		}
		first[id] = c.Offset
	}
	if err := n.Close(); err != nil {
		t.Fatal(err)
	}

	for round, fresh := range []string{"d1", "d2", "d3"} {
		n, err = ledger.Open(ledger.Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		for id, off := range first {
			for _, d := range []ledger.Deduplication{nil, ledger.DeduplicationDuration(time.Hour), ledger.DeduplicationOffset(off - 1)} {
				c := create(id)
				c.Deduplication = d
				if _, err := n.Submit(ctx, c); !errors.Is(err, apierr.DuplicateCommand) {
					t.Errorf("round %d: %s again, deduplication %#v: %v, want DUPLICATE_COMMAND", round, id, d, err)
				}
			}
		}
		c, err := n.Submit(ctx, create(fresh))
		if err != nil {
			t.Fatalf("round %d: a new command %s: %v", round, fresh, err)
		}
		first[fresh] = c.Offset
		if _, err := n.Submit(ctx, create(fresh)); !errors.Is(err, apierr.DuplicateCommand) {
			t.Errorf("round %d: %s again at once: %v, want DUPLICATE_COMMAND", round, fresh, err)
		}
		if round == 1 {
			// Let the scan finish before the next reopen's checks.
			time.Sleep(50 * time.Millisecond)
		}
		if err := n.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
