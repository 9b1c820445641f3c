package ledger

import (
	"context"
	"io"
)

// Snapshot writes a consistent copy of the node's whole store (identity,
// users, parties, packages, contracts, the update log) to w, as of one
// moment; commits may go on meanwhile and are not in the copy. Open a node
// from it with Options.Restore: that is much faster than replaying the
// uploads and allocations that built it, so a test suite can prepare a node
// once and start each test from a copy (ledgertest.OpenFrom). It needs
// ParticipantAdmin. The format is Badger's backup stream: read it with the
// same ledgernode version.
func (n *Node) Snapshot(ctx context.Context, w io.Writer) error {
	if err := n.public(ctx); err != nil {
		return err
	}
	if err := requireParticipantAdmin(ctx, "taking a snapshot"); err != nil {
		return err
	}
	return storeErr(n.st.Backup(w))
}
