package ledger_test

import (
	"context"
	"testing"

	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// pingDAR reads the ping DAR (432 KB) of ../shared, or skips.
func pingDAR(b *testing.B) []byte {
	b.Helper()
	return realDAR(b, "canton-builtin-admin-workflow-ping.dar")
}

// BenchmarkValidateDAR validates the ping DAR against an empty in-memory
// node: decoding, LF checks, DAR consistency and the vetting checks; no
// store writes.
func BenchmarkValidateDAR(b *testing.B) {
	data := pingDAR(b)
	n, err := ledger.Open(ledger.Options{InMemory: true})
	if err != nil {
		b.Fatal(err)
	}
	defer n.Close()
	ctx := context.Background()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := n.ValidateDAR(ctx, data, ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUploadDAR uploads the ping DAR, with vetting, into a fresh
// in-memory node per operation (a second upload to the same node would be
// the idempotent no-op). Opening and closing the node happen with the
// timer stopped, so the figures are the upload alone: decoding, checks,
// payload blobs, the commit of the package records and of the vetting
// state.
func BenchmarkUploadDAR(b *testing.B) {
	data := pingDAR(b)
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
