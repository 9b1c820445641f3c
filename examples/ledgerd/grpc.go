package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/ledgernode/ledgernode/grpcadapter"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
)

// defaultGRPCAddr is the default of -grpc-addr: Canton's sandbox port
// (a variable for the tests, which run many ledgerds at once).
var defaultGRPCAddr = "127.0.0.1:6865"

// grpcFlags declares -grpc-addr.
func grpcFlags(fs *flag.FlagSet, c *config) {
	fs.StringVar(&c.grpcAddr, "grpc-addr", defaultGRPCAddr, `serve Canton's gRPC Ledger API v2 on this address, with the same node, tokens and rules as the JSON API ("off": not at all)`)
}

// grpcShutdownGrace is how long the gRPC server's graceful stop may wait
// for calls in flight (open streams included) before they are cut.
const grpcShutdownGrace = 30 * time.Second

// serveGRPC starts the gRPC Ledger API on ln, the socket of -grpc-addr
// (nil for "off": nothing), and returns its address ("" for "off") and the function
// that stops it: a graceful stop, then a hard one after grpcShutdownGrace.
func (c config) serveGRPC(ln net.Listener, node *ledger.Node, verifier identity.Verifier, logger *slog.Logger) (addr string, stop func()) {
	if ln == nil {
		return "", func() {}
	}
	streams := &streamStopper{cancels: map[*int]context.CancelCauseFunc{}}
	srv := grpcadapter.New(node, grpcadapter.Options{Verifier: verifier, Logger: logger, VerboseErrors: c.verboseErrors}).
		NewServer(grpc.ChainStreamInterceptor(streams.intercept))
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, grpc.ErrServerStopped) {
			logger.Error("the gRPC server stopped", "err", err)
		}
	}()
	logger.Info("ledgerd serving gRPC", "addr", ln.Addr().String())
	return ln.Addr().String(), func() {
		ctx, cancel := context.WithTimeout(context.Background(), grpcShutdownGrace)
		defer cancel()
		stopped := make(chan struct{})
		// A tailing stream never ends by itself: GracefulStop would wait
		// out the grace for it. Streams end first, as Canton's do at
		// shutdown; unary calls (submissions) finish.
		streams.stop()
		go func() { srv.GracefulStop(); close(stopped) }()
		select {
		case <-stopped:
		case <-ctx.Done():
			srv.Stop()
		}
		<-done
	}
}

// grpcBanner prints the gRPC Ledger API's address (nothing when it is off).
func grpcBanner(w io.Writer, addr string) {
	if addr != "" {
		fmt.Fprintf(w, "gRPC Ledger API: %s\n", addr)
	}
}

// streamStopper ends the server streams under way (GetUpdates tailing the
// ledger, completions, health watches) when the server stops, with
// Canton's SERVER_IS_SHUTTING_DOWN (UNAVAILABLE: the client may retry
// elsewhere or later), as Canton's StreamingServiceLifecycleManagement
// does.
type streamStopper struct {
	mu       sync.Mutex
	stopping bool
	cancels  map[*int]context.CancelCauseFunc
}

// errShuttingDown is the cause of a stream's end at shutdown.
var errShuttingDown = errors.New("server is shutting down")

// intercept runs a stream under a context that stop cancels.
func (s *streamStopper) intercept(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	ctx, cancel := context.WithCancelCause(ss.Context())
	defer cancel(nil)
	key := new(int)
	s.mu.Lock()
	if s.stopping {
		cancel(errShuttingDown)
	} else {
		s.cancels[key] = cancel
	}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.cancels, key)
		s.mu.Unlock()
	}()
	err := handler(srv, &stoppableStream{ServerStream: ss, ctx: ctx})
	if errors.Is(context.Cause(ctx), errShuttingDown) && ss.Context().Err() == nil {
		return shuttingDownStatus()
	}
	return err
}

// stop ends the streams under way and those that start later.
func (s *streamStopper) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopping = true
	for _, cancel := range s.cancels {
		cancel(errShuttingDown)
	}
}

// stoppableStream is a server stream under the stopper's context.
type stoppableStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (s *stoppableStream) Context() context.Context { return s.ctx }

// shuttingDownStatus is Canton's CommonErrors.ServerIsShuttingDown as its
// gRPC status: UNAVAILABLE, category TransientServerFailure (1), retryable.
func shuttingDownStatus() error {
	st := status.New(codes.Unavailable, "SERVER_IS_SHUTTING_DOWN(1,0): Server is shutting down")
	if d, err := st.WithDetails(
		&errdetails.ErrorInfo{Reason: "SERVER_IS_SHUTTING_DOWN", Metadata: map[string]string{"category": "1", "definite_answer": "false"}},
		&errdetails.RetryInfo{RetryDelay: durationpb.New(time.Second)}); err == nil {
		st = d
	}
	return st.Err()
}
