package grpcadapter

import (
	"context"
	"log/slog"
	"net"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
)

// principalHealth is a health server whose Watch stream reports, as its
// status, whether the stream's context carries a Principal.
type principalHealth struct {
	healthpb.UnimplementedHealthServer
	seen chan identity.Principal
}

func (h *principalHealth) Watch(_ *healthpb.HealthCheckRequest, s grpc.ServerStreamingServer[healthpb.HealthCheckResponse]) error {
	p, _ := ledger.PrincipalFrom(s.Context())
	h.seen <- p
	return s.Send(&healthpb.HealthCheckResponse{Status: healthpb.HealthCheckResponse_SERVING})
}

// TestWrapStreams: a server stream wrapped by the adapter authenticates
// its caller before the handler runs (UNAUTHENTICATED without a token),
// and the handler's stream context carries the caller's Principal.
func TestWrapStreams(t *testing.T) {
	t.Parallel()
	v := fixedVerifier{"good": {UserID: identity.DefaultParticipantAdmin}}
	node, err := ledger.Open(ledger.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	a := New(node, Options{Verifier: v, Logger: slog.New(slog.DiscardHandler)})
	h := &principalHealth{seen: make(chan identity.Principal, 1)}
	srv := grpc.NewServer()
	srv.RegisterService(a.wrap(&healthpb.Health_ServiceDesc), h)
	lis := bufconn.Listen(1 << 16)
	go func() { _ = srv.Serve(lis) }()
	defer srv.Stop()
	conn, err := grpc.NewClient("passthrough:///buf", grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	c := healthpb.NewHealthClient(conn)

	s, err := c.Watch(context.Background(), &healthpb.HealthCheckRequest{})
	if err == nil {
		_, err = s.Recv()
	}
	if status.Code(err) != codes.Unauthenticated {
		t.Fatalf("Watch without a token: %v", err)
	}
	select {
	case p := <-h.seen:
		t.Fatalf("the handler ran for an unauthenticated caller (%v)", p)
	default:
	}

	ctx := metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer good")
	s, err = c.Watch(ctx, &healthpb.HealthCheckRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := s.Recv(); err != nil || res.Status != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("Watch: %v, %v", res, err)
	}
	if p := <-h.seen; p.UserID != identity.DefaultParticipantAdmin {
		t.Errorf("the stream's Principal %+v, want the participant admin", p)
	}
}

// fixedVerifier accepts the tokens it lists.
type fixedVerifier map[string]identity.Claims

func (v fixedVerifier) Verify(_ context.Context, token string) (identity.Claims, error) {
	if c, ok := v[token]; ok {
		return c, nil
	}
	return identity.Claims{}, apierr.Unauthenticated.New("unknown token")
}

// panicHealth panics in both of its methods.
type panicHealth struct {
	healthpb.UnimplementedHealthServer
}

func (panicHealth) Check(context.Context, *healthpb.HealthCheckRequest) (*healthpb.HealthCheckResponse, error) {
	panic("boom")
}

func (panicHealth) Watch(*healthpb.HealthCheckRequest, grpc.ServerStreamingServer[healthpb.HealthCheckResponse]) error {
	panic("boom")
}

// TestHandlerPanics: a panicking handler, unary or streaming, answers
// INTERNAL (redacted, as an internal error) and the server goes on.
func TestHandlerPanics(t *testing.T) {
	t.Parallel()
	node, err := ledger.Open(ledger.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	a := New(node, Options{Logger: slog.New(slog.DiscardHandler)})
	srv := grpc.NewServer()
	srv.RegisterService(a.wrap(&healthpb.Health_ServiceDesc), panicHealth{})
	lis := bufconn.Listen(1 << 16)
	go func() { _ = srv.Serve(lis) }()
	defer srv.Stop()
	conn, err := grpc.NewClient("passthrough:///buf", grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	c := healthpb.NewHealthClient(conn)
	for range 2 {
		_, err := c.Check(context.Background(), &healthpb.HealthCheckRequest{})
		if st, _ := status.FromError(err); st.Code() != codes.Internal || !strings.HasPrefix(st.Message(), redactedPrefix) {
			t.Errorf("Check: %v, want a redacted INTERNAL", err)
		}
		s, err := c.Watch(context.Background(), &healthpb.HealthCheckRequest{})
		if err == nil {
			_, err = s.Recv()
		}
		if status.Code(err) != codes.Internal {
			t.Errorf("Watch: %v, want INTERNAL", err)
		}
	}
}
