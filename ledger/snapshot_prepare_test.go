package ledger_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"testing"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
)

// TestPrepareSnapshotOfOverlayNode: a node opened in memory from
// EmptySnapshot is a new node (ledger end 0, the participant admin user);
// its PrepareSnapshot opens nodes holding what the nodes opened from
// PrepareSnapshot of its Snapshot stream hold (their snapshots are the
// same bytes), which its later writes do not change; a caller without
// ParticipantAdmin is refused.
func TestPrepareSnapshotOfOverlayNode(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	open := func(p *ledger.PreparedSnapshot) *ledger.Node {
		t.Helper()
		n, err := ledger.Open(ledger.Options{InMemory: true, Restore: p.Reader(), Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { n.Close() })
		return n
	}
	src := open(ledger.EmptySnapshot())
	if end, err := src.LedgerEnd(ctx); err != nil || end != 0 {
		t.Fatalf("a node of EmptySnapshot: ledger end %v, %v; want 0", end, err)
	}
	if _, err := src.GetUser(ctx, identity.DefaultParticipantAdmin, ""); err != nil {
		t.Fatalf("a node of EmptySnapshot has no admin user: %v", err)
	}
	if _, err := src.AllocateParty(ctx, ledger.AllocatePartyRequest{PartyIDHint: "alice"}); err != nil {
		t.Fatal(err)
	}
	if err := src.UploadDAR(ctx, ledger.UploadDARRequest{DAR: realDAR(t, "canton-builtin-admin-workflow-ping.dar")}); err != nil {
		t.Fatal(err)
	}

	plain := ledger.WithPrincipal(ctx, identity.Principal{UserID: "u"})
	if _, err := src.PrepareSnapshot(plain); !errors.Is(err, apierr.PermissionDenied) {
		t.Errorf("PrepareSnapshot without ParticipantAdmin: %v; want PERMISSION_DENIED", err)
	}
	direct, err := src.PrepareSnapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var stream bytes.Buffer
	if err := src.Snapshot(ctx, &stream); err != nil {
		t.Fatal(err)
	}
	viaStream, err := ledger.PrepareSnapshot(stream.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := src.AllocateParty(ctx, ledger.AllocatePartyRequest{PartyIDHint: "bob"}); err != nil {
		t.Fatal(err)
	}
	snapshot := func(n *ledger.Node) []byte {
		t.Helper()
		var b bytes.Buffer
		if err := n.Snapshot(ctx, &b); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	want, got := snapshot(open(viaStream)), snapshot(open(direct))
	if !bytes.Equal(got, want) {
		t.Errorf("a node of the direct PrepareSnapshot differs from one of the snapshot stream's: %d bytes, want %d", len(got), len(want))
	}
	if bytes.Equal(got, snapshot(src)) {
		t.Error("the source node's writes after PrepareSnapshot reached it")
	}
	pkgs, err := open(direct).ListPackages(ctx)
	if err != nil || len(pkgs) < 2 {
		t.Errorf("ListPackages of a node of the prepared snapshot: %v, %v", pkgs, err)
	}
}
