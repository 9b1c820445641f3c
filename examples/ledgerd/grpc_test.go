package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/ledgernode/ledgernode/grpcadapter/pb/v2/admin"
)

// Tests start many ledgerds at once: those that do not ask for the gRPC
// API (-grpc-addr) do not take Canton's port 6865. The binary's default
// is unchanged.
func init() { defaultGRPCAddr = "off" }

var grpcLogAddr = regexp.MustCompile(`msg="ledgerd serving gRPC" addr=(\S+)`)

// TestGRPCAddr: with -grpc-addr, ledgerd serves the gRPC Ledger API on the
// same node as the JSON API, with the same tokens: a party allocated over
// gRPC is listed over HTTP, a call without a token is UNAUTHENTICATED, and
// both servers stop with ledgerd. With -grpc-addr off there is none.
func TestGRPCAddr(t *testing.T) {
	t.Parallel()
	const secret = "grpc-addr-test-secret"
	var logs lockedBuffer
	s := startServer(t, slog.New(slog.NewTextHandler(&logs, nil)), "-in-memory", "-auth", "hs256:"+secret, "-grpc-addr", "127.0.0.1:0")
	m := grpcLogAddr.FindStringSubmatch(logs.String())
	if m == nil {
		t.Fatalf("no gRPC address in the log:\n%s", logs.String())
	}
	if want := "gRPC Ledger API: " + m[1] + "\n"; !strings.Contains(s.out.String(), want) {
		t.Errorf("the banner has no %q:\n%s", want, s.out.String())
	}
	conn, err := grpc.NewClient(m[1], grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	token := mintFor(t, secret)
	c := admin.NewPartyManagementServiceClient(conn)
	ctx := metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+token)
	res, err := c.AllocateParty(ctx, &admin.AllocatePartyRequest{PartyIdHint: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodGet, s.base+"/v2/parties/"+res.PartyDetails.Party, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var body struct{ PartyDetails []struct{ Party string } }
	err = json.NewDecoder(resp.Body).Decode(&body)
	resp.Body.Close()
	if err != nil || len(body.PartyDetails) != 1 || body.PartyDetails[0].Party != res.PartyDetails.Party {
		t.Errorf("the JSON API's party %v (%v), want %s", body, err, res.PartyDetails.Party)
	}
	if _, err := c.AllocateParty(context.Background(), &admin.AllocatePartyRequest{PartyIdHint: "bob"}); status.Code(err) != codes.Unauthenticated {
		t.Errorf("without a token: %v, want UNAUTHENTICATED", err)
	}

	s.stop()
	cctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, err := c.GetParticipantId(cctx, &admin.GetParticipantIdRequest{}, grpc.WaitForReady(false)); status.Code(err) != codes.Unavailable {
		t.Errorf("after the stop: %v, want UNAVAILABLE", err)
	}

	var offLogs lockedBuffer
	startServer(t, slog.New(slog.NewTextHandler(&offLogs, nil)), "-in-memory", "-auth", "none", "-grpc-addr", "off")
	if strings.Contains(offLogs.String(), "serving gRPC") {
		t.Errorf("-grpc-addr off serves gRPC:\n%s", offLogs.String())
	}
}
