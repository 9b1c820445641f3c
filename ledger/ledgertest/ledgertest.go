// Package ledgertest helps the tests of applications built on ledgernode,
// as net/http/httptest helps HTTP handlers: a node in memory per test,
// closed when the test ends, helpers that fail the test instead of
// returning errors, and the node served over HTTP with a ready-to-use
// participant_admin token.
//
//	node := ledgertest.Open(t, ledger.Options{})
//	alice := ledgertest.MustAllocate(t, node, "alice")
//	srv, token := ledgertest.Serve(t, node)
//
// An in-memory node opens in milliseconds and costs a few MB, so every test
// (and every parallel subtest) can have its own. A node prepared once
// (DARs, parties) is copied into each test with Snapshot and OpenFrom;
// OpenStatic opens a node on static time with a Clock the test moves.
package ledgertest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/httpadapter"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
)

// Open opens a node for tb, in memory unless opts.Dir names a directory, and
// closes it when tb and its subtests end. Without a Logger in opts the
// node's logs are discarded. A failure to open fails tb at once.
func Open(tb testing.TB, opts ledger.Options) *ledger.Node {
	tb.Helper()
	if opts.Dir == "" {
		opts.InMemory = true
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	node, err := ledger.Open(opts)
	if err != nil {
		tb.Fatalf("ledgertest: opening the node: %v", err)
	}
	tb.Cleanup(func() {
		if err := node.Close(); err != nil {
			tb.Errorf("ledgertest: closing the node: %v", err)
		}
	})
	return node
}

// MustAllocate allocates a party with the hint as a trusted in-process
// caller and returns its id ("hint::1220…"); an error fails tb at once.
func MustAllocate(tb testing.TB, node *ledger.Node, hint string) string {
	tb.Helper()
	d, err := node.AllocateParty(context.Background(), ledger.AllocatePartyRequest{PartyIDHint: hint})
	if err != nil {
		tb.Fatalf("ledgertest: allocating party %q: %v", hint, err)
	}
	return d.Party
}

// MustUploadDAR uploads and vets a DAR on the node's default synchronizer
// as a trusted in-process caller; an error fails tb at once.
func MustUploadDAR(tb testing.TB, node *ledger.Node, dar []byte) {
	tb.Helper()
	if err := node.UploadDAR(context.Background(), ledger.UploadDARRequest{DAR: dar}); err != nil {
		tb.Fatalf("ledgertest: uploading the DAR: %v", err)
	}
}

// MainPackageID returns the id of the main package of dar, for the
// template and interface ids of commands and filters
// ("<id>:Module:Template"); a DAR that cannot be read fails tb at once.
// It reads the DAR as the node would on upload, Daml-LF 2.dev included.
func MainPackageID(tb testing.TB, dar []byte) string {
	tb.Helper()
	d, err := lf.ReadDAR(dar, lf.ReadOptions{AllowDevLF: true})
	if err != nil {
		tb.Fatalf("ledgertest: reading the DAR: %v", err)
	}
	return d.Main.ID
}

// Serve serves node as Canton's JSON Ledger API on a loopback
// httptest.Server, closed when tb ends. Requests need a bearer token signed
// with a secret generated for this server; the returned token is valid for
// participant_admin for an hour ("Authorization: Bearer " + token).
func Serve(tb testing.TB, node *ledger.Node) (*httptest.Server, string) {
	tb.Helper()
	secret := make([]byte, 32)
	rand.Read(secret)
	verifier, err := identity.ParseAuthSpec("hs256:"+hex.EncodeToString(secret), identity.VerifyOptions{ParticipantID: node.ParticipantIDString()})
	if err != nil {
		tb.Fatalf("ledgertest: %v", err)
	}
	token, err := identity.MintHS256([]byte(hex.EncodeToString(secret)), identity.DefaultParticipantAdmin, time.Hour, nil)
	if err != nil {
		tb.Fatalf("ledgertest: minting a token: %v", err)
	}
	return ServeWith(tb, node, verifier), token
}

// ServeWith serves node as Canton's JSON Ledger API on a loopback
// httptest.Server that verifies tokens with verifier (to share tokens
// with another server of the same node, such as the gRPC adapter's),
// closed when tb ends.
func ServeWith(tb testing.TB, node *ledger.Node, verifier identity.Verifier) *httptest.Server {
	tb.Helper()
	srv := httptest.NewUnstartedServer(httpadapter.New(node, httpadapter.Options{Verifier: verifier, Logger: slog.New(slog.DiscardHandler)}))
	httpadapter.ServerTimeouts(srv.Config)
	srv.Start()
	tb.Cleanup(srv.Close)
	return srv
}

// OpenFrom opens an in-memory node for tb restored from a snapshot taken
// with (*ledger.Node).Snapshot (see Snapshot): the same participant,
// parties, users, packages, contracts and ledger end, in a few
// milliseconds. Prepare a node once (uploads, parties), snapshot it, and
// start every test from the copy. opts.Restore is set by OpenFrom; the
// other options apply as in Open.
func OpenFrom(tb testing.TB, snapshot []byte, opts ledger.Options) *ledger.Node {
	tb.Helper()
	opts.Dir, opts.Restore = "", bytes.NewReader(snapshot)
	return Open(tb, opts)
}

// Snapshot returns a snapshot of node for OpenFrom; an error fails tb at
// once.
func Snapshot(tb testing.TB, node *ledger.Node) []byte {
	tb.Helper()
	var buf bytes.Buffer
	if err := node.Snapshot(context.Background(), &buf); err != nil {
		tb.Fatalf("ledgertest: taking a snapshot: %v", err)
	}
	return buf.Bytes()
}

// Clock is the static clock of a node opened with OpenStatic: it moves
// only when the test says so, forward only. Its methods fail the test on a
// refused move.
type Clock struct {
	tb     testing.TB
	static *ledger.StaticClock
}

// OpenStatic opens a node for tb as Open does, on static time starting at
// start (time.Unix(0, 0) is Canton's default), and returns its clock.
// opts.Clock must be nil.
func OpenStatic(tb testing.TB, opts ledger.Options, start time.Time) (*ledger.Node, *Clock) {
	tb.Helper()
	c := &Clock{tb: tb, static: ledger.NewStaticClock(start)}
	opts.StaticTime = c.static
	return Open(tb, opts), c
}

// Now returns the clock's time.
func (c *Clock) Now() time.Time { return c.static.Now() }

// Set moves the clock to t; t before the current time fails the test.
func (c *Clock) Set(t time.Time) {
	c.tb.Helper()
	if err := c.static.Set(t); err != nil {
		c.tb.Fatalf("ledgertest: setting the time: %v", err)
	}
}

// Advance moves the clock forward by d; a negative d fails the test.
func (c *Clock) Advance(d time.Duration) {
	c.tb.Helper()
	if err := c.static.Advance(d); err != nil {
		c.tb.Fatalf("ledgertest: advancing the time: %v", err)
	}
}

// Static returns the underlying ledger.StaticClock (to share it with
// another node, or to test a refused move without failing the test).
func (c *Clock) Static() *ledger.StaticClock { return c.static }
