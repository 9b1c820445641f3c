package grpcadapter_test

import (
	"context"
	"fmt"
	"log"
	"log/slog"
	"net"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/ledgernode/ledgernode/grpcadapter"
	"github.com/ledgernode/ledgernode/grpcadapter/pb/v2/admin"
	"github.com/ledgernode/ledgernode/ledger"
)

// A node served over gRPC beside (or instead of) the JSON API. Without a
// Verifier every call acts as the participant admin; pass one (for
// instance identity.ParseAuthSpec("hs256:…", …)) to require tokens.
func ExampleAdapter_NewServer() {
	node, err := ledger.Open(ledger.Options{InMemory: true})
	if err != nil {
		log.Fatal(err)
	}
	defer node.Close()
	srv := grpcadapter.New(node, grpcadapter.Options{Logger: slog.New(slog.DiscardHandler)}).NewServer()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	go srv.Serve(lis)
	defer srv.GracefulStop()

	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	res, err := admin.NewPartyManagementServiceClient(conn).AllocateParty(context.Background(), &admin.AllocatePartyRequest{PartyIdHint: "alice"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.PartyDetails.Party[:len("alice::")], res.PartyDetails.IsLocal)
	// Output: alice:: true
}
