package ledgertest

import (
	"log/slog"
	"net/http/httptest"
	"testing"

	"github.com/ledgernode/ledgernode/httpadapter"
	"github.com/ledgernode/ledgernode/ledger/internal/httplimit"
)

// ServeLimit serves, for benchmarks, the physical limit of HTTP + Badger
// for a Ping create, closed when tb ends: a minimal net/http server (with
// the node's server timeouts) that, for every request (any path), reads
// the body, commits in one operation of the group-committing store the
// keys and values an in-memory node stores for a Ping create (as many, of
// the same sizes, with the node's Badger options) and answers a
// submit-and-wait reply of the node's size. No JSON decoding, Daml,
// checks or deduplication. A node's rate over this server's, measured in
// the same run with the same clients, is how close it comes to the limit
// (examples/ledgerd's BenchmarkHTTPPingCreateVsLimit).
func ServeLimit(tb testing.TB) *httptest.Server {
	tb.Helper()
	s, err := httplimit.Open(httplimit.PingCreate, slog.New(slog.DiscardHandler))
	if err != nil {
		tb.Fatalf("ledgertest: opening the limit's store: %v", err)
	}
	srv := httptest.NewUnstartedServer(s)
	httpadapter.ServerTimeouts(srv.Config)
	srv.Start()
	tb.Cleanup(func() {
		srv.Close()
		if err := s.Close(); err != nil {
			tb.Errorf("ledgertest: closing the limit's store: %v", err)
		}
	})
	return srv
}
