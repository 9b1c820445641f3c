package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"time"

	"google.golang.org/grpc"

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
// (nil for "off": nothing), and returns its address ("" for "off") and
// the function that stops it: open streams end with
// SERVER_IS_SHUTTING_DOWN (grpcadapter.Adapter.Shutdown), then a graceful
// stop lets unary calls finish, and a hard one follows after
// grpcShutdownGrace.
func (c config) serveGRPC(ln net.Listener, node *ledger.Node, verifier identity.Verifier, logger *slog.Logger) (addr string, stop func()) {
	if ln == nil {
		return "", func() {}
	}
	ad := grpcadapter.New(node, grpcadapter.Options{Verifier: verifier, Logger: logger, VerboseErrors: c.verboseErrors})
	srv := ad.NewServer()
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, grpc.ErrServerStopped) {
			logger.Error("the gRPC server stopped", "err", err)
		}
	}()
	logger.Info("ledgerd serving gRPC", "addr", ln.Addr().String())
	return ln.Addr().String(), func() {
		// Open streams end first (SERVER_IS_SHUTTING_DOWN): one that follows
		// the ledger would hold the graceful stop for the whole grace.
		ad.Shutdown()
		ctx, cancel := context.WithTimeout(context.Background(), grpcShutdownGrace)
		defer cancel()
		stopped := make(chan struct{})
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
