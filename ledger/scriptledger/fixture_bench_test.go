package scriptledger_test

import (
	"context"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/script"
	"github.com/ledgernode/ledgernode/daml/script/scripttest"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/internal/cputime"
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

// BenchmarkNewFixture prepares a fixture of the Splice Amulet test DAR:
// its template node's open, upload and close, and the prepared snapshot
// the fixture keeps. The DAR's decoding and type check are the process's
// once (every iteration after the first finds the DAR read and checked),
// as they are not the fixture's own cost. Skipped without ../shared.
func BenchmarkNewFixture(b *testing.B) {
	data := scripttest.ReadDAR(b, amuletTestDAR)
	ctx := context.Background()
	if _, err := scriptledger.NewFixture(ctx, ledger.Options{}, data); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := scriptledger.NewFixture(ctx, ledger.Options{}, data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAmuletScripts runs every script of the Splice Amulet test DAR
// serially, each on a fresh node of one fixture (as `damlscript --all`
// does), and reports what the ledger side of a script costs: the mean
// time of a submission (Ledger.Submit: the engine's interpretation, the
// node's checks, encoding and commit) and of an active-contracts query
// (Ledger.Contracts), besides the time of the whole suite per iteration
// and the process's CPU time per iteration (cpu-ms/op, the steadier
// figure on a shared machine). Every script must pass. Skipped without
// ../shared.
func BenchmarkAmuletScripts(b *testing.B) {
	data := scripttest.ReadDAR(b, amuletTestDAR)
	ctx := context.Background()
	dar, err := lf.ReadDAR(data, lf.ReadOptions{Cache: lf.DefaultCache})
	if err != nil {
		b.Fatal(err)
	}
	fx, err := scriptledger.NewFixture(ctx, ledger.Options{}, data)
	if err != nil {
		b.Fatal(err)
	}
	ids := script.Discover(dar.Main)
	r := script.NewRunner(dar, script.Options{})
	var t timings
	b.ReportAllocs()
	cpu := cputime.Process()
	for b.Loop() {
		for _, id := range ids {
			node, err := fx.Open()
			if err != nil {
				b.Fatal(err)
			}
			_, err = r.Run(ctx, id, &timedLedger{Ledger: scriptledger.New(node, scriptledger.Options{}), t: &t})
			node.Close()
			if err != nil {
				b.Fatalf("%s: %v", script.Name(id), err)
			}
		}
	}
	b.ReportMetric(float64((cputime.Process()-cpu).Nanoseconds())/float64(b.N)/1e6, "cpu-ms/op")
	b.ReportMetric(float64(t.submit.Nanoseconds())/float64(t.submits)/1e3, "µs/submit")
	b.ReportMetric(float64(t.query.Nanoseconds())/float64(t.queries)/1e3, "µs/query")
	b.ReportMetric(float64(t.submits)/float64(b.N), "submits/op")
	b.ReportMetric(float64(t.queries)/float64(b.N), "queries/op")
}

// timings sums the time of a benchmark's submissions and queries.
type timings struct {
	submit, query    time.Duration
	submits, queries int
}

// timedLedger times a ledger's Submit, Contracts and ContractsOfTemplate
// calls.
type timedLedger struct {
	*scriptledger.Ledger
	t *timings
}

func (l *timedLedger) Submit(ctx context.Context, s *script.Submission) (*tx.Transaction, error) {
	start := time.Now()
	defer func() { l.t.submit += time.Since(start); l.t.submits++ }()
	return l.Ledger.Submit(ctx, s)
}

func (l *timedLedger) Contracts(ctx context.Context, parties []string, match func(lf.TypeConID) bool) ([]engine.Contract, error) {
	start := time.Now()
	defer func() { l.t.query += time.Since(start); l.t.queries++ }()
	return l.Ledger.Contracts(ctx, parties, match)
}

func (l *timedLedger) ContractsOfTemplate(ctx context.Context, parties []string, tpl lf.TypeConID) ([]engine.Contract, error) {
	start := time.Now()
	defer func() { l.t.query += time.Since(start); l.t.queries++ }()
	return l.Ledger.ContractsOfTemplate(ctx, parties, tpl)
}
