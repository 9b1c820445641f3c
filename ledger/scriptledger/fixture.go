package scriptledger

import (
	"bytes"
	"context"
	"fmt"

	"log/slog"
	"time"

	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/script"
	"github.com/ledgernode/ledgernode/ledger"
)

// Fixture is a node prepared once (DARs uploaded and vetted, on static
// time at the Unix epoch) from which every script gets a fresh copy, as
// `daml test` gives every script a fresh IDE ledger.
type Fixture struct {
	snapshot *ledger.PreparedSnapshot
	opts     ledger.Options
}

// NewFixture uploads the DARs to a new in-memory node on static time
// starting at the Unix epoch and keeps its snapshot, prepared
// (ledger.PrepareSnapshot): the nodes it opens share its package payloads
// and decoded packages rather than each restoring a copy. opts may set the
// participant id, synchronizers and limits; storage, clock and logger are
// the fixture's.
func NewFixture(ctx context.Context, opts ledger.Options, dars ...[]byte) (*Fixture, error) {
	opts.Dir, opts.InMemory, opts.Restore = "", true, nil
	// With a logger of the caller's, the template node closes before
	// NewFixture returns: it may log while closing, and a caller's logger
	// (a test's, say) may not outlive the call.
	quiet := opts.Logger == nil
	if quiet {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	o := opts
	o.StaticTime = ledger.NewStaticClock(time.Unix(0, 0))
	node, err := ledger.Open(o)
	if err != nil {
		return nil, err
	}
	prepared := false
	defer func() {
		if prepared && quiet {
			// The template node is of no more use: closing it (its
			// in-memory store flushes its tables, 6-8 ms for the Splice
			// Amulet test DAR) goes on beside the first scripts rather
			// than before them.
			go node.Close()
			return
		}
		node.Close()
	}()
	for i, d := range dars {
		if err := node.UploadDAR(ctx, ledger.UploadDARRequest{DAR: d}); err != nil {
			return nil, fmt.Errorf("uploading DAR %d: %w", i+1, err)
		}
	}
	// The snapshot is mostly the packages' payloads, which the DARs hold
	// deflated (2.6 to 3.5 times smaller for the Splice test DARs' snapshots):
	// sized for that, the buffer is allocated once rather than grown by
	// doubling, copying what it holds each time.
	var buf bytes.Buffer
	size := 0
	for _, d := range dars {
		size += 4 * len(d)
	}
	buf.Grow(size)
	if err := node.Snapshot(ctx, &buf); err != nil {
		return nil, err
	}
	snap, err := ledger.PrepareSnapshot(buf.Bytes())
	if err != nil {
		return nil, err
	}
	prepared = true
	return &Fixture{snapshot: snap, opts: opts}, nil
}

// Open opens a fresh in-memory node from the fixture, on its own static
// clock at the Unix epoch. The caller closes it.
func (f *Fixture) Open() (*ledger.Node, error) {
	o := f.opts
	o.StaticTime = ledger.NewStaticClock(time.Unix(0, 0))
	o.Restore = f.snapshot.Reader()
	return ledger.Open(o)
}

// Run runs the script id on a fresh node of the fixture and closes the
// node; a failure is a *script.Error.
func (f *Fixture) Run(ctx context.Context, r *script.Runner, id lf.TypeConID) (engine.Value, error) {
	node, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer node.Close()
	return r.Run(ctx, id, New(node, Options{}))
}
