package ledger_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// needleLedger is an on-disk node with `others` active Ious of party hay
// and 100 of party needle, created in ten submissions spread evenly among
// hay's; half is the ledger end when needle had 50.
type needleLedger struct {
	n      *ledger.Node
	ctx    context.Context
	needle string
	half   int64
}

func newNeedleLedger(b *testing.B, others int) *needleLedger {
	b.Helper()
	n := ledgertest.Open(b, ledger.Options{Dir: b.TempDir(), Logger: slog.New(slog.DiscardHandler)})
	ctx := context.Background()
	d, ids := lftest.DAR(lftest.IouPackage("1.0.0"))
	ledgertest.MustUploadDAR(b, n, d)
	l := &needleLedger{n: n, ctx: ctx, needle: ledgertest.MustAllocate(b, n, "needle")}
	hay := ledgertest.MustAllocate(b, n, "hay")
	seq := 0
	create := func(owner string, count int) {
		cmds := make([]jsonapi.JsCommand, count)
		for i := range cmds {
			cmds[i] = jsonapi.JsCommand{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: ids[0] + ":Main:Iou",
				CreateArguments: json.RawMessage(fmt.Sprintf(`{"owner": %q, "amount": "%d"}`, owner, i))}}
		}
		seq++
		if _, err := jsonapi.New(n).SubmitAndWait(ctx, jsonapi.JsCommands{CommandID: fmt.Sprint("c", seq), ActAs: []string{owner}, UserID: "u1", Commands: cmds}); err != nil {
			b.Fatal(err)
		}
	}
	const batch = 1000
	for step := range 10 {
		for left := others / 10; left > 0; left -= batch {
			create(hay, min(batch, left))
		}
		create(l.needle, 10)
		if step == 4 {
			end, err := n.LedgerEnd(ctx)
			if err != nil {
				b.Fatal(err)
			}
			l.half = end
		}
	}
	return l
}

// BenchmarkACSNeedle reads the active contracts of a party with 100
// contracts on ledgers where another party has 10 000 and 100 000: as
// one typed walk (ActiveContractEvents) at the ledger end and at an earlier offset, and as a Daml
// Script query (EngineContracts). With the active-contracts index the
// cost is the same on both ledgers.
func BenchmarkACSNeedle(b *testing.B) {
	for _, others := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("others=%d", others), func(b *testing.B) {
			l := newNeedleLedger(b, others)
			f := ledger.ReadAs(l.needle)
			list := func(b *testing.B, at int64, want int) {
				for b.Loop() {
					cs := 0
					for _, err := range l.n.ActiveContractEvents(l.ctx, f, at) {
						if err != nil {
							b.Fatal(err)
						}
						cs++
					}
					if cs != want {
						b.Fatalf("%d contracts; want %d", cs, want)
					}
				}
			}
			b.Run("end", func(b *testing.B) {
				end, err := l.n.LedgerEnd(l.ctx)
				if err != nil {
					b.Fatal(err)
				}
				list(b, end, 100)
			})
			b.Run("past", func(b *testing.B) { list(b, l.half, 50) })
			b.Run("script", func(b *testing.B) {
				for b.Loop() {
					cs, err := l.n.EngineContracts(l.ctx, []string{l.needle}, func(lf.TypeConID) bool { return true })
					if err != nil || len(cs) != 100 {
						b.Fatalf("%d contracts, %v; want 100", len(cs), err)
					}
				}
			})
		})
	}
}
