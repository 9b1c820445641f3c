// Command ledgerd runs a ledgernode participant: a Canton JSON Ledger API
// 3.5 server over an embedded Badger store.
//
//	go run ./examples/ledgerd                       # ./ledgerd-data, generated HS256 secret
//	go run ./examples/ledgerd -in-memory -auth hs256:S
//
// Without -auth it generates an HS256 secret and prints a ready-to-use
// participant_admin token. Timeouts default to Canton's: a request (body
// included) gets 20 s (-request-timeout), a keep-alive connection 60 s
// without a request (-idle-timeout), headers 10 s; WebSocket streams are
// exempt from the request timeout and closed after an hour
// (-max-websocket-duration). It shuts down cleanly on SIGINT/SIGTERM:
// in-flight requests finish, then the store closes (after writing
// -snapshot). -static-time, -snapshot/-restore and -metrics-addr are in
// fixtures.go.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/ledgernode/ledgernode/httpadapter"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/registry"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := run(ctx, os.Args[1:], os.Stdout, logger, nil); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		logger.Error("ledgerd stopped", "err", err)
		os.Exit(1)
	}
}

// config is the parsed command line.
type config struct {
	addr          string
	data          string
	inMemory      bool
	auth          string
	synchronizers string
	participantID string
	instruments   string
	listLimit     int

	requestTimeout  time.Duration
	idleTimeout     time.Duration
	maxStreamIdle   time.Duration
	maxWebSocket    time.Duration
	maxDARInflation int64

	// Static time, snapshots, metrics (fixtures.go).
	staticTime  staticTimeFlag
	snapshot    string
	restore     string
	metricsAddr string
}

func parseFlags(args []string, out io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("ledgerd", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&c.addr, "addr", "127.0.0.1:7575", "listen address")
	fs.StringVar(&c.data, "data", "./ledgerd-data", "Badger directory")
	fs.BoolVar(&c.inMemory, "in-memory", false, "keep everything in memory (no files at all)")
	fs.StringVar(&c.auth, "auth", "", "none, hs256:SECRET, rs256:PEMFILE, es256:PEMFILE or jwks:URL (default: a generated HS256 secret)")
	fs.StringVar(&c.synchronizers, "synchronizers", "", "comma-separated synchronizer ids; the first is the default (default: one generated id)")
	fs.StringVar(&c.participantID, "participant-id", "", "a bare name (namespace = the node's key) or a full name::1220… id used verbatim (default: generated)")
	fs.StringVar(&c.instruments, "instruments", "", `JSON file of registry instruments ({"adminId": …, "supportedApis": {…}, "instruments": […]})`)
	fs.IntVar(&c.listLimit, "list-limit", ledger.DefaultListLimit, "http-list-max-elements-limit for the list endpoints")
	fs.DurationVar(&c.requestTimeout, "request-timeout", httpadapter.DefaultRequestTimeout, "bound of every request but WebSocket streams, body reading included (503 beyond; negative: none)")
	fs.DurationVar(&c.idleTimeout, "idle-timeout", httpadapter.DefaultIdleTimeout, "how long a keep-alive connection may stay without a request")
	fs.DurationVar(&c.maxStreamIdle, "max-stream-idle-timeout", httpadapter.DefaultMaxStreamIdleTimeout, "cap of the stream_idle_timeout_ms of list requests (negative: none)")
	fs.DurationVar(&c.maxWebSocket, "max-websocket-duration", httpadapter.DefaultMaxWebSocketDuration, "how long a WebSocket stream may stay open (negative: no limit)")
	fs.Int64Var(&c.maxDARInflation, "max-dar-uncompressed-size", ledger.DefaultMaxDARUncompressedSize, "bytes a DAR may inflate to (ZIP_BOMB beyond)")
	fixtureFlags(fs, &c)
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	return c, nil
}

// run serves until ctx ends. ready, when set, is called with the bound
// address once the server accepts connections.
func run(ctx context.Context, args []string, stdout io.Writer, logger *slog.Logger, ready func(addr string)) error {
	c, err := parseFlags(args, stdout)
	if err != nil {
		return err
	}
	opts := ledger.Options{ParticipantID: c.participantID, Logger: logger, ListLimit: c.listLimit, MaxDARUncompressedSize: c.maxDARInflation}
	if c.inMemory {
		opts.InMemory = true
	} else {
		opts.Dir = c.data
	}
	if c.synchronizers != "" {
		opts.Synchronizers = strings.Split(c.synchronizers, ",")
	}
	var instruments *registry.File
	if c.instruments != "" {
		data, err := os.ReadFile(c.instruments)
		if err != nil {
			return fmt.Errorf("-instruments: %w", err)
		}
		f, err := registry.ParseFile(data)
		if err != nil {
			return fmt.Errorf("-instruments %s: %w", c.instruments, err)
		}
		instruments = &f
	}
	closeRestore, err := c.applyFixtures(&opts)
	if err != nil {
		return err
	}
	node, err := ledger.Open(opts)
	closeRestore()
	if err != nil {
		return err
	}
	defer func() {
		if err := c.writeSnapshot(node, logger); err != nil {
			logger.Error("writing the snapshot", "err", err)
		}
		if err := node.Close(); err != nil {
			logger.Error("closing the store", "err", err)
		}
	}()

	if instruments != nil {
		if err := node.PutInstruments(ctx, *instruments); err != nil {
			return fmt.Errorf("-instruments: %w", err)
		}
		logger.Info("registry instruments loaded", "file", c.instruments, "instruments", len(instruments.Instruments))
	}
	verifier, token, err := authenticator(c.auth, node.ParticipantIDString())
	if err != nil {
		return err
	}
	handler := httpadapter.New(node, httpadapter.Options{Verifier: verifier, Logger: logger,
		RequestTimeout: c.requestTimeout, MaxStreamIdleTimeout: c.maxStreamIdle, MaxWebSocketDuration: c.maxWebSocket})

	handler, stopMetrics, err := c.serveMetrics(node, handler, logger)
	if err != nil {
		return err
	}
	defer stopMetrics()

	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		return err
	}
	// No ReadTimeout or WriteTimeout: they would cut WebSocket streams; the
	// adapter bounds every other request (-request-timeout).
	srv := &http.Server{Handler: handler, IdleTimeout: c.idleTimeout,
		ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
	httpadapter.ServerTimeouts(srv)
	logger.Info("ledgerd serving", "addr", ln.Addr().String(), "participantId", node.ParticipantIDString(),
		"synchronizers", node.Synchronizers(), "store", storeDesc(c))
	if token != "" {
		fmt.Fprintf(stdout, "participant_admin token (valid 24h):\n%s\n", token)
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	if ready != nil {
		ready(ln.Addr().String())
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	logger.Info("ledgerd shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}

// authenticator turns the -auth flag into a token verifier (nil for none)
// and, when the node knows an HS256 secret, a participant_admin token.
func authenticator(spec, participantID string) (identity.Verifier, string, error) {
	vopts := identity.VerifyOptions{ParticipantID: participantID}
	switch {
	case spec == "none":
		return nil, "", nil
	case spec == "":
		secret := make([]byte, 32)
		rand.Read(secret)
		spec = "hs256:" + hex.EncodeToString(secret)
	}
	v, err := identity.ParseAuthSpec(spec, vopts)
	if err != nil {
		return nil, "", fmt.Errorf("-auth: %w", err)
	}
	var token string
	if secret, ok := strings.CutPrefix(spec, "hs256:"); ok {
		token, err = identity.MintHS256([]byte(secret), identity.DefaultParticipantAdmin, 24*time.Hour, nil)
		if err != nil {
			return nil, "", err
		}
	}
	return v, token, nil
}

func storeDesc(c config) string {
	if c.inMemory {
		return "in-memory"
	}
	return c.data
}
