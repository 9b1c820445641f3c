package ledger_test

import (
	"testing"

	"github.com/ledgernode/ledgernode/ledger"
)

// BenchmarkTypedTransactions walks the 1000 transactions of
// BenchmarkUpdatesPage's page with Transactions: the same rendering, plus
// the decoding of every value with the package types (pages of 100, the
// default page size).
func BenchmarkTypedTransactions(b *testing.B) {
	f := benchFixture(b, ledger.Options{InMemory: true})
	fill(b, f, 3000, f.alice)
	format := ledger.ReadFormat{AnyParty: []ledger.Filter{}}
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		for _, err := range f.n.Transactions(f.ctx, format, ledger.OffsetRange{After: 1000, Through: new(int64(2000))}) {
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != 1000 {
			b.Fatalf("%d transactions", n)
		}
	}
	b.ReportMetric(1000*float64(b.N)/b.Elapsed().Seconds(), "updates/s")
}
