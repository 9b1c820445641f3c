package scriptledger

import (
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
// starting at the Unix epoch and keeps its state, prepared
// (ledger.PreparedSnapshot): the nodes it opens share its package
// payloads and decoded packages rather than each restoring a copy. opts
// may set the participant id, synchronizers and limits; storage, clock
// and logger are the fixture's.
func NewFixture(ctx context.Context, opts ledger.Options, dars ...[]byte) (*Fixture, error) {
	opts.Dir, opts.InMemory, opts.Restore = "", true, nil
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	o := opts
	o.StaticTime = ledger.NewStaticClock(time.Unix(0, 0))
	// The template node is a new node on an overlay store
	// (ledger.EmptySnapshot), as the nodes the fixture opens are, rather
	// than on an in-memory Badger database: that one allocated ~35 MB
	// (its memtable arenas and tables) and flushed its memtable when
	// closed, for a node that lives for one upload; and Node.PrepareSnapshot takes
	// an overlay node's state as it is, without the round trip through a
	// snapshot stream.
	o.Restore = ledger.EmptySnapshot().Reader()
	node, err := ledger.Open(o)
	if err != nil {
		return nil, err
	}
	defer node.Close()
	for i, d := range dars {
		if err := node.UploadDAR(ctx, ledger.UploadDARRequest{DAR: d}); err != nil {
			return nil, fmt.Errorf("uploading DAR %d: %w", i+1, err)
		}
	}
	snap, err := node.PrepareSnapshot(ctx)
	if err != nil {
		return nil, err
	}
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
