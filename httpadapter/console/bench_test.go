package console

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"testing"

	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger"
)

// benchContracts is the size of the benchmark's ledger, and benchBatch
// the creates per transaction.
const benchContracts, benchBatch = 200_000, 20

// BenchmarkPages renders the contracts and updates pages of a party on a
// ledger of 200 000 active Ping contracts of that party (10 000
// transactions of 20 creates), through the console's handler.
func BenchmarkPages(b *testing.B) {
	w := newWorld(b)
	ctx := context.Background()
	ping := w.tid("Canton.Internal.Ping", "Ping")
	for i := 0; i < benchContracts/benchBatch; i++ {
		cmds := make([]testCommand, benchBatch)
		for j := range cmds {
			cmds[j] = testCommand{Kind: testCreate, TemplateID: ping, CreateArgument: value.Record{RecordID: &ping,
				Fields: []value.RecordField{{Label: "id", Value: value.Text("p" + strconv.Itoa(i*benchBatch+j))},
					{Label: "initiator", Value: value.Party(w.alice)}, {Label: "responder", Value: value.Party(w.bob)}}}}
		}
		if _, err := submitCommands(ctx, w.node, []string{w.alice}, cmds); err != nil {
			b.Fatal(err)
		}
	}
	// The baseline: the node's typed reads of the two pages, alone (the
	// party's contracts; its transactions in the ledger-effects shape,
	// reassignments and topology events, newest first).
	size := int32(50)
	contracts := ledger.ReadFormat{Parties: map[string][]ledger.Filter{w.alice: nil}, Verbose: true}
	transactions := contracts
	transactions.Shape = ledger.LedgerEffects
	updates := ledger.UpdateReadFormat{Transactions: &transactions, Reassignments: &contracts,
		Topology: &ledger.TopologyReadFormat{ParticipantAuthorizations: []string{w.alice}}}
	b.Run("node-contracts-page", func(b *testing.B) {
		for b.Loop() {
			if _, err := w.node.ActiveContractEventsPage(ctx, contracts, ledger.PageRequest{Size: &size}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("node-updates-page", func(b *testing.B) {
		for b.Loop() {
			if _, err := w.node.UpdatesPage(ctx, updates, ledger.OffsetRange{Tail: true, Descending: true}, &size, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	c := New(w.node, Options{})
	for _, p := range []struct{ name, path string }{
		{"contracts", "/console/contracts?party=" + url.QueryEscape(w.alice)},
		{"updates", "/console/updates?party=" + url.QueryEscape(w.alice)},
	} {
		b.Run(p.name, func(b *testing.B) {
			req := httptest.NewRequest(http.MethodGet, p.path, nil)
			for b.Loop() {
				rec := httptest.NewRecorder()
				c.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("%s: %d", p.path, rec.Code)
				}
			}
		})
	}
}
