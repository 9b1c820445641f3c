package grpcadapter_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/grpcadapter"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/internal/cputime"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// benchUpdates is the number of transactions BenchmarkGRPCGetUpdates
// streams.
const benchUpdates = 20_000

// BenchmarkGRPCGetUpdates streams a ledger of 20 000 Ping creates with
// GetUpdates (bounded, as alice, ACS delta, verbose) over loopback TCP
// to a grpc-go client in the same process (auth mode none), and reports
// updates/s. The ledger is built once (submissions from 8 goroutines),
// outside the timer.
func BenchmarkGRPCGetUpdates(b *testing.B) {
	data, err := os.ReadFile(filepath.FromSlash(pingDAR))
	if err != nil {
		b.Skipf("../shared not found: skipping (%v)", err)
	}
	d, err := lf.ReadDAR(data, lf.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	node := ledgertest.Open(b, ledger.Options{})
	ledgertest.MustUploadDAR(b, node, data)
	alice, bob := ledgertest.MustAllocate(b, node, "alice"), ledgertest.MustAllocate(b, node, "bob")
	ctx := ledger.WithPrincipal(context.Background(), identity.Principal{UserID: identity.DefaultParticipantAdmin, Wildcard: true})
	ping := ledger.TemplateByID(lf.TypeConID{PackageID: d.Main.ID, Module: "Canton.Internal.Ping", Name: "Ping"})
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Go(func() {
			for i := g; i < benchUpdates; i += 8 {
				id := fmt.Sprintf("bench-%d", i)
				_, err := node.Submit(ctx, ledger.Commands{CommandID: id, ActAs: []string{alice}, Commands: []ledger.Command{ledger.CreateCommand{Template: ping,
					Arguments: value.Record{Fields: []value.RecordField{{Label: "id", Value: value.Text(id)}, {Label: "initiator", Value: value.Party(alice)}, {Label: "responder", Value: value.Party(bob)}}}}}})
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		b.Fatal(err)
	}
	end, err := node.LedgerEnd(ctx)
	if err != nil {
		b.Fatal(err)
	}
	srv := grpcadapter.New(node, grpcadapter.Options{Logger: slog.New(slog.DiscardHandler)}).NewServer()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go func() { _ = srv.Serve(lis) }()
	b.Cleanup(srv.Stop)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { conn.Close() })
	updates := ledgerv2.NewUpdateServiceClient(conn)
	req := &ledgerv2.GetUpdatesRequest{EndInclusive: &end, UpdateFormat: &ledgerv2.UpdateFormat{IncludeTransactions: &ledgerv2.TransactionFormat{
		EventFormat:      &ledgerv2.EventFormat{FiltersByParty: map[string]*ledgerv2.Filters{alice: {}}, Verbose: true},
		TransactionShape: ledgerv2.TransactionShape_TRANSACTION_SHAPE_ACS_DELTA}}}
	b.ReportAllocs()
	cpu0 := cputime.Process()
	for b.Loop() {
		st, err := updates.GetUpdates(context.Background(), req)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for {
			r, err := st.Recv()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			if r.GetTransaction() != nil {
				n++
			}
		}
		if n != benchUpdates {
			b.Fatalf("%d transactions, want %d", n, benchUpdates)
		}
	}
	b.ReportMetric(benchUpdates*float64(b.N)/b.Elapsed().Seconds(), "updates/s")
	// The process's CPU time per update (server, client, GC): the cost,
	// which a busy machine does not blur as it does the rate.
	b.ReportMetric(float64((cputime.Process()-cpu0).Microseconds())/float64(benchUpdates*b.N), "cpu-µs/update")
}
