package scriptledger_test

import (
	"context"
	"testing"

	"github.com/ledgernode/ledgernode/daml/script/scripttest"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/scriptledger"
)

// BenchmarkFixtureOpen opens a fresh node from a fixture holding the
// Splice Amulet test DAR (and its dependencies, vetted) and reads its
// packages once (PackageSource, as a script's first command reads them):
// what the Daml Script runner pays per script before its own ledger
// writes. In /close, closing the node is timed too; otherwise it is
// outside the timer.
func BenchmarkFixtureOpen(b *testing.B) {
	data := scripttest.ReadDAR(b, amuletTestDAR)
	ctx := context.Background()
	fx, err := scriptledger.NewFixture(ctx, ledger.Options{}, data)
	if err != nil {
		b.Fatal(err)
	}
	for _, timeClose := range []bool{false, true} {
		name := "open"
		if timeClose {
			name = "close"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				n, err := fx.Open()
				if err != nil {
					b.Fatal(err)
				}
				pkgs, err := n.PackageSource(ctx)
				if err != nil || len(pkgs) == 0 {
					b.Fatalf("PackageSource: %d packages, %v", len(pkgs), err)
				}
				if !timeClose {
					b.StopTimer()
				}
				n.Close()
				if !timeClose {
					b.StartTimer()
				}
			}
		})
	}
}
