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

// serveGRPC starts the gRPC Ledger API on -grpc-addr (nothing for "off")
// and returns the address it listens on ("" for "off") and the function
// that stops it: open streams end with SERVICE_NOT_RUNNING, then a
// graceful stop lets unary calls finish, and a hard one follows after
// grpcShutdownGrace.
func (c config) serveGRPC(node *ledger.Node, verifier identity.Verifier, logger *slog.Logger) (addr string, stop func(), err error) {
	if c.grpcAddr == "off" {
		return "", func() {}, nil
	}
	ln, err := net.Listen("tcp", c.grpcAddr)
	if err != nil {
		return "", nil, err
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
		// Open streams end first (SERVICE_NOT_RUNNING): one that follows
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
	}, nil
}

// grpcBanner prints the gRPC Ledger API's address (nothing when it is off).
func grpcBanner(w io.Writer, addr string) {
	if addr != "" {
		fmt.Fprintf(w, "gRPC Ledger API: %s\n", addr)
	}
}
