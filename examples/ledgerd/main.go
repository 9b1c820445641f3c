// Command ledgerd runs a ledgernode participant: a Canton JSON Ledger API
// 3.5 server over an embedded Badger store.
//
//	go run ./examples/ledgerd                       # ./ledgerd-data, generated HS256 secret
//	go run ./examples/ledgerd -in-memory -auth hs256:S
//	go run ./examples/ledgerd token -user alice     # a token for another user
//
// Without -auth it generates an HS256 secret, keeps it in the data
// directory (ledgerd-hs256.secret, mode 0600; per run with -in-memory) so
// that tokens survive a restart, and prints a ready-to-use
// participant_admin token; "ledgerd token" prints one for any user.
// Timeouts default to Canton's: a request (body included) gets 20 s
// (-request-timeout), a keep-alive connection 60 s without a request
// (-idle-timeout), headers 10 s; WebSocket streams are exempt from the
// request timeout and closed after an hour
// (-max-websocket-duration). It shuts down cleanly on SIGINT/SIGTERM:
// in-flight requests finish (lists waiting for new elements and gRPC
// streams end at once), then the store closes (after writing -snapshot). -static-time, -snapshot/-restore and -metrics-addr are in
// fixtures.go; -dar and -init-script (upload DARs and run a Daml Script
// against the node before serving) in scripts.go.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
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
	code := cli(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// cli runs the command line and returns the exit status: 0 after -help or
// -version, 2 for a command-line mistake (with the usage), 1 when the
// server stops on an error.
func cli(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "token" {
		return exitCode(runToken(args[1:], stdout, stderr), stderr)
	}
	c, err := parseFlags(args, stderr)
	if err != nil {
		return exitCode(err, stderr)
	}
	if c.version {
		fmt.Fprintln(stdout, "ledgerd", version())
		return 0
	}
	logger := newLogger(stderr, c)
	if err := run(ctx, args, stdout, logger, nil); err != nil {
		var ue usageError
		if errors.As(err, &ue) {
			return exitCode(err, stderr)
		}
		logger.Error("ledgerd stopped", "err", err)
		return 1
	}
	return 0
}

// exitCode maps a command-line error to the exit status, printing a
// usageError with its command's usage.
func exitCode(err error, stderr io.Writer) int {
	var ue usageError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "%v\n", err)
		if ue.fs == nil {
			fmt.Fprintln(stderr, "Run ledgerd -help for the flags.")
			return 2
		}
		ue.fs.SetOutput(stderr)
		ue.fs.Usage()
		return 2
	case errors.Is(err, errFlagParse):
		return 2 // the flag package has printed the error and the usage
	default:
		fmt.Fprintf(stderr, "ledgerd: %v\n", err)
		return 1
	}
}

// errFlagParse marks an error the flag package reported itself.
var errFlagParse = errors.New("bad command line")

// newLogger builds the logger of -log-level and -log-format.
func newLogger(w io.Writer, c config) *slog.Logger {
	opts := &slog.HandlerOptions{Level: c.logLevel}
	if c.logFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// version is the module version of the binary (from its build info;
// "(devel)" for go run and go build inside the module), its VCS revision
// when recorded, and the Go version.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " " + s.Value[:12]
		}
	}
	return v + " " + bi.GoVersion
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
	minFreeDisk     int64

	// Daily use (issue 15).
	verboseErrors bool
	logLevel      slog.Level
	logFormat     string
	version       bool
	// Static time, snapshots, metrics (fixtures.go).
	staticTime  staticTimeFlag
	snapshot    string
	restore     string
	metricsAddr string
	// DARs and init scripts (scripts.go).
	dars        listFlag
	initScripts listFlag
	// The browser console (console.go).
	console consoleConfig
	// The gRPC Ledger API (grpc.go).
	grpcAddr string
}

// defaultDataDir is the default of -data (ledgerd and ledgerd token).
const defaultDataDir = "./ledgerd-data"

const usageHead = `ledgerd runs a ledgernode participant: Canton's JSON Ledger API 3.5 over an
embedded Badger store, for development and tests.

Usage:
  ledgerd [flags]
  ledgerd token -user U [-ttl 24h] [-scope daml_ledger_api] [-data DIR | -auth hs256:SECRET]

Without -auth, ledgerd generates an HS256 secret, keeps it in the data
directory (per run with -in-memory) and prints a participant_admin token;
"ledgerd token" prints a token for any user with the same secret.

Examples:
  go run ./examples/ledgerd                                 # ./ledgerd-data, tokens survive restarts
  go run ./examples/ledgerd -in-memory -auth hs256:S -verbose-errors -log-level debug
  go run ./examples/ledgerd -auth none -addr 127.0.0.1:7575 # every request acts as participant_admin
  go run ./examples/ledgerd token -user alice -ttl 1h
  go run ./examples/ledgerd -log-format json 2>ledgerd.log
  go run ./examples/ledgerd -in-memory -static-time -dar app.dar -init-script Main:setup

Flags:
`

func parseFlags(args []string, out io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("ledgerd", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usageHead)
		fs.PrintDefaults()
	}
	fs.StringVar(&c.addr, "addr", "127.0.0.1:7575", "listen address")
	fs.StringVar(&c.data, "data", defaultDataDir, "Badger directory (it also keeps the generated HS256 secret)")
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
	fs.Int64Var(&c.minFreeDisk, "min-free-disk", ledger.DefaultMinFreeDisk, "bytes of free disk space below which an on-disk node refuses writes but pruning (INDEX_DB_SQL_TRANSIENT_ERROR; 0: the default; negative: never)")
	// Daily use (issue 15).
	fs.BoolVar(&c.verboseErrors, "verbose-errors", false, "send security-sensitive errors (bad token, unknown user, missing right) to the client unredacted: code, cause, category (development only)")
	fs.TextVar(&c.logLevel, "log-level", slog.LevelInfo, "log level: debug, info, warn or error (info logs one line per request and the DAR, party and user events)")
	fs.StringVar(&c.logFormat, "log-format", "text", "log format: text or json")
	fs.BoolVar(&c.version, "version", false, "print the version and exit")
	fixtureFlags(fs, &c)
	scriptFlags(fs, &c)
	consoleFlags(fs, &c.console)
	grpcFlags(fs, &c)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return c, err
		}
		return c, fmt.Errorf("%w: %w", errFlagParse, err)
	}
	if fs.NArg() > 0 {
		return c, usageError{fs, fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))}
	}
	if c.logFormat != "text" && c.logFormat != "json" {
		return c, usageError{fs, fmt.Errorf("-log-format %q: want text or json", c.logFormat)}
	}
	if c.data == "" && !c.inMemory {
		// ledger.Open takes no directory for in memory: -data "$DIR" with
		// DIR unset would run a node that loses everything at exit.
		return c, usageError{fs, errors.New("-data is empty: give a directory, or -in-memory")}
	}
	return c, nil
}

// run serves until ctx ends. ready, when set, is called with the bound
// address once the server accepts connections.
func run(ctx context.Context, args []string, stdout io.Writer, logger *slog.Logger, ready func(addr string)) (err error) {
	c, err := parseFlags(args, io.Discard)
	if err != nil {
		return err
	}
	opts := ledger.Options{ParticipantID: c.participantID, Logger: logger, ListLimit: c.listLimit, MaxDARUncompressedSize: c.maxDARInflation, MinFreeDisk: c.minFreeDisk}
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
	// The addresses are taken before the store is opened: a start that
	// cannot serve (a port in use) must fail before it creates a store or
	// commits the -dar and -init-script seeding, which a start that can
	// would run again.
	lns, err := c.listen()
	if err != nil {
		return err
	}
	defer lns.close()
	if err := c.checkSnapshotFile(); err != nil {
		return err
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
		// A snapshot not written is the state of an in-memory node lost:
		// ledgerd exits 1, not 0.
		if serr := c.writeSnapshot(node, logger); serr != nil {
			logger.Error("writing the snapshot", "err", serr)
			if err == nil {
				err = fmt.Errorf("-snapshot: %w", serr)
			}
		}
		if cerr := node.Close(); cerr != nil {
			logger.Error("closing the store", "err", cerr)
		}
	}()

	if instruments != nil {
		if err := node.PutInstruments(ctx, *instruments); err != nil {
			return fmt.Errorf("-instruments: %w", err)
		}
		logger.Info("registry instruments loaded", "file", c.instruments, "instruments", len(instruments.Instruments))
	}
	if err := c.seed(ctx, node, logger); err != nil {
		return err
	}
	spec, hint, err := authSpec(c, logger)
	if err != nil {
		return err
	}
	verifier, token, err := authenticator(spec, node.ParticipantIDString())
	if err != nil {
		return err
	}
	hopts := httpadapter.Options{Verifier: verifier, Logger: logger,
		RequestTimeout: c.requestTimeout, MaxStreamIdleTimeout: c.maxStreamIdle, MaxWebSocketDuration: c.maxWebSocket,
		VerboseErrors: c.verboseErrors}
	c.console.apply(&hopts)
	handler := httpadapter.New(node, hopts)
	if c.verboseErrors {
		logger.Warn("ledgerd: -verbose-errors: security-sensitive errors reach clients unredacted; do not use in production")
	}

	grpcAddr, stopGRPC := c.serveGRPC(lns.grpc, node, verifier, logger)
	defer stopGRPC()

	served, stopMetrics := c.serveMetrics(lns.metrics, node, handler, logger)
	defer stopMetrics()

	ln := lns.api
	// No ReadTimeout or WriteTimeout: they would cut WebSocket streams; the
	// adapter bounds every other request (-request-timeout).
	srv := &http.Server{Handler: served, IdleTimeout: c.idleTimeout,
		ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
	httpadapter.ServerTimeouts(srv)
	logger.Info("ledgerd serving", "addr", ln.Addr().String(), "participantId", node.ParticipantIDString(),
		"synchronizers", node.Synchronizers(), "store", storeDesc(c))
	grpcBanner(stdout, grpcAddr)
	c.console.banner(stdout, ln.Addr().String())
	if token != "" {
		fmt.Fprintf(stdout, "%s\nparticipant_admin token (valid 24h):\n%s\n", hint, token)
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
	// httpadapter.Shutdown ends the WebSocket streams (hijacked
	// connections, which srv.Shutdown neither ends nor waits for) with a
	// close frame 1001 (going away), and the list requests that wait for
	// new elements, which answer what they have rather than hold
	// srv.Shutdown for up to -max-stream-idle-timeout (or, without one,
	// until shutdownCtx cuts them): so it runs beside srv.Shutdown. Every
	// other request in flight (a submission) finishes as it would.
	adapterDown := make(chan error, 1)
	go func() { adapterDown <- httpadapter.Shutdown(shutdownCtx, handler) }()
	err = srv.Shutdown(shutdownCtx)
	if serr := <-adapterDown; err == nil {
		err = serr
	}
	if err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}

// listeners are the sockets of -addr, -grpc-addr and -metrics-addr (nil
// when not served apart).
type listeners struct {
	api, grpc, metrics net.Listener
}

// listen takes every address ledgerd serves on, or none.
func (c config) listen() (*listeners, error) {
	l := &listeners{}
	var err error
	if l.api, err = net.Listen("tcp", c.addr); err != nil {
		return nil, fmt.Errorf("-addr: %w", err)
	}
	if c.grpcAddr != "off" {
		if l.grpc, err = net.Listen("tcp", c.grpcAddr); err != nil {
			l.close()
			return nil, fmt.Errorf("-grpc-addr: %w", err)
		}
	}
	if c.metricsAddr != "" && c.metricsAddr != "off" {
		if l.metrics, err = net.Listen("tcp", c.metricsAddr); err != nil {
			l.close()
			return nil, fmt.Errorf("-metrics-addr: %w", err)
		}
	}
	return l, nil
}

// close closes the sockets (the servers' own Close and Shutdown have
// closed those they served; closing again is harmless).
func (l *listeners) close() {
	for _, ln := range []net.Listener{l.api, l.grpc, l.metrics} {
		if ln != nil {
			ln.Close()
		}
	}
}

// authSpec resolves -auth: without it, the HS256 secret kept in the data
// directory (generated on first use; per run with -in-memory). hint tells
// the developer how to get tokens for other users, with the command they
// can run (tokenCommand).
func authSpec(c config, logger *slog.Logger) (spec, hint string, err error) {
	mint := tokenCommand(os.Args[0]) + " -user U -auth hs256:SECRET"
	switch {
	case c.auth != "":
		if secret, ok := strings.CutPrefix(c.auth, "hs256:"); ok {
			if secret == "" {
				return "", "", usageError{nil, errors.New("-auth hs256: empty secret")}
			}
			return c.auth, "Tokens for other users: " + mint, nil
		}
		return c.auth, "", nil
	case c.inMemory:
		return "hs256:" + newSecret(), "In memory, the generated secret lasts this run only; pass -auth hs256:SECRET to mint tokens for other users with: " + mint, nil
	}
	secret, created, err := loadOrCreateSecret(c.data)
	if err != nil {
		return "", "", err
	}
	path := filepath.Join(c.data, secretFile)
	if created {
		logger.Info("generated an HS256 secret", "file", path)
	} else {
		logger.Info("using the HS256 secret of the data directory", "file", path)
	}
	return "hs256:" + secret, fmt.Sprintf("Tokens survive restarts (secret in %s). A token for another user: %s -user U -data %s", path, tokenCommand(os.Args[0]), c.data), nil
}

// authenticator turns the -auth flag into a token verifier (nil for none)
// and, when the node knows an HS256 secret, a participant_admin token.
func authenticator(spec, participantID string) (identity.Verifier, string, error) {
	vopts := identity.VerifyOptions{ParticipantID: participantID}
	if spec == "none" {
		return nil, "", nil
	}
	v, err := identity.ParseAuthSpec(spec, vopts)
	if err != nil {
		return nil, "", usageError{nil, fmt.Errorf("-auth: %w", err)}
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
