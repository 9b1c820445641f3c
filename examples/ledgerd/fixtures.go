package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/ledgernode/ledgernode/httpadapter"
	"github.com/ledgernode/ledgernode/ledger"
)

// fixtureFlags declares -static-time, -snapshot, -restore and -metrics-addr.
func fixtureFlags(fs *flag.FlagSet, c *config) {
	fs.Var(&c.staticTime, "static-time", "run on static time starting at this RFC 3339 instant (-static-time alone: the Unix epoch, as Canton); move it with POST /ledgernode/v1/time")
	fs.StringVar(&c.snapshot, "snapshot", "", "write a snapshot of the whole store to this file on shutdown")
	fs.StringVar(&c.restore, "restore", "", "start from a snapshot file (the store must be empty: -in-memory or a new -data directory)")
	fs.StringVar(&c.metricsAddr, "metrics-addr", "", `serve Prometheus metrics at /metrics on this address, without authentication (default: at /metrics on -addr; "off": not at all)`)
}

// staticTimeFlag is -static-time: absent, wall-clock time; alone, the Unix
// epoch; =RFC3339, that instant.
type staticTimeFlag struct {
	set bool
	at  time.Time
}

func (f *staticTimeFlag) String() string {
	if f == nil || !f.set {
		return ""
	}
	return f.at.Format(time.RFC3339Nano)
}

// Set implements flag.Value.
func (f *staticTimeFlag) Set(s string) error {
	switch s {
	case "true":
		f.set, f.at = true, time.Unix(0, 0).UTC()
	case "false":
		f.set = false
	default:
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return fmt.Errorf("not an RFC 3339 time: %w", err)
		}
		f.set, f.at = true, t
	}
	return nil
}

// IsBoolFlag lets -static-time stand alone.
func (f *staticTimeFlag) IsBoolFlag() bool { return true }

// applyFixtures sets the static clock and the snapshot to restore; the
// returned function closes the snapshot file once the node is open.
func (c config) applyFixtures(opts *ledger.Options) (func(), error) {
	if c.staticTime.set {
		opts.StaticTime = ledger.NewStaticClock(c.staticTime.at)
	}
	if c.restore == "" {
		return func() {}, nil
	}
	f, err := os.Open(c.restore)
	if err != nil {
		return nil, fmt.Errorf("-restore: %w", err)
	}
	opts.Restore = bufio.NewReaderSize(f, 1<<20)
	return func() { f.Close() }, nil
}

// checkSnapshotFile fails when -snapshot cannot be written (its directory
// is missing or read-only): at start, rather than after a whole session
// whose in-memory state the snapshot was to keep.
func (c config) checkSnapshotFile() error {
	if c.snapshot == "" {
		return nil
	}
	tmp := c.snapshot + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("-snapshot: %w", err)
	}
	f.Close()
	return os.Remove(tmp)
}

// writeSnapshot writes -snapshot (through a temporary file, synced before
// it takes the snapshot's name, so that neither a failure nor a crash
// leaves a truncated snapshot). The file is the owner's only (0600), as
// the data directory is: it holds the participant's namespace key.
func (c config) writeSnapshot(node *ledger.Node, logger *slog.Logger) error {
	if c.snapshot == "" {
		return nil
	}
	tmp := c.snapshot + ".tmp"
	os.Remove(tmp) // a leftover keeps its mode through O_TRUNC
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	err = node.Snapshot(context.Background(), w)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, c.snapshot)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	logger.Info("snapshot written", "file", c.snapshot)
	return nil
}

// serveMetrics instruments handler and serves /metrics: on the API's
// address (returned handler) or on ln, the socket of -metrics-addr. The returned function
// stops a separate metrics server.
func (c config) serveMetrics(ln net.Listener, node *ledger.Node, api http.Handler, logger *slog.Logger) (http.Handler, func()) {
	if c.metricsAddr == "off" {
		return api, func() {}
	}
	m := httpadapter.NewMetrics(node)
	api = m.Wrap(api)
	if c.metricsAddr == "" {
		// Not a ServeMux: it would clean and redirect the API's paths.
		metrics := m.Handler()
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/metrics" && r.Method == http.MethodGet {
				metrics.ServeHTTP(w, r)
				return
			}
			api.ServeHTTP(w, r)
		}), func() {}
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", m.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logger.Error("metrics server stopped", "err", err)
		}
	}()
	logger.Info("metrics served", "addr", ln.Addr().String())
	return api, func() { srv.Close() }
}
