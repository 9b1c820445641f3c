package ledger_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	badger "github.com/dgraph-io/badger/v4"
	"github.com/ledgernode/ledgernode/ledger"
)

// BenchmarkOpenInMemory measures one Open+Close of an in-memory node
// (target: at most 20 ms).
func BenchmarkOpenInMemory(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		n, err := ledger.Open(ledger.Options{InMemory: true})
		if err != nil {
			b.Fatal(err)
		}
		n.Close()
	}
}

// BenchmarkAllocateParty allocates parties from parallel goroutines, in
// memory and on disk, beside a raw Badger write of the same number of keys
// and bytes per operation (one transaction per write, no ledger logic):
// the ratio of the two is the cost of the node above the store.
func BenchmarkAllocateParty(b *testing.B) {
	for _, mode := range []string{"mem", "disk"} {
		b.Run(mode+"/node", func(b *testing.B) {
			opts := ledger.Options{InMemory: mode == "mem"}
			if mode == "disk" {
				opts = ledger.Options{Dir: b.TempDir()}
			}
			n, err := ledger.Open(opts)
			if err != nil {
				b.Fatal(err)
			}
			defer n.Close()
			var seq atomic.Int64
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					hint := fmt.Sprintf("p%d", seq.Add(1))
					if _, err := n.AllocateParty(ctx, ledger.AllocatePartyRequest{PartyIDHint: hint}); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
		b.Run(mode+"/raw-badger", func(b *testing.B) {
			o := ledger.BadgerOptionsForBench(mode == "mem", b.TempDir())
			db, err := badger.Open(o)
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			// The same writes an allocation makes: party record, update,
			// update-id index, per-party index and the ledger end.
			party := make([]byte, 220)
			update := make([]byte, 420)
			var seq atomic.Int64
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					i := seq.Add(1)
					err := db.Update(func(txn *badger.Txn) error {
						k := fmt.Appendf(nil, "p/p%d::1220aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", i)
						for _, kv := range [][2][]byte{
							{k, party},
							{fmt.Appendf(nil, "u/%08d", i), update},
							{fmt.Appendf(nil, "i/1220%064d", i), []byte("12345678")},
							{fmt.Appendf(nil, "x/%s/%08d", k, i), nil},
							{[]byte("m/ledger-end"), []byte("12345678")},
						} {
							if err := txn.Set(kv[0], kv[1]); err != nil {
								return err
							}
						}
						return nil
					})
					if err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}
