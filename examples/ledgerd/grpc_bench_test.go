package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// grpcBannerAddr finds the gRPC address in ledgerd's banner.
var grpcBannerAddr = regexp.MustCompile(`gRPC Ledger API: (\S+)`)

// grpcPingTarget is pingTarget with the gRPC Ledger API on a loopback
// port: ledgerd in memory (auth none) with Canton's Ping DAR, alice and
// bob; it returns a client connection to the gRPC server.
func grpcPingTarget(b *testing.B) (conn *grpc.ClientConn, pingT, alice, bob string) {
	b.Helper()
	dar, err := os.ReadFile(filepath.Join(acceptDARDir, pingDAR))
	if err != nil {
		b.Skipf("../shared not found: skipping the Ping benchmark (%v)", err)
	}
	s := startServer(b, discardLogger(), "-in-memory", "-auth", "none", "-grpc-addr", "127.0.0.1:0")
	m := grpcBannerAddr.FindStringSubmatch(s.out.String())
	if m == nil {
		b.Fatalf("no gRPC address in the banner:\n%s", s.out.String())
	}
	client := &http.Client{}
	post(b, client, s.base+"/v2/dars", dar)
	party := func(hint string) string {
		var alloc struct {
			PartyDetails struct{ Party string } `json:"partyDetails"`
		}
		if err := json.Unmarshal(post(b, client, s.base+"/v2/parties", fmt.Appendf(nil, `{"partyIdHint":%q}`, hint)), &alloc); err != nil {
			b.Fatal(err)
		}
		return alloc.PartyDetails.Party
	}
	conn, err = grpc.NewClient(m[1], grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { conn.Close() })
	return conn, ledgertest.MainPackageID(b, dar) + ":Canton.Internal.Ping:Ping", party("alice"), party("bob")
}

// grpcPingCreate is pingCreate's command over gRPC.
func grpcPingCreate(seq int64, pingT, alice, bob string) *ledgerv2.SubmitAndWaitRequest {
	text := func(s string) *ledgerv2.Value { return &ledgerv2.Value{Sum: &ledgerv2.Value_Text{Text: s}} }
	party := func(s string) *ledgerv2.Value { return &ledgerv2.Value{Sum: &ledgerv2.Value_Party{Party: s}} }
	pkg, _, _ := strings.Cut(pingT, ":")
	id := &ledgerv2.Identifier{PackageId: pkg, ModuleName: "Canton.Internal.Ping", EntityName: "Ping"}
	return &ledgerv2.SubmitAndWaitRequest{Commands: &ledgerv2.Commands{
		CommandId: fmt.Sprintf("c%d", seq), ActAs: []string{alice}, UserId: "participant_admin",
		Commands: []*ledgerv2.Command{{Command: &ledgerv2.Command_Create{Create: &ledgerv2.CreateCommand{TemplateId: id,
			CreateArguments: &ledgerv2.Record{Fields: []*ledgerv2.RecordField{
				{Label: "id", Value: text(fmt.Sprintf("p%d", seq))}, {Label: "initiator", Value: party(alice)}, {Label: "responder", Value: party(bob)}}}}}}},
	}}
}

// BenchmarkGRPCPingCreate is BenchmarkHTTPPingCreate over the gRPC Ledger
// API: CommandService.SubmitAndWait Ping creates from 64 goroutines on
// one client connection (HTTP/2 streams) to ledgerd's gRPC server on a
// loopback port.
func BenchmarkGRPCPingCreate(b *testing.B) {
	conn, pingT, alice, bob := grpcPingTarget(b)
	c := ledgerv2.NewCommandServiceClient(conn)
	var seq atomic.Int64
	b.SetParallelism(32) // 64 clients on 2 cores
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := c.SubmitAndWait(context.Background(), grpcPingCreate(seq.Add(1), pingT, alice, bob)); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "creates/s")
}
