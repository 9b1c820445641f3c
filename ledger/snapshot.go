package ledger

import (
	"bytes"
	"context"
	"io"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// Snapshot writes a consistent copy of the node's whole store (identity,
// users, parties, packages, contracts, the update log) to w, as of one
// moment; commits may go on meanwhile and are not in the copy. Open a node
// from it with Options.Restore: that is much faster than replaying the
// uploads and allocations that built it, so a test suite can prepare a node
// once and start each test from a copy (ledgertest.OpenFrom). It needs
// ParticipantAdmin. The format is Badger's backup stream, its batches
// checksummed and closed by a trailer (a cut or altered copy is refused):
// read it with the same ledgernode version.
func (n *Node) Snapshot(ctx context.Context, w io.Writer) error {
	if err := n.public(ctx); err != nil {
		return err
	}
	if err := requireParticipantAdmin(ctx, "taking a snapshot"); err != nil {
		return err
	}
	return storeErr(n.st.Backup(w))
}

// PreparedSnapshot is a Node.Snapshot read once, to open many in-memory
// nodes from it cheaply (a fresh node per test or per script, as
// scriptledger.Fixture does). Each node restored from it is independent, as
// if restored from the snapshot's bytes; but its store is no Badger
// instance: it is the snapshot's entries, shared read-only by every node
// restored from it, under the node's own writes (a copy-on-write overlay,
// so that opening a node copies nothing of the snapshot), and it starts
// with the snapshot's packages decoded (they were checked against their ids
// once, here). Such a store has no transaction size limit and ignores
// Options.Badger.
type PreparedSnapshot struct {
	st   *store.Prepared
	pkgs []*lf.Package
}

// PrepareSnapshot reads a Node.Snapshot stream into copies of its entries
// (it does not keep snapshot, which the caller may reuse). It decodes the
// packages the snapshot stores; one that does not decode is left to the
// nodes, which report it when they read it, as they would from the plain
// snapshot.
func PrepareSnapshot(snapshot []byte) (*PreparedSnapshot, error) {
	st, err := store.Prepare(snapshot)
	if err != nil {
		return nil, storeErr(err)
	}
	return prepared(st), nil
}

// EmptySnapshot returns a PreparedSnapshot of no state: an in-memory node
// opened from its Reader starts as a new in-memory node does (a new
// participant identity and admin user, ledger end 0), but on an overlay
// store rather than a Badger instance (see PreparedSnapshot). It is for a
// short-lived node that is filled and then prepared (Node.PrepareSnapshot), as
// scriptledger.Fixture's template node: it opens and closes at no cost and
// its PrepareSnapshot copies nothing.
func EmptySnapshot() *PreparedSnapshot { return &PreparedSnapshot{st: store.Empty()} }

// PrepareSnapshot returns a PreparedSnapshot of the node's state as of one moment:
// what PrepareSnapshot gives for the node's Snapshot. For a node opened
// in memory from a PreparedSnapshot (EmptySnapshot, say) it shares the
// node's entries rather than writing and reading a snapshot stream. It
// needs ParticipantAdmin.
func (n *Node) PrepareSnapshot(ctx context.Context) (*PreparedSnapshot, error) {
	if err := n.public(ctx); err != nil {
		return nil, err
	}
	if err := requireParticipantAdmin(ctx, "taking a snapshot"); err != nil {
		return nil, err
	}
	st, ok, err := n.st.Prepare()
	if !ok {
		var buf bytes.Buffer
		if err := n.Snapshot(ctx, &buf); err != nil {
			return nil, err
		}
		return PrepareSnapshot(buf.Bytes())
	}
	if err != nil {
		return nil, storeErr(err)
	}
	return prepared(st), nil
}

// prepared is the PreparedSnapshot of st, its packages decoded.
func prepared(st *store.Prepared) *PreparedSnapshot {
	p := &PreparedSnapshot{st: st}
	var ids []string
	st.Scan([]byte(store.PrefixPackage), func(k, _ []byte) bool {
		ids = append(ids, string(k[len(store.PrefixPackage):]))
		return true
	})
	for _, id := range ids {
		prefix := store.BlobPrefix("pkg", id)
		var payload []byte
		if c := lf.DefaultCache.Get(id); c != nil && chunksEqual(st, prefix, c.Payload) {
			// The node uploaded these packages in this process: the
			// cached package has the same bytes, which are not copied.
			payload = c.Payload
		} else {
			st.Scan(prefix, func(_, v []byte) bool { payload = append(payload, v...); return true })
		}
		// As decodedPackage reads a stored package.
		pkg, err := lf.DefaultCache.DecodeStoredPayload(id, payload, lf.ReadOptions{AllowDevLF: true})
		if err == nil && pkg.ID == id {
			p.pkgs = append(p.pkgs, pkg)
		}
	}
	return p
}

// chunksEqual reports whether the blob at prefix (its chunks in key
// order) is want.
func chunksEqual(st *store.Prepared, prefix, want []byte) bool {
	eq := true
	st.Scan(prefix, func(_, v []byte) bool {
		if eq = len(v) <= len(want) && bytes.Equal(v, want[:len(v)]); eq {
			want = want[len(v):]
		}
		return eq
	})
	return eq && len(want) == 0
}

// Reader returns a reader of the snapshot for Options.Restore. An
// in-memory node opened from it is an overlay on the prepared snapshot and
// shares its decoded packages; a durable node (or any other reader) reads
// the plain snapshot.
func (p *PreparedSnapshot) Reader() io.Reader {
	return &preparedReader{Reader: p.st.OverlayReader(), p: p}
}

type preparedReader struct {
	io.Reader // the store's
	p         *PreparedSnapshot
}

// restoreSource returns what the store restores from (for a
// PreparedSnapshot's reader, the store's prepared reader) and the decoded
// packages a node opened from it starts with.
func (o Options) restoreSource() (io.Reader, []*lf.Package) {
	pr, ok := o.Restore.(*preparedReader)
	if !ok {
		return o.Restore, nil
	}
	if !o.InMemory {
		return pr.Reader, nil
	}
	return pr.Reader, pr.p.pkgs
}
