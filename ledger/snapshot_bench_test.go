package ledger_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// BenchmarkOpenFromSnapshot opens a fresh in-memory node restored from a
// snapshot of a node holding the ping DAR (vetted) and two parties, and
// uploads nothing: the cost of a prepared fixture per test. The timer
// covers Open (restore included) and a first use of the packages (the
// first upload of the same DAR, an idempotent no-op, which reads the
// package records); Close is outside it.
func BenchmarkOpenFromSnapshot(b *testing.B) {
	src, wantEnd := pingFixture(b)
	ctx := context.Background()
	var snap bytes.Buffer
	if err := src.Snapshot(ctx, &snap); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(snap.Len()))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n, err := ledger.Open(ledger.Options{Restore: bytes.NewReader(snap.Bytes())})
		if err != nil {
			b.Fatal(err)
		}
		end, err := n.LedgerEnd(ctx)
		if err != nil || end != wantEnd {
			b.Fatalf("restored ledger end %d, %v; want %d", end, err, wantEnd)
		}
		b.StopTimer()
		n.Close()
		b.StartTimer()
	}
}

// BenchmarkUploadSeenDAR uploads the ping DAR, with vetting, into a fresh
// in-memory node per operation, the process having decoded it before
// (lf.DefaultCache): what a test suite pays per test for an upload after
// the first. Opening and closing the node are outside the timer.
func BenchmarkUploadSeenDAR(b *testing.B) {
	data := pingDAR(b)
	warm, err := ledger.Open(ledger.Options{InMemory: true})
	if err != nil {
		b.Fatal(err)
	}
	ledgertest.MustUploadDAR(b, warm, data)
	warm.Close()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		n, err := ledger.Open(ledger.Options{InMemory: true})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		ledgertest.MustUploadDAR(b, n, data)
		b.StopTimer()
		n.Close()
		b.StartTimer()
	}
}

// BenchmarkSnapshot takes a snapshot of a node holding the ping DAR and
// two parties (what ledgertest.Snapshot and ledgerd -snapshot cost).
func BenchmarkSnapshot(b *testing.B) {
	src, _ := pingFixture(b)
	ctx := context.Background()
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := src.Snapshot(ctx, &buf); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(buf.Len()))
}

// pingFixture opens an in-memory node holding the ping DAR (vetted) and
// two parties, closed when b ends, and returns it with its ledger end.
func pingFixture(b *testing.B) (*ledger.Node, int64) {
	b.Helper()
	data := pingDAR(b)
	src := ledgertest.Open(b, ledger.Options{})
	ledgertest.MustUploadDAR(b, src, data)
	ledgertest.MustAllocate(b, src, "alice")
	ledgertest.MustAllocate(b, src, "bob")
	end, err := src.LedgerEnd(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	return src, end
}
