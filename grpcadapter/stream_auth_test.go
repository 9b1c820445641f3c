package grpcadapter_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"

	"github.com/ledgernode/ledgernode/grpcadapter"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/grpcadapter/pb/v2/admin"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// topologyStream opens a GetUpdates stream that follows the ledger from
// its end, showing every party's topology transactions.
func topologyStream(t *testing.T, e *env, ctx context.Context) grpc.ServerStreamingClient[ledgerv2.GetUpdatesResponse] {
	t.Helper()
	end, err := e.node.LedgerEnd(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s, err := ledgerv2.NewUpdateServiceClient(e.conn).GetUpdates(ctx, &ledgerv2.GetUpdatesRequest{BeginExclusive: end,
		UpdateFormat: &ledgerv2.UpdateFormat{IncludeTopologyEvents: &ledgerv2.TopologyFormat{
			IncludeParticipantAuthorizationEvents: &ledgerv2.ParticipantAuthorizationTopologyFormat{}}}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// nextTopology receives the stream's next topology transaction (skipping
// offset checkpoints), or its error.
func nextTopology(s grpc.ServerStreamingClient[ledgerv2.GetUpdatesResponse]) (*ledgerv2.TopologyTransaction, error) {
	for {
		r, err := s.Recv()
		if err != nil {
			return nil, err
		}
		if tt := r.GetTopologyTransaction(); tt != nil {
			return tt, nil
		}
	}
}

// newReader creates user "reader" with CanReadAsAnyParty.
func newReader(t *testing.T, e *env) {
	t.Helper()
	_, err := admin.NewUserManagementServiceClient(e.conn).CreateUser(as(e.admin), &admin.CreateUserRequest{User: &admin.User{Id: "reader"},
		Rights: []*admin.Right{{Kind: &admin.Right_CanReadAsAnyParty_{CanReadAsAnyParty: &admin.Right_CanReadAsAnyParty{}}}}})
	if err != nil {
		t.Fatal(err)
	}
}

// TestStreamEndsWhenItsTokenExpires: a stream opened with a token that
// expires while it runs sends nothing more once it has: the next update
// ends it with ACCESS_TOKEN_EXPIRED (ABORTED), as Canton's
// UserBasedOngoingAuthorization checks the claims' expiry on every
// element.
func TestStreamEndsWhenItsTokenExpires(t *testing.T) {
	t.Parallel()
	node := ledgertest.Open(t, ledger.Options{})
	raw := make([]byte, 32)
	rand.Read(raw)
	secret := []byte(hex.EncodeToString(raw))
	v, err := identity.ParseAuthSpec("hs256:"+string(secret), identity.VerifyOptions{ParticipantID: node.ParticipantIDString(), Leeway: -1})
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, node, grpcadapter.Options{Verifier: v})
	e.secret = secret
	e.admin = e.token(t, identity.DefaultParticipantAdmin)
	newReader(t, e)
	short, err := identity.MintHS256(secret, "reader", 2*time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(as(short), 20*time.Second)
	defer cancel()
	s := topologyStream(t, e, ctx)
	ledgertest.MustAllocate(t, node, "before")
	if _, err := nextTopology(s); err != nil {
		t.Fatalf("an update before the token expires: %v", err)
	}
	time.Sleep(2500 * time.Millisecond)
	ledgertest.MustAllocate(t, node, "after")
	tt, err := nextTopology(s)
	if err == nil {
		t.Fatalf("the stream sent %v after its token expired", tt)
	}
	wantCode(t, err, codes.Aborted, "ACCESS_TOKEN_EXPIRED")
}

// TestStreamEndsWhenItsUserRightsChange: a stream whose user loses a right
// while it runs ends with STALE_STREAM_AUTHORIZATION (ABORTED) within the
// rights check interval, whether or not an update comes, as Canton's
// UserRightsChangeAsyncChecker ends it; a stream whose user's rights stay
// the same goes on.
func TestStreamEndsWhenItsUserRightsChange(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, grpcadapter.Options{UserRightsCheckInterval: 20 * time.Millisecond})
	newReader(t, e)
	ctx, cancel := context.WithTimeout(as(e.token(t, "reader")), 20*time.Second)
	defer cancel()
	s := topologyStream(t, e, ctx)
	time.Sleep(100 * time.Millisecond) // several checks, with the same rights
	ledgertest.MustAllocate(t, e.node, "seen")
	if _, err := nextTopology(s); err != nil {
		t.Fatalf("an update while the rights are unchanged: %v", err)
	}
	_, err := admin.NewUserManagementServiceClient(e.conn).RevokeUserRights(as(e.admin), &admin.RevokeUserRightsRequest{UserId: "reader",
		Rights: []*admin.Right{{Kind: &admin.Right_CanReadAsAnyParty_{CanReadAsAnyParty: &admin.Right_CanReadAsAnyParty{}}}}})
	if err != nil {
		t.Fatal(err)
	}
	tt, err := nextTopology(s)
	if err == nil {
		t.Fatalf("the stream sent %v after its user lost the right to read it", tt)
	}
	wantCode(t, err, codes.Aborted, "STALE_STREAM_AUTHORIZATION")
}

// TestShutdownEndsStreams: Shutdown ends an open stream, and refuses one
// opened later, with SERVER_IS_SHUTTING_DOWN (UNAVAILABLE); unary calls still
// answer.
func TestShutdownEndsStreams(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, grpcadapter.Options{})
	newReader(t, e)
	ctx, cancel := context.WithTimeout(as(e.token(t, "reader")), 20*time.Second)
	defer cancel()
	s := topologyStream(t, e, ctx)
	ledgertest.MustAllocate(t, e.node, "seen")
	if _, err := nextTopology(s); err != nil {
		t.Fatalf("an update before the shutdown: %v", err)
	}
	e.adapter.Shutdown()
	_, err := nextTopology(s)
	wantCode(t, err, codes.Unavailable, "SERVER_IS_SHUTTING_DOWN")
	_, err = nextTopology(topologyStream(t, e, ctx))
	wantCode(t, err, codes.Unavailable, "SERVER_IS_SHUTTING_DOWN")
	if _, err := ledgerv2.NewStateServiceClient(e.conn).GetLedgerEnd(ctx, &ledgerv2.GetLedgerEndRequest{}); err != nil {
		t.Errorf("a unary call after the shutdown: %v", err)
	}
}
