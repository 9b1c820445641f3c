package grpcadapter_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/proto"

	"github.com/ledgernode/ledgernode/grpcadapter"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// env is a node served by the adapter over an in-memory listener, with
// HS256 tokens.
type env struct {
	node    *ledger.Node
	adapter *grpcadapter.Adapter
	conn    *grpc.ClientConn
	secret  []byte
	admin   string // a participant_admin token
}

// newEnv serves node (a fresh in-memory one when nil) with opts; a nil
// opts.Verifier gets an HS256 verifier of a random secret.
func newEnv(t *testing.T, node *ledger.Node, opts grpcadapter.Options) *env {
	t.Helper()
	if node == nil {
		node = ledgertest.Open(t, ledger.Options{})
	}
	raw := make([]byte, 32)
	rand.Read(raw)
	secret := []byte(hex.EncodeToString(raw))
	if opts.Verifier == nil {
		v, err := identity.ParseAuthSpec("hs256:"+string(secret), identity.VerifyOptions{ParticipantID: node.ParticipantIDString()})
		if err != nil {
			t.Fatal(err)
		}
		opts.Verifier = v
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	ad := grpcadapter.New(node, opts)
	srv := ad.NewServer()
	lis := bufconn.Listen(1 << 20)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	conn, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(64<<20), grpc.MaxCallSendMsgSize(64<<20)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	e := &env{node: node, adapter: ad, conn: conn, secret: secret}
	e.admin = e.token(t, identity.DefaultParticipantAdmin)
	return e
}

// token mints a token for user.
func (e *env) token(t *testing.T, user string) string {
	t.Helper()
	tok, err := identity.MintHS256(e.secret, user, time.Hour, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// as returns a context carrying token as a bearer token.
func as(token string) context.Context {
	return metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+token)
}

// statusOf returns err's status with its details, failing the test when
// err is nil.
func statusOf(t *testing.T, err error) (*status.Status, *errdetails.ErrorInfo, []proto.Message) {
	t.Helper()
	if err == nil {
		t.Fatal("the call succeeded; want an error")
	}
	st, ok := status.FromError(err)
	if !ok {
		t.Fatalf("%v is not a gRPC status", err)
	}
	var info *errdetails.ErrorInfo
	var details []proto.Message
	for _, d := range st.Details() {
		m, ok := d.(proto.Message)
		if !ok {
			t.Fatalf("undecodable detail %v", d)
		}
		details = append(details, m)
		if i, ok := m.(*errdetails.ErrorInfo); ok {
			info = i
		}
	}
	return st, info, details
}

// wantCode fails the test unless err is a status of code c whose
// ErrorInfo reason is reason ("" for a redacted status, which has none).
func wantCode(t *testing.T, err error, c codes.Code, reason string) *errdetails.ErrorInfo {
	t.Helper()
	st, info, _ := statusOf(t, err)
	if st.Code() != c {
		t.Fatalf("code %v (%s), want %v", st.Code(), st.Message(), c)
	}
	switch {
	case reason == "" && info != nil:
		t.Fatalf("redacted status carries ErrorInfo %v", info)
	case reason != "" && (info == nil || info.Reason != reason):
		t.Fatalf("ErrorInfo %v (%s), want reason %s", info, st.Message(), reason)
	}
	return info
}
