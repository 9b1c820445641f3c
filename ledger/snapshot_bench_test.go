package ledger_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/ledgernode/ledgernode/ledger"
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
		if err != nil || end.Offset != wantEnd {
			b.Fatalf("restored ledger end %d, %v; want %d", end.Offset, err, wantEnd)
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
	ctx := context.Background()
	warm, err := ledger.Open(ledger.Options{InMemory: true})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := warm.UploadDAR(ctx, ledger.UploadDARRequest{DAR: data}); err != nil {
		b.Fatal(err)
	}
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
		if _, err := n.UploadDAR(ctx, ledger.UploadDARRequest{DAR: data}); err != nil {
			b.Fatal(err)
		}
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
	ctx := context.Background()
	src, err := ledger.Open(ledger.Options{InMemory: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { src.Close() })
	if _, err := src.UploadDAR(ctx, ledger.UploadDARRequest{DAR: data}); err != nil {
		b.Fatal(err)
	}
	for _, hint := range []string{"alice", "bob"} {
		if _, err := src.AllocateParty(ctx, ledger.AllocatePartyRequest{PartyIDHint: hint}); err != nil {
			b.Fatal(err)
		}
	}
	end, err := src.LedgerEnd(ctx)
	if err != nil {
		b.Fatal(err)
	}
	return src, end.Offset
}
